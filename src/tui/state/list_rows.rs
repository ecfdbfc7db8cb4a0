//! The packet list's rows: one group per directory (or NDJSON stream) in path order, each with
//! its filtered packets unless folded, and the selection kept across rebuilds. A build reads a
//! snapshot of the packets, so it runs off the UI thread (`list_job` starts and takes it);
//! folding and unfolding one group edits the rows in place.

use crate::a2a::Mode;
use crate::corpus::{FindingKind, Source};
use crate::tui::state::app::{App, Discarded, Filter};
use crate::tui::state::listed::ListedPacket;
use crate::tui::state::packets::{Packets, Replacement, Splice};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// A line of the packet list: a group header (directory or stream) or a packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListRow {
    /// `count` packets of the group pass the filter; `failing[mode]` of them have a finding,
    /// a mismatch or an error in that mode (both kept, so a mode switch recounts nothing).
    /// A folded group lists none of them.
    Group {
        label: String,
        count: usize,
        failing: [usize; 2],
        folded: bool,
        /// An evidence bundle's group: upstream's verdict (`Err` holds the error code).
        bundle: Option<Result<(), String>>,
    },
    Packet(usize),
}

impl ListRow {
    /// Rows the selection can rest on: packets, and folded groups (to unfold them).
    pub fn is_selectable(&self) -> bool {
        matches!(
            self,
            ListRow::Packet(_) | ListRow::Group { folded: true, .. }
        )
    }
}

/// The list group of a packet: its directory, or its stream for NDJSON lines and evidence
/// bundles (a bundle's own packet and its `BUNDLE:SEQ` events form one group). Sorting by
/// this key keeps a directory's files together, followed by its streams.
pub fn group_key(source: &crate::corpus::Source) -> GroupKey {
    let dir: Arc<Path> = Arc::from(source.path.parent().unwrap_or(Path::new("")));
    let stream = in_stream(source).then(|| source.path.clone());
    (dir, stream)
}

fn in_stream(source: &crate::corpus::Source) -> bool {
    source.line.is_some() || crate::bundle::is_bundle_path(&source.path)
}

/// A list group: its directory, and its stream for NDJSON lines.
pub type GroupKey = (Arc<Path>, Option<Arc<Path>>);

/// Whether `source` belongs to the group `key` (without building its key).
fn in_group((dir, stream): &GroupKey, source: &crate::corpus::Source) -> bool {
    match (stream, in_stream(source)) {
        (Some(stream), true) => Arc::ptr_eq(stream, &source.path) || **stream == *source.path,
        (None, false) => source.path.parent() == Some(&**dir),
        _ => false,
    }
}

/// How a group is labelled (and remembered as folded).
pub fn group_label((dir, stream): &GroupKey) -> String {
    match stream {
        Some(stream) => format!("{}", stream.display()),
        // Files named without a directory sit in the current one, not in the root.
        None if dir.as_os_str().is_empty() => "./".to_owned(),
        None => format!("{}/", dir.display()),
    }
}

impl Filter {
    /// Whether a packet passes the filter (a status is the packet's in `mode`): the one test
    /// every list build, whatever thread it runs on, asks.
    pub fn passes(&self, packet: &ListedPacket, mode: Mode) -> bool {
        let summary = packet;
        if let Some(status) = self.status {
            if packet.status_in(mode) != status {
                return false;
            }
        }
        if let Some(kind) = self.kind {
            if summary.kind != kind {
                return false;
            }
        }
        if let Some((rule, mode)) = self.rule {
            if !summary
                .mode(mode)
                .is_some_and(|mode| mode.rows.contains(rule))
            {
                return false;
            }
        }
        true
    }
}

/// What a list is built from: a snapshot of the packets, the filter and mode it lists, the
/// folded groups, and a packet to find again by source (after a reload).
#[derive(Clone, Debug)]
pub struct ListRequest {
    pub generation: u64,
    pub packets: Packets,
    pub filter: Filter,
    pub mode: Mode,
    pub folded: HashSet<String>,
    pub reselect: Option<Source>,
    /// Files checked again: spliced into the packets (in order) before they are listed.
    pub replacing: Vec<Arc<Replacement>>,
}

impl ListRequest {
    /// How many packets the build goes through (the snapshot's, and the replacements').
    pub fn size(&self) -> usize {
        let replacing: usize = self.replacing.iter().map(|r| r.checks.len()).sum();
        self.packets.len() + replacing
    }
}

/// A loaded bundle as every per-packet screen of its packets needs it: its verification
/// report, and whether the run's trusted keys refused its attestation (the bundle's own check
/// found so; its row says at which check and why).
#[derive(Clone, Debug)]
pub struct LoadedBundle {
    pub path: Arc<Path>,
    pub report: Arc<crate::bundle::BundleReport>,
    pub attestation_refused: bool,
}

