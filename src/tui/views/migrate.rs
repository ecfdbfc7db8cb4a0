//! Migrate tab. For an A2A protocol object: the migration's steps on the left (lossy and
//! choice steps marked, switched-off steps shown), and on the right the selected step's diff,
//! or the effect of the switched-off steps on the cumulative result. For a raw adapter
//! packet: what relabelling it A2A 1.0 does at the adapter, next to the outcome as sent.

use crate::corpus::PacketDetail;
use crate::freeze::{AdapterVerdict, RelabelOutcome, CONVERSION_TABLE, RELABELLED_VERSION};
use crate::json::canonical_pretty;
use crate::migrate::{diff, DiffLine, LineTag, Migration};
use crate::tui::state::app::{App, Focus};
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use crate::tui::views::window::MAX_LINES;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{StatefulWidget, Widget};

/// The Migrate tab, drawn from the state (a `StatefulWidget` keeping the steps' lines and the
/// scroll extent in the `ViewState`).
pub struct MigrateView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for MigrateView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let MigrateView { app, detail, theme } = self;
        if let Some(migration) = detail.migration() {
            return draw_migration(app, state, migration, buf, area, theme);
        }
        let lines = match &detail.relabel {
            Some(relabel) => {
                return crate::tui::views::scroll::scrolled_detail(
                    app,
                    state,
                    relabel_lines(relabel, theme),
                    buf,
                    area,
                )
            }
            None => vec![
                heading(
                    "Not an A2A protocol object or raw adapter packet: nothing to migrate.",
                    theme,
                ),
                crate::tui::views::text::classified_as(detail, theme),
            ],
        };
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}

