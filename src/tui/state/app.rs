//! The TUI state: plain data, one struct for the list and one per tab. `update` changes it;
//! views read it (and keep what they measure in their own `views::ViewState`). Nothing here
//! reads a file: what the state needs from disk it asks for as a `reads::Read`, and the answer
//! comes back through `update`. The list's rows (groups, folding, selection moves) are built
//! in `list_rows`.

pub use crate::tui::state::filter::{filter_choices, Filter, FilterChoice};
pub use crate::tui::state::list_rows::{group_key, group_label, GroupKey, ListRow};

use crate::a2a::Mode;
use crate::corpus::{CheckOptions, LoadError, PacketCheck, PacketDetail};
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::list_rows::Spliced;
use crate::tui::state::list_rows::{ListRequest, LoadedBundle};
pub use crate::tui::state::listed::ListedPacket;
use crate::tui::state::packets::{Packets, Replacement};
use crate::tui::state::reads::{DetailAnswer, DetailRequest, Read};
use crate::tui::state::status::Status;
use crate::tui::state::whatif::WhatIf;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Raw,
    Conversion,
    Handoff,
    Digests,
    Findings,
    Rules,
    Migrate,
    Formats,
}

impl Tab {
    pub const ALL: [Tab; 8] = [
        Tab::Raw,
        Tab::Conversion,
        Tab::Handoff,
        Tab::Digests,
        Tab::Findings,
        Tab::Rules,
        Tab::Migrate,
        Tab::Formats,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Raw => "Raw",
            Tab::Conversion => "Conversion",
            Tab::Handoff => "Handoff",
            Tab::Digests => "Digests",
            Tab::Findings => "Findings",
            Tab::Rules => "Rules",
            Tab::Migrate => "Migrate",
            Tab::Formats => "Formats",
        }
    }

    /// The label used when the full titles do not fit the tab bar.
    pub fn short_title(self) -> &'static str {
        match self {
            Tab::Raw => "Raw",
            Tab::Conversion => "Conv",
            Tab::Handoff => "Hand",
            Tab::Digests => "Dig",
            Tab::Findings => "Find",
            Tab::Rules => "Rules",
            Tab::Migrate => "Migr",
            Tab::Formats => "Fmt",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|tab| *tab == self).unwrap_or(0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

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

/// The coverage matrix cells (rule row, mode column) a packet counts in.
pub(crate) fn coverage_cells(summary: &ListedPacket) -> impl Iterator<Item = (usize, usize)> + '_ {
    Mode::BOTH
        .into_iter()
        .enumerate()
        .filter_map(|(column, mode)| Some((column, summary.mode(mode)?)))
        .flat_map(|(column, mode_summary)| {
            mode_summary.rows.ids().filter_map(move |id| {
                let row = COVERAGE_ROW_IDS.iter().position(|row| *row == id)?;
                Some((row, column))
            })
        })
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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadProgress {
    /// Packets checked so far.
    pub packets: usize,
    pub done: bool,
    /// The load is a reload (`r`): the status bar says so until it is done.
    pub reloading: bool,
}

/// The detail of the selected packet: asked for by generation, answered by the reader
/// (`None` while the read is under way).
#[derive(Clone, Debug)]
pub struct SelectedDetail {
    pub packet: usize,
    pub generation: u64,
    pub read: Option<DetailAnswer>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffLayout {
    Unified,
    SideBySide,
}

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
    /// How many of the packets the rows were built over (packets loaded since are not yet
    /// listed).
    pub built_over: usize,
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

/// What the state no longer holds, to be freed elsewhere: a million packets or rows take tens
/// of milliseconds to free.
#[derive(Clone, Debug)]
pub enum Discarded {
    Packets(Packets),
    Rows(Vec<ListRow>, Vec<usize>),
    Spliced(
        Vec<Arc<Replacement>>,
        Vec<crate::tui::state::packets::Splice>,
    ),
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

/// The Handoff tab: the selected field line (what `y` copies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandoffState {
    pub cursor: usize,
}

impl HandoffState {
    /// How many field lines can be selected.
    pub const LINES: usize = 4;
}

/// The Digests tab: the selected digest line and how a payload diff is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DigestsState {
    pub cursor: usize,
    pub layout: DiffLayout,
}

impl DigestsState {
    /// How many digest lines can be selected.
    pub const LINES: usize = 3;
}

impl Default for DigestsState {
    fn default() -> Self {
        DigestsState {
            cursor: 0,
            layout: DiffLayout::Unified,
        }
    }
}

/// The Rules tab: the selected cell of the coverage matrix (row, mode column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RulesState {
    pub cursor: (usize, usize),
}

