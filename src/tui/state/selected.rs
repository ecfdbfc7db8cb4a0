//! What is selected, read from the state: the packet, its list row and check, the detail the
//! reader answered, its paired payload, its bundle and a folded group's label.

use crate::a2a::Mode;
use crate::corpus::{PacketCheck, PacketDetail};
use crate::tui::state::app::{App, SelectedDetail};
use crate::tui::state::list_rows::{ListRow, LoadedBundle};
use crate::tui::state::listed::ListedPacket;
use crate::tui::state::reads::DetailAnswer;
use std::path::Path;
use std::sync::Arc;

impl App {
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

    /// The expected payload paired with the selected packet in `mode`.
    pub fn expected_payload(&self, mode: Mode) -> Option<&Result<serde_json::Value, String>> {
        let read = self.detail_read()?;
        read.expected[Mode::BOTH.iter().position(|m| *m == mode)?].as_ref()
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
            Some(ListRow::Group(group)) if group.folded => Some(group.label.clone()),
            _ => None,
        }
    }
}