/// The list as built for a request.
#[derive(Clone, Debug, Default)]
pub struct BuiltList {
    pub rows: Vec<ListRow>,
    pub listed: Vec<usize>,
    pub visible_packets: usize,
    pub bundles: Vec<LoadedBundle>,
    /// How many packets it was built over (the first `packets` of the state's).
    pub packets: usize,
    pub filter: Filter,
    /// The request's `reselect` (its packet index), if it is listed.
    pub reselected: Option<usize>,
    /// The groups folded when it was built.
    pub folded: HashSet<String>,
    /// Where each group's packets start in `listed`.
    pub group_starts: Vec<usize>,
    /// The packets listed, when the build spliced replacements in (they replace the state's).
    pub spliced: Option<Box<Spliced>>,
}

/// The packets a build made by splicing files checked again into its snapshot.
#[derive(Clone, Debug)]
pub struct Spliced {
    pub packets: Packets,
    /// How many packets the snapshot had (those loaded since are appended when it lands).
    pub over: usize,
    /// Where each replacement went, in the order they were spliced.
    pub splices: Vec<Splice>,
    pub replaced: Vec<Arc<Replacement>>,
    /// What to add to the coverage matrix: the replaced packets' rows out, the new ones' in.
    pub coverage: Vec<[i64; 2]>,
}

/// Splices the request's replacements into its snapshot, one after the other.
fn splice(request: &ListRequest) -> Spliced {
    let mut coverage = vec![[0i64; 2]; crate::freeze::COVERAGE_ROW_IDS.len()];
    let mut count = |packet: &ListedPacket, delta: i64| {
        for (row, column) in crate::tui::state::app::coverage_cells(packet) {
            coverage[row][column] += delta;
        }
    };
    let mut packets = request.packets.clone();
    let mut splices = Vec::with_capacity(request.replacing.len());
    for replacement in &request.replacing {
        replacement
            .checks
            .iter()
            .for_each(|packet| count(packet, 1));
        let (next, splice) = packets.with_file_replaced(replacement, &mut |gone| count(gone, -1));
        packets = next;
        splices.push(splice);
    }
    Spliced {
        packets,
        over: request.packets.len(),
        splices,
        replaced: request.replacing.clone(),
        coverage,
    }
}

/// What a list build reports while it runs, and when it ends.
#[derive(Clone, Debug)]
pub enum ListEvent {
    Progress { scanned: usize },
    Done(Box<BuiltList>),
}

/// How often a list build reports, in packets.
const LIST_REPORT_EVERY: usize = 65_536;