/// The Migrate tab: the selected step and the steps switched off (for the selected packet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrateState {
    pub cursor: usize,
    pub off: Vec<&'static str>,
}

/// The detail pane's state: its scroll (shared by the tabs that scroll, reset on a tab
/// switch) and each tab's own.
#[derive(Clone, Debug, Default)]
pub struct TabStates {
    pub scroll: u16,
    pub handoff: HandoffState,
    pub digests: DigestsState,
    pub rules: RulesState,
    pub migrate: MigrateState,
}

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

pub struct App {
    pub roots: Vec<PathBuf>,
    pub options: CheckOptions,
    /// Every packet with its check verdict (the same as `check` gives), in walk order.
    pub packets: Packets,
    pub load_errors: Vec<LoadError>,
    /// The pending goldens beside the loaded files (`check --write-pending`'s): the review
    /// opens their packets first.
    pub pending: Vec<crate::golden::PendingGoldens>,
    pub progress: LoadProgress,
    pub list: ListState,
    pub focus: Focus,
    pub tab: Tab,
    pub mode: Mode,
    pub detail: Option<SelectedDetail>,
    pub tabs: TabStates,
    pub search: SearchState,
    pub overlay: Option<Overlay>,
    pub coverage: Vec<[u32; 2]>,
    pub message: Option<String>,
    pub color: bool,
    pub should_quit: bool,
    /// Packets whose golden the reviewer chose to keep; not offered again this session.
    pub review_rejected: std::collections::HashSet<crate::corpus::Source>,
    /// The packet to select again once a reload brings it back.
    pub reselect: Option<crate::corpus::Source>,
    /// The generation of the load whose results are shown.
    pub load_generation: u64,
    /// Changes whenever packets are replaced or forgotten (not when more arrive): what the
    /// reader's caches and a search's results belong to.
    pub packets_epoch: u64,
    /// The last drawn size, for paging and mouse hit-testing.
    pub size: (u16, u16),
    /// Every loaded bundle's verification report, by path (kept by the list build).
    pub bundles: Vec<crate::tui::state::list_rows::LoadedBundle>,
    /// Reads asked for since `update` last returned its effects.
    reads: Vec<Read>,
    /// What the state let go of since then (freed by the runtime off the UI thread).
    discarded: Vec<Discarded>,
    /// The generation of the last detail read asked for.
    detail_generation: u64,
}

impl App {
    pub fn new(roots: Vec<PathBuf>, options: CheckOptions, color: bool) -> App {
        App {
            roots,
            options,
            packets: Packets::default(),
            load_errors: Vec::new(),
            pending: Vec::new(),
            progress: LoadProgress::default(),
            list: ListState {
                area_height: 20,
                ..Default::default()
            },
            focus: Focus::List,
            tab: Tab::Handoff,
            mode: Mode::Strict,
            detail: None,
            tabs: TabStates::default(),
            search: SearchState::default(),
            overlay: None,
            coverage: vec![[0, 0]; COVERAGE_ROW_IDS.len()],
            message: None,
            color,
            should_quit: false,
            review_rejected: Default::default(),
            reselect: None,
            load_generation: 0,
            packets_epoch: 0,
            size: (120, 40),
            bundles: Vec::new(),
            reads: Vec::new(),
            discarded: Vec::new(),
            detail_generation: 0,
        }
    }

