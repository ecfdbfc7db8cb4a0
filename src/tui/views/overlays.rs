//! Panels drawn over the screen: help, filter menu, what-if, messages.

use crate::corpus::FindingKind;
use crate::tui::state::app::{filter_choices, App, FilterChoice, ReviewState};
use crate::tui::state::geometry::centered;
use crate::tui::state::keymap::{Context, KEYMAP};
use crate::tui::state::status::glyph;
use crate::tui::state::whatif::WhatIf;
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

fn panel(buf: &mut Buffer, area: Rect, title: &str, theme: &Theme) -> Rect {
    // A blank column each side: letters of the pane below never sit against the border.
    let screen = *buf.area();
    let left = area.x.saturating_sub(1).max(screen.x);
    let right = (area.x + area.width + 1).min(screen.x + screen.width);
    Clear.render(
        Rect {
            x: left,
            width: right - left,
            ..area
        },
        buf,
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.accent())
        .title(format!(" {title} "));
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// The key help (`?`): two columns when they fit whole, else one that wraps and scrolls by
/// `scroll` rows; `last_message`, the status bar's last message (cut there when long), whole
/// at its top.
pub struct HelpPanel<'a> {
    pub scroll: u16,
    pub last_message: Option<&'a str>,
    pub theme: &'a Theme,
}

impl Widget for HelpPanel<'_> {
    fn render(self, screen: Rect, buf: &mut Buffer) {
        let HelpPanel {
            scroll,
            last_message,
            theme,
        } = self;
        let mut browse = Vec::new();
        if let Some(message) = last_message {
            browse.push(heading("Last message", theme));
            for line in crate::tui::views::text::wrap_words(message, 60) {
                browse.push(Line::from(Span::styled(line, theme.warn())));
            }
            browse.push(Line::default());
        }
        browse.extend(crate::tui::views::hints::help_lines(Context::Global, theme));
        let mut panels = crate::tui::views::hints::help_lines(Context::WhatIf, theme);
        panels.push(Line::default());
        panels.extend(crate::tui::views::hints::help_lines(
            Context::Migrate,
            theme,
        ));
        panels.push(Line::default());
        panels.extend(crate::tui::views::hints::help_lines(Context::Review, theme));
        panels.push(Line::default());
        panels.push(heading("Meaning", theme));
        for note in [
            "Every handoff flag is visibility evidence only;",
            "none means a handoff was valid, authorized,",
            "complete, trusted or successful.",
            "",
        ] {
            panels.push(Line::from(Span::styled(note, theme.secondary())));
        }
        // The glyph legend, from the glyphs and labels every screen uses (docs/inspector.md's table
        // adds each one's meaning from the same definitions).
        for line in crate::tui::state::status::LEGEND_ROWS {
            let mut spans = Vec::new();
            if let Some(prefix) = line.0 {
                spans.push(Span::styled(prefix, theme.secondary()));
            }
            for (at, status) in line.1.iter().enumerate() {
                let gap = if at == 0 { "" } else { "  " };
                spans.push(Span::styled(
                    format!("{gap}{} {}", glyph(*status), status.label()),
                    theme.status(*status),
                ));
            }
            if let Some(suffix) = line.2 {
                spans.push(Span::styled(suffix, theme.secondary()));
            }
            panels.push(Line::from(spans));
        }
        panels.push(Line::default());
        for note in crate::tui::views::text::wrap_words(crate::tui::views::scroll::WRAP_RULE, 46) {
            panels.push(Line::from(Span::styled(note, theme.secondary())));
        }
        let height = browse.len().max(panels.len()) as u16 + 2;
        // Two columns when they fit whole; otherwise one column that wraps and scrolls (j/k).
        if screen.width >= 126 && screen.height >= height + 2 {
            let area = centered(screen, 124, height);
            let inner = panel(buf, area, "keys (any key closes)", theme);
            let [left, right] =
                Layout::horizontal([Constraint::Percentage(52), Constraint::Percentage(48)])
                    .areas(inner);
            Paragraph::new(browse).render(left, buf);
            Paragraph::new(panels).render(right, buf);
            return;
        }
        let mut lines = browse;
        lines.push(Line::default());
        lines.extend(panels);
        let area = centered(screen, 100, screen.height);
        let inner = panel(buf, area, "keys (j/k scroll, any other key closes)", theme);
        crate::tui::views::scroll::scrolled_wrapped(lines, scroll, buf, inner);
    }
}

