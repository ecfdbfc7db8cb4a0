//! `view(&App, &mut Frame)`: draws the state, with no side effects.

mod conversion;
mod digests;
mod findings;
mod formats;
mod handoff;
pub mod layout;
mod list;
mod migrate;
mod overlays;
mod profile;
mod raw;
mod rules;
pub mod text;

use super::app::{App, Focus, Overlay, Tab};
use super::keymap::{binding_label, Binding, Command, Context, KEYMAP};
use super::theme::Theme;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Tabs, Wrap};
use ratatui::Frame;

pub fn view(app: &App, frame: &mut Frame) {
    let theme = Theme::new(app.color);
    let screen = frame.area();
    if layout::too_small(screen) {
        let message = format!(
            "handoff-inspector needs at least {}x{} (this terminal is {}x{}).\nEnlarge the window, or press q to quit.",
            layout::MIN_WIDTH,
            layout::MIN_HEIGHT,
            screen.width,
            screen.height
        );
        frame.render_widget(Paragraph::new(message).wrap(Wrap { trim: true }), screen);
        return;
    }
    let areas = layout::areas(screen);
    title_bar(app, frame, areas.title, &theme);
    list::draw(app, frame, areas.list, &theme);
    detail(app, frame, areas.detail, &theme);
    status_bar(app, frame, areas.status, &theme);
    match &app.overlay {
        Some(Overlay::Help) => overlays::help(frame, screen, &theme),
        Some(Overlay::Filter { cursor }) => overlays::filter(app, *cursor, frame, screen, &theme),
        Some(Overlay::WhatIf(whatif)) => overlays::whatif(whatif, frame, screen, &theme),
        Some(Overlay::Message(message)) => overlays::message(message, frame, screen, &theme),
        Some(Overlay::Review(review)) => overlays::review(app, review, frame, screen, &theme),
        None => {}
    }
}