    pub fn status(&self, index: usize) -> Status {
        self.packets[index].status_in(self.mode)
    }

    /// The selected packet's index. `rows` may lag behind `packets` while they are being
    /// replaced, so an index past the end is no selection rather than a crash.
    pub fn selected_packet(&self) -> Option<usize> {
        match self.list.rows.get(self.list.selected) {
            Some(ListRow::Packet(index)) if *index < self.packets.len() => Some(*index),
            _ => None,
        }
    }

    pub(crate) fn selected_source(&self) -> Option<crate::corpus::Source> {
        self.selected_summary().map(|packet| packet.source.clone())
    }

    /// The selected packet's list row (source, kind, status...).
    pub fn selected_summary(&self) -> Option<&ListedPacket> {
        self.selected_packet()
            .and_then(|index| self.packets.get(index))
    }

    /// The selected packet's full check (findings, digests, object golden): checked again
    /// with its detail (`None` while it reads).
    pub fn selected_check(&self) -> Option<&PacketCheck> {
        self.detail_read().and_then(|read| read.check.as_deref())
    }

    /// What the reader answered for the selected packet (`None` while it reads).
    pub fn detail_read(&self) -> Option<&DetailAnswer> {
        match &self.detail {
            Some(SelectedDetail {
                packet,
                read: Some(read),
                ..
            }) if Some(*packet) == self.selected_packet() => Some(read),
            _ => None,
        }
    }

    pub fn selected_detail(&self) -> Option<&PacketDetail> {
        self.detail_read()
            .and_then(|read| read.result.as_ref().ok())
    }

    /// Asks for the selected packet's detail when the selection changed (the reader answers
    /// with `Action::Detail`).
    pub fn refresh_detail(&mut self) {
        let Some(index) = self.selected_packet() else {
            self.detail = None;
            return;
        };
        if self
            .detail
            .as_ref()
            .is_some_and(|detail| detail.packet == index)
        {
            return;
        }
        self.tabs.scroll = 0;
        self.tabs.migrate = MigrateState::default();
        self.detail_generation += 1;
        let request = self.detail_request(index, self.detail_generation);
        self.reads.push(Read::Detail(request));
        self.detail = Some(SelectedDetail {
            packet: index,
            generation: self.detail_generation,
            read: None,
        });
    }

    /// The read that gives packet `index`'s detail (its bytes, its check made again...).
    pub(crate) fn detail_request(&self, index: usize, generation: u64) -> DetailRequest {
        let packet = &self.packets[index];
        // A bundle's event is checked with its bundle's report, as the load checked it.
        let in_bundle = packet
            .source
            .is_bundle_event()
            .then(|| self.bundle_report(&packet.source.path).cloned())
            .flatten();
        DetailRequest {
            generation,
            packet: index,
            source: packet.source.clone(),
            offset: packet.offset,
            bundle: packet.bundle.clone(),
            in_bundle,
            checker: Some(Arc::clone(&packet.checker)),
            epoch: self.packets_epoch,
        }
    }

    /// Takes the reader's answer if it is for the detail last asked for.
    pub fn receive_detail(&mut self, answer: DetailAnswer) {
        if let Some(detail) = &mut self.detail {
            if detail.generation == answer.generation && detail.packet == answer.packet {
                detail.read = Some(answer);
            }
        }
    }

    /// Asks for a read (returned as an effect by `update`).
    pub(crate) fn request(&mut self, read: Read) {
        self.reads.push(read);
    }

    /// The reads asked for since the last call.
    pub(crate) fn take_reads(&mut self) -> Vec<Read> {
        std::mem::take(&mut self.reads)
    }

    /// Hands over something big the state lets go of, to be freed off the UI thread
    /// (`update` returns it as an effect).
    pub(crate) fn discard(&mut self, discarded: Discarded) {
        self.discarded.push(discarded);
    }

