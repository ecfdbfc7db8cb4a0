//! The only code that changes the inspector's state: `update(&mut App, Action) -> Vec<Effect>`
//! and the state changes it is made of (list building, search, review). What touches the
//! outside world is returned as an effect for the runtime to perform.

pub mod actions;
pub mod effect;
pub mod list_job;
mod navigation;
pub mod review;
pub mod rows;
pub mod search;

pub use actions::update;
pub use effect::{Action, Effect, Job};
