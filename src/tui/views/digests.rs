//! Digests tab: actual digests per mode and part with the legal-state names, against the
//! expected canonical payload paired with the packet; where they differ, the diff of expected
//! vs actual canonical JSON, unified or side by side (`d`).

use crate::a2a::Mode;
use crate::corpus::PacketDetail;
use crate::json::{
    all_lines, canonical_pretty, canonical_pretty_of, digest_value, DiffLine, Digest, LineTag,
};
use crate::tui::state::app::{App, DiffLayout, Focus};
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ObjectDigests;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

const PARTS: [&str; 3] = ["payload", "handoff", "discovery"];

/// The Digests tab, drawn from the state (a `StatefulWidget` keeping the object's digests, the
/// diff's lines and the scroll extent in the `ViewState`).
pub struct DigestsView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for DigestsView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let DigestsView { app, detail, theme } = self;
        let mut lines = Vec::new();
        // A bundle's event: its content hash as upstream's verifier compares it.
        if detail.source.is_bundle_event() {
            lines.extend(crate::tui::views::bundle::content_hash_lines(detail, theme));
        }
        // Golden drift first, for every kind that records one: it is what a reviewer comes to
        // this tab for.
        if let (Some(check), Some(selected)) = (app.selected_check(), app.detail_read()) {
            let rejected = app.review_rejected.contains(&check.summary.source);
            lines.extend(crate::tui::views::golden::drift_lines(
                check,
                &selected.golden,
                rejected,
                theme,
            ));
        }
        if detail.explanations.is_empty() {
            // Taken once per packet: hashing a big object takes longer than a frame, and once the
            // migration has taken the detail's tree, the object is parsed again for them.
            let digests = state
                .object_digests
                .get_or_insert_with(|| object_digests(detail))
                .clone();
            if let Some(digests) = digests {
                lines.push(heading("digests of the object as given", theme));
                let row = PartRow {
                    part: "object",
                    actual: digests.object,
                    expected: None,
                    same: None,
                };
                lines.push(part_line(app, 0, &row, area.width, theme));
                if let Some(handoff) = digests.handoff {
                    let row = PartRow {
                        part: "handoff",
                        actual: handoff,
                        expected: None,
                        same: None,
                    };
                    lines.push(part_line(app, 1, &row, area.width, theme));
                }
            } else {
                lines.push(Line::from(Span::styled(
                    "not JSON: no digest",
                    theme.secondary(),
                )));
            }
            crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
            return;
        }
        let mut diff: Option<(String, String)> = None;
        for mode in [app.mode, other(app.mode)] {
            let Some(explanation) = detail.explanation(mode) else {
                continue;
            };
            let expected = app.expected_payload(mode);
            let title = match &expected {
                Some(Ok(_)) => format!("{mode} mode · expected: paired {mode} payload file"),
                Some(Err(reason)) => {
                    format!("{mode} mode · paired file unreadable: {}", safe(reason))
                }
                None => format!("{mode} mode · digests (no expected payload file paired)"),
            };
            lines.push(heading(&title, theme));
            let Some(converted) = explanation.conversion.converted() else {
                let error = explanation
                    .conversion
                    .error()
                    .map(|error| format!("[{}] {}", error.rule, error.kind.name()))
                    .unwrap_or_default();
                lines.push(Line::from(Span::styled(
                    format!("  rejected {error}: no digests"),
                    theme.bad(),
                )));
                lines.push(Line::default());
                continue;
            };
            let expected_value = expected.and_then(|expected| expected.as_ref().ok());
            let pick = |value: &serde_json::Value, part: &str| -> Option<serde_json::Value> {
                if part == "payload" {
                    Some(value.clone())
                } else {
                    value.get(part).cloned()
                }
            };
            // Digests from the conversion's facts: the payload's tree may be 50 times its text.
            let actual = [
                (converted.payload_digest(), None),
                (converted.handoff_digest(), Some(converted.handoff())),
                (converted.discovery_digest(), None),
            ];
            for (index, part) in PARTS.iter().enumerate() {
                let expected_part = expected_value.and_then(|value| pick(value, part));
                let cursor = if mode == app.mode { index } else { usize::MAX };
                let (digest, handoff) = actual[index];
                let row = PartRow::new(part, digest, handoff, expected_part.as_ref());
                lines.extend(part_lines(app, cursor, &row, area.width, theme));
            }
            if let Some(expected) = expected_value {
                if diff.is_none() && digest_value(expected) != converted.payload_digest() {
                    diff = Some((
                        canonical_pretty(expected),
                        canonical_pretty_of(&converted.payload_bytes(), usize::MAX),
                    ));
                }
            }
            lines.push(Line::default());
        }
        match diff {
            None => crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area),
            Some((expected, actual)) => {
                lines.push(heading(
                    "expected vs actual canonical payload (d: unified / side by side)",
                    theme,
                ));
                let header = lines.len() as u16;
                let [top, bottom] = Layout::vertical([
                    Constraint::Length(header.min(area.height / 2)),
                    Constraint::Min(3),
                ])
                .areas(area);
                crate::tui::views::scroll::scrolled(lines, 0, buf, top);
                let diff_lines = match app.tabs.digests.layout {
                    DiffLayout::Unified => unified(&expected, &actual, theme),
                    DiffLayout::SideBySide => {
                        side_by_side(&expected, &actual, usize::from(bottom.width), theme)
                    }
                };
                crate::tui::views::scroll::scrolled_detail(app, state, diff_lines, buf, bottom);
            }
        }
    }
}