    pub(crate) fn take_discarded(&mut self) -> Vec<Discarded> {
        std::mem::take(&mut self.discarded)
    }

    /// The expected payload paired with the selected packet in `mode`.
    pub fn expected_payload(&self, mode: Mode) -> Option<&Result<serde_json::Value, String>> {
        let read = self.detail_read()?;
        read.expected[Mode::BOTH.iter().position(|m| *m == mode)?].as_ref()
    }

    /// Swaps in the packets a list build spliced the replacements into (the old ones are
    /// freed off the UI thread); returns where the selected packet went, if it is still there.
    pub(crate) fn swap_in(&mut self, spliced: Spliced) -> Option<usize> {
        let Spliced {
            mut packets,
            over,
            splices,
            replaced,
            coverage,
        } = spliced;
        let keep = self.selected_packet().and_then(|old| {
            let source = &self.packets[old].source;
            splices
                .iter()
                .zip(&replaced)
                .try_fold(old, |index, (splice, replacement)| {
                    // A packet of a replaced file: its line in the same place first (a
                    // million-line file edited keeps most lines where they were), else
                    // looked for.
                    let place = match splice.moved(index) {
                        Ok(new) => return Some(new),
                        Err(place) => place,
                    };
                    let checks = &replacement.checks;
                    let at = match checks.get(place) {
                        Some(packet) if packet.source == *source => place,
                        _ => checks.iter().position(|packet| packet.source == *source)?,
                    };
                    Some(splice.at + at)
                })
        });
        // Packets loaded while the build ran follow (their coverage is counted already).
        packets.extend((over..self.packets.len()).map(|index| self.packets[index].clone()));
        let old = std::mem::replace(&mut self.packets, packets);
        self.discard(Discarded::Packets(old));
        for (cell, delta) in self.coverage.iter_mut().zip(coverage) {
            for (count, delta) in cell.iter_mut().zip(delta) {
                *count = (i64::from(*count) + delta).max(0) as u32;
            }
        }
        for replacement in &replaced {
            self.load_errors
                .retain(|error| *error.source.path != *replacement.path);
            self.load_errors.extend(replacement.errors.iter().cloned());
        }
        self.list
            .replacing
            .retain(|pending| !replaced.iter().any(|done| Arc::ptr_eq(done, pending)));
        // The last hold on a million re-checked packets (the new packets are copies) and on
        // the removed indices: freed elsewhere too.
        self.discard(Discarded::Spliced(replaced, splices));
        // Indices changed: what was read or searched by index belongs to the old packets.
        self.packets_epoch += 1;
        self.detail = None;
        keep
    }

    /// The rows name packets by index, which are about to change: no rows until the list is
    /// built again.
    pub(crate) fn forget_rows(&mut self) {
        self.list.rows.clear();
        self.list.listed.clear();
        self.list.visible_packets = 0;
        self.list.built_over = 0;
        self.list.selected = 0;
        self.packets_epoch += 1;
        self.detail = None;
    }

    pub(crate) fn count_coverage(&mut self, summary: &ListedPacket, delta: i64) {
        for (row, column) in coverage_cells(summary) {
            let cell = &mut self.coverage[row][column];
            *cell = (i64::from(*cell) + delta).max(0) as u32;
        }
    }

    /// Keeps the detail scroll inside the content the last frame drew (`max`: how far it
    /// could scroll, as the view measured it; `None`: the tab does not scroll).
    pub fn clamp_detail_scroll(&mut self, max: Option<u16>) {
        if let Some(max) = max {
            self.tabs.scroll = self.tabs.scroll.min(max);
        }
    }