/// Builds the list rows: one group per directory (or stream), in path order, each with its
/// filtered packets in walk order unless folded. Reports progress through `report` and stops
/// (without a `Done`) as soon as `current` says it was crate::tui::runtime::event_loop or cancelled, or `report`
/// returns false. Runs on a job thread in the inspector, on the caller's in headless drives.
pub fn build_list(
    request: &ListRequest,
    current: &dyn Fn() -> bool,
    report: &mut dyn FnMut(ListEvent) -> bool,
) {
    let spliced = (!request.replacing.is_empty()).then(|| splice(request));
    if !current() {
        return;
    }
    let packets = spliced
        .as_ref()
        .map_or(&request.packets, |spliced| &spliced.packets);
    // Packets arrive grouped in walk order (a stream's lines, a directory's files), so the
    // group of the previous packet is tried first: no key is built or looked up for most.
    let mut groups: Vec<(GroupKey, Vec<usize>)> = Vec::new();
    let mut slots: HashMap<GroupKey, usize> = Default::default();
    let mut current_group: Option<usize> = None;
    let mut bundles = Vec::new();
    for (index, check) in packets.iter().enumerate() {
        if index % LIST_REPORT_EVERY == 0
            && index > 0
            && !(current() && report(ListEvent::Progress { scanned: index }))
        {
            return;
        }
        if let Some(report) = &check.bundle {
            bundles.push(LoadedBundle {
                path: check.source.path.clone(),
                report: report.clone(),
                attestation_refused: check.has_finding(FindingKind::AttestationRefused),
            });
        }
        if !request.filter.passes(check, request.mode) {
            continue;
        }
        let source = &check.source;
        let same = current_group.is_some_and(|at| in_group(&groups[at].0, source));
        let at = match current_group {
            Some(at) if same => at,
            _ => {
                let key = group_key(source);
                *slots.entry(key.clone()).or_insert_with(|| {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                })
            }
        };
        current_group = Some(at);
        groups[at].1.push(index);
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    let mut built = BuiltList {
        packets: packets.len(),
        filter: request.filter,
        folded: request.folded.clone(),
        ..Default::default()
    };
    for (key, members) in groups {
        built.group_starts.push(built.listed.len());
        built.listed.extend(members.iter().copied());
        let label = group_label(&key);
        let folded = request.folded.contains(&label);
        let failing = Mode::BOTH.map(|mode| {
            members
                .iter()
                .filter(|index| {
                    crate::tui::state::status::is_failing(packets[**index].status_in(mode))
                })
                .count()
        });
        let bundle = key.1.as_ref().and_then(|stream| {
            let report = &bundles
                .iter()
                .find(|bundle| *bundle.path == **stream)?
                .report;
            Some(match report.error() {
                None => Ok(()),
                Some(error) => Err(error.code.as_str()),
            })
        });
        built.rows.push(ListRow::Group {
            label,
            count: members.len(),
            failing,
            folded,
            bundle,
        });
        if !folded {
            built.visible_packets += members.len();
            built.rows.extend(members.into_iter().map(ListRow::Packet));
        }
    }
    built.bundles = bundles;
    built.reselected = request.reselect.as_ref().and_then(|source| {
        built
            .listed
            .iter()
            .copied()
            .find(|index| packets[*index].source == *source)
    });
    built.spliced = spliced.map(Box::new);
    if current() {
        report(ListEvent::Done(Box::new(built)));
    }
}

impl App {
    /// Builds the list at once on this thread (headless callers that set the state directly).
    pub fn rebuild_rows_now(&mut self) {
        let request = self.list_request(0, self.list.filter);
        let mut built = None;
        build_list(&request, &|| true, &mut |event| {
            if let ListEvent::Done(list) = event {
                built = Some(list);
            }
            true
        });
        if let Some(built) = built {
            self.apply_list(*built);
        }
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

    /// Shows a built list, keeping the selected packet (by index: a build covers the packets
    /// loaded when it started, which keep their indices until they are replaced) or folded
    /// group, else the packet to select again after a reload.
    pub(crate) fn apply_list(&mut self, mut built: BuiltList) {
        let keep = match built.spliced.take() {
            // The packets change under the rows: the selected one is found by where it went.
            Some(spliced) => self.swap_in(*spliced),
            None => self.selected_packet(),
        };
        let keep_group = self.selected_group_label();
        // A million rows take tens of milliseconds to free: not here.
        let rows = std::mem::replace(&mut self.list.rows, built.rows);
        let listed = std::mem::replace(&mut self.list.listed, built.listed);
        self.discard(Discarded::Rows(rows, listed));
        self.list.visible_packets = built.visible_packets;
        self.list.filter = built.filter;
        self.list.built_over = built.packets;
        self.bundles = built.bundles;
        if built.folded != self.list.folded {
            self.refold();
        }
        let unfolded = self.list.folded.is_empty();
        let group_starts = built.group_starts;
        let row_of = |packet: usize| {
            if unfolded {
                // Every group open: a packet's row is its place in `listed` plus the headers
                // of its group and those before (`listed` is a tenth of the rows' bytes).
                let at = self.list.listed.iter().position(|index| *index == packet)?;
                let group = group_starts.partition_point(|start| *start <= at);
                return Some(at + group);
            }
            self.list
                .rows
                .iter()
                .position(|row| *row == ListRow::Packet(packet))
        };
        let found = keep.and_then(row_of);
        let found_group = keep_group.and_then(|wanted| {
            self.list.rows.iter().position(
                |row| matches!(row, ListRow::Group { label, folded: true, .. } if *label == wanted),
            )
        });
        let reselected = built.reselected.and_then(row_of);
        if reselected.is_some() {
            self.reselect = None;
        }
        self.list.selected = match found.or(found_group).or(reselected) {
            Some(row) => row,
            None => self
                .first_packet_row_from(
                    self.list
                        .selected
                        .min(self.list.rows.len().saturating_sub(1)),
                    true,
                )
                .unwrap_or(0),
        };
        self.refresh_detail();
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

    /// Folds the selected packet's group (the selection moves to the group).
    pub fn fold_selected_group(&mut self) {
        let Some(packet) = self.list.rows.get(self.list.selected) else {
            return;
        };
        if !matches!(packet, ListRow::Packet(_)) {
            return;
        }
        let Some(row) = self.list.rows[..self.list.selected]
            .iter()
            .rposition(|row| matches!(row, ListRow::Group { .. }))
        else {
            return;
        };
        self.fold_group_at(row);
        self.list.selected = row;
        self.refresh_detail();
    }

    /// Unfolds the selected folded group and selects its first packet; false when the
    /// selection is not a folded group.
    pub fn unfold_selected_group(&mut self) -> bool {
        if self.selected_group_label().is_none() {
            return false;
        }
        let row = self.list.selected;
        self.unfold_group_at(row);
        self.list.selected = self.first_packet_row_from(row, true).unwrap_or(0);
        self.refresh_detail();
        true
    }

    /// The row of the group labelled `label`.
    fn group_row(&self, label: &str) -> Option<usize> {
        self.list
            .rows
            .iter()
            .position(|row| matches!(row, ListRow::Group { label: group, .. } if group == label))
    }

    /// Folds the group at `row` in place: its packet rows go (no list build at any size).
    fn fold_group_at(&mut self, row: usize) {
        let rows = &mut self.list.rows;
        let end = rows[row + 1..]
            .iter()
            .position(|row| matches!(row, ListRow::Group { .. }))
            .map_or(rows.len(), |at| row + 1 + at);
        if let Some(ListRow::Group { folded, label, .. }) = rows.get_mut(row) {
            *folded = true;
            self.list.folded.insert(label.clone());
        }
        rows.drain(row + 1..end);
        self.list.visible_packets -= end - row - 1;
    }

    /// Unfolds the folded group at `row` in place: its listed packets come back after it.
    fn unfold_group_at(&mut self, row: usize) {
        // `listed` holds every group's packets in row order, folded ones included.
        let start: usize = self.list.rows[..row]
            .iter()
            .map(|row| match row {
                ListRow::Group { count, .. } => *count,
                ListRow::Packet(_) => 0,
            })
            .sum();
        let Some(ListRow::Group {
            folded: folded @ true,
            label,
            count,
            ..
        }) = self.list.rows.get_mut(row)
        else {
            return;
        };
        *folded = false;
        let count = *count;
        self.list.folded.remove(label.as_str());
        let members = self.list.listed[start..start + count]
            .iter()
            .map(|index| ListRow::Packet(*index));
        self.list.rows.splice(row + 1..row + 1, members);
        self.list.visible_packets += count;
    }

    /// Folds and unfolds the groups of freshly built rows as `folded` says now (a group
    /// folded or unfolded while the build ran).
    fn refold(&mut self) {
        let changed: Vec<String> = self
            .list
            .rows
            .iter()
            .filter_map(|row| match row {
                ListRow::Group { label, folded, .. }
                    if *folded != self.list.folded.contains(label) =>
                {
                    Some(label.clone())
                }
                _ => None,
            })
            .collect();
        for label in changed {
            let Some(row) = self.group_row(&label) else {
                continue;
            };
            if self.list.folded.contains(&label) {
                self.fold_group_at(row);
            } else {
                // `unfold_group_at` forgets the label; this group is meant to be open.
                self.list.folded.insert(label);
                self.unfold_group_at(row);
            }
        }
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

    /// Selects the packet from `source` if it is in the list; returns whether it is.
    pub fn select_source(&mut self, source: &crate::corpus::Source) -> bool {
        let index = self.list.listed.iter().copied().find(|index| {
            self.packets
                .get(*index)
                .is_some_and(|check| check.source == *source)
        });
        index.is_some_and(|index| self.select_packet(index))
    }

    /// Selects packet `index` if it is in the list (unfolding its group); returns whether it is.
    pub fn select_packet(&mut self, index: usize) -> bool {
        // A packet inside a folded group is shown by unfolding the group.
        let Some(check) = self.packets.get(index) else {
            return false;
        };
        let label = group_label(&group_key(&check.source));
        if self.list.folded.contains(&label) {
            if let Some(row) = self.group_row(&label) {
                self.unfold_group_at(row);
            }
        }
        let row = self
            .list
            .rows
            .iter()
            .position(|row| *row == ListRow::Packet(index));
        if let Some(row) = row {
            self.list.selected = row;
            self.refresh_detail();
        }
        row.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Source;

    #[test]
    fn groups_are_labelled_by_directory_or_stream() {
        let label = |source: Source| group_label(&group_key(&source));
        assert_eq!(label(Source::file("a.json")), "./");
        assert_eq!(label(Source::file("dir/a.json")), "dir/");
        let mut line = Source::file("dir/s.ndjson");
        line.line = Some(3);
        assert_eq!(label(line), "dir/s.ndjson");
        // A bundle's own packet and its events share the bundle's group.
        let mut event = Source::file("dir/b.tar.gz");
        event.line = Some(0);
        assert_eq!(label(Source::file("dir/b.tar.gz")), "dir/b.tar.gz");
        assert_eq!(label(event), "dir/b.tar.gz");
    }
}
