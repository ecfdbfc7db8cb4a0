//! What the golden review shows of a packet, read from the state: the findings it is about,
//! the pending-goldens file that named the packet, and what accepting would write.

use crate::corpus::{FindingKind, PacketCheck};
use crate::golden::{GoldenEntry, ModeGolden};
use crate::json::safe_text;
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

/// What accepting the packet's current outcome would write into its manifest: what the review
/// panel previews, and what `a` asks about (nothing to confirm when nothing would change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AcceptPreview {
    /// The packet's kind records no golden.
    NoGolden(crate::corpus::PacketKind),
    /// The manifest cannot be read (the reason): nothing can be written.
    Unreadable(String),
    /// The fields that change (`new`: the packet has no entry yet); none when the manifest
    /// already records this outcome.
    Writes {
        new: bool,
        changes: Vec<FieldChange>,
    },
}

/// One recorded field that accepting changes: where it is (`strict  payload`, `object`,
/// `duplicate keys acknowledged`, padded as the panel lines it up) and how it changes
/// (`recorded → current`, `+ added`, `- removed`), terminal-safe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldChange {
    pub label: String,
    pub change: String,
}

impl AcceptPreview {
    /// Whether accepting would leave the manifest as it is.
    pub fn writes_nothing(&self) -> bool {
        match self {
            AcceptPreview::NoGolden(_) | AcceptPreview::Unreadable(_) => true,
            AcceptPreview::Writes { new, changes } => !new && changes.is_empty(),
        }
    }

    /// Why nothing would be written, in the words the status bar says after "nothing to
    /// record: " (`manifest`: the packet's manifest file).
    pub fn why_nothing(&self, manifest: &std::path::Path) -> String {
        match self {
            AcceptPreview::NoGolden(kind) => format!("a {} has no golden", kind.name()),
            AcceptPreview::Unreadable(reason) => {
                format!("the manifest is unreadable: {}", safe_text(reason))
            }
            AcceptPreview::Writes { .. } => format!(
                "{} already records this outcome",
                safe_text(&manifest.display().to_string())
            ),
        }
    }
}

/// What accepting `check`'s outcome would write over `golden` (the entry the manifest holds).
pub fn accept_preview(
    check: &PacketCheck,
    golden: &Result<Option<GoldenEntry>, String>,
) -> AcceptPreview {
    let Some(new) = check.recorded() else {
        return AcceptPreview::NoGolden(check.summary.kind);
    };
    let old = match golden {
        Err(reason) => return AcceptPreview::Unreadable(reason.clone()),
        Ok(old) => old.as_ref(),
    };
    let mut changes = Vec::new();
    for mode in crate::a2a::Mode::BOTH {
        let Some(now) = new.mode(mode) else {
            continue;
        };
        let before = old.and_then(|old| old.mode(mode));
        let was = before
            .map(ModeGolden::fields)
            .unwrap_or_else(|| ModeGolden::default().fields());
        for ((field, was), (_, will)) in was.into_iter().zip(now.fields()) {
            if let Some(change) = changed(&was, &will, |text| safe_text(text).into_owned()) {
                let label = format!("  {:<8}{field:<10} ", mode.to_string());
                changes.push(FieldChange { label, change });
            }
        }
    }
    if let Some(now) = &new.object {
        let was_fields: Vec<(&str, Option<String>)> = match old.and_then(|old| old.object.as_ref())
        {
            Some(before) => before.fields().to_vec(),
            None => now
                .fields()
                .iter()
                .map(|(field, _)| (*field, None))
                .collect(),
        };
        // An empty list reads as `[]`, not as nothing.
        let show = |text: &str| match text {
            "" => "[]".to_owned(),
            text => safe_text(text).into_owned(),
        };
        for ((field, was), (_, will)) in was_fields.into_iter().zip(now.fields()) {
            if let Some(change) = changed(&was, &will, show) {
                let label = format!("  {field:<10} ");
                changes.push(FieldChange { label, change });
            }
        }
    }
    if old.is_some_and(|old| old.duplicate_keys != new.duplicate_keys) {
        changes.push(FieldChange {
            label: "  duplicate keys acknowledged ".to_owned(),
            change: safe_text(&new.duplicate_keys.join(", ")).into_owned(),
        });
    }
    AcceptPreview::Writes {
        new: old.is_none(),
        changes,
    }
}

/// A field's change as the panel writes it, `None` when it stays.
fn changed(
    was: &Option<String>,
    will: &Option<String>,
    show: impl Fn(&str) -> String,
) -> Option<String> {
    match (was, will) {
        _ if was == will => None,
        (Some(was), Some(will)) => Some(format!("{} → {}", show(was), show(will))),
        (None, Some(will)) => Some(format!("+ {}", show(will))),
        (Some(was), None) => Some(format!("- {}", show(was))),
        (None, None) => None,
    }
}
