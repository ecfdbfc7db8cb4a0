//! The list built over a snapshot of the packets: one group per directory (or NDJSON
//! stream) in path order, each with its filtered packets, with files checked again spliced
//! into the snapshot first. A job: it runs on a thread of the loader's (the headless driver
//! runs it on its own) and reports by `ListEvent`; `update::list_job` asks for it and takes
//! its answer.

use crate::a2a::Mode;
use crate::corpus::FindingKind;
use crate::tui::state::list_rows::{
    group_key, group_label, in_group, BuiltList, GroupKey, ListEvent, ListRequest, ListRow,
    LoadedBundle, Spliced,
};
use crate::tui::state::listed::ListedPacket;
use std::collections::HashMap;

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
/// filtered packets in walk order unless folded. Reports progress through `report` and stops
/// (without a `Done`) as soon as `current` says it was superseded or cancelled, or `report`
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
        mode: request.mode,
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
