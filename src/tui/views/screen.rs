//! The frame: the title, the list, the selected tab or the Bundle view, the overlays, the
//! status bar, each drawn from `&App` (read only) with what drawing measures kept in the
//! `ViewState`, taken by `&mut` as ratatui's `StatefulWidget` takes its state.

use crate::tui::state::app::{App, Focus, Overlay, Tab};
use crate::tui::state::keymap::{Binding, Command, Context, KEYMAP};
use crate::tui::views::bundle::BundleView;
use crate::tui::views::conversion::ConversionView;
use crate::tui::views::digests::DigestsView;
use crate::tui::views::findings::FindingsView;
use crate::tui::views::formats::FormatsView;
use crate::tui::views::handoff::HandoffView;
use crate::tui::views::hints::key_hints;
use crate::tui::views::list::fit_right;
use crate::tui::views::migrate::MigrateView;
use crate::tui::views::raw::RawView;
use crate::tui::views::rules::RulesView;
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

pub fn view(app: &App, state: &mut ViewState, frame: &mut Frame) {
    let theme = Theme::new(app.color);
    let screen = frame.area();
    if crate::tui::state::geometry::too_small(screen) {
        let message = format!(
            "handoff-inspector needs at least {}x{} (this terminal is {}x{}).\nEnlarge the window, or press q to quit.",
            crate::tui::state::geometry::MIN_WIDTH,
            crate::tui::state::geometry::MIN_HEIGHT,
            screen.width,
            screen.height
        );
        frame.render_widget(Paragraph::new(message).wrap(Wrap { trim: true }), screen);
        return;
    }
    let areas = crate::tui::state::geometry::areas(screen);
    // Tabs that scroll report their extent while drawing (see `scrolled_detail`).
    state.scroll_max = None;
    state.follow(app);
    title_bar(app, frame, areas.title, &theme);
    crate::tui::views::list::draw(app, frame, areas.list, &theme);
    detail(app, state, frame, areas.detail, &theme);
    status_bar(app, frame, areas.status, &theme);
    match &app.overlay {
        Some(Overlay::Help { scroll }) => crate::tui::views::overlays::help(
            *scroll,
            app.last_message.as_deref(),
            frame,
            screen,
            &theme,
        ),
        Some(Overlay::Filter { cursor }) => {
            crate::tui::views::overlays::filter(app, *cursor, frame, screen, &theme)
        }
        Some(Overlay::WhatIf(whatif)) => {
            crate::tui::views::overlays::whatif(whatif, frame, screen, &theme)
        }
        Some(Overlay::Review(review)) => {
            crate::tui::views::overlays::review(app, review, frame, screen, &theme)
        }
        None => {}
    }
}

/// The status message on its one line: a message too long for it is cut with `…` and says
/// that `?` shows it whole (the help panel's first lines), so it never covers the panes or the
/// selected row.
fn message_line(message: &str, width: u16, theme: &Theme) -> Line<'static> {
    let room = usize::from(width).saturating_sub(1);
    if message.chars().count() <= room {
        return Line::from(Span::styled(format!(" {message}"), theme.warn()));
    }
    const MORE: &str = "  ? shows all";
    let cut = fit_right(message, room.saturating_sub(MORE.chars().count()));
    Line::from(vec![
        Span::styled(format!(" {cut}"), theme.warn()),
        Span::styled("  ?", theme.key()),
        Span::styled(" shows all", theme.text()),
    ])
}