/// The filter menu (`f`), its cursor on `cursor`, the active choices marked.
pub struct FilterMenu<'a> {
    pub app: &'a App,
    pub cursor: usize,
    pub theme: &'a Theme,
}

impl Widget for FilterMenu<'_> {
    fn render(self, screen: Rect, buf: &mut Buffer) {
        let FilterMenu { app, cursor, theme } = self;
        let labels: Vec<(String, bool)> = filter_choices()
            .iter()
            .map(|choice| match choice {
                FilterChoice::Clear => {
                    ("clear all filters".to_owned(), !app.list.filter.is_active())
                }
                FilterChoice::Status(status) => (
                    format!("status  {} {}", glyph(*status), status.label()),
                    app.list.filter.status == Some(*status),
                ),
                FilterChoice::Kind(kind) => (
                    format!("kind    {}", kind.name()),
                    app.list.filter.kind == Some(*kind),
                ),
                FilterChoice::Rule(rule) => (
                    format!("rule    {rule} ({} mode)", app.mode),
                    app.list.filter.rule.map(|rule| rule.0) == Some(*rule),
                ),
            })
            .collect();
        // As wide as its longest choice (the active marker and the borders beside it), so every
        // choice reads in full wherever the screen allows: a cut label names no kind.
        const MARKER: &str = " ● ";
        let longest = labels
            .iter()
            .map(|(label, _)| Span::raw(label.as_str()).width())
            .max()
            .unwrap_or(0);
        let width = u16::try_from(longest + MARKER.chars().count() + 2).unwrap_or(u16::MAX);
        let area = centered(screen, width, 22);
        let inner = panel(buf, area, "filter (Enter applies, Esc closes)", theme);
        let height = usize::from(inner.height);
        let start = cursor
            .saturating_sub(height.saturating_sub(1) / 2)
            .min(labels.len().saturating_sub(height));
        let lines: Vec<Line> = labels
            .into_iter()
            .enumerate()
            .skip(start)
            .take(height)
            .map(|(index, (label, active))| {
                let line = Line::from(vec![
                    Span::raw(if active { MARKER } else { "   " }),
                    Span::raw(label),
                ]);
                if index == cursor {
                    line.style(theme.selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }
}

/// The what-if panel (`w`): the edited inputs and the outcome of converting them.
pub struct WhatIfPanel<'a> {
    pub whatif: &'a WhatIf,
    pub theme: &'a Theme,
}

impl Widget for WhatIfPanel<'_> {
    fn render(self, screen: Rect, buf: &mut Buffer) {
        let WhatIfPanel { whatif, theme } = self;
        let area = centered(screen, 100, 30);
        let inner = panel(buf, area, "what-if (in memory; nothing is written)", theme);
        let shown = |value: &Option<String>| {
            value
                .as_deref()
                .map(|text| format!("\"{}\"", safe(text)))
                .unwrap_or_else(|| "absent".to_owned())
        };
        let yes_no = |present: bool| if present { "present" } else { "absent" }.to_owned();
        let explanation = &whatif.explanation;
        let mut lines = vec![
            Line::from(Span::styled(safe(&whatif.source), theme.secondary())),
            Line::default(),
            heading("inputs", theme),
            toggle("e", "event_type", shown(&whatif.event_type), theme),
            toggle("k", "task.kind", shown(&whatif.task_kind), theme),
            toggle("t", "task.id", yes_no(whatif.task_id), theme),
            toggle("i", "message.id", yes_no(whatif.message_id), theme),
            toggle("m", "mode", whatif.mode.to_string(), theme),
            Line::default(),
            heading("outcome", theme),
        ];
        match &explanation.conversion.result {
            Err(error) => lines.push(Line::from(vec![
                Span::styled(format!("  rejected [{}] ", error.rule), theme.bad()),
                Span::raw(format!("{}: {}", error.kind.name(), safe(&error.message))),
            ])),
            Ok(converted) => {
                lines.push(Line::from(vec![
                    Span::styled("  event ", theme.secondary()),
                    Span::raw(converted.canonical_type.name()),
                ]));
                for field in &explanation.fields {
                    lines.push(crate::tui::views::text::field_line("  ", field, theme));
                }
                lines.push(Line::from(vec![
                    Span::styled("  state ", theme.secondary()),
                    Span::styled(
                        explanation
                            .state
                            .map(|state| state.name())
                            .unwrap_or("NOT a legal state"),
                        theme.accent(),
                    ),
                    Span::styled(
                        format!("  {}", converted.handoff_digest().short(16)),
                        theme.secondary(),
                    ),
                ]));
            }
        }
        let matched: Vec<&str> = explanation.matched().collect();
        lines.push(Line::from(vec![
            Span::styled("  rows matched ", theme.secondary()),
            Span::styled(
                if matched.is_empty() {
                    "none".to_owned()
                } else {
                    matched.join(" ")
                },
                theme.highlight(),
            ),
        ]));
        if let Some(first) = explanation
            .rows
            .iter()
            .find(|row| row.verdict == crate::rules::Verdict::Matched)
        {
            lines.push(Line::from(Span::styled(
                format!(
                    "  {}: {}",
                    first.rule,
                    crate::report::explain::evidence_listed(
                        explanation,
                        first,
                        crate::tui::views::handoff::LISTED_EVIDENCE
                    )
                ),
                theme.secondary(),
            )));
        }
        lines.push(Line::default());
        let keys: Vec<String> = KEYMAP
            .iter()
            .filter(|binding| binding.context == Context::WhatIf && !binding.short.is_empty())
            .map(|binding| binding.short.to_owned())
            .collect();
        lines.push(Line::from(Span::styled(keys.join("  "), theme.secondary())));
        Paragraph::new(lines).render(inner, buf);
    }
}

fn toggle(key: &str, name: &str, value: String, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("  {key} "), theme.key()),
        Span::raw(format!("{name:<12} ")),
        Span::styled(value, theme.accent()),
    ])
}

