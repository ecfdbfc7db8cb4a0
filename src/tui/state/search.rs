//! A search's state: the prompt, the query, the scan under way and its matches.

use crate::a2a::Mode;
use crate::tui::state::filter::Filter;

/// A search: the prompt being typed, the query searched, the running scan and its results.
#[derive(Clone, Debug, Default)]
pub struct SearchState {
    /// The `/` prompt while it is open.
    pub input: Option<String>,
    /// The last query searched (what n/N look for).
    pub query: Option<String>,
    /// The scan under way, if any.
    pub running: Option<SearchRun>,
    /// The last finished scan's matches.
    pub results: Option<SearchResults>,
    pub generation: u64,
}

/// A scan under way (see `reads::Reader::search`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRun {
    pub generation: u64,
    pub total: usize,
    pub scanned: usize,
    pub matches: usize,
    /// Select the first match when it is found (Enter), or move from the selection (n/N:
    /// `Some(forward)`) once the scan is done.
    pub then: SearchThen,
    /// Whether the first match was already selected.
    pub jumped: bool,
    /// The packets it scans (a reload replaces them, and their indices with them).
    pub packets_epoch: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchThen {
    /// Select the first match at or after the selection as soon as it is found.
    SelectFirst,
    /// Move to the next (true) or previous match once the scan is done.
    Step(bool),
}

/// Every listed packet whose name or text contains the query, as the scan found them: valid
/// while the packets and the filter are those it scanned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResults {
    /// Packet indices, ascending.
    pub matches: Vec<usize>,
    pub packets_epoch: u64,
    pub packets: usize,
    pub filter: Filter,
    /// The mode at the time (a status filter lists other packets in the other mode).
    pub mode: Mode,
}
