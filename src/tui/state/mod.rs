//! The inspector's state: plain data and what reads it (selection helpers, geometry, the
//! progress lines' text). Nothing here changes the state on its own behalf, draws or reads a
//! file: `update` changes it, the views draw it, the runtime answers the reads it asks for.

pub mod app;
pub mod filter;
pub mod geometry;
pub mod keymap;
pub mod list_rows;
pub mod listed;
pub mod packets;
pub mod progress;
pub mod reads;
pub mod review;
pub mod selection;
pub mod status;
pub mod whatif;
