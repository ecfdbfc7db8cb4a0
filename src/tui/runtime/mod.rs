//! What the state cannot do itself: the event loop, the loader and read threads, the terminal
//! guard and the editor, and the headless driver that runs the same effects and frames on one
//! thread for tests, `render` and the fuzz target.

pub mod accept;
pub mod drive;
pub mod editor;
pub mod event_loop;
pub mod frame;
pub mod list_build;
pub mod loader;
pub(crate) mod memory;
pub(crate) mod pairing;
pub mod perform;
pub(crate) mod priority;
pub mod reader;
pub mod render;
pub(crate) mod terminal;
