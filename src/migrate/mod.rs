//! A2A v0.3 <-> v1.0 migration, step by step (spec: `a2a-v03-to-v10.md`).
//!
//! The migration is an ordered list of small named steps declared as static data
//! ([`FORWARD_STEPS`], [`REVERSE_STEPS`]): each [`StepDef`] has an id, a title, the paths it
//! rewrites, the spec fact behind it, and flags (lossy, advisory, and the [`ChoiceDef`] it
//! asks with its default). The same table feeds the trace, `--help`, `--list-steps` and the
//! list in docs/migrate.md.
//!
//! # Detecting
//! [`detect()`] names the version (v0.3, v1.0, v1.0 release candidate, or indeterminate), the
//! dialect (v0.3 JSON-RPC or HTTP+JSON, v1.0 ProtoJSON) and the object type, with reasons
//! that each name a JSON path. It accepts v0.3 examples that omit `kind`, `role` or
//! `messageId`, and it does not claim the A2A adapter's raw packets, canonical payloads or
//! evidence events.
//!
//! # The stepper API (what the TUI's Migrate tab is a view over)
//! ```
//! use handoff_inspector::migrate::{Choices, Direction, Migration};
//! let input = serde_json::json!({"kind": "task", "id": "t", "contextId": "c",
//!     "status": {"state": "completed"}});
//! let migration = Migration::run(&input, Direction::Forward, &Choices::none()).unwrap();
//! // The detected object:
//! assert_eq!(migration.detection.object.label(), "Task");
//! // The applicable steps, in order, each with the paths it changed and the digests of the
//! // document before and after it:
//! let ids: Vec<&str> = migration.steps.iter().map(|run| run.step.id).collect();
//! let at = ids.iter().position(|id| *id == "taskstate-enum").unwrap();
//! let run = &migration.steps[at];
//! let (_paths, _digests) = (&run.changes, (run.before_digest(), run.after_digest()));
//! // A per-step line diff of canonical pretty JSON (hunks with 2 lines of context), made by
//! // replaying the steps: the per-step documents are not kept.
//! let hunks = migration.step_diff(at, 2);
//! assert!(!hunks.is_empty());
//! // The cumulative result with some steps switched off, and its effect on the result:
//! let without = migration.result_without(&["taskstate-enum"]);
//! assert_eq!(without["status"]["state"], "completed");
//! let effect = migration.effect_of_switching_off(&["taskstate-enum"], 2);
//! assert!(!effect.is_empty());
//! ```
//! [`diff::full`] gives the whole document with every line marked, for a scrolling view.
//! A step that is switched off never hides objects from later steps: the walker finds every
//! object by position in both the v0.3 and the v1.0 shape. Flags for marking the list are on
//! the step (`run.step.lossy`, `run.step.advisory`) and on the run (`run.choice`: the value
//! taken, whether it was the default, and the `--choice` that overrides it).
//!
//! # Checking
//! The result is checked against the target version ([`check::V10_CHECKS`],
//! [`check::V03_CHECKS`]); failures are findings with paths. Every field a step drops or
//! rewrites with a loss is named in a warning; every other change is in the step's paths.

pub mod base64;
pub mod check;
pub mod choice_defs;
pub mod choices;
pub mod detect;
pub mod diff;
pub mod edit;
mod forward;
pub mod help;
pub mod hints;
mod input;
pub mod members;
pub mod model;
pub mod proto_names;
mod report;
mod reverse;
mod shape;
mod signals;
pub mod step;
#[cfg(test)]
mod step_tests;
mod stepper;
pub mod timestamp;
mod walk;

pub use choices::{ChoiceDef, ChoiceTaken, Choices};
pub use detect::{
    adapter_artifact_in_text, detect, detect_explained, detect_with, not_an_object, Detection,
    NotA2a,
};
pub use diff::{DiffLine, LineTag};
pub use forward::FORWARD_STEPS;
pub use hints::{HintSource, Hints, VersionHint};
pub use input::MigrationInput;
pub use model::{Dialect, ObjectKind, Version};
pub use report::write_report;
pub use reverse::REVERSE_STEPS;
pub use step::{Direction, PathChange, Phase, StepDef};
pub use stepper::{step_by_id, steps_for, Judgement, Migration, StepRun};

/// The choices the steps of `direction` ask, each once, in step order.
pub fn choices_for(direction: Direction) -> Vec<&'static ChoiceDef> {
    let mut declared: Vec<&'static ChoiceDef> = Vec::new();
    for step in steps_for(direction) {
        if let Some(choice) = step.choice {
            if !declared.iter().any(|known| known.key == choice.key) {
                declared.push(choice);
            }
        }
    }
    declared
}