fn other(mode: Mode) -> Mode {
    match mode {
        Mode::Strict => Mode::Lenient,
        Mode::Lenient => Mode::Strict,
    }
}

/// [`ObjectDigests`] of the packet, from a tree parsed for them (`None`: not JSON).
fn object_digests(detail: &PacketDetail) -> Option<ObjectDigests> {
    let value = detail.parsed()?;
    Some(ObjectDigests {
        object: digest_text(digest_value(&value), None),
        handoff: handoff_of(&value)
            .map(|handoff| digest_text(digest_value(handoff), Some(handoff))),
    })
}

fn handoff_of(value: &serde_json::Value) -> Option<&serde_json::Value> {
    value
        .get("handoff")
        .or_else(|| value.get("data")?.get("handoff"))
        .or_else(|| value.get("events")?.get(0)?.get("data")?.get("handoff"))
}

/// One part's comparison, ready to show. Handoff digests are shown short with their state
/// name; others in full when there is room.
struct PartRow {
    part: &'static str,
    actual: String,
    expected: Option<String>,
    same: Option<bool>,
}

/// A part's digest as shown: a handoff's short, with its named state (read from `handoff`,
/// the handoff object), any other in full.
fn digest_text(digest: Digest, handoff: Option<&serde_json::Value>) -> String {
    match handoff {
        Some(handoff) => {
            let state = crate::freeze::handoff_state(handoff)
                .map(|state| state.name())
                .unwrap_or("NOT a legal state");
            format!("{} {state}", digest.short(12))
        }
        None => digest.to_hex(),
    }
}

impl PartRow {
    /// The row of `part`: its `actual` digest (with the handoff object for a handoff) beside
    /// the expected part's.
    fn new(
        part: &'static str,
        actual: Digest,
        handoff: Option<&serde_json::Value>,
        expected: Option<&serde_json::Value>,
    ) -> PartRow {
        let is_handoff = part == "handoff";
        let expected = expected.map(|value| (digest_value(value), value));
        PartRow {
            part,
            actual: digest_text(actual, handoff),
            expected: expected
                .map(|(digest, value)| digest_text(digest, is_handoff.then_some(value))),
            same: expected.map(|(digest, _)| digest == actual),
        }
    }
}

