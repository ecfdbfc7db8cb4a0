//! Evaluating packets. A `PacketSummary` is what a check concludes about a packet's
//! evaluation: kind, per-mode result, digests, named handoff state and matched rows, in a few
//! hundred bytes (the inspector keeps less per packet: `tui::listed`).
//! A `PacketDetail` is everything a view shows for one packet, derived again on demand from
//! its bytes (converting one packet takes microseconds, holding every tree would not fit).
//!
//! By job: the summary types and options (`summary.rs`), parsing, the reasons bytes are not
//! JSON and the kind of a packet (`reading.rs`), evaluating one packet into its summary
//! (`summarize.rs`), the one migration reading every face uses (`migration.rs`), and the
//! detail a view shows (`detail.rs`).

mod detail;
mod migration;
mod reading;
mod summarize;
mod summary;

pub use detail::{detail, detail_with_bundle, NoTree, PacketDetail};
pub use migration::{migrated_digest, migration_hints, migration_owned, migration_reading};
pub(crate) use reading::not_json_reason_of;
pub use reading::{
    classify_packet, converted_kind, kind_after_conversion, not_json_reason, take_tree,
};
pub use summarize::{summarize, summarize_converting, summarize_keeping, unaudited_bundle_event};
pub use summary::{DigestSet, EvaluateOptions, ModeResult, ModeSummary, PacketSummary};