fn title_bar(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut spans = vec![Span::styled(" handoff-inspector ", theme.title())];
    let shown = app.packet_count();
    let total = app.packets.len();
    spans.push(Span::styled(
        if shown == total {
            format!(" {total} packets")
        } else {
            format!(" {shown} of {total} packets")
        },
        theme.text(),
    ));
    if app.filter.is_active() {
        spans.push(Span::styled(
            format!("  filter: {}", app.filter.describe()),
            theme.warn(),
        ));
    }
    spans.push(Span::styled(
        format!("  mode: {}", app.mode),
        theme.accent(),
    ));
    if !app.load_errors.is_empty() {
        spans.push(Span::styled(
            format!("  {} load error(s)", app.load_errors.len()),
            theme.bad(),
        ));
    }
    if !app.progress.done {
        spans.push(Span::styled(
            format!("  loading… {} checked", app.progress.packets),
            theme.warn(),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn status_bar(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let line = if let Some(input) = &app.search_input {
        Line::from(vec![
            Span::styled("/", theme.key()),
            Span::raw(text::safe(input)),
            Span::styled("▏", theme.accent()),
            Span::styled("  Enter search  Esc cancel", theme.dim()),
        ])
    } else if let Some(message) = &app.message {
        Line::from(Span::styled(format!(" {message}"), theme.warn()))
    } else {
        let context = match app.overlay {
            Some(Overlay::WhatIf(_)) => Context::WhatIf,
            Some(Overlay::Review(_)) => Context::Review,
            _ if app.tab == Tab::Migrate && app.focus == Focus::Detail => Context::Migrate,
            _ => Context::Global,
        };
        let mut spans = Vec::new();
        if let Some(query) = &app.search {
            spans.push(Span::styled(
                format!(" /{} n/N ", text::safe(query)),
                theme.accent(),
            ));
        }
        // The context's own keys; outside browsing, help and quit stay in view too.
        let always = |binding: &&Binding| {
            context != Context::Global
                && binding.context == Context::Global
                && matches!(binding.command, Command::Help | Command::Quit)
        };
        let shown = KEYMAP.iter().filter(|binding| {
            (binding.context == context && !binding.short.is_empty()) || always(binding)
        });
        for binding in shown {
            let (key, word) = binding.short.split_once(' ').unwrap_or((binding.short, ""));
            spans.push(Span::styled(format!(" {key}"), theme.key()));
            spans.push(Span::styled(format!(" {word} "), theme.dim()));
        }
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn detail(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let focused = app.focus == Focus::Detail;
    let title = match app.selected_summary() {
        Some(summary) => format!(" {} · {} ", summary.source, summary.kind.name()),
        None => " no packet selected ".to_owned(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(text::safe(&title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height < 3 {
        return;
    }
    let tabs = Tabs::new(
        Tab::ALL
            .iter()
            .enumerate()
            .map(|(index, tab)| format!("{} {}", index + 1, tab.title())),
    )
    .select(app.tab.index())
    .style(theme.dim())
    .highlight_style(
        theme
            .accent()
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
    )
    .divider("│");
    frame.render_widget(tabs, Rect { height: 1, ..inner });
    let body = Rect {
        y: inner.y + 2,
        height: inner.height - 2,
        ..inner
    };
    match app.tab {
        Tab::Rules => return rules::draw(app, frame, body, theme),
        Tab::Formats => return formats::draw(app, frame, body, theme),
        _ => {}
    }
    let Some(selected) = &app.detail else {
        frame.render_widget(Paragraph::new(empty_message(app)).style(theme.dim()), body);
        return;
    };
    let detail = match &selected.result {
        Ok(detail) => detail,
        Err(reason) => {
            frame.render_widget(
                Paragraph::new(format!(
                    "cannot read this packet again: {}",
                    text::safe(reason)
                ))
                .style(theme.bad()),
                body,
            );
            return;
        }
    };
    match app.tab {
        Tab::Raw => raw::draw(app, detail, frame, body, theme),
        Tab::Conversion => conversion::draw(app, detail, frame, body, theme),
        Tab::Handoff => handoff::draw(app, detail, frame, body, theme),
        Tab::Digests => digests::draw(app, detail, frame, body, theme),
        Tab::Findings => findings::draw(app, detail, frame, body, theme),
        Tab::Migrate => migrate::draw(app, detail, frame, body, theme),
        Tab::Rules | Tab::Formats => {}
    }
}

fn empty_message(app: &App) -> String {
    if let Some(super::app::ListRow::Group {
        label,
        count,
        failing,
        folded: true,
    }) = app.rows.get(app.selected)
    {
        format!(
            "{}: {count} packet(s), {failing} failing, folded (l or Enter unfolds)",
            text::safe(label)
        )
    } else if !app.progress.done {
        "loading…".to_owned()
    } else if app.packets.is_empty() {
        "no packets loaded".to_owned()
    } else {
        "no packet matches the filter (Esc clears it)".to_owned()
    }
}

/// Renders prose lines as a scrollable paragraph that wraps at the pane's width.
pub(super) fn scrolled_wrapped(
    lines: Vec<Line<'static>>,
    scroll: u16,
    frame: &mut Frame,
    area: Rect,
) {
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        area,
    );
}

/// Renders lines as a scrollable paragraph.
pub(super) fn scrolled(lines: Vec<Line<'static>>, scroll: u16, frame: &mut Frame, area: Rect) {
    let max = (lines.len() as u16).saturating_sub(area.height);
    frame.render_widget(Paragraph::new(lines).scroll((scroll.min(max), 0)), area);
}

/// What `y` copies: the selected field's evidence path (Handoff), the selected digest
/// (Digests), otherwise the packet's source.
pub fn copy_target(app: &App) -> Option<String> {
    match app.tab {
        Tab::Handoff => handoff::copy_target(app),
        Tab::Digests => digests::copy_target(app),
        _ => app
            .selected_summary()
            .map(|summary| summary.source.to_string()),
    }
}

/// The help text of one context, generated from the keymap.
pub fn help_lines(context: Context, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![text::heading(context.title(), theme)];
    for binding in KEYMAP.iter().filter(|binding| binding.context == context) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<14}", binding_label(binding)), theme.key()),
            Span::raw(binding.help),
        ]));
    }
    lines
}
