//! The interactive inspector: screens and sizes as insta snapshots (TestBackend), the Bundle
//! view, random key sequences through the real update and drawing, the committed
//! screenshots, and the real binary in tmux.

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod bundle;
mod compare;
mod drive;
mod screens;
mod screenshots;
mod sizes;
mod tmux;
