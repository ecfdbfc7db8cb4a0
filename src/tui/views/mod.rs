//! Drawing the state, as ratatui widgets: `Screen` (`screen.rs`), a `StatefulWidget` over the
//! `App` with the `ViewState` as its state, composes the frame from the list, each tab's view
//! (a `StatefulWidget` of its own) and the overlays; the views read the state and never change
//! it (what they measure goes in the `ViewState`).

mod bundle;
mod conversion;
mod digests;
mod findings;
mod formats;
mod golden;
mod handoff;
pub mod hanging;
pub mod hints;
mod list;
mod migrate;
mod overlays;
mod profile;
mod raw;
mod rules;
pub mod screen;
pub mod scroll;
pub mod svg;
pub mod tabbar;
pub mod text;
pub mod theme;
pub mod view_state;
pub mod window;

pub use screen::Screen;
pub use view_state::ViewState;
