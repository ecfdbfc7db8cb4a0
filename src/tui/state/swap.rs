//! Packets replaced under the list: a list build's spliced packets swapped in, the selection
//! followed to its new index, and the rows forgotten while indices change.

use crate::tui::state::app::{App, Discarded};
use crate::tui::state::list_rows::Spliced;
use std::sync::Arc;

impl App {
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
        self.list.group_keys.clear();
        self.list.selected = 0;
        self.packets_epoch += 1;
        self.detail = None;
    }
}
