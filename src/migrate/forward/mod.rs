//! The v0.3 -> v1.0 steps: their table (`steps.rs`) and the edit functions, one file per
//! phase. Each function finds the objects it is addressed to with [`super::step::each`],
//! edits them in place, and records every path it changed and every loss in the step
//! context. A step that finds nothing to do records nothing, so applying it twice is the same
//! as applying it once.

pub mod advice;
pub mod card;
pub mod envelope;
pub mod params;
pub mod parts;
pub mod proto_names;
pub mod security;
mod steps;
pub mod unknown;
pub mod values;

pub use steps::FORWARD_STEPS;
