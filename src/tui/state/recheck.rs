//! The status message that speaks of files being checked again ("changed on disk: ...;
//! re-checking N packet file(s)"): what it waits for, so that it gives way to its result when
//! the files are checked and spliced into the list, instead of staying until a key.

/// A re-check the status bar speaks of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recheck {
    /// Files asked to be checked again whose answer has not come back.
    pub waiting: usize,
    /// The message as it was set: it is replaced only while it is still the one shown (a key
    /// or another message took its place otherwise).
    pub shown: String,
    /// What it becomes when the re-check lands.
    pub done: String,
}
