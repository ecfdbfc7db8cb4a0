//! The v1.0 -> v0.3 steps: their table (`steps.rs`) and the edit functions (target: the v0.3
//! JSON-RPC dialect), so a team can serve v0.3 clients during the transition. Where v1.0
//! says more than v0.3 can hold (`tenant`, `deviceCode`, non-object data, a page token), the
//! step names the loss; where v0.3 needs what v1.0 dropped (`final`, the card
//! `protocolVersion`), it asks.

pub mod card;
pub mod envelope;
pub mod params;
pub mod parts;
mod steps;
pub mod values;

pub use steps::REVERSE_STEPS;