    /// Takes the list geometry from the screen size and keeps the selection in view.
    pub fn sync_list_geometry(&mut self) {
        let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let rows = crate::tui::state::geometry::list_rows(screen);
        let list = &mut self.list;
        list.area_top = rows.y;
        list.area_height = rows.height.max(1);
        let height = usize::from(list.area_height);
        // Never scrolled further than the rows need: after a filter shrinks the list, its
        // group header and first matches come back into view.
        list.offset = list.offset.min(list.rows.len().saturating_sub(height));
        if list.selected < list.offset {
            // Show the group header above the first packet when scrolling to the top (if the
            // list is tall enough to show both).
            list.offset = if list.selected < height.min(2) {
                0
            } else {
                list.selected
            };
        } else if list.selected >= list.offset + height {
            list.offset = list.selected + 1 - height;
        }
    }

    /// The packet files listed from the same directory as `source` (what a change to that
    /// directory's golden manifest affects).
    pub fn files_in_dir_of(&self, source: &crate::corpus::Source) -> Vec<PathBuf> {
        let dir = source.path.parent();
        let mut files: Vec<PathBuf> = self
            .packets
            .iter()
            .map(|packet| &packet.source.path)
            .filter(|path| path.parent() == dir)
            .map(|path| path.to_path_buf())
            .collect();
        files.dedup();
        files
    }

    /// How many packets pass the filter (folded ones included).
    pub fn packet_count(&self) -> usize {
        self.list.listed.len()
    }

    /// What a build of the list for `filter` in the current mode and folds starts from.
    pub(crate) fn list_request(&self, generation: u64, filter: Filter) -> ListRequest {
        ListRequest {
            generation,
            packets: self.packets.clone(),
            filter,
            mode: self.mode,
            folded: self.list.folded.clone(),
            reselect: self.reselect.clone(),
            replacing: self.list.replacing.clone(),
        }
    }

    /// The bundle at `path`, when one is loaded.
    pub fn loaded_bundle(&self, path: &Path) -> Option<&LoadedBundle> {
        self.bundles.iter().find(|bundle| *bundle.path == *path)
    }

    /// The verification report of the bundle at `path`, when one is loaded.
    pub fn bundle_report(&self, path: &Path) -> Option<&Arc<crate::bundle::BundleReport>> {
        self.loaded_bundle(path).map(|bundle| &bundle.report)
    }

    /// The bundle the selected packet comes from (its own packet or an event).
    pub fn selected_bundle(&self) -> Option<&LoadedBundle> {
        let source = &self.selected_summary()?.source;
        if !crate::bundle::is_bundle_path(&source.path) {
            return None;
        }
        self.loaded_bundle(&source.path)
    }

    /// The report of the bundle the selected packet comes from (its own packet or an event).
    pub fn selected_bundle_report(&self) -> Option<&Arc<crate::bundle::BundleReport>> {
        self.selected_bundle().map(|bundle| &bundle.report)
    }

    /// The label of the selected row's group when a folded group itself is selected.
    pub fn selected_group_label(&self) -> Option<String> {
        match self.list.rows.get(self.list.selected) {
            Some(ListRow::Group {
                label,
                folded: true,
                ..
            }) => Some(label.clone()),
            _ => None,
        }
    }

    /// The row of the group labelled `label`.
    pub(crate) fn group_row(&self, label: &str) -> Option<usize> {
        self.list
            .rows
            .iter()
            .position(|row| matches!(row, ListRow::Group { label: group, .. } if group == label))
    }

    /// The nearest selectable row at or after (`forward`) / before `start`.
    pub fn first_packet_row_from(&self, start: usize, forward: bool) -> Option<usize> {
        let is_packet = |row: usize| self.list.rows.get(row).is_some_and(ListRow::is_selectable);
        if forward {
            (start..self.list.rows.len())
                .find(|row| is_packet(*row))
                .or_else(|| (0..start).rev().find(|row| is_packet(*row)))
        } else {
            (0..=start.min(self.list.rows.len().saturating_sub(1)))
                .rev()
                .find(|row| is_packet(*row))
                .or_else(|| (start..self.list.rows.len()).find(|row| is_packet(*row)))
        }
    }
}