fn title_bar(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    // Each part has a full and a short spelling; on a narrow terminal the least needed parts
    // shorten first (the name, then the words around the figures), so a verdict such as
    // "✗ 1 UNVERIFIED" is never cut in the middle.
    let mut parts: Vec<(String, String, ratatui::style::Style)> = Vec::new();
    parts.push((
        " handoff-inspector ".to_owned(),
        String::new(),
        theme.title(),
    ));
    let shown = app.packet_count();
    let total = app.packets.len();
    let (full, short) = if shown == total {
        (format!(" {total} packets"), format!(" {total} packets"))
    } else {
        (
            format!(" {shown} of {total} packets"),
            format!(" {shown}/{total} packets"),
        )
    };
    parts.push((full, short, theme.text()));
    if app.list.filter.is_active() {
        let filter = app.list.filter.describe();
        parts.push((
            format!("  filter: {filter}"),
            format!("  filter {filter}"),
            theme.warn(),
        ));
    }
    parts.push((
        format!("  mode: {}", app.mode),
        format!("  {}", app.mode),
        theme.accent(),
    ));
    if !app.load_errors.is_empty() {
        let errors = app.load_errors.len();
        parts.push((
            format!("  {errors} load error(s)"),
            format!("  {errors} load err"),
            theme.bad(),
        ));
    }
    let unverified = app
        .bundles
        .iter()
        .filter(|bundle| !bundle.report.is_valid())
        .count();
    if unverified > 0 {
        parts.push((
            format!("  ✗ {unverified} UNVERIFIED bundle(s)"),
            format!("  ✗ {unverified} UNVERIFIED"),
            theme.bad(),
        ));
    }
    let refused = app
        .bundles
        .iter()
        .filter(|bundle| bundle.attestation_refused)
        .count();
    if refused > 0 {
        parts.push((
            format!("  ✗ {refused} attestation(s) refused"),
            format!("  ✗ {refused} REFUSED"),
            theme.bad(),
        ));
    }
    if !app.progress.done {
        let checked = app.progress.packets;
        parts.push((
            format!("  loading… {checked} checked"),
            format!("  loading… {checked}"),
            theme.warn(),
        ));
    }
    let spans = fit_parts(parts, usize::from(area.width))
        .into_iter()
        .map(|(text, style)| Span::styled(text, style))
        .collect::<Vec<_>>();
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// Chooses each part's full or short spelling so that the line fits `width`: parts shorten
/// one at a time from the first (the least needed) on.
fn fit_parts<S>(parts: Vec<(String, String, S)>, width: usize) -> Vec<(String, S)> {
    let length = |text: &String| text.chars().count();
    let mut used: usize = parts.iter().map(|(full, _, _)| length(full)).sum();
    let mut chosen = Vec::with_capacity(parts.len());
    for (full, short, style) in parts {
        if used > width {
            used -= length(&full) - length(&short).min(length(&full));
            chosen.push((short, style));
        } else {
            chosen.push((full, style));
        }
    }
    chosen
}

fn status_bar(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let line = if let Some(input) = &app.search.input {
        Line::from(vec![
            Span::styled("/", theme.key()),
            Span::raw(crate::tui::views::text::safe(input)),
            Span::styled("▏", theme.accent()),
            Span::styled("  Enter search  Esc cancel", theme.dim()),
        ])
    } else if let Some(progress) = crate::tui::state::progress::search_line(app)
        .or_else(|| crate::tui::state::progress::list_line(app))
    {
        Line::from(Span::styled(format!(" {progress}"), theme.warn()))
    } else if let Some(message) = &app.message {
        message_line(message, area.width, theme)
    } else {
        let context = match app.overlay {
            Some(Overlay::WhatIf(_)) => Context::WhatIf,
            Some(Overlay::Review(_)) => Context::Review,
            _ => crate::tui::state::selection::browse_context(app),
        };
        let mut spans = Vec::new();
        if let Some(query) = &app.search.query {
            spans.push(Span::styled(
                format!(" /{} n/N ", crate::tui::views::text::safe(query)),
                theme.accent(),
            ));
        }
        // The context's own keys; outside browsing, help and quit stay in view too.
        let always = |binding: &&Binding| {
            context != Context::Global
                && binding.context == Context::Global
                && matches!(binding.command, Command::Help | Command::Quit)
        };
        let shown: Vec<&Binding> = KEYMAP
            .iter()
            .filter(|binding| {
                (binding.context == context && !binding.short.is_empty()) || always(binding)
            })
            .collect();
        key_hints(&mut spans, shown, area.width, theme);
        Line::from(spans)
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn detail(app: &App, state: &mut ViewState, frame: &mut Frame, area: Rect, theme: &Theme) {
    let focused = app.focus == Focus::Detail;
    let width = usize::from(area.width.saturating_sub(4));
    // The full path is always shown: in the title when it fits, else wrapped above the tabs.
    let (title, path_lines) = match app.selected_summary() {
        Some(summary) => {
            let path = crate::tui::views::text::safe(&summary.source.to_string());
            let full = format!(" {path} · {} ", summary.kind.name());
            if full.chars().count() <= width {
                (full, Vec::new())
            } else if path.chars().count() + 2 <= width {
                (format!(" {path} "), Vec::new())
            } else {
                let chunks: Vec<String> = path
                    .chars()
                    .collect::<Vec<_>>()
                    .chunks(width.max(1))
                    .map(|chunk| chunk.iter().collect())
                    .collect();
                (format!(" {} ", summary.kind.name()), chunks)
            }
        }
        None => (" no packet selected ".to_owned(), Vec::new()),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(crate::tui::views::text::safe(&title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let header = path_lines.len() as u16;
    if inner.height < 3 + header {
        return;
    }
    if header > 0 {
        let lines: Vec<Line> = path_lines
            .into_iter()
            .map(|chunk| Line::from(Span::styled(chunk, theme.text())))
            .collect();
        frame.render_widget(
            Paragraph::new(lines),
            Rect {
                height: header,
                ..inner
            },
        );
    }
    let inner = Rect {
        y: inner.y + header,
        height: inner.height - header,
        ..inner
    };
    let tabs = crate::tui::views::tabbar::line(app.tab, usize::from(inner.width), theme);
    frame.render_widget(Paragraph::new(tabs), Rect { height: 1, ..inner });
    let mut body = Rect {
        y: inner.y + 2,
        height: inner.height - 2,
        ..inner
    };
    match app.tab {
        Tab::Rules => return frame.render_widget(RulesView { app, theme }, body),
        Tab::Formats => {
            return frame.render_stateful_widget(FormatsView { app, theme }, body, state);
        }
        _ => {}
    }
    // A packet of a bundle that fails verification, or whose attestation the trusted keys
    // refuse, says so first, in red, on every tab.
    let banners = app
        .selected_bundle()
        .map(|loaded| {
            let on_event = app
                .selected_summary()
                .is_some_and(|packet| packet.source.is_bundle_event());
            crate::tui::views::bundle::bundle_banners(loaded, on_event, theme)
        })
        .unwrap_or_default();
    for banner in banners {
        // As many rows as the banner wraps to: a narrow pane (80x24) shows it whole.
        let banner = Paragraph::new(banner).wrap(Wrap { trim: false });
        let rows = u16::try_from(banner.line_count(body.width).max(1)).unwrap_or(u16::MAX);
        if body.height > rows.saturating_add(1) {
            frame.render_widget(
                banner,
                Rect {
                    height: rows,
                    ..body
                },
            );
            body = Rect {
                y: body.y + rows,
                height: body.height - rows,
                ..body
            };
        }
    }
    let Some(selected) = &app.detail else {
        frame.render_widget(
            Paragraph::new(empty_message(app))
                .style(theme.dim())
                .wrap(Wrap { trim: true }),
            body,
        );
        return;
    };
    let Some(read) = &selected.read else {
        frame.render_widget(Paragraph::new("reading…").style(theme.dim()), body);
        return;
    };
    let detail = match &read.result {
        Ok(detail) => detail,
        Err(reason) => {
            frame.render_widget(
                Paragraph::new(format!(
                    "cannot read this packet again: {}",
                    crate::tui::views::text::safe(reason)
                ))
                .style(theme.bad()),
                body,
            );
            return;
        }
    };
    // A bundle's own packet: the Bundle view, whichever per-packet tab is chosen.
    if app
        .selected_summary()
        .is_some_and(|packet| packet.bundle.is_some())
    {
        return frame.render_stateful_widget(BundleView { app, detail, theme }, body, state);
    }
    match app.tab {
        Tab::Raw => frame.render_stateful_widget(RawView { app, detail, theme }, body, state),
        Tab::Conversion => {
            frame.render_stateful_widget(ConversionView { app, detail, theme }, body, state)
        }
        Tab::Handoff => {
            frame.render_stateful_widget(HandoffView { app, detail, theme }, body, state)
        }
        Tab::Digests => {
            frame.render_stateful_widget(DigestsView { app, detail, theme }, body, state)
        }
        Tab::Findings => {
            frame.render_stateful_widget(FindingsView { app, detail, theme }, body, state)
        }
        Tab::Migrate => {
            frame.render_stateful_widget(MigrateView { app, detail, theme }, body, state)
        }
        Tab::Rules | Tab::Formats => {}
    }
}

fn empty_message(app: &App) -> String {
    if let Some(crate::tui::state::app::ListRow::Group {
        label,
        count,
        failing,
        folded: true,
        ..
    }) = app.list.rows.get(app.list.selected)
    {
        format!(
            "{}: {count} packet(s), {} failing, folded (l or Enter unfolds)",
            crate::tui::views::text::safe(label),
            failing[app.mode.index()]
        )
    } else if !app.progress.done {
        "loading…".to_owned()
    } else if app.packets.is_empty() {
        "no packets loaded".to_owned()
    } else if app.list.built_over < app.packets.len() {
        "listing…".to_owned()
    } else {
        "no packet matches the filter (Esc clears it)".to_owned()
    }
}
