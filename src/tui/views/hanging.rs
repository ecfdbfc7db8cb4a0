//! The one wrap of every pane: a long line breaks between words at the pane's width, and its
//! continuation rows start indented (a hanging indent), so a wrapped row never reads as a new
//! row of its own. A continuation starts under the line's last column (the text after its last
//! gap of two or more spaces, as in a table row `  TR   5   6  task reference visible`), or,
//! when the line has no such column, two columns in from the line's own indent. An indent that
//! would leave a continuation less than 16 columns (or half a narrower pane) falls back to the
//! line's indent plus two, then to none: a narrow pane still shows the text.
//!
//! Rows are built here, not by ratatui's `Wrap`, so that the row count (what scrolling stops
//! at) and the drawn rows come from one function and cannot disagree.

use ratatui::style::Style;
use ratatui::text::{Line, Span, StyledGrapheme};

/// The columns a continuation row keeps for text at least (or half the pane, if less).
const MIN_ROOM: usize = 16;

/// How many rows `line` takes at `width` (what [`rows`] returns, counted without building them
/// when the line fits).
pub fn row_count(line: &Line<'_>, width: u16) -> usize {
    if line.width() <= usize::from(width) {
        return 1;
    }
    rows(line, width).len()
}

/// Every line of `lines` wrapped at `width`, in order.
pub fn wrapped<'a>(
    lines: impl IntoIterator<Item = &'a Line<'a>>,
    width: u16,
) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .flat_map(|line| rows(line, width))
        .collect()
}

/// One grapheme of a line with its style and display width.
struct Cell<'a> {
    symbol: &'a str,
    style: Style,
    width: usize,
    space: bool,
}

/// The rows `line` wraps to at `width`: the first as the line starts, each continuation
/// prefixed by the hanging indent. A line that fits is one row, unchanged. A zero width gives
/// the line whole (nothing can be drawn there anyway).
pub fn rows(line: &Line<'_>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    if width == 0 || line.width() <= width {
        return vec![owned(line)];
    }
    let cells: Vec<Cell<'_>> = line
        .spans
        .iter()
        .flat_map(|span| span.styled_graphemes(Style::default()))
        .map(|StyledGrapheme { symbol, style }| Cell {
            symbol,
            style,
            width: Span::raw(symbol).width(),
            space: symbol.chars().all(char::is_whitespace),
        })
        .collect();
    let indent = hanging_indent(&cells, width);
    let mut rows = Vec::new();
    let mut row: Vec<&Cell<'_>> = Vec::new();
    let mut used = 0;
    let mut at = 0;
    while at < cells.len() {
        let limit = if rows.is_empty() {
            width
        } else {
            width - indent
        };
        // The next token: a run of spaces, or a word (a run of anything else).
        let space = cells[at].space;
        let end = cells[at..]
            .iter()
            .position(|cell| cell.space != space)
            .map_or(cells.len(), |length| at + length);
        let token: usize = cells[at..end].iter().map(|cell| cell.width).sum();
        if space && row.is_empty() && !rows.is_empty() {
            // A continuation never starts with the spaces it broke at.
            at = end;
            continue;
        }
        if used + token <= limit {
            row.extend(&cells[at..end]);
            used += token;
            at = end;
            continue;
        }
        if space {
            // Spaces at a break end the row; they are not drawn.
            push_row(&mut rows, &mut row, indent, line);
            used = 0;
            at = end;
            continue;
        }
        if row.iter().any(|cell| !cell.space) {
            // The word starts the next row.
            push_row(&mut rows, &mut row, indent, line);
            used = 0;
            continue;
        }
        // A word longer than a whole row: cut where each row ends, at least one grapheme a
        // row (a wide one in a one-column pane would otherwise never be placed).
        let mut limit = limit;
        for cell in &cells[at..end] {
            if used + cell.width > limit && !row.is_empty() {
                push_row(&mut rows, &mut row, indent, line);
                used = 0;
                limit = width - indent;
            }
            row.push(cell);
            used += cell.width;
        }
        at = end;
    }
    if !row.is_empty() || rows.is_empty() {
        push_row(&mut rows, &mut row, indent, line);
    }
    rows
}

/// Where continuation rows start (see the module's rule).
fn hanging_indent(cells: &[Cell<'_>], width: usize) -> usize {
    let own: usize = cells
        .iter()
        .take_while(|cell| cell.space)
        .map(|cell| cell.width)
        .sum();
    // The column after the last gap of two or more spaces that the first row reaches.
    let mut column = 0;
    let mut gap = 0;
    let mut last_column = None;
    for cell in cells.iter().skip_while(|cell| cell.space) {
        if column + own >= width {
            break;
        }
        if cell.space {
            gap += 1;
        } else {
            if gap >= 2 {
                last_column = Some(own + column);
            }
            gap = 0;
        }
        column += cell.width;
    }
    // A continuation keeps at least half the pane, or 16 columns where that is less.
    let fits = |indent: usize| width.saturating_sub(indent) >= (width / 2).clamp(1, MIN_ROOM);
    match last_column {
        Some(column) if fits(column) => column,
        _ if fits(own + 2) => own + 2,
        _ => 0,
    }
}

fn push_row(
    rows: &mut Vec<Line<'static>>,
    row: &mut Vec<&Cell<'_>>,
    indent: usize,
    line: &Line<'_>,
) {
    // Trailing spaces of a row are where it broke.
    while row.last().is_some_and(|cell| cell.space) {
        row.pop();
    }
    let mut spans: Vec<Span<'static>> = Vec::new();
    if !rows.is_empty() && indent > 0 {
        spans.push(Span::raw(" ".repeat(indent)));
    }
    // The indent is a span of its own: the row's text keeps its style.
    let text_from = spans.len();
    for cell in row.drain(..) {
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
    rows.push(drawn);
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
}