/// `▸ handoff   ≠ e478af7359a2 typed positive: …`, the verdict first so it stays visible
/// however narrow the pane; a differing expected digest follows on a line of its own.
fn part_lines(
    app: &App,
    cursor: usize,
    row: &PartRow,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = vec![part_line(app, cursor, row, width, theme)];
    if let (Some(expected), Some(false)) = (&row.expected, row.same) {
        lines.push(Line::from(vec![
            Span::raw(format!("{:12}", "")),
            Span::styled(format!("expected {expected}"), theme.bad()),
        ]));
    }
    lines
}

fn part_line(app: &App, cursor: usize, row: &PartRow, _width: u16, theme: &Theme) -> Line<'static> {
    let selected = app.focus == Focus::Detail && app.tabs.digests.cursor == cursor;
    let (mark, style) = match row.same {
        None => ("  ", theme.secondary()),
        Some(true) => ("= ", theme.good()),
        Some(false) => ("≠ ", theme.bad()),
    };
    let mut spans = vec![
        Span::raw(if selected { "▸ " } else { "  " }),
        Span::styled(format!("{:<10}", row.part), theme.accent()),
        Span::styled(mark, style),
    ];
    // In full: the wrap rule breaks it at the pane's edge rather than cutting it.
    spans.push(Span::raw(row.actual.clone()));
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected())
    } else {
        line
    }
}

fn unified(expected: &str, actual: &str, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(vec![
        Span::styled("--- expected  ", theme.diff_removed()),
        Span::styled("+++ actual", theme.diff_added()),
    ])];
    for line in all_lines(expected, actual) {
        let style = match line.tag {
            LineTag::Removed => theme.diff_removed(),
            LineTag::Added => theme.diff_added(),
            LineTag::Same => theme.secondary(),
        };
        let sign = if line.tag == LineTag::Same {
            ' '
        } else {
            line.tag.sign()
        };
        lines.push(Line::from(Span::styled(
            format!("{sign} {}", line.text),
            style,
        )));
    }
    lines
}

