//! The one wrap of every pane: a long line breaks between words at the pane's width, and its
//! continuation rows start indented (a hanging indent), so a wrapped row never reads as a new
//! row of its own. A continuation starts under the line's last column (the text after its last
//! gap of two or more spaces, as in a table row `  TR   5   6  task reference visible`), or,
//! when the line has no such column, two columns in from the line's own indent. An indent that
//! would leave a continuation less than 16 columns (or half a narrower pane) falls back to the
//! line's indent plus two, then to none: a narrow pane still shows the text.
//!
//! Rows are built here, not by ratatui's `Wrap`, so that the row count (what scrolling stops
//! at) and the drawn rows come from one function and cannot disagree. The wrap walks a line's
//! graphemes once and holds at most a row of them: a line of megabytes (a packet of one line
//! on the Raw tab) is counted in constant memory, and only the rows on screen are built.

use ratatui::style::Style;
use ratatui::text::{Line, Span, StyledGrapheme};

/// The columns a continuation row keeps for text at least (or half the pane, if less).
const MIN_ROOM: usize = 16;

/// How many rows `line` takes at `width` (the rows [`rows`] builds, counted without them).
pub fn row_count(line: &Line<'_>, width: u16) -> usize {
    if is_one_row(line, width) {
        return 1;
    }
    let mut count = 0;
    wrap(line, width, |_, _| count += 1);
    count
}

/// The rows `line` wraps to at `width`: the first as the line starts, each continuation
/// prefixed by the hanging indent. A line that fits is one row, unchanged. A zero width gives
/// the line whole (nothing can be drawn there anyway).
pub fn rows(line: &Line<'_>, width: u16) -> Vec<Line<'static>> {
    let mut rows = Vec::new();
    rows_between(line, width, 0, usize::MAX, &mut rows);
    rows
}

/// Every line of `lines` wrapped at `width`, in order.
pub fn wrapped<'a>(
    lines: impl IntoIterator<Item = &'a Line<'a>>,
    width: u16,
) -> Vec<Line<'static>> {
    let mut rows = Vec::new();
    for line in lines {
        rows_between(line, width, 0, usize::MAX, &mut rows);
    }
    rows
}

/// The rows of `lines` wrapped at `width` from row `skip` on, at most `take` of them: what a
/// pane scrolled by `skip` rows shows. Rows before and after are counted, never built.
pub fn window<'a>(
    lines: impl IntoIterator<Item = &'a Line<'a>>,
    width: u16,
    mut skip: usize,
    take: usize,
) -> Vec<Line<'static>> {
    let mut rows = Vec::new();
    for line in lines {
        if rows.len() >= take {
            break;
        }
        let wanted = take - rows.len();
        skip -= rows_between(line, width, skip, wanted, &mut rows).min(skip);
    }
    rows
}

/// Pushes the rows of `line` from its row `skip` on, at most `take`, onto `out`, and returns
/// how many rows the line has in all.
fn rows_between(
    line: &Line<'_>,
    width: u16,
    skip: usize,
    take: usize,
    out: &mut Vec<Line<'static>>,
) -> usize {
    if is_one_row(line, width) {
        if skip == 0 && take > 0 {
            out.push(owned(line));
        }
        return 1;
    }
    let mut count = 0;
    wrap(line, width, |indent, cells| {
        if count >= skip && count - skip < take {
            out.push(styled_row(indent, cells, line));
        }
        count += 1;
    });
    count
}

/// Whether `line` is drawn as one row unchanged: it fits, or the pane has no width (nothing can
/// be drawn there; wrapping at 0 would give every grapheme a row).
fn is_one_row(line: &Line<'_>, width: u16) -> bool {
    width == 0 || line.width() <= usize::from(width)
}

/// One grapheme of a line with its style and display width.
struct Cell<'a> {
    symbol: &'a str,
    style: Style,
    width: usize,
    space: bool,
}

fn cells<'a>(line: &'a Line<'a>) -> impl Iterator<Item = Cell<'a>> + 'a {
    line.spans
        .iter()
        .flat_map(|span| span.styled_graphemes(Style::default()))
        .map(|StyledGrapheme { symbol, style }| Cell {
            symbol,
            style,
            width: Span::raw(symbol).width(),
            space: symbol.chars().all(char::is_whitespace),
        })
}