fn draw_migration(
    app: &App,
    state: &mut ViewState,
    migration: &Migration,
    buf: &mut Buffer,
    area: Rect,
    theme: &Theme,
) {
    let mut header = vec![Line::from(vec![
        Span::styled(safe(&migration.detection.summary()), theme.title()),
        Span::styled(
            format!("  {} steps", migration.steps.len()),
            theme.secondary(),
        ),
    ])];
    if migration.already_at_target {
        header.push(Line::from(Span::styled(
            "already at the target version: left unchanged",
            theme.good(),
        )));
    }
    for conflict in &migration.detection.conflicts {
        header.push(Line::from(Span::styled(
            format!("mixed versions: {}", safe(conflict)),
            theme.warn(),
        )));
    }
    header.push(Line::from(Span::styled(
        "● on  ○ switched off   L lossy  C needs a choice (default taken)  A advice only",
        theme.secondary(),
    )));
    let fails = migration.findings.len();
    // Counted by severity, as the CLI's `migrate` summary counts them.
    let count = |severity: crate::rules::Severity| {
        migration
            .warnings
            .iter()
            .filter(|finding| finding.severity == severity)
            .count()
    };
    header.push(Line::from(Span::styled(
        format!(
            "{} warning(s), {} note(s), {} error(s) in migration, {} finding(s) in the check",
            count(crate::rules::Severity::Warning),
            count(crate::rules::Severity::Note),
            count(crate::rules::Severity::Error),
            fails
        ),
        if fails > 0 {
            theme.bad()
        } else {
            theme.secondary()
        },
    )));
    let [top, body] = Layout::vertical([
        Constraint::Length(header.len() as u16 + 1),
        Constraint::Min(3),
    ])
    .areas(area);
    crate::tui::views::scroll::scrolled(header, 0, buf, top);
    // The step list is as wide as its longest line (flags + id). Beside the step when that
    // takes at most 45% of the pane; otherwise above it, the whole width, so that ids are not
    // cut to a few letters on a narrow terminal.
    let longest = migration
        .steps
        .iter()
        .map(|run| run.step.id.chars().count() + STEP_LINE_EXTRA)
        .max()
        .unwrap_or(20) as u16;
    let [left, right] = if longest <= body.width * 9 / 20 {
        Layout::horizontal([Constraint::Length(longest), Constraint::Min(10)]).areas(body)
    } else {
        let rows = (migration.steps.len() as u16).clamp(1, (body.height / 3).max(3));
        let [list, _, step] = Layout::vertical([
            Constraint::Length(rows),
            Constraint::Length(1),
            Constraint::Min(1),
        ])
        .areas(body);
        // The step pane below starts at the list's left edge (no gap column to leave).
        [
            list,
            Rect {
                x: step.x.saturating_sub(1),
                width: step.width + 1,
                ..step
            },
        ]
    };
    let id_room = usize::from(left.width).saturating_sub(7);

    let cursor = app
        .tabs
        .migrate
        .cursor
        .min(migration.steps.len().saturating_sub(1));
    let focused = app.focus == Focus::Detail;
    let list: Vec<Line> = migration
        .steps
        .iter()
        .enumerate()
        .map(|(index, run)| {
            let off = app.tabs.migrate.off.contains(&run.step.id);
            let flags = [
                (run.step.lossy, "L"),
                (run.choice.is_some(), "C"),
                (run.step.advisory, "A"),
            ]
            .iter()
            .map(|(on, letter)| if *on { *letter } else { " " })
            .collect::<String>();
            let line = Line::from(vec![
                Span::styled(
                    if off { " ○ " } else { " ● " },
                    if off { theme.secondary() } else { theme.good() },
                ),
                Span::styled(flags, theme.warn()),
                Span::styled(
                    format!(" {}", middle_cut(run.step.id, id_room)),
                    if off { theme.secondary() } else { theme.text() },
                ),
            ]);
            if index == cursor && focused {
                line.style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    let list_scroll = cursor.saturating_sub(usize::from(left.height) / 2) as u16;
    ratatui::widgets::Paragraph::new(list)
        .scroll((list_scroll, 0))
        .render(left, buf);

    // The step's lines are built once per step, switched-off set and focus (a step of a big
    // object diffs the whole document), not on every frame.
    let key = format!(
        "migrate {cursor} {:?} {focused} {}",
        app.tabs.migrate.off, app.color
    );
    let lines = crate::tui::views::view_state::cached(state, key, || {
        step_lines(migration, &app.tabs.migrate.off, cursor, focused, theme)
    });
    let right = Rect {
        x: right.x + 1,
        width: right.width.saturating_sub(1),
        ..right
    };
    lines.draw(app, &mut state.scroll_max, buf, right);
}

/// Columns of a step line besides its id: marker, flags, spaces (7), and two to spare.
const STEP_LINE_EXTRA: usize = 9;

/// `id` in at most `room` characters: whole when it fits, else its start and end around `…`
/// (ids differ at both ends: `to03-…-unwrap`); the step's heading shows it whole.
fn middle_cut(id: &str, room: usize) -> String {
    let length = id.chars().count();
    if length <= room || room < 3 {
        return id.to_owned();
    }
    let tail = (room - 1) / 2;
    let head = room - 1 - tail;
    let start: String = id.chars().take(head).collect();
    let end: String = id.chars().skip(length - tail).collect();
    format!("{start}…{end}")
}

/// The right pane: the effect of the switched-off steps, then the selected step with its diff.
fn step_lines(
    migration: &Migration,
    off: &[&'static str],
    cursor: usize,
    focused: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if !off.is_empty() {
        lines.push(heading(
            &format!("effect of switching off: {}", off.join(", ")),
            theme,
        ));
        // The full result's text, then the other one's: one replayed tree beside the input
        // at a time (the detail's migration keeps no result tree).
        let full = canonical_pretty(&migration.result_without(&[]));
        let without = canonical_pretty(&migration.result_without(off));
        push_diff(&mut lines, &full, &without, theme);
        lines.push(Line::default());
    }
    if let Some(run) = migration.steps.get(cursor) {
        lines.push(heading(
            &format!("{}: {}", run.step.id, run.step.title),
            theme,
        ));
        lines.push(Line::from(Span::styled(
            format!("why: {} ({})", run.step.why, run.step.source),
            theme.secondary(),
        )));
        // Past MAX_LINES nothing can be drawn (see `window`).
        for change in run.changes.iter().take(MAX_LINES) {
            let before = change
                .before
                .as_ref()
                .map(|path| path.to_string())
                .unwrap_or_else(|| "(added)".into());
            let after = change
                .after
                .as_ref()
                .map(|path| path.to_string())
                .unwrap_or_else(|| "(removed)".into());
            lines.push(Line::from(Span::raw(format!("  {before} -> {after}"))));
        }
        if let Some(choice) = &run.choice {
            let taken = if choice.default { "default" } else { "chosen" };
            lines.push(Line::from(Span::styled(
                format!(
                    "choice {} = {} ({taken}); {}",
                    choice.key,
                    safe(&choice.value),
                    safe(&choice.override_hint)
                ),
                theme.warn(),
            )));
        }
        for warning in run.warnings.iter().take(MAX_LINES) {
            let severity = match warning.severity {
                crate::rules::Severity::Note => "note",
                crate::rules::Severity::Warning => "warning",
                crate::rules::Severity::Error => "error",
            };
            lines.push(Line::from(Span::styled(
                format!("{severity}: {} {}", warning.path, safe(&warning.message)),
                theme.warn(),
            )));
        }
        if lines.len() < MAX_LINES {
            if let Some((old, new)) = migration.step_texts(cursor) {
                push_diff(&mut lines, &old, &new, theme);
            }
        }
    }
    if !focused && !migration.steps.is_empty() {
        lines.push(Line::from(Span::styled(
            "l or Enter to step through (n/p, j/k; space switches a step off)",
            theme.secondary(),
        )));
    }
    lines
}

/// Adds the diff of two canonical texts, hunks parted by `⋯`, streamed: a step that
/// re-indents a big document changes every line, and only the first MAX_LINES can be drawn.
fn push_diff(lines: &mut Vec<Line<'static>>, old: &str, new: &str, theme: &Theme) {
    diff::with_text_hunk_lines(old, new, 2, |diff_lines| {
        for (starts_hunk, line) in diff_lines {
            if lines.len() >= MAX_LINES {
                break;
            }
            if starts_hunk {
                lines.push(Line::from(Span::styled("  ⋯", theme.secondary())));
            }
            lines.push(diff_line(&line, theme));
        }
    });
}

fn diff_line(line: &DiffLine, theme: &Theme) -> Line<'static> {
    let style = match line.tag {
        LineTag::Same => theme.secondary(),
        LineTag::Removed => theme.diff_removed(),
        LineTag::Added => theme.diff_added(),
    };
    Line::from(Span::styled(
        format!("{} {}", line.tag.sign(), line.text),
        style,
    ))
}

fn outcome_line(label: &str, verdict: &AdapterVerdict, theme: &Theme) -> Line<'static> {
    match verdict {
        Err(error) => Line::from(vec![
            Span::styled(format!("  {label:<22}"), theme.secondary()),
            Span::styled(format!("rejected [{}] ", error.rule), theme.bad()),
            Span::raw(safe(&error.message)),
        ]),
        Ok(state) => Line::from(vec![
            Span::styled(format!("  {label:<22}"), theme.secondary()),
            Span::styled(
                state
                    .map(|state| state.name())
                    .unwrap_or("NOT a legal state"),
                theme.accent(),
            ),
        ]),
    }
}

fn relabel_lines(relabel: &RelabelOutcome, theme: &Theme) -> Vec<Line<'static>> {
    let sent = relabel
        .sent_version
        .as_deref()
        .unwrap_or("(no string version)");
    let mut lines = vec![
        heading("What an A2A v1.0 migration means for the handoff seam", theme),
        Line::from(Span::raw(format!(
            "This raw adapter packet says version {}. Relabelled {RELABELLED_VERSION}, the adapter rejects it:",
            safe(sent)
        ))),
    ];
    // The rule's condition, then this packet's own rejection: the table's result column is
    // example text (`unsupported A2A version: V`), a placeholder a reader would take as output.
    let rejection = relabel
        .modes
        .iter()
        .find_map(|(_, _, relabelled)| relabelled.as_ref().err());
    if let (Some(row), Some(error)) = (CONVERSION_TABLE.row("C7"), rejection) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {} ", row.id), theme.highlight()),
            Span::raw(format!(
                "{} -> {}: {}",
                row.condition,
                error.kind,
                safe(&error.message)
            )),
        ]));
    }
    lines.push(Line::default());
    for (mode, as_sent, relabelled) in &relabel.modes {
        lines.push(heading(&format!("{mode} mode"), theme));
        lines.push(outcome_line(
            &format!("as sent ({})", safe(sent)),
            as_sent,
            theme,
        ));
        lines.push(outcome_line(
            &format!("relabelled {RELABELLED_VERSION}"),
            relabelled,
            theme,
        ));
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled(
        "The adapter's supported range is >=0.2 <1.0: no handoff rule runs on a v1.0 packet.",
        theme.secondary(),
    )));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::{Choices, Direction};

    /// The lines the view drew from collected hunks before it streamed them.
    fn hunk_lines(hunks: &[Vec<DiffLine>], theme: &Theme) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        for (index, hunk) in hunks.iter().enumerate() {
            if index > 0 {
                lines.push(Line::from(Span::styled("  ⋯", theme.secondary())));
            }
            lines.extend(hunk.iter().map(|line| diff_line(line, theme)));
        }
        lines
    }

    #[test]
    fn streamed_step_diffs_draw_as_the_collected_hunks() {
        let theme = Theme::new(true);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Ok(doc) = serde_json::from_slice(&std::fs::read(&path).unwrap_or_default()) else {
                continue;
            };
            for direction in [Direction::Forward, Direction::Reverse] {
                let Ok(migration) = Migration::run(&doc, direction, &Choices::none()) else {
                    continue;
                };
                for index in 0..migration.steps.len() {
                    let (old, new) = migration.step_texts(index).unwrap();
                    let mut streamed = Vec::new();
                    push_diff(&mut streamed, &old, &new, &theme);
                    let collected = hunk_lines(&migration.step_diff(index, 2), &theme);
                    assert_eq!(streamed, collected, "{path:?} step {index}");
                    compared += usize::from(streamed.iter().any(|line| line.to_string() == "  ⋯"));
                }
                let Some(first) = migration.steps.first() else {
                    continue;
                };
                let off = [first.step.id];
                let mut streamed = Vec::new();
                let full = canonical_pretty(&migration.result);
                push_diff(
                    &mut streamed,
                    &full,
                    &canonical_pretty(&migration.result_without(&off)),
                    &theme,
                );
                assert_eq!(
                    streamed,
                    hunk_lines(&migration.effect_of_switching_off(&off, 2), &theme)
                );
            }
        }
        assert!(compared > 0, "no diff of several hunks among the fixtures");
    }
}
