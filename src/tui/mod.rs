//! The interactive inspector, in layers as the crate is: a file imports only from its own
//! layer (without a cycle) or from the layers below it, never from one above.
//!
//! | layer | module | what it holds |
//! |---|---|---|
//! | 1 | `state` | plain data: `App`, the per-tab states, the list's rows, geometry, selection helpers, the reads asked for |
//! | 2 | `update`, `views` | `update`: the state changes (effects returned); `views`: each screen drawn from state |
//! | 3 | `runtime` | the event loop, the loader and read threads, the terminal guard, the one `perform` and the one frame, the headless driver |
//! | 4 | `compare` | the Compare screen (`--compare`): its own state, keys and drawing on the same layers below |
//!
//! Elm-style: `App` is plain data, every input becomes an `Action`, `update` changes the state
//! and returns effects, `view` draws it (keeping what it measures in a `views::ViewState`).

pub mod compare;
pub mod runtime;
pub mod state;
pub mod update;
pub mod views;

pub use runtime::event_loop::run;
