//! The TUI state: plain data, `App` holding one struct for the list (`list`), one per tab
//! (`tabs`), the search (`search`) and the overlay (`overlay`). `update` changes it; views read
//! it (and keep what they measure in their own `views::ViewState`). Nothing here reads a file:
//! what the state needs from disk it asks for as a `reads::Read`, and the answer comes back
//! through `update`. What is selected is read in `selected`, coverage counted in `coverage`,
//! replaced packets swapped in by `swap`; the list's rows are built in `list_rows`.

pub use crate::tui::state::filter::{filter_choices, Filter, FilterChoice};
pub use crate::tui::state::list::{ListBuild, ListState, ListWhy};
pub use crate::tui::state::list_rows::{group_key, group_label, GroupKey, ListRow};
pub use crate::tui::state::listed::ListedPacket;
pub use crate::tui::state::overlay::{Overlay, ReviewState, ReviewTally};
pub use crate::tui::state::search::{SearchResults, SearchRun, SearchState, SearchThen};
pub use crate::tui::state::tabs::{
    DiffLayout, DigestsState, Focus, HandoffState, MigrateState, RulesState, Tab, TabStates,
};

use crate::a2a::Mode;
use crate::corpus::{CheckOptions, LoadError};
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::list_rows::{ListRequest, LoadedBundle};
use crate::tui::state::packets::{Packets, Replacement};
use crate::tui::state::reads::{DetailAnswer, DetailRequest, Read};
use crate::tui::state::status::Status;
use std::path::PathBuf;
use std::sync::Arc;

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
    /// The message a key last cleared, shown whole at the top of the help (the status bar cuts
    /// a long one).
    pub last_message: Option<String>,
    /// The re-check the message speaks of, while it runs.
    pub recheck: Option<crate::tui::state::recheck::Recheck>,
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
    pub bundles: Vec<LoadedBundle>,
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
            last_message: None,
            recheck: None,
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
            appending: None,
        }
    }

    /// The row of the group labelled `label`.
    pub(crate) fn group_row(&self, label: &str) -> Option<usize> {
        self.list
            .rows
            .iter()
            .position(|row| matches!(row, ListRow::Group(group) if group.label == label))
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
