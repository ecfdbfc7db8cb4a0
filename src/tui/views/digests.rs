//! Digests tab: actual digests per mode and part with the legal-state names, against the
//! expected canonical payload paired with the packet; where they differ, the diff of expected
//! vs actual canonical JSON, unified or side by side (`d`).

use super::text::{heading, safe};
use crate::a2a::Mode;
use crate::corpus::PacketDetail;
use crate::json::{canonical_pretty, digest_value};
use crate::tui::app::{App, DiffLayout, Focus};
use crate::tui::theme::Theme;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use similar::{ChangeTag, TextDiff};

const PARTS: [&str; 3] = ["payload", "handoff", "discovery"];

pub fn draw(app: &App, detail: &PacketDetail, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut lines = Vec::new();
    if detail.explanations.is_empty() {
        if let Some(value) = &detail.parsed {
            lines.push(heading("digests of the object as given", theme));
            lines.push(part_line(
                app,
                0,
                "object",
                &digest_value(value).to_hex(),
                None,
                theme,
            ));
            if let Some(handoff) = handoff_of(value) {
                let label = crate::report::explain::handoff_digest_label(handoff);
                lines.push(part_line(app, 1, "handoff", &label, None, theme));
            }
        } else {
            lines.push(Line::from(Span::styled("not JSON: no digest", theme.dim())));
        }
        super::scrolled(lines, app.detail_scroll, frame, area);
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
            Some(Err(reason)) => format!("{mode} mode · paired file unreadable: {}", safe(reason)),
            None => format!("{mode} mode · no expected payload paired"),
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
        let actual = [
            converted.payload_digest().to_hex(),
            crate::report::explain::handoff_digest_label(converted.handoff()),
            converted.discovery_digest().to_hex(),
        ];
        for (index, part) in PARTS.iter().enumerate() {
            let expected_digest = expected_value
                .and_then(|value| pick(value, part))
                .map(|value| digest_value(&value).to_hex());
            let cursor = if mode == app.mode { index } else { usize::MAX };
            lines.push(part_line(
                app,
                cursor,
                part,
                &actual[index],
                expected_digest.as_deref(),
                theme,
            ));
        }
        if let Some(expected) = expected_value {
            if diff.is_none() && digest_value(expected) != converted.payload_digest() {
                diff = Some((
                    canonical_pretty(expected),
                    canonical_pretty(converted.payload()),
                ));
            }
        }
        lines.push(Line::default());
    }
    match diff {
        None => super::scrolled(lines, app.detail_scroll, frame, area),
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
            super::scrolled(lines, 0, frame, top);
            let diff_lines = match app.diff_layout {
                DiffLayout::Unified => unified(&expected, &actual, theme),
                DiffLayout::SideBySide => {
                    side_by_side(&expected, &actual, usize::from(bottom.width), theme)
                }
            };
            super::scrolled(diff_lines, app.detail_scroll, frame, bottom);
        }
    }
}

fn other(mode: Mode) -> Mode {
    match mode {
        Mode::Strict => Mode::Lenient,
        Mode::Lenient => Mode::Strict,
    }
}

fn handoff_of(value: &serde_json::Value) -> Option<&serde_json::Value> {
    value
        .get("handoff")
        .or_else(|| value.get("data")?.get("handoff"))
        .or_else(|| value.get("events")?.get(0)?.get("data")?.get("handoff"))
}

fn part_line(
    app: &App,
    cursor: usize,
    part: &str,
    actual: &str,
    expected: Option<&str>,
    theme: &Theme,
) -> Line<'static> {
    let selected = app.focus == Focus::Detail && app.detail_cursor == cursor;
    let verdict = match expected {
        None => Span::styled("  (nothing to compare)", theme.dim()),
        Some(expected) if actual.starts_with(expected) => {
            Span::styled("  = expected", theme.good())
        }
        Some(expected) => Span::styled(
            format!("  ≠ expected {}", &expected[..16.min(expected.len())]),
            theme.bad(),
        ),
    };
    let line = Line::from(vec![
        Span::raw(if selected { "▸ " } else { "  " }),
        Span::styled(format!("{part:<10}"), theme.accent()),
        Span::raw(actual.to_owned()),
        verdict,
    ]);
    if selected {
        line.style(theme.selected())
    } else {
        line
    }
}

fn unified(expected: &str, actual: &str, theme: &Theme) -> Vec<Line<'static>> {
    let diff = TextDiff::from_lines(expected, actual);
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
            ChangeTag::Insert => Line::from(Span::styled(format!("+ {text}"), theme.diff_added())),
            ChangeTag::Equal => Line::from(Span::styled(format!("  {text}"), theme.dim())),
        });
    }
    lines
}

fn side_by_side(expected: &str, actual: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let column = width.saturating_sub(3) / 2;
    let fit = |text: &str| {
        let text = safe(text.trim_end_matches('\n'));
        let shown: String = text.chars().take(column).collect();
        format!("{shown:<column$}")
    };
    let diff = TextDiff::from_lines(expected, actual);
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
        let equal = left.iter().all(|change| change.tag() == ChangeTag::Equal) && right.is_empty();
        if equal {
            for change in left {
                lines.push(Line::from(vec![
                    Span::styled(fit(change.value()), theme.dim()),
                    Span::raw(" │ "),
                    Span::styled(fit(change.value()), theme.dim()),
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

/// The selected digest in the shown mode.
pub fn copy_target(app: &App) -> Option<String> {
    let detail = app.selected_detail()?;
    match detail.explanation(app.mode) {
        Some(explanation) => {
            let converted = explanation.conversion.converted()?;
            Some(match app.detail_cursor {
                0 => converted.payload_digest().to_hex(),
                1 => converted.handoff_digest().to_hex(),
                _ => converted.discovery_digest().to_hex(),
            })
        }
        None => detail
            .parsed
            .as_ref()
            .map(|value| digest_value(value).to_hex()),
    }
}
