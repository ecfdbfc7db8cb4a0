//! The TUI state: plain data. `update` changes it; views only read it. The list's rows
//! (groups, folding, selection moves) are built in `list_rows`.

pub use super::list_rows::{group_key, group_label, GroupKey, ListRow};

use super::status::{status_in, Status};
use super::whatif::WhatIf;
use crate::a2a::Mode;
use crate::corpus::{
    detail_with_bundle, reread_packet_in, CheckOptions, LoadError, PacketCheck, PacketDetail,
    PacketKind, PacketSummary, DEFAULT_MAX_FILE_BYTES,
};
use crate::freeze::COVERAGE_ROW_IDS;
use std::path::{Path, PathBuf};
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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub status: Option<Status>,
    pub kind: Option<PacketKind>,
    /// A rule row and the mode it must match in (from the Rules tab or the filter menu).
    pub rule: Option<(&'static str, Mode)>,
}

impl Filter {
    pub fn is_active(&self) -> bool {
        self.status.is_some() || self.kind.is_some() || self.rule.is_some()
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(status) = self.status {
            parts.push(format!("status={}", status.label()));
        }
        if let Some(kind) = self.kind {
            parts.push(format!("kind={}", kind.tag()));
        }
        if let Some((rule, mode)) = self.rule {
            parts.push(format!("rule={rule}/{mode}"));
        }
        parts.join(" ")
    }
}

/// The entries of the filter menu, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterChoice {
    Clear,
    Status(Status),
    Kind(PacketKind),
    Rule(&'static str),
}

