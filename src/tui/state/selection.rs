//! What a key acts on, read from the state: what `y` copies, what `o` opens, whether `d` has
//! a payload diff to switch, which keys apply, where the selected group's packets start.
//! `update` acts on these; the status bar and the views say the same from them.

use crate::json::digest_value;
use crate::tui::state::app::{App, Focus, Tab};
use crate::tui::state::keymap::Context;
use std::path::PathBuf;

/// What `y` copies: the selected field's evidence path (Handoff), the selected digest
/// (Digests), otherwise the packet's source.
pub fn copy_target(app: &App) -> Option<String> {
    match app.tab {
        Tab::Handoff => handoff_copy_target(app),
        Tab::Digests => digest_copy_target(app),
        _ => app
            .selected_summary()
            .map(|summary| summary.source.to_string()),
    }
}

/// The evidence path of the selected field (the first path that decided it).
fn handoff_copy_target(app: &App) -> Option<String> {
    let detail = app.selected_detail()?;
    let explanation = detail.explanation(app.mode)?;
    let field = explanation.fields.get(app.tabs.handoff.cursor)?;
    field
        .evidence
        .first()
        .map(|evidence| evidence.path.to_string())
}

/// The selected digest in the shown mode.
fn digest_copy_target(app: &App) -> Option<String> {
    let detail = app.selected_detail()?;
    match detail.explanation(app.mode) {
        Some(explanation) => {
            let converted = explanation.conversion.converted()?;
            Some(match app.tabs.digests.cursor {
                0 => converted.payload_digest().to_hex(),
                1 => converted.handoff_digest().to_hex(),
                _ => converted.discovery_digest().to_hex(),
            })
        }
        None => detail.parsed().map(|value| digest_value(&value).to_hex()),
    }
}

/// Whether the Digests tab has a payload diff to lay out (what `d` switches): a paired
/// expected payload that differs from the conversion in either mode.
pub fn has_payload_diff(app: &App) -> bool {
    let Some(detail) = app.selected_detail() else {
        return false;
    };
    crate::a2a::Mode::BOTH.into_iter().any(|mode| {
        let converted = detail
            .explanation(mode)
            .and_then(|explanation| explanation.conversion.converted());
        match (converted, app.expected_payload(mode)) {
            (Some(converted), Some(Ok(expected))) => {
                digest_value(expected) != converted.payload_digest()
            }
            _ => false,
        }
    })
}

/// Which keys apply outside the panels: the Migrate tab's step keys only where there are
/// steps to move between (a raw packet's relabelling has none: j/k scroll it as elsewhere).
/// The status bar asks the same, so it never offers a key that does nothing.
pub fn browse_context(app: &App) -> Context {
    let has_steps = || {
        app.selected_detail()
            .and_then(|detail| detail.migration())
            .is_some_and(|migration| !migration.steps.is_empty())
    };
    if app.tab == Tab::Migrate && app.focus == Focus::Detail && has_steps() {
        Context::Migrate
    } else {
        Context::Global
    }
}

/// Where the selected folded group's packets start in `listed`.
pub fn first_listed_of_selected_group(app: &App) -> Option<usize> {
    let label = app.selected_group_label()?;
    app.list.listed.iter().position(|index| {
        crate::tui::state::app::group_label(&crate::tui::state::app::group_key(
            &app.packets[*index].source,
        )) == label
    })
}

/// A file and the line to open it at (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorTarget {
    pub path: PathBuf,
    pub line: usize,
}

impl EditorTarget {
    /// `PATH:LINE`, terminal-safe, for the messages.
    pub fn shown(&self) -> String {
        crate::json::safe_text(&format!("{}:{}", self.path.display(), self.line)).into_owned()
    }
}

/// What `o` opens for the selected packet: its file at its NDJSON line, or at line 1; a
/// bundle's event opens the bundle (its line is a sequence number, not a line of a file).
pub fn editor_target(app: &App) -> Option<EditorTarget> {
    let source = &app.selected_summary()?.source;
    let line = match source.line {
        Some(line) if !source.is_bundle_event() => line,
        _ => 1,
    };
    Some(EditorTarget {
        path: source.path.to_path_buf(),
        line,
    })
}
