//! What the golden review shows of a packet, read from the state: the findings it is about
//! and the pending-goldens file that named the packet.

use crate::corpus::FindingKind;
use crate::tui::state::app::App;
use std::path::PathBuf;

/// The findings a review shows: golden drift, a missing golden, a differing paired payload.
pub fn reviewed(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::GoldenMismatch | FindingKind::NoGolden | FindingKind::PairedMismatch
    )
}

/// The pending-goldens file that names the packet at `source`, when one does.
pub fn pending_file_of(app: &App, source: &crate::corpus::Source) -> Option<PathBuf> {
    let (dir, key) = crate::corpus::manifest_key(source);
    app.pending
        .iter()
        .find(|pending| pending.dir == dir && pending.keys.contains(&key))
        .map(crate::golden::PendingGoldens::path)
}