pub fn filter_choices() -> Vec<FilterChoice> {
    let mut choices = vec![FilterChoice::Clear];
    choices.extend(Status::ALL.into_iter().map(FilterChoice::Status));
    choices.extend(PacketKind::ALL.into_iter().map(FilterChoice::Kind));
    choices.extend(COVERAGE_ROW_IDS.into_iter().map(FilterChoice::Rule));
    choices
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
    Message(String),
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
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadProgress {
    /// Packets checked so far.
    pub packets: usize,
    pub done: bool,
}

/// The detail of the selected packet, derived on demand.
#[derive(Clone, Debug)]
pub struct SelectedDetail {
    pub packet: usize,
    pub result: Result<PacketDetail, String>,
    /// The expected canonical payload paired with the packet, strict then lenient.
    pub expected: [Option<Result<serde_json::Value, String>>; 2],
    /// The packet's entry in its directory's golden manifest (`None`: no entry), or why the
    /// manifest could not be read.
    pub golden: Result<Option<crate::golden::GoldenEntry>, String>,
    /// A bundle's own packet: what the Bundle view compares (read by opening it again), or
    /// why it could not be opened.
    pub bundle: Option<Result<Arc<crate::bundle::inspect::Inspection>, String>>,
    /// The lines views built for this packet, by view state (see `views::window::cached`).
    pub drawn: super::views::window::DrawnCache,
    /// The Digests tab's digests of the whole object and its handoff, taken once: hashing a
    /// big object's canonical bytes takes longer than a frame (`None`: not JSON).
    pub object_digests: std::cell::OnceCell<Option<super::views::ObjectDigests>>,
}

/// A directory's golden manifest as read from disk (`None`: there is none), or why not.
pub type CachedManifest = Result<Option<Arc<crate::golden::GoldenManifest>>, String>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLayout {
    Unified,
    SideBySide,
}

pub struct App {
    pub roots: Vec<PathBuf>,
    pub options: CheckOptions,
    /// Every packet with its check verdict (the same as `check` gives), in walk order.
    pub packets: Vec<PacketCheck>,
    pub load_errors: Vec<LoadError>,
    pub progress: LoadProgress,
    pub rows: Vec<ListRow>,
    /// How many of `rows` are packets (kept by `rebuild_rows`).
    pub visible_packets: usize,
    /// Index into `rows`; always a selectable row (packet or folded group) when there is one.
    pub selected: usize,
    /// Every packet that passes the filter, in list order, folded groups included (what
    /// search and review go through).
    pub listed: Vec<usize>,
    /// Labels of the folded groups.
    pub folded: std::collections::HashSet<String>,
    pub list_offset: usize,
    pub focus: Focus,
    pub tab: Tab,
    pub mode: Mode,
    pub detail: Option<SelectedDetail>,
    pub detail_scroll: u16,
    /// How far the last drawn detail could scroll (`None`: the tab does not scroll); written
    /// by the view, which has the wrapped content, and applied by `clamp_detail_scroll`.
    pub detail_scroll_max: std::cell::Cell<Option<u16>>,
    /// The selected line in tabs with selectable lines (Handoff fields, Digests parts).
    pub detail_cursor: usize,
    pub filter: Filter,
    pub search_input: Option<String>,
    pub search: Option<String>,
    pub overlay: Option<Overlay>,
    pub rules_cursor: (usize, usize),
    /// Migrate tab: the selected step and the steps switched off.
    pub migrate_cursor: usize,
    pub migrate_off: Vec<&'static str>,
    pub coverage: Vec<[u32; 2]>,
    pub diff_layout: DiffLayout,
    pub message: Option<String>,
    pub color: bool,
    pub should_quit: bool,
    /// Packets whose golden the reviewer chose to keep; not offered again this session.
    pub review_rejected: std::collections::HashSet<crate::corpus::Source>,
    /// The packet to select again once a reload brings it back.
    pub reselect: Option<crate::corpus::Source>,
    /// The generation of the load whose results are shown.
    pub load_generation: u64,
    /// Golden manifests read for the detail, by directory; forgotten whenever packets are
    /// checked again (a manifest change re-checks its directory).
    pub manifests: std::collections::HashMap<PathBuf, CachedManifest>,
    /// The last drawn size, for paging and mouse hit-testing.
    pub size: (u16, u16),
    pub list_area_top: u16,
    pub list_area_height: u16,
    /// Every loaded bundle's verification report, by path (kept by `rebuild_rows`).
    pub bundles: Vec<(Arc<Path>, Arc<crate::bundle::BundleReport>)>,
    /// Bundles opened for the detail (an event's line, the manifest, the Bundle view), kept
    /// for this load: selecting row after row of a bundle opens and verifies it once, not
    /// once per row. Cleared whenever packets are loaded again.
    pub bundle_cache: crate::bundle::BundleCache,
}

/// What the Bundle view compares, from the bundle as `bundles` keeps it (opened through
/// upstream's limits when it does not).
fn inspect_bundle(
    bundles: &crate::bundle::BundleCache,
    path: &Path,
) -> Result<Arc<crate::bundle::inspect::Inspection>, String> {
    let bundle = bundles
        .open(path, &crate::bundle::Limits::default())
        .map_err(|error| error.reason)?;
    Ok(Arc::new(crate::bundle::inspect::inspect(&bundle)))
}

impl App {
    pub fn new(roots: Vec<PathBuf>, options: CheckOptions, color: bool) -> App {
        App {
            roots,
            options,
            packets: Vec::new(),
            load_errors: Vec::new(),
            progress: LoadProgress::default(),
            rows: Vec::new(),
            visible_packets: 0,
            selected: 0,
            folded: Default::default(),
            listed: Vec::new(),
            list_offset: 0,
            focus: Focus::List,
            tab: Tab::Handoff,
            mode: Mode::Strict,
            detail: None,
            detail_scroll: 0,
            detail_scroll_max: std::cell::Cell::new(None),
            detail_cursor: 0,
            filter: Filter::default(),
            search_input: None,
            search: None,
            overlay: None,
            rules_cursor: (0, 0),
            migrate_cursor: 0,
            migrate_off: Vec::new(),
            coverage: vec![[0, 0]; COVERAGE_ROW_IDS.len()],
            diff_layout: DiffLayout::Unified,
            message: None,
            color,
            should_quit: false,
            review_rejected: Default::default(),
            reselect: None,
            load_generation: 0,
            manifests: Default::default(),
            size: (120, 40),
            list_area_top: 0,
            list_area_height: 20,
            bundles: Vec::new(),
            bundle_cache: Default::default(),
        }
    }

    pub fn status(&self, index: usize) -> Status {
        status_in(&self.packets[index], self.mode)
    }

    /// The selected packet's index. `rows` may lag behind `packets` while they are being
    /// replaced, so an index past the end is no selection rather than a crash.
    pub fn selected_packet(&self) -> Option<usize> {
        match self.rows.get(self.selected) {
            Some(ListRow::Packet(index)) if *index < self.packets.len() => Some(*index),
            _ => None,
        }
    }

    pub(super) fn selected_source(&self) -> Option<crate::corpus::Source> {
        self.selected_check()
            .map(|check| check.summary.source.clone())
    }

    pub fn selected_summary(&self) -> Option<&PacketSummary> {
        self.selected_check().map(|check| &check.summary)
    }

    pub fn selected_check(&self) -> Option<&PacketCheck> {
        self.selected_packet()
            .and_then(|index| self.packets.get(index))
    }

    pub fn selected_detail(&self) -> Option<&PacketDetail> {
        match &self.detail {
            Some(SelectedDetail {
                packet,
                result: Ok(detail),
                ..
            }) if Some(*packet) == self.selected_packet() => Some(detail),
            _ => None,
        }
    }

    /// Re-derives the selected packet's detail when the selection changed.
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
        self.detail_scroll = 0;
        self.migrate_cursor = 0;
        self.migrate_off.clear();
        let source = self.packets[index].summary.source.clone();
        let expected = Mode::BOTH.map(|mode| super::pairing::expected_payload(&source, mode));
        let golden = self.golden_entry(&source);
        let bundle = self.packets[index]
            .bundle
            .is_some()
            .then(|| inspect_bundle(&self.bundle_cache, &source.path));
        self.detail = Some(SelectedDetail {
            packet: index,
            result: self.load_detail(index),
            expected,
            golden,
            bundle,
            drawn: Default::default(),
            object_digests: Default::default(),
        });
    }

    /// The golden entry recorded for `source`, reading its manifest once per reload.
    pub fn golden_entry(
        &mut self,
        source: &crate::corpus::Source,
    ) -> Result<Option<crate::golden::GoldenEntry>, String> {
        let (dir, key) = crate::corpus::manifest_key(source);
        let manifest = self
            .manifests
            .entry(dir.clone())
            .or_insert_with(|| {
                crate::golden::read_manifest(&dir)
                    .map(|manifest| manifest.map(Arc::new))
                    .map_err(|error| {
                        format!("{}: {error}", crate::golden::manifest_path(&dir).display())
                    })
            })
            .clone()?;
        Ok(manifest.and_then(|manifest| manifest.entry(&key).cloned()))
    }

    /// Forces the selected detail to be derived again (after a reload or a mode change).
    pub fn invalidate_detail(&mut self) {
        self.detail = None;
        self.refresh_detail();
    }

    /// The expected payload paired with the selected packet in `mode`.
    pub fn expected_payload(&self, mode: Mode) -> Option<&Result<serde_json::Value, String>> {
        let selected = self.detail.as_ref()?;
        selected.expected[Mode::BOTH.iter().position(|m| *m == mode)?].as_ref()
    }

    pub fn load_detail(&self, index: usize) -> Result<PacketDetail, String> {
        let packet = &self.packets[index];
        let summary = &packet.summary;
        let bytes = reread_packet_in(
            &summary.source,
            summary.offset,
            DEFAULT_MAX_FILE_BYTES,
            &self.bundle_cache,
        )
        .map_err(|error| error.reason)?;
        // A bundle's own packet is classified from the report its load made (not by opening
        // the bundle once more).
        Ok(detail_with_bundle(
            summary.source.clone(),
            bytes,
            &self.options.evaluate,
            packet.bundle.as_deref(),
        ))
    }

    /// Adds freshly loaded packets, keeping the coverage counts current.
    pub fn add_packets(&mut self, summaries: Vec<PacketCheck>) {
        for check in &summaries {
            self.count_coverage(&check.summary, 1);
        }
        self.packets.extend(summaries);
        self.rebuild_rows();
    }

    /// Replaces every packet of `path` (a file that changed on disk).
    pub fn replace_file(
        &mut self,
        path: &Path,
        summaries: Vec<PacketCheck>,
        errors: Vec<LoadError>,
    ) {
        // The rows index `packets`, which is about to shift: remember the selection by source.
        if let Some(source) = self.selected_source() {
            self.reselect = Some(source);
        }
        self.rows.clear();
        self.listed.clear();
        self.manifests.clear();
        self.bundle_cache.clear();
        let removed: Vec<PacketCheck> = {
            let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.packets)
                .into_iter()
                .partition(|p| &*p.summary.source.path == path);
            self.packets = kept;
            gone
        };
        for check in &removed {
            self.count_coverage(&check.summary, -1);
        }
        self.load_errors.retain(|error| &*error.source.path != path);
        self.load_errors.extend(errors);
        for check in &summaries {
            self.count_coverage(&check.summary, 1);
        }
        let at = self
            .packets
            .partition_point(|packet| packet.summary.source.path.as_ref() < path);
        self.packets.splice(at..at, summaries);
        self.detail = None;
        self.rebuild_rows();
    }

    fn count_coverage(&mut self, summary: &PacketSummary, delta: i64) {
        for (column, mode) in Mode::BOTH.into_iter().enumerate() {
            if let Some(mode_summary) = summary.mode(mode) {
                for id in mode_summary.rows.ids() {
                    if let Some(row) = COVERAGE_ROW_IDS.iter().position(|row| *row == id) {
                        let cell = &mut self.coverage[row][column];
                        *cell = (i64::from(*cell) + delta).max(0) as u32;
                    }
                }
            }
        }
    }

    /// Forgets every packet (before a reload), remembering which one was selected so that the
    /// selection comes back when it is loaded again.
    pub fn clear_packets(&mut self) {
        if let Some(source) = self.selected_source() {
            self.reselect = Some(source);
        }
        self.rows.clear();
        self.listed.clear();
        self.manifests.clear();
        self.bundle_cache.clear();
        self.packets.clear();
        self.load_errors.clear();
        self.coverage = vec![[0, 0]; COVERAGE_ROW_IDS.len()];
        self.detail = None;
        self.progress = LoadProgress::default();
        self.rebuild_rows();
    }

    /// Keeps the detail scroll inside the content the last frame drew.
    pub fn clamp_detail_scroll(&mut self) {
        if let Some(max) = self.detail_scroll_max.get() {
            self.detail_scroll = self.detail_scroll.min(max);
        }
    }

    /// Takes the list geometry from the screen size and keeps the selection in view.
    pub fn sync_list_geometry(&mut self) {
        let screen = ratatui::layout::Rect::new(0, 0, self.size.0, self.size.1);
        let rows = super::views::layout::list_rows(screen);
        self.list_area_top = rows.y;
        self.list_area_height = rows.height.max(1);
        let height = usize::from(self.list_area_height);
        // Never scrolled further than the rows need: after a filter shrinks the list, its
        // group header and first matches come back into view.
        self.list_offset = self.list_offset.min(self.rows.len().saturating_sub(height));
        if self.selected < self.list_offset {
            // Show the group header above the first packet when scrolling to the top (if the
            // list is tall enough to show both).
            self.list_offset = if self.selected < height.min(2) {
                0
            } else {
                self.selected
            };
        } else if self.selected >= self.list_offset + height {
            self.list_offset = self.selected + 1 - height;
        }
    }

    /// Loads `roots` on this thread through the same path as the loader thread (for tests,
    /// benchmarks and `render`).
    pub fn load_blocking(&mut self) {
        let roots = self.roots.clone();
        let options = self.options.clone();
        let mut events = Vec::new();
        super::loader::load(&roots, &options, &mut |event| {
            events.push(event);
            true
        });
        for event in events {
            super::update::update(
                self,
                super::update::Action::Loader(self.load_generation, event),
            );
        }
    }

    /// The packet files listed from the same directory as `source` (what a change to that
    /// directory's golden manifest affects).
    pub fn files_in_dir_of(&self, source: &crate::corpus::Source) -> Vec<PathBuf> {
        let dir = source.path.parent();
        let mut files: Vec<PathBuf> = self
            .packets
            .iter()
            .map(|check| &check.summary.source.path)
            .filter(|path| path.parent() == dir)
            .map(|path| path.to_path_buf())
            .collect();
        files.dedup();
        files
    }

    /// How many packets pass the filter (folded ones included).
    pub fn packet_count(&self) -> usize {
        self.listed.len()
    }
}
