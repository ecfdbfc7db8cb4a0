//! Planning a bless: merging what a run recorded into a directory's existing manifest. The
//! plan says every change before anything is written, and never drops the entry of a packet
//! that still exists; entries of packets that are gone are dropped only when asked (`prune`).
//!
//! By job: the streaming merge (`merge.rs`), the changes it reports field by field
//! (`change.rs`) in the words of `describe.rs`, the one writer of a merge that `bless` and
//! the inspector's accept share (`write.rs`), and, for tests, the plan held in memory
//! (`plan.rs`).

mod change;
mod describe;
mod merge;
#[cfg(test)]
mod plan;
mod write;

pub use change::Change;
pub use describe::describe_options;
pub use merge::{merge_bless, BlessCounts, BlessSink, DiscardSink, Existing, MergeError};
#[cfg(test)]
pub use plan::{plan_bless, BlessPlan};
pub use write::{remove_pending, write_bless, BlessWriteError, BlessWritten, MergeSpec, Writing};

#[cfg(test)]
mod tests;