/// Changed paths listed per finding in the review panel (the Digests tab behind lists all).
const REVIEW_PATHS: usize = 8;

/// How the review's queue meets the list's failing count, in words: the two numbers a
/// reviewer sees must add up.
fn tally_words(tally: &crate::tui::state::app::ReviewTally, mode: crate::a2a::Mode) -> String {
    let listed = tally.failing + tally.not_golden + tally.rejected_before;
    let mut text = format!(
        "in review: {} of the list's {listed} failing ({mode})",
        tally.failing
    );
    if tally.other > 0 {
        text.push_str(&format!(
            " + {} with no golden or drift in the other mode",
            tally.other
        ));
    }
    if tally.rejected_before > 0 {
        text.push_str(&format!(
            "; {} rejected earlier this session",
            tally.rejected_before
        ));
    }
    if tally.not_golden > 0 {
        text.push_str(&format!(
            "; {} fail for reasons a golden does not settle (Findings tab)",
            tally.not_golden
        ));
    }
    text
}

/// The golden review: what differs for the packet under review, and the decision keys. Drawn
/// over the lower part of the screen so the Digests tab above stays in view.
pub struct ReviewPanel<'a> {
    pub app: &'a App,
    pub review: &'a ReviewState,
    pub theme: &'a Theme,
}

