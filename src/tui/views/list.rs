//! The packet list: group headers and one line per packet with its status glyph, kind, event
//! type and named handoff state.

use crate::tui::state::app::{App, Focus, ListRow};
use crate::tui::state::listed::ModeShown;
use crate::tui::state::status::glyph;
use crate::tui::views::text::safe;
use crate::tui::views::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

/// The packet list drawn from the state: its rows, the selection and the scroll are the
/// `App`'s (`update` keeps them), so the widget keeps nothing between frames.
pub struct ListView<'a> {
    pub app: &'a App,
    pub theme: &'a Theme,
}

impl Widget for ListView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let ListView { app, theme } = self;
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border(app.focus == Focus::List))
            .title_style(theme.pane_title(app.focus == Focus::List))
            .title(" packets ");
        let inner = block.inner(area);
        block.render(area, buf);
        let height = usize::from(inner.height);
        let width = usize::from(inner.width);
        let shown: Vec<(usize, &ListRow)> = app
            .list
            .rows
            .iter()
            .enumerate()
            .skip(app.list.offset)
            .take(height)
            .collect();
        let names: Vec<String> = shown
            .iter()
            .filter_map(|(_, row)| match row {
                ListRow::Packet(index) => Some(packet_name(app, *index)),
                ListRow::Group(_) => None,
            })
            .collect();
        let columns = Columns::for_width(width, &names);
        let short_names = distinct_abbreviations(&names, columns.name);
        let mut short_names = short_names.into_iter();
        let lines: Vec<Line> = shown
            .into_iter()
            .map(|(row, entry)| {
                let line = match entry {
                    ListRow::Group(group) => group_line(
                        &group.label,
                        group.count,
                        group.failing[app.mode.index()],
                        group.folded,
                        group.bundle.as_ref(),
                        width,
                        theme,
                    ),
                    ListRow::Packet(index) => {
                        let name = short_names.next().unwrap_or_default();
                        packet_line(app, *index, &name, columns, theme)
                    }
                };
                if row == app.list.selected {
                    line.style(theme.selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }
}

/// Column widths of the packet rows. The name comes first and takes what it needs; the state
/// column (short) gets what is left, then the event column, shrunk down to `MIN_EVENT_WIDTH`,
/// and a column with no room is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Columns {
    name: usize,
    event: usize,
    state: usize,
}

const EVENT_WIDTH: usize = 16;
const MIN_EVENT_WIDTH: usize = 8;
const STATE_WIDTH: usize = 9;
const GLYPH_WIDTH: usize = 3;

impl Columns {
    fn for_width(width: usize, names: &[String]) -> Columns {
        let longest = names
            .iter()
            .map(|name| name.chars().count())
            .max()
            .unwrap_or(0);
        let room = width.saturating_sub(GLYPH_WIDTH);
        let mut left = room.saturating_sub(longest);
        let state = if left > STATE_WIDTH { STATE_WIDTH } else { 0 };
        left -= if state > 0 { 1 + state } else { 0 };
        let event = if left > MIN_EVENT_WIDTH {
            (left - 1).min(EVENT_WIDTH)
        } else {
            0
        };
        let used = [event, state]
            .iter()
            .map(|column| if *column > 0 { 1 + column } else { 0 })
            .sum::<usize>();
        Columns {
            name: room.saturating_sub(used),
            event,
            state,
        }
    }
}

/// The name a packet is listed under: its file name without `.json`, or `:line` in a stream.
fn packet_name(app: &App, index: usize) -> String {
    let source = &app.packets[index].source;
    match source.line {
        Some(line) => format!(":{line}"),
        None => {
            let file = source.file_name().unwrap_or("?");
            file.strip_suffix(".json").unwrap_or(file).to_owned()
        }
    }
}

/// Shortens every name to `width` in the middle, choosing where the ellipsis goes so that
/// names that differ still differ once shortened (where any split can achieve that).
pub fn distinct_abbreviations(names: &[String], width: usize) -> Vec<String> {
    let abbreviate = |head: usize| -> Vec<String> {
        names
            .iter()
            .map(|name| fit_split(name, width, head))
            .collect()
    };
    let distinct_names = names.iter().collect::<std::collections::HashSet<_>>().len();
    let balanced = width.saturating_sub(1) / 2;
    // Try the balanced split first, then ones moving the ellipsis further out on each side.
    let candidates = (0..width).flat_map(|shift| {
        [balanced.checked_sub(shift), Some(balanced + shift)]
            .into_iter()
            .flatten()
            .filter(move |head| *head < width && (shift > 0 || *head == balanced))
    });
    let mut first = None;
    for head in candidates {
        let shortened = abbreviate(head);
        if shortened
            .iter()
            .collect::<std::collections::HashSet<_>>()
            .len()
            == distinct_names
        {
            return shortened;
        }
        first.get_or_insert(shortened);
    }
    first.unwrap_or_else(|| abbreviate(balanced))
}

/// Shortens `text` to `width` keeping `head` characters of its start and the rest of its end.
fn fit_split(text: &str, width: usize, head: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    if width < 3 {
        return fit_right(text, width);
    }
    let head = head.min(width - 2);
    let tail = width - 1 - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// `▾ fixtures/a2a/ 34 · 3 failing`: the counts first claim their room, the label (shortened
/// from the left, keeping the directory's own name) takes the rest. A bundle's group adds
/// upstream's verdict: `✓ verified` (its checks all pass) or `✗ ErrorCode`. Where the whole
/// tail does not fit, it drops the packet count, then the verdict's code, but a failing count
/// always keeps its word (a bare `· 1` said nothing).
fn group_line(
    label: &str,
    count: usize,
    failing: usize,
    folded: bool,
    bundle: Option<&Result<(), String>>,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let marker = if folded { "▸" } else { "▾" };
    let failing_part = if failing > 0 {
        format!(" · {failing} failing")
    } else {
        String::new()
    };
    let verdict = |with_code: bool| match bundle {
        Some(Ok(())) if with_code => (" ✓ verified".to_owned(), theme.good()),
        Some(Ok(())) => (" ✓".to_owned(), theme.good()),
        Some(Err(code)) if with_code => (format!(" ✗ {}", safe(code)), theme.bad()),
        Some(Err(_)) => (" ✗".to_owned(), theme.bad()),
        None => (String::new(), theme.secondary()),
    };
    // The label keeps room for its own name (a bundle's or stream's file name, a directory's
    // last component, after `…/`), up to 24 columns, before the tail is shortened: which
    // group it is matters more than the verdict's code, which the detail pane names too.
    let min_label = (own_name(label).chars().count() + 2).clamp(8, 24);
    let mut tail = (String::new(), verdict(false));
    for (with_count, with_code) in [(true, true), (false, true), (false, false)] {
        let total = if with_count {
            format!(" {count}")
        } else {
            String::new()
        };
        let shown = verdict(with_code);
        let used = [&total, &shown.0, &failing_part]
            .iter()
            .map(|part| part.chars().count())
            .sum::<usize>();
        tail = (total, shown);
        if 2 + min_label + used <= width {
            break;
        }
    }
    let (total, (verdict, verdict_style)) = tail;
    let room = width.saturating_sub(
        2 + total.chars().count() + verdict.chars().count() + failing_part.chars().count(),
    );
    Line::from(vec![
        Span::styled(
            format!("{marker} {}", safe(&fit_path(label, room.max(4)))),
            theme.title(),
        ),
        Span::styled(verdict, verdict_style),
        Span::styled(total, theme.secondary()),
        Span::styled(failing_part, theme.bad()),
    ])
}

fn packet_line(
    app: &App,
    index: usize,
    name: &str,
    columns: Columns,
    theme: &Theme,
) -> Line<'static> {
    let packet = &app.packets[index];
    let status = app.status(index);
    let mut spans = vec![
        Span::styled(format!(" {} ", glyph(status)), theme.status(status)),
        Span::styled(
            format!("{:<width$}", safe(name), width = columns.name),
            theme.text(),
        ),
    ];
    if columns.event > 0 {
        let event = match packet.mode(app.mode).map(|mode| mode.shown) {
            Some(ModeShown::Converted(canonical_type)) => canonical_type.short_name().to_owned(),
            Some(ModeShown::Rejected(rule)) => format!("rejected {rule}"),
            // Not a raw packet: its kind is what there is to say.
            None => packet.kind.tag().to_owned(),
        };
        spans.push(Span::styled(
            format!(
                " {:<width$}",
                fit_right(&event, columns.event),
                width = columns.event
            ),
            theme.secondary(),
        ));
    }
    if columns.state > 0 {
        let state = packet
            .state(app.mode)
            .map(|state| state.short())
            .unwrap_or("");
        spans.push(Span::styled(
            format!(
                " {:<width$}",
                fit_right(state, columns.state),
                width = columns.state
            ),
            theme.secondary(),
        ));
    }
    Line::from(spans)
}

/// A group label's own name: what follows its last `/` (a directory's label ends in `/`,
/// which stays with its name).
fn own_name(label: &str) -> &str {
    let trimmed = label.strip_suffix('/').unwrap_or(label);
    match trimmed.rfind('/') {
        Some(at) => &label[at + 1..],
        None => label,
    }
}

/// Shortens a path to `width` keeping its own name whole (`fixtures/…/bundle.tar.gz`, the
/// middle of the directories cut); a name too long alone keeps its start and its end (the
/// extension).
fn fit_path(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    let name = own_name(text);
    let name_count = name.chars().count();
    if name_count + 2 > width {
        return fit_split(name, width, width / 2);
    }
    let head: String = text.chars().take(width - 1 - name_count - 1).collect();
    format!("{head}…/{name}")
}

/// Shortens at the right with an ellipsis.
pub fn fit_right(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let keep: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{keep}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_keep_different_names_different() {
        let names: Vec<String> = [
            "send-message-response-message.v03.jsonrpc.v10",
            "send-message-response-task.v03.jsonrpc.v10",
            "send-message-response-message.v03.jsonrpc",
        ]
        .map(str::to_owned)
        .to_vec();
        let short = distinct_abbreviations(&names, 20);
        assert!(
            short.iter().all(|name| name.chars().count() <= 20),
            "{short:?}"
        );
        let distinct: std::collections::HashSet<_> = short.iter().collect();
        assert_eq!(distinct.len(), 3, "{short:?}");
        assert_eq!(distinct_abbreviations(&names[..1], 60), names[..1]);
    }

    #[test]
    fn the_name_column_comes_first() {
        let long = vec!["x".repeat(30)];
        assert_eq!(
            Columns::for_width(34, &long),
            Columns {
                name: 31,
                event: 0,
                state: 0
            }
        );
        let short = vec!["happy".to_owned()];
        assert_eq!(
            Columns::for_width(60, &short),
            Columns {
                name: 30,
                event: 16,
                state: 9
            }
        );
    }

    #[test]
    fn fitting() {
        assert_eq!(fit_split("happy_task_requested", 11, 5), "happy…ested");
        assert_eq!(fit_split("short", 11, 5), "short");
        assert_eq!(fit_path("fixtures/a2a/", 8), "fi…/a2a/");
        assert_eq!(
            fit_path("fixtures/bundles/neg-tampered.tar.gz", 28),
            "fixture…/neg-tampered.tar.gz"
        );
        assert_eq!(
            fit_path("fixtures/bundles/neg-tampered-event-hash.tar.gz", 24),
            "neg-tampered…hash.tar.gz"
        );
        assert_eq!(fit_right("agent.capabilities", 16), "agent.capabilit…");
    }
}
