//! The frame as one `StatefulWidget`, `Screen`: the title, the list, the selected tab or the
//! Bundle view, the overlays, the status bar, each drawn from `&App` (read only) with what
//! drawing measures kept in the `ViewState`, its state.

use crate::tui::state::app::{App, Focus, Overlay, Tab};
use crate::tui::state::keymap::{Binding, Command, Context, KEYMAP};
use crate::tui::views::bundle::BundleView;
use crate::tui::views::conversion::ConversionView;
use crate::tui::views::digests::DigestsView;
use crate::tui::views::findings::FindingsView;
use crate::tui::views::formats::FormatsView;
use crate::tui::views::handoff::HandoffView;
use crate::tui::views::hints::key_hints;
use crate::tui::views::list::{fit_right, ListView};
use crate::tui::views::migrate::MigrateView;
use crate::tui::views::overlays::{FilterMenu, HelpPanel, ReviewPanel, WhatIfPanel};
use crate::tui::views::raw::RawView;
use crate::tui::views::rules::RulesView;
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, StatefulWidget, Widget, Wrap};

/// The whole screen drawn from the state: the title, the list, the detail pane with the
/// selected tab (or the Bundle view), the overlay and the status bar. A `StatefulWidget` whose
/// state is the `ViewState`, rendered over the frame's area by `runtime::frame::draw_frame`.
pub struct Screen<'a> {
    pub app: &'a App,
}

impl StatefulWidget for Screen<'_> {
    type State = ViewState;

    fn render(self, screen: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let Screen { app } = self;
        let theme = Theme::new(app.color);
        if crate::tui::state::geometry::too_small(screen) {
            let message = format!(
                "handoff-inspector needs at least {}x{} (this terminal is {}x{}).\nEnlarge the window, or press q to quit.",
                crate::tui::state::geometry::MIN_WIDTH,
                crate::tui::state::geometry::MIN_HEIGHT,
                screen.width,
                screen.height
            );
            Paragraph::new(message)
                .wrap(Wrap { trim: true })
                .render(screen, buf);
            return;
        }
        let areas = crate::tui::state::geometry::areas(screen);
        // Tabs that scroll report their extent while drawing (see `scrolled_detail`).
        state.scroll_max = None;
        state.follow(app);
        title_bar(app, buf, areas.title, &theme);
        ListView { app, theme: &theme }.render(areas.list, buf);
        detail(app, state, buf, areas.detail, &theme);
        status_bar(app, buf, areas.status, &theme);
        let theme = &theme;
        match &app.overlay {
            Some(Overlay::Help { scroll }) => HelpPanel {
                scroll: *scroll,
                last_message: app.last_message.as_deref(),
                theme,
            }
            .render(screen, buf),
            Some(Overlay::Filter { cursor }) => FilterMenu {
                app,
                cursor: *cursor,
                theme,
            }
            .render(screen, buf),
            Some(Overlay::WhatIf(whatif)) => WhatIfPanel { whatif, theme }.render(screen, buf),
            Some(Overlay::Review(review)) => ReviewPanel { app, review, theme }.render(screen, buf),
            None => {}
        }
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

fn title_bar(app: &App, buf: &mut Buffer, area: Rect, theme: &Theme) {
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
    Paragraph::new(Line::from(spans)).render(area, buf);
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

fn status_bar(app: &App, buf: &mut Buffer, area: Rect, theme: &Theme) {
    let line = if let Some(input) = &app.search.input {
        Line::from(vec![
            Span::styled("/", theme.key()),
            Span::raw(crate::tui::views::text::safe(input)),
            Span::styled("▏", theme.accent()),
            Span::styled("  Enter search  Esc cancel", theme.secondary()),
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
    Paragraph::new(line).render(area, buf);
}

fn detail(app: &App, state: &mut ViewState, buf: &mut Buffer, area: Rect, theme: &Theme) {
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
        .title_style(theme.pane_title(focused))
        .title(crate::tui::views::text::safe(&title));
    let inner = block.inner(area);
    block.render(area, buf);
    let header = path_lines.len() as u16;
    if inner.height < 3 + header {
        return;
    }
    if header > 0 {
        let lines: Vec<Line> = path_lines
            .into_iter()
            .map(|chunk| Line::from(Span::styled(chunk, theme.text())))
            .collect();
        Paragraph::new(lines).render(
            Rect {
                height: header,
                ..inner
            },
            buf,
        );
    }
    let inner = Rect {
        y: inner.y + header,
        height: inner.height - header,
        ..inner
    };
    let tabs = crate::tui::views::tabbar::line(app.tab, usize::from(inner.width), theme);
    Paragraph::new(tabs).render(Rect { height: 1, ..inner }, buf);
    let mut body = Rect {
        y: inner.y + 2,
        height: inner.height - 2,
        ..inner
    };
    match app.tab {
        Tab::Rules => return RulesView { app, theme }.render(body, buf),
        Tab::Formats => {
            return FormatsView { app, theme }.render(body, buf, state);
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
        let banner = crate::tui::views::hanging::rows(&banner, body.width);
        let rows = u16::try_from(banner.len().max(1)).unwrap_or(u16::MAX);
        if body.height > rows.saturating_add(1) {
            Paragraph::new(banner).render(
                Rect {
                    height: rows,
                    ..body
                },
                buf,
            );
            body = Rect {
                y: body.y + rows,
                height: body.height - rows,
                ..body
            };
        }
    }
    let Some(selected) = &app.detail else {
        Paragraph::new(empty_message(app))
            .style(theme.secondary())
            .wrap(Wrap { trim: true })
            .render(body, buf);
        return;
    };
    let Some(read) = &selected.read else {
        Paragraph::new("reading…")
            .style(theme.secondary())
            .render(body, buf);
        return;
    };
    let detail = match &read.result {
        Ok(detail) => detail,
        Err(reason) => {
            Paragraph::new(format!(
                "cannot read this packet again: {}",
                crate::tui::views::text::safe(reason)
            ))
            .style(theme.bad())
            .render(body, buf);
            return;
        }
    };
    // A bundle's own packet: the Bundle view, whichever per-packet tab is chosen.
    if app
        .selected_summary()
        .is_some_and(|packet| packet.bundle.is_some())
    {
        return BundleView { app, detail, theme }.render(body, buf, state);
    }
    match app.tab {
        Tab::Raw => RawView { app, detail, theme }.render(body, buf, state),
        Tab::Conversion => ConversionView { app, detail, theme }.render(body, buf, state),
        Tab::Handoff => HandoffView { app, detail, theme }.render(body, buf, state),
        Tab::Digests => DigestsView { app, detail, theme }.render(body, buf, state),
        Tab::Findings => FindingsView { app, detail, theme }.render(body, buf, state),
        Tab::Migrate => MigrateView { app, detail, theme }.render(body, buf, state),
        Tab::Rules | Tab::Formats => {}
    }
}

fn empty_message(app: &App) -> String {
    if let Some(crate::tui::state::list_rows::GroupHeader {
        label,
        count,
        failing,
        folded: true,
        ..
    }) = app
        .list
        .rows
        .get(app.list.selected)
        .and_then(|row| row.group())
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
