//! The packet list's rows: one group per directory (or NDJSON stream) in path order, each with
//! its filtered packets unless folded, and the selection kept across rebuilds. A build reads a
//! snapshot of the packets, so it runs off the UI thread (`list_job` starts and takes it);
//! folding and unfolding one group edits the rows in place.

use crate::a2a::Mode;
use crate::corpus::Source;
use crate::tui::state::filter::Filter;
use crate::tui::state::packets::{Packets, Replacement, Splice};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

/// A line of the packet list: a group header (directory or stream) or a packet. Sixteen
/// bytes, a row per packet: the header, of which there are few, is boxed (inline it made every
/// row 80 bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListRow {
    Group(Box<GroupHeader>),
    Packet(usize),
}

/// A group's header row. `count` packets of the group pass the filter; `failing[mode]` of
/// them have a finding, a mismatch or an error in that mode (both kept, so a mode switch
/// recounts nothing). A folded group lists none of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupHeader {
    pub label: String,
    pub count: usize,
    pub failing: [usize; 2],
    pub folded: bool,
    /// An evidence bundle's group: upstream's verdict (`Err` holds the error code).
    pub bundle: Option<Result<(), String>>,
}

impl ListRow {
    /// Rows the selection can rest on: packets, and folded groups (to unfold them).
    pub fn is_selectable(&self) -> bool {
        match self {
            ListRow::Packet(_) => true,
            ListRow::Group(group) => group.folded,
        }
    }

    /// The group header, when this row is one.
    pub fn group(&self) -> Option<&GroupHeader> {
        match self {
            ListRow::Group(group) => Some(group),
            ListRow::Packet(_) => None,
        }
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
pub fn in_group((dir, stream): &GroupKey, source: &crate::corpus::Source) -> bool {
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

/// A group's header row: its label, its counts, folded as `folded` says, and for a bundle's
/// group upstream's verdict from its report among `bundles`.
pub fn group_row(
    group: &GroupMembers,
    folded: &HashSet<String>,
    bundles: &[LoadedBundle],
) -> ListRow {
    let label = group_label(&group.key);
    let bundle = group.key.1.as_ref().and_then(|stream| {
        let report = &bundles
            .iter()
            .find(|bundle| *bundle.path == **stream)?
            .report;
        Some(match report.error() {
            None => Ok(()),
            Some(error) => Err(error.code.as_str()),
        })
    });
    ListRow::Group(Box::new(GroupHeader {
        folded: folded.contains(&label),
        label,
        count: group.members.len(),
        failing: group.failing,
        bundle,
    }))
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
    /// Rows already built for this filter and mode over the first packets: only the packets
    /// after them are gone through, and their rows put in (`ListEvent::Appended`).
    pub appending: Option<Appending>,
}

impl ListRequest {
    /// How many packets the build goes through (the snapshot's after the rows built, and the
    /// replacements').
    pub fn size(&self) -> usize {
        let replacing: usize = self.replacing.iter().map(|r| r.checks.len()).sum();
        let from = self
            .appending
            .as_ref()
            .map_or(0, |appending| appending.from);
        self.packets.len().saturating_sub(from) + replacing
    }
}

/// What an appending build starts from: the rows cover the first `from` packets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Appending {
    pub from: usize,
}

/// The rows of the packets after those a list was built over, to put into it: their groups
/// in path order, each a group of the list's continued or a new one.
#[derive(Clone, Debug, Default)]
pub struct AppendedRows {
    /// How many packets the rows cover once these are appended.
    pub packets: usize,
    pub groups: Vec<GroupMembers>,
    /// The bundles among the new packets.
    pub bundles: Vec<LoadedBundle>,
    /// The request's `reselect` (its packet index), if it is among the new packets listed.
    pub reselected: Option<usize>,
}

/// A group's packets that pass the filter, and how many of them fail in each mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupMembers {
    pub key: GroupKey,
    pub members: Vec<usize>,
    pub failing: [usize; 2],
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
    /// The mode it was built in (a status filter lists other packets in the other mode).
    pub mode: Mode,
    /// The request's `reselect` (its packet index), if it is listed.
    pub reselected: Option<usize>,
    /// The groups folded when it was built.
    pub folded: HashSet<String>,
    /// Where each group's packets start in `listed`.
    pub group_starts: Vec<usize>,
    /// The packets listed, when the build spliced replacements in (they replace the state's).
    pub spliced: Option<Box<Spliced>>,
    /// The groups' keys, in row order.
    pub group_keys: Vec<GroupKey>,
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

/// What a list build reports while it runs, and when it ends.
#[derive(Clone, Debug)]
pub enum ListEvent {
    Progress {
        scanned: usize,
    },
    Done(Box<BuiltList>),
    /// An appending build's answer: rows to add after those shown.
    Appended(Box<AppendedRows>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Source;

    #[test]
    fn a_row_is_small() {
        // A row per packet listed: a million of them, in bytes each (80 with the header inline).
        assert!(std::mem::size_of::<ListRow>() <= 16);
    }

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