fn side_by_side(expected: &str, actual: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let column = width.saturating_sub(3) / 2;
    // A line longer than its column ends in … (d switches to the unified diff, which wraps).
    let fit = |text: &str| {
        let shown: String = if text.chars().count() > column {
            let keep = crate::json::char_prefix(text, column.saturating_sub(1));
            format!("{keep}…")
        } else {
            text.to_owned()
        };
        format!("{shown:<column$}")
    };
    let row = |left: &str, right: &str, styles: (Style, Style)| {
        Line::from(vec![
            Span::styled(fit(left), styles.0),
            Span::raw(" │ "),
            Span::styled(fit(right), styles.1),
        ])
    };
    let mut lines = vec![row(
        "expected",
        "actual",
        (theme.diff_removed(), theme.diff_added()),
    )];
    let diff = all_lines(expected, actual);
    let mut at = 0;
    while at < diff.len() {
        if diff[at].tag == LineTag::Same {
            lines.push(row(
                &diff[at].text,
                &diff[at].text,
                (theme.secondary(), theme.secondary()),
            ));
            at += 1;
            continue;
        }
        // One change: removed lines (left) facing the added lines that follow them (right).
        let removed = diff[at..]
            .iter()
            .take_while(|line| line.tag == LineTag::Removed)
            .count();
        let added = diff[at + removed..]
            .iter()
            .take_while(|line| line.tag == LineTag::Added)
            .count();
        let (left, right) = diff[at..at + removed + added].split_at(removed);
        for index in 0..removed.max(added) {
            let text = |side: &[DiffLine]| {
                side.get(index)
                    .map_or(String::new(), |line| line.text.clone())
            };
            lines.push(row(
                &text(left),
                &text(right),
                (theme.diff_removed(), theme.diff_added()),
            ));
        }
        at += removed + added;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use similar::ChangeTag;

    // The two layouts as they were drawn before the one line-diff model (`similar`'s changes
    // and ops read directly): the oracle the model's layouts are held to.
    fn former_unified(expected: &str, actual: &str, theme: &Theme) -> Vec<Line<'static>> {
        let diff = crate::json::bounded_line_diff(expected, actual);
        let mut lines = vec![Line::from(vec![
            Span::styled("--- expected  ", theme.diff_removed()),
            Span::styled("+++ actual", theme.diff_added()),
        ])];
        for change in diff.iter_all_changes() {
            let text = safe(change.value().trim_end_matches('\n'));
            lines.push(match change.tag() {
                ChangeTag::Delete => {
                    Line::from(Span::styled(format!("- {text}"), theme.diff_removed()))
                }
                ChangeTag::Insert => {
                    Line::from(Span::styled(format!("+ {text}"), theme.diff_added()))
                }
                ChangeTag::Equal => {
                    Line::from(Span::styled(format!("  {text}"), theme.secondary()))
                }
            });
        }
        lines
    }

    fn former_side_by_side(
        expected: &str,
        actual: &str,
        width: usize,
        theme: &Theme,
    ) -> Vec<Line<'static>> {
        let column = width.saturating_sub(3) / 2;
        // A line longer than its column ends in … (d switches to the unified diff, which wraps).
        let fit = |text: &str| {
            let text = safe(text.trim_end_matches('\n'));
            let shown: String = if text.chars().count() > column {
                let keep: String = text.chars().take(column.saturating_sub(1)).collect();
                format!("{keep}…")
            } else {
                text
            };
            format!("{shown:<column$}")
        };
        let diff = crate::json::bounded_line_diff(expected, actual);
        let mut lines = vec![Line::from(vec![
            Span::styled(fit("expected"), theme.diff_removed()),
            Span::raw(" │ "),
            Span::styled(fit("actual"), theme.diff_added()),
        ])];
        for op in diff.ops() {
            let (left, right): (Vec<_>, Vec<_>) = diff
                .iter_changes(op)
                .partition(|change| change.tag() != ChangeTag::Insert);
            let left: Vec<_> = left.into_iter().collect();
            let right: Vec<_> = right.into_iter().collect();
            let equal =
                left.iter().all(|change| change.tag() == ChangeTag::Equal) && right.is_empty();
            if equal {
                for change in left {
                    lines.push(Line::from(vec![
                        Span::styled(fit(change.value()), theme.secondary()),
                        Span::raw(" │ "),
                        Span::styled(fit(change.value()), theme.secondary()),
                    ]));
                }
                continue;
            }
            for row in 0..left.len().max(right.len()) {
                let left_text = left.get(row).map(|change| change.value()).unwrap_or("");
                let right_text = right.get(row).map(|change| change.value()).unwrap_or("");
                lines.push(Line::from(vec![
                    Span::styled(fit(left_text), theme.diff_removed()),
                    Span::raw(" │ "),
                    Span::styled(fit(right_text), theme.diff_added()),
                ]));
            }
        }
        lines
    }

    #[test]
    fn layouts_over_the_model_draw_what_they_drew() {
        let theme = Theme::new(true);
        let base = json!({"a": {"b": [1, 2, 3], "c": "x\u{202e}"}, "d": [{"e": 1}, {"e": 2}], "long": "y".repeat(90)});
        for other in [
            json!({"a": {"b": [1, 2, 4], "c": "x\u{202e}"}, "d": [{"e": 1}, {"e": 2}], "long": "y".repeat(90)}),
            json!({"a": {"b": [], "c": "y"}, "d": [{"e": 2}], "new": null, "long": "z"}),
            json!({"a": {"b": [1, 2, 3], "c": "x\u{202e}"}, "d": [{"e": 1}, {"e": 2}, {"e": 3}, {"e": 4}], "long": "y".repeat(90)}),
            json!([1, 2]),
            base.clone(),
        ] {
            let (expected, actual) = (canonical_pretty(&base), canonical_pretty(&other));
            assert_eq!(
                unified(&expected, &actual, &theme),
                former_unified(&expected, &actual, &theme)
            );
            for width in [20, 61, 120] {
                assert_eq!(
                    side_by_side(&expected, &actual, width, &theme),
                    former_side_by_side(&expected, &actual, width, &theme)
                );
            }
        }
    }
}
