//! The packet list's state: its rows, the selection, the scroll, and the build under way.

use crate::a2a::Mode;
use crate::tui::state::filter::Filter;
use crate::tui::state::list_rows::{GroupKey, ListRow};
use crate::tui::state::packets::Replacement;
use std::sync::Arc;

/// The packet list's state: its rows, the selection and what passes the filter.
#[derive(Clone, Debug, Default)]
pub struct ListState {
    pub rows: Vec<ListRow>,
    /// How many of `rows` are packets (kept by the list build and folding).
    pub visible_packets: usize,
    /// Index into `rows`; always a selectable row (packet or folded group) when there is one.
    pub selected: usize,
    /// Every packet that passes the filter, in list order, folded groups included (what
    /// search and review go through).
    pub listed: Vec<usize>,
    /// Labels of the folded groups.
    pub folded: std::collections::HashSet<String>,
    /// The first row on screen.
    pub offset: usize,
    /// Where the rows were last drawn, for paging and mouse hit-testing.
    pub area_top: u16,
    pub area_height: u16,
    /// The filter the rows were built for.
    pub filter: Filter,
    /// The mode they were built in (what a status filter listed).
    pub built_mode: Mode,
    /// How many of the packets the rows were built over (packets loaded since are not yet
    /// listed).
    pub built_over: usize,
    /// The groups' keys in row order, where packets loaded since go (see `rows::append_list`).
    pub group_keys: Vec<GroupKey>,
    /// The list build under way, if any (see `list_job`).
    pub building: Option<ListBuild>,
    /// Files checked again whose packets are not swapped in yet: every build started carries
    /// them until one lands.
    pub replacing: Vec<Arc<Replacement>>,
    pub generation: u64,
}

/// A list build under way (see `list_rows::build_list`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListBuild {
    pub generation: u64,
    /// Packets it goes through, and how many it went through so far.
    pub total: usize,
    pub scanned: usize,
    /// The filter it lists.
    pub filter: Filter,
    pub why: ListWhy,
    /// What the status bar says when it lands.
    pub done: Option<String>,
}

/// Why the list is built again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListWhy {
    /// A filter was chosen or cleared: a progress line, and Esc cancels.
    Filter,
    /// The mode changed under a status filter: a progress line (the rows must follow the mode).
    Mode,
    /// Packets arrived: the load's own progress shows.
    Load,
    /// Files changed on disk were checked again: their packets are spliced into the list.
    Replace,
}
