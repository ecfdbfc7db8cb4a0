//! What is drawn over the list and the detail: the help, the filter menu, the what-if editor
//! and the golden review's progress.

use crate::tui::state::whatif::WhatIf;

#[derive(Clone, Debug)]
pub enum Overlay {
    /// The key help, scrolled by this many rows where it does not fit.
    Help {
        scroll: u16,
    },
    Filter {
        cursor: usize,
    },
    WhatIf(Box<WhatIf>),
    Review(ReviewState),
}

/// A golden review in progress: the packets to go through (by source, so a reload between
/// steps cannot confuse them), where we are, and what was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewState {
    pub queue: Vec<crate::corpus::Source>,
    pub position: usize,
    /// Accept was pressed: waiting for y / n.
    pub confirming: bool,
    pub accepted: usize,
    pub rejected: usize,
    pub skipped: usize,
    /// The queue against the list's count of failing packets (in the mode shown), so the
    /// panel can say how the two numbers meet.
    pub tally: ReviewTally,
    /// How many of the queue's first packets have pending goldens (they come first).
    pub pending: usize,
}

/// How a review's queue meets the list's "N failing": `failing` of the queue fail in the mode
/// shown (as the group headers count), `other` are in the queue for another reason (no golden,
/// or drift in the other mode), `not_golden` fail in that mode for reasons a golden does not
/// settle (audit or profile findings, unreadable input).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewTally {
    pub failing: usize,
    pub other: usize,
    pub not_golden: usize,
    /// Failing packets left out because they were rejected earlier this session.
    pub rejected_before: usize,
}
