//! The inspector's state: plain data and what reads it (selection helpers, geometry, the
//! progress lines' text). Nothing here changes the state on its own behalf, draws or reads a
//! file: `update` changes it, the views draw it, the runtime answers the reads it asks for.

pub mod app;
pub mod coverage;
pub mod filter;
pub mod geometry;
pub mod keymap;
pub mod list;
pub mod list_rows;
pub mod listed;
pub mod overlay;
pub mod packets;
pub mod progress;
pub mod reads;
pub mod recheck;
pub mod review;
pub mod search;
pub mod selected;
pub mod selection;
pub mod status;
pub mod swap;
pub mod tabs;
pub mod whatif;