/// Breaks `line` (wider than `width`) into rows, handing each to `row` with its indent (0 for
/// the first row): between words where a word fits, inside a word longer than a whole row.
fn wrap<'a>(line: &'a Line<'a>, width: u16, mut row: impl FnMut(usize, &[Cell<'a>])) {
    let width = usize::from(width);
    let indent = hanging_indent(line, width);
    let mut first = true;
    let mut current: Vec<Cell<'a>> = Vec::new();
    let mut used = 0;
    // The word being read, held until it is known to fit (at most a row of it).
    let mut word: Vec<Cell<'a>> = Vec::new();
    let mut word_width = 0;
    // Inside a word longer than a whole row: its graphemes go straight into rows.
    let mut cutting = false;
    let limit = |first: bool| if first { width } else { width - indent };
    let mut end_row = |current: &mut Vec<Cell<'a>>, used: &mut usize, first: &mut bool| {
        // Trailing spaces of a row are where it broke.
        while current.last().is_some_and(|cell| cell.space) {
            current.pop();
        }
        row(if *first { 0 } else { indent }, current);
        current.clear();
        *used = 0;
        *first = false;
    };
    for cell in cells(line) {
        if cell.space {
            current.append(&mut word);
            used += word_width;
            word_width = 0;
            cutting = false;
            if current.is_empty() && !first {
                // A continuation never starts with the spaces it broke at.
                continue;
            }
            if used + cell.width > limit(first) {
                end_row(&mut current, &mut used, &mut first);
                continue;
            }
            used += cell.width;
            current.push(cell);
            continue;
        }
        if cutting {
            if used + cell.width > limit(first) && !current.is_empty() {
                end_row(&mut current, &mut used, &mut first);
            }
            used += cell.width;
            current.push(cell);
            continue;
        }
        word_width += cell.width;
        word.push(cell);
        if used + word_width <= limit(first) {
            continue;
        }
        if current.iter().any(|cell| !cell.space) {
            // The word starts the next row.
            end_row(&mut current, &mut used, &mut first);
            if word_width <= limit(first) {
                continue;
            }
        }
        // A word longer than a whole row: cut where each row ends, at least one grapheme a
        // row (a wide one in a one-column pane would otherwise never be placed).
        cutting = true;
        for cell in word.drain(..) {
            if used + cell.width > limit(first) && !current.is_empty() {
                end_row(&mut current, &mut used, &mut first);
            }
            used += cell.width;
            current.push(cell);
        }
        word_width = 0;
    }
    current.append(&mut word);
    if !current.is_empty() || first {
        end_row(&mut current, &mut used, &mut first);
    }
}

/// Where continuation rows start (see the module's rule), from the columns the first row
/// reaches.
fn hanging_indent(line: &Line<'_>, width: usize) -> usize {
    let mut own = 0;
    let mut leading = true;
    let mut column = 0;
    let mut gap = 0;
    let mut last_column = None;
    for cell in cells(line) {
        if column >= width {
            break;
        }
        if leading && cell.space {
            own += cell.width;
        } else if cell.space {
            gap += 1;
        } else {
            if gap >= 2 {
                last_column = Some(column);
            }
            leading = false;
            gap = 0;
        }
        column += cell.width;
    }
    // A continuation keeps at least half the pane, or MIN_ROOM columns where that is less.
    let fits = |indent: usize| width.saturating_sub(indent) >= (width / 2).clamp(1, MIN_ROOM);
    match last_column {
        Some(column) if fits(column) => column,
        _ if fits(own + 2) => own + 2,
        _ => 0,
    }
}

/// A row's cells as a line: the indent a span of its own (the text keeps its style), runs of
/// one style one span, and the line's own style and alignment.
fn styled_row(indent: usize, cells: &[Cell<'_>], line: &Line<'_>) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    if indent > 0 {
        spans.push(Span::raw(" ".repeat(indent)));
    }
    let text_from = spans.len();
    for cell in cells {
        let has_text = spans.len() > text_from;
        match spans.last_mut() {
            Some(last) if has_text && last.style == cell.style => {
                last.content.to_mut().push_str(cell.symbol);
            }
            _ => spans.push(Span::styled(cell.symbol.to_owned(), cell.style)),
        }
    }
    let mut drawn = Line::from(spans).style(line.style);
    drawn.alignment = line.alignment;
    drawn
}

