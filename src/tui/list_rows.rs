//! The packet list's rows: one group per directory (or NDJSON stream) in path order, each with
//! its filtered packets unless folded, and the selection kept across rebuilds.

use super::app::App;
use super::status::status_in;
use crate::a2a::Mode;
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

impl App {
    pub(super) fn passes_filter(&self, index: usize) -> bool {
        let summary = &self.packets[index];
        if let Some(status) = self.list.filter.status {
            if self.status(index) != status {
                return false;
            }
        }
        if let Some(kind) = self.list.filter.kind {
            if summary.kind != kind {
                return false;
            }
        }
        if let Some((rule, mode)) = self.list.filter.rule {
            if !summary
                .mode(mode)
                .is_some_and(|mode| mode.rows.contains(rule))
            {
                return false;
            }
        }
        true
    }

    /// Rebuilds the list rows: one group per directory (or stream), in path order, each with
    /// its filtered packets in walk order unless folded. Keeps the selected packet or group.
    pub fn rebuild_rows(&mut self) {
        let keep_group = self.selected_group_label();
        let keep = self.selected_source().or_else(|| self.reselect.clone());
        // Packets arrive grouped in walk order (a stream's lines, a directory's files), so the
        // group of the previous packet is tried first: no key is built or looked up for most.
        let mut groups: Vec<(GroupKey, Vec<usize>)> = Vec::new();
        let mut slots: std::collections::HashMap<GroupKey, usize> = Default::default();
        let mut current: Option<usize> = None;
        for index in 0..self.packets.len() {
            if !self.passes_filter(index) {
                continue;
            }
            let source = &self.packets[index].source;
            let same = current.is_some_and(|at| in_group(&groups[at].0, source));
            let at = match current {
                Some(at) if same => at,
                _ => {
                    let key = group_key(source);
                    *slots.entry(key.clone()).or_insert_with(|| {
                        groups.push((key, Vec::new()));
                        groups.len() - 1
                    })
                }
            };
            current = Some(at);
            groups[at].1.push(index);
        }
        groups.sort_by(|a, b| a.0.cmp(&b.0));
        self.bundles = self
            .packets
            .iter()
            .filter_map(|packet| {
                let report = packet.bundle.clone()?;
                Some((packet.source.path.clone(), report))
            })
            .collect();
        self.list.rows.clear();
        self.list.listed.clear();
        self.list.visible_packets = 0;
        for (key, members) in groups {
            self.list.listed.extend(members.iter().copied());
            let label = group_label(&key);
            let folded = self.list.folded.contains(&label);
            let failing = Mode::BOTH.map(|mode| {
                members
                    .iter()
                    .filter(|index| {
                        super::status::is_failing(status_in(&self.packets[**index], mode))
                    })
                    .count()
            });
            let bundle = key.1.as_ref().and_then(|stream| {
                let report = self.bundle_report(stream)?;
                Some(match report.error() {
                    None => Ok(()),
                    Some(error) => Err(error.code.as_str()),
                })
            });
            self.list.rows.push(ListRow::Group {
                label,
                count: members.len(),
                failing,
                folded,
                bundle,
            });
            if !folded {
                self.list.visible_packets += members.len();
                self.list
                    .rows
                    .extend(members.into_iter().map(ListRow::Packet));
            }
        }
        let found = keep.and_then(|source| {
            self.list.rows.iter().position(|row| matches!(row, ListRow::Packet(index) if self.packets[*index].source == source))
        });
        let found_group = keep_group.and_then(|wanted| {
            self.list.rows.iter().position(
                |row| matches!(row, ListRow::Group { label, folded: true, .. } if *label == wanted),
            )
        });
        if found.is_some() {
            self.reselect = None;
        }
        self.list.selected = match found.or(found_group) {
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

    /// The verification report of the bundle at `path`, when one is loaded.
    pub fn bundle_report(&self, path: &Path) -> Option<&Arc<crate::bundle::BundleReport>> {
        self.bundles
            .iter()
            .find(|(bundle, _)| **bundle == *path)
            .map(|(_, report)| report)
    }

    /// The report of the bundle the selected packet comes from (its own packet or an event).
    pub fn selected_bundle_report(&self) -> Option<&Arc<crate::bundle::BundleReport>> {
        let source = &self.selected_summary()?.source;
        if !crate::bundle::is_bundle_path(&source.path) {
            return None;
        }
        self.bundle_report(&source.path)
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
        let Some(packet) = self.selected_summary() else {
            return;
        };
        let label = group_label(&group_key(&packet.source));
        self.list.folded.insert(label.clone());
        self.rebuild_rows();
        if let Some(row) =
            self.list.rows.iter().position(
                |row| matches!(row, ListRow::Group { label: group, .. } if *group == label),
            )
        {
            self.list.selected = row;
            self.refresh_detail();
        }
    }

    /// Unfolds the selected folded group and selects its first packet; false when the
    /// selection is not a folded group.
    pub fn unfold_selected_group(&mut self) -> bool {
        let Some(label) = self.selected_group_label() else {
            return false;
        };
        self.list.folded.remove(&label);
        let row = self.list.selected;
        self.rebuild_rows();
        self.list.selected = self.first_packet_row_from(row, true).unwrap_or(0);
        self.refresh_detail();
        true
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
        // A packet inside a folded group is shown by unfolding the group.
        let label = group_label(&group_key(source));
        if self.list.folded.remove(&label) {
            self.rebuild_rows();
        }
        let row = self.list.rows.iter().position(
            |row| matches!(row, ListRow::Packet(index) if &self.packets[*index].source == source),
        );
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