impl Widget for ReviewPanel<'_> {
    fn render(self, screen: Rect, buf: &mut Buffer) {
        let ReviewPanel { app, review, theme } = self;
        let height = 20.min(screen.height.saturating_sub(4));
        // The whole width, ending on the panes' bottom border: nothing of the panes below shows
        // between its border and theirs.
        let area = Rect {
            x: screen.x,
            y: screen.y + screen.height.saturating_sub(height + 1),
            width: screen.width,
            height,
        };
        let title = format!(
            "golden review {} of {}",
            review.position + 1,
            review.queue.len()
        );
        let inner = panel(buf, area, &title, theme);
        let mut lines = Vec::new();
        match review.queue.get(review.position) {
            Some(source) => lines.push(Line::from(Span::styled(
                safe(&source.to_string()),
                theme.title(),
            ))),
            None => lines.push(Line::from("nothing left to review")),
        }
        lines.push(Line::from(Span::styled(
            tally_words(&review.tally, app.mode),
            theme.secondary(),
        )));
        // Where a pending packet came from: a CI run's `check --write-pending`.
        if let Some(file) = review
            .queue
            .get(review.position)
            .and_then(|source| crate::tui::state::review::pending_file_of(app, source))
        {
            lines.push(Line::from(Span::styled(
                format!(
                    "pending in {} (left by check --write-pending; {} pending first); a here records this run's check, bless --accept-pending records what that run saw",
                    safe(&file.display().to_string()),
                    review.pending
                ),
                theme.warn(),
            )));
        }
        if let Some(check) = app.selected_check() {
            for finding in check
                .findings
                .iter()
                .filter(|finding| crate::tui::state::review::reviewed(finding.kind))
            {
                let style = if finding.kind == FindingKind::NoGolden {
                    theme.secondary()
                } else {
                    theme.bad()
                };
                let what = if finding.kind == FindingKind::PairedMismatch {
                    "paired payload "
                } else {
                    ""
                };
                lines.push(Line::from(Span::styled(
                    format!("  {what}{}", safe(&finding.message)),
                    style,
                )));
                // What changed in the event, path by path (before -> after).
                if let Some(diff) = &finding.diff {
                    for change in diff.changes.iter().take(REVIEW_PATHS) {
                        lines.push(Line::from(Span::styled(
                            format!("    {}", change.describe()),
                            theme.secondary(),
                        )));
                    }
                    if diff.total_changes > REVIEW_PATHS {
                        lines.push(Line::from(Span::styled(
                            format!("    ... and {} more", diff.total_changes - REVIEW_PATHS),
                            theme.secondary(),
                        )));
                    }
                }
            }
        }
        if let (Some(check), Some(selected)) = (app.selected_check(), app.detail_read()) {
            lines.extend(crate::tui::views::golden::accept_lines(
                check,
                &selected.golden,
                theme,
            ));
            if check
                .findings
                .iter()
                .any(|finding| finding.kind == FindingKind::PairedMismatch)
            {
                lines.push(Line::from(Span::styled(
                    "  accepting never writes a paired payload file: the command above does, after review",
                    theme.warn(),
                )));
            }
        }
        if review.rejected > 0 {
            lines.push(Line::from(Span::styled(
                format!("{} rejected this session", review.rejected),
                theme.secondary(),
            )));
        }
        // The decision keys (or the confirmation) keep the panel's last row whatever the preview
        // above them takes; the preview wraps and ends in … when it is cut.
        let mut footer: Vec<Line<'static>> = Vec::new();
        if review.confirming {
            let dir = app
                .selected_summary()
                .map(|packet| crate::corpus::manifest_key(&packet.source).0)
                .unwrap_or_default();
            footer.push(Line::from(vec![
                Span::styled(
                    format!(
                        "Record this outcome in {}? ",
                        safe(&crate::golden::manifest_path(&dir).display().to_string())
                    ),
                    theme.warn(),
                ),
                Span::styled("y", theme.key()),
                Span::raw(" yes   "),
                Span::styled("any other key", theme.key()),
                Span::raw(" no"),
            ]));
        } else {
            let keys: Vec<Span> = KEYMAP
                .iter()
                .filter(|binding| binding.context == Context::Review && !binding.short.is_empty())
                .flat_map(|binding| {
                    let (key, word) = binding.short.split_once(' ').unwrap_or((binding.short, ""));
                    [
                        Span::styled(format!("{key} "), theme.key()),
                        Span::styled(format!("{word}   "), theme.secondary()),
                    ]
                })
                .collect();
            footer.push(Line::from(keys));
        }
        let body = Rect {
            height: inner.height.saturating_sub(1),
            ..inner
        };
        let footer_area = Rect {
            y: inner.y + body.height,
            height: inner.height - body.height,
            ..inner
        };
        let rows = crate::tui::views::hanging::wrapped(&lines, body.width);
        let cut = rows.len() > usize::from(body.height);
        Paragraph::new(rows).render(body, buf);
        if cut && body.height > 0 {
            let marker = Rect {
                y: body.y + body.height - 1,
                height: 1,
                ..body
            };
            // The cut line's own text would otherwise show after the marker's end.
            ratatui::widgets::Clear.render(marker, buf);
            Paragraph::new(Line::from(Span::styled(
                "… (more: see the Digests tab behind this panel)",
                theme.secondary(),
            )))
            .render(marker, buf);
        }
        Paragraph::new(footer).render(footer_area, buf);
    }
}