/// A line that fits, as an owned row.
fn owned(line: &Line<'_>) -> Line<'static> {
    let spans: Vec<Span<'static>> = line
        .spans
        .iter()
        .map(|span| Span::styled(span.content.to_string(), span.style))
        .collect();
    let mut drawn = Line::from(spans).style(line.style);
    drawn.alignment = line.alignment;
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str, width: u16) -> Vec<String> {
        rows(&Line::raw(line), width)
            .iter()
            .map(|row| row.to_string())
            .collect()
    }

    #[test]
    fn a_line_that_fits_is_one_row_unchanged() {
        assert_eq!(texts("  short line", 80), ["  short line"]);
        assert_eq!(row_count(&Line::raw("exactly ten"), 11), 1);
    }

    #[test]
    fn a_table_row_continues_under_its_last_column() {
        assert_eq!(
            texts("  TR        5        6  task reference visible", 42),
            [
                "  TR        5        6  task reference",
                "                        visible",
            ]
        );
        assert_eq!(
            texts("  TR        5        6  task reference visible", 40),
            [
                "  TR        5        6  task reference",
                "                        visible"
            ]
        );
    }

    #[test]
    fn an_indented_line_without_columns_continues_two_further_in() {
        assert_eq!(
            texts(
                "      $.event_type = \"task.requested\"; $.task.kind = \"delegation\"",
                42
            ),
            [
                "      $.event_type = \"task.requested\";",
                "        $.task.kind = \"delegation\"",
            ]
        );
        assert_eq!(
            texts("K1-A frozen rule table (matched rows highlighted)", 42),
            ["K1-A frozen rule table (matched rows", "  highlighted)"]
        );
    }

    #[test]
    fn an_indent_past_half_the_pane_falls_back() {
        // The last column starts at 24, which leaves 6 of 30: the line's indent plus two.
        assert_eq!(
            texts("  TR        5        6  task reference visible", 30),
            ["  TR        5        6  task", "    reference visible"]
        );
        // Nothing fits under half of 4 but no indent at all.
        assert_eq!(texts("    abcdef", 4), ["", "abcd", "ef"]);
    }

    #[test]
    fn a_word_longer_than_a_row_is_cut_where_the_row_ends() {
        assert_eq!(
            texts("id 0123456789abcdef0123456789", 12),
            ["id", "  0123456789", "  abcdef0123", "  456789"]
        );
    }

    #[test]
    fn wide_characters_are_two_columns_and_always_placed() {
        assert_eq!(texts("漢字漢字", 5), ["漢字", "  漢", "  字"]);
        // A one-column pane: each wide character alone on its row, none lost, no loop.
        assert_eq!(texts("漢字", 1), ["漢", "字"]);
    }

    #[test]
    fn styles_survive_the_wrap() {
        let bold = Style::default().add_modifier(ratatui::style::Modifier::BOLD);
        let line = Line::from(vec![
            Span::raw("  key  "),
            Span::styled("alpha beta gamma", bold),
        ]);
        let rows = rows(&line, 18);
        assert_eq!(rows.len(), 2);
        let last = rows[1].spans.last().unwrap();
        assert_eq!(last.style, bold);
        assert_eq!(rows[1].to_string().trim(), "gamma");
    }

    #[test]
    fn the_count_is_the_rows_built() {
        let samples = [
            "",
            "x",
            "a b c d e f g h i j k l",
            "averyveryverylongwordthatcannotbreak and more",
            "     leading spaces that wrap around the edge",
            "  col  col  wide 漢字漢字漢字漢字 chars and more words",
        ];
        for width in [1u16, 2, 5, 10, 17, 80] {
            for text in samples {
                let line = Line::raw(text);
                let built = rows(&line, width);
                assert_eq!(row_count(&line, width), built.len(), "{text:?} at {width}");
                for row in &built {
                    // Every row fits, but a lone wide grapheme in a one-column pane.
                    assert!(
                        row.width() <= usize::from(width).max(2),
                        "{row:?} at {width}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pane_of_no_width_counts_the_one_row_it_is_given() {
        let line = Line::raw("a b c d e f g h i j k l");
        assert_eq!(rows(&line, 0), std::slice::from_ref(&line));
        assert_eq!(row_count(&line, 0), 1);
    }

    #[test]
    fn no_text_is_lost_or_added() {
        let text = "  TR        5        6  task reference visible and a longer tail of words";
        for width in 1..=80u16 {
            let joined: String = rows(&Line::raw(text), width)
                .iter()
                .map(|row| row.to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().concat();
            assert_eq!(words(&joined), words(text), "at {width}");
        }
    }

    #[test]
    fn a_window_is_the_slice_of_all_rows() {
        let lines: Vec<Line<'static>> = (0..40)
            .map(|i| Line::raw(format!("  row {i}  {}", "word ".repeat(i % 7))))
            .collect();
        for width in [3u16, 9, 20, 80] {
            let all = wrapped(&lines, width);
            for skip in [0, 1, 5, 17, all.len() - 1, all.len(), all.len() + 3] {
                for take in [0, 1, 4, 100] {
                    let expected: Vec<_> = all.iter().skip(skip).take(take).cloned().collect();
                    assert_eq!(
                        window(&lines, width, skip, take),
                        expected,
                        "{width} {skip} {take}"
                    );
                }
            }
        }
    }
}
