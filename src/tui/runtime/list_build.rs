//! The list built over a snapshot of the packets: one group per directory (or NDJSON
//! stream) in path order, each with its filtered packets, with files checked again spliced
//! into the snapshot first. While packets arrive, only those after the rows built are gone
//! through and their rows appended: a build over every packet per batch made a million-line
//! load quadratic. A job: it runs on a thread of the loader's (the headless driver runs it on
//! its own) and reports by `ListEvent`; `update::list_job` asks for it and takes its answer.

use crate::a2a::Mode;
use crate::corpus::FindingKind;
use crate::tui::state::list_rows::{
    group_key, group_row, in_group, AppendedRows, BuiltList, GroupKey, GroupMembers, ListEvent,
    ListRequest, ListRow, LoadedBundle, Spliced,
};
use crate::tui::state::listed::ListedPacket;
use crate::tui::state::packets::Packets;
use std::collections::HashMap;
use std::ops::Range;

/// Splices the request's replacements into its snapshot, one after the other.
fn splice(request: &ListRequest) -> Spliced {
    let mut coverage = vec![[0i64; 2]; crate::freeze::COVERAGE_ROW_IDS.len()];
    let mut count = |packet: &ListedPacket, delta: i64| {
        for (row, column) in crate::tui::state::coverage::coverage_cells(packet) {
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

/// How often a list build reports, in packets.
const LIST_REPORT_EVERY: usize = 65_536;

/// Builds the list rows: one group per directory (or stream), in path order, each with its
/// filtered packets in walk order unless folded; for an appending request, only the packets
/// after those the rows were built over, by group, for `update` to put into the rows. Reports
/// progress through `report` and stops (without an answer) as soon as `current` says it was
/// superseded or cancelled, or `report` returns false. Runs on a job thread in the inspector,
/// on the caller's in headless drives.
pub fn build_list(
    request: &ListRequest,
    current: &dyn Fn() -> bool,
    report: &mut dyn FnMut(ListEvent) -> bool,
) {
    let appending = request
        .appending
        .as_ref()
        .filter(|_| request.replacing.is_empty());
    if let Some(appending) = appending {
        let packets = &request.packets;
        let from = appending.from.min(packets.len());
        let Some(scanned) = scan(request, packets, from..packets.len(), current, report) else {
            return;
        };
        let reselected = reselect(request, packets, &scanned.groups);
        let appended = AppendedRows {
            packets: packets.len(),
            groups: scanned.groups,
            bundles: scanned.bundles,
            reselected,
        };
        if current() {
            report(ListEvent::Appended(Box::new(appended)));
        }
        return;
    }
    build_whole(request, current, report);
}

/// Builds the whole list over the snapshot (with the replacements spliced in).
fn build_whole(
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
    let Some(scanned) = scan(request, packets, 0..packets.len(), current, report) else {
        return;
    };
    let mut built = BuiltList {
        packets: packets.len(),
        filter: request.filter,
        mode: request.mode,
        folded: request.folded.clone(),
        ..Default::default()
    };
    built.reselected = reselect(request, packets, &scanned.groups);
    for group in scanned.groups {
        let header = group_row(&group, &request.folded, &scanned.bundles);
        let folded = header.group().is_some_and(|group| group.folded);
        built.group_starts.push(built.listed.len());
        built.listed.extend(group.members.iter().copied());
        built.rows.push(header);
        if !folded {
            built.visible_packets += group.members.len();
            built
                .rows
                .extend(group.members.into_iter().map(ListRow::Packet));
        }
        built.group_keys.push(group.key);
    }
    built.bundles = scanned.bundles;
    built.spliced = spliced.map(Box::new);
    if current() {
        report(ListEvent::Done(Box::new(built)));
    }
}

/// The packets of `range` that pass the filter, by group in key order (the order the list
/// shows its groups in), and the bundles among them.
struct Scanned {
    groups: Vec<GroupMembers>,
    bundles: Vec<LoadedBundle>,
}

/// Goes through `packets[range]` once; `None` when it was stopped.
fn scan(
    request: &ListRequest,
    packets: &Packets,
    range: Range<usize>,
    current: &dyn Fn() -> bool,
    report: &mut dyn FnMut(ListEvent) -> bool,
) -> Option<Scanned> {
    // Packets arrive grouped in walk order (a stream's lines, a directory's files), so the
    // group of the previous packet is tried first: no key is built or looked up for most.
    let mut scanned = Scanned {
        groups: Vec::new(),
        bundles: Vec::new(),
    };
    let mut slots: HashMap<GroupKey, usize> = Default::default();
    let mut current_group: Option<usize> = None;
    let start = range.start;
    for index in range {
        let scanned_so_far = index - start;
        if scanned_so_far.is_multiple_of(LIST_REPORT_EVERY)
            && scanned_so_far > 0
            && !(current()
                && report(ListEvent::Progress {
                    scanned: scanned_so_far,
                }))
        {
            return None;
        }
        let check = &packets[index];
        if let Some(report) = &check.bundle {
            scanned.bundles.push(LoadedBundle {
                path: check.source.path.clone(),
                report: report.clone(),
                attestation_refused: check.has_finding(FindingKind::AttestationRefused),
            });
        }
        if !request.filter.passes(check, request.mode) {
            continue;
        }
        let source = &check.source;
        let groups = &mut scanned.groups;
        let at = match current_group {
            Some(at) if in_group(&groups[at].key, source) => at,
            _ => {
                let key = group_key(source);
                *slots.entry(key.clone()).or_insert_with(|| {
                    groups.push(GroupMembers {
                        key,
                        members: Vec::new(),
                        failing: [0, 0],
                    });
                    groups.len() - 1
                })
            }
        };
        current_group = Some(at);
        let group = &mut groups[at];
        group.members.push(index);
        for (failing, mode) in group.failing.iter_mut().zip(Mode::BOTH) {
            *failing += usize::from(crate::tui::state::status::is_failing(check.status_in(mode)));
        }
    }
    scanned.groups.sort_by(|a, b| a.key.cmp(&b.key));
    Some(scanned)
}

/// The request's `reselect`: the first listed packet from that source.
fn reselect(request: &ListRequest, packets: &Packets, groups: &[GroupMembers]) -> Option<usize> {
    let source = request.reselect.as_ref()?;
    groups
        .iter()
        .flat_map(|group| group.members.iter().copied())
        .find(|index| packets[*index].source == *source)
}
