//! The Compare view (`--compare BASE CANDIDATE`) on the two demo runs: its screens at 80x24,
//! nothing cut there that 200x50 shows, and random keys at random sizes through its real
//! key handling and drawing.

use crate::common::screen::screen_text;
use handoff_inspector::a2a::Mode;
use handoff_inspector::compare::{compare, CompareOptions, Comparison};
use handoff_inspector::tui::compare::render_to_buffer;
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;

fn comparison() -> Comparison {
    // Relative, as a user types them (tests run in the package's directory).
    let root = Path::new("screenshots/demo-compare");
    let options = CompareOptions::new(Mode::Strict, Default::default(), Default::default());
    compare(&root.join("run1"), &root.join("run2"), &options).unwrap()
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn chars(text: &str) -> Vec<KeyEvent> {
    text.chars().map(|c| key(KeyCode::Char(c))).collect()
}

/// The text inside each bordered pane of the body (list, base, candidate), its rows joined
/// and every blank taken out, so that a line wrapped over rows reads as one.
fn panes(buffer: &Buffer) -> Vec<String> {
    let text = screen_text(buffer);
    let rows: Vec<Vec<char>> = text.lines().map(|line| line.chars().collect()).collect();
    let Some(top) = rows.iter().position(|row| row.contains(&'┌')) else {
        return Vec::new();
    };
    let starts: Vec<usize> = (0..rows[top].len())
        .filter(|&x| rows[top][x] == '┌')
        .collect();
    let bottom = (top + 1..rows.len())
        .find(|&y| rows[y].get(starts[0]) == Some(&'└'))
        .unwrap_or(rows.len());
    let mut ends: Vec<usize> = starts[1..].to_vec();
    ends.push(rows[top].len());
    starts
        .iter()
        .zip(ends)
        .map(|(&start, end)| {
            rows[top + 1..bottom]
                .iter()
                .flat_map(|row| row[(start + 1).min(row.len())..(end - 1).min(row.len())].iter())
                .filter(|c| !c.is_whitespace())
                .collect()
        })
        .collect()
}

/// Each row of the 200x50 screen's panes, as drawn there (one line each at that width).
fn wide_lines(keys: &[KeyEvent]) -> Vec<Vec<String>> {
    let buffer = render_to_buffer(comparison(), keys, (200, 50));
    let text = screen_text(&buffer);
    let rows: Vec<Vec<char>> = text.lines().map(|line| line.chars().collect()).collect();
    let top = rows
        .iter()
        .position(|row| row.contains(&'┌'))
        .expect("panes");
    let starts: Vec<usize> = (0..rows[top].len())
        .filter(|&x| rows[top][x] == '┌')
        .collect();
    let mut ends: Vec<usize> = starts[1..].to_vec();
    ends.push(rows[top].len());
    starts
        .iter()
        .zip(ends)
        .map(|(&start, end)| {
            rows[top + 1..rows.len() - 2]
                .iter()
                .map(|row| {
                    row[start + 1..end - 1]
                        .iter()
                        .filter(|c| !c.is_whitespace())
                        .collect::<String>()
                })
                .filter(|line: &String| !line.is_empty() && !line.contains('─'))
                .collect()
        })
        .collect()
}

#[test]
fn the_compare_view_at_80x24() {
    let buffer = render_to_buffer(comparison(), &[], (80, 24));
    insta::assert_snapshot!("compare_80x24", screen_text(&buffer));
    let help = render_to_buffer(comparison(), &chars("?"), (80, 24));
    insta::assert_snapshot!("compare_80x24_help", screen_text(&help));
}

/// Every line the 200x50 screen shows in the list and both sides (each pair selected in
/// turn) is on the 80x24 screen too, wrapped, on its first page or one PgDn further.
#[test]
fn nothing_is_cut_at_80x24_that_200x50_shows() {
    for pair in 0..4 {
        let mut keys = chars(&"j".repeat(pair));
        let wide = wide_lines(&keys);
        // Each page one PgDn (10 lines) further, until both sides are scrolled past their end.
        let mut narrow: Vec<Vec<String>> = Vec::new();
        loop {
            let page = panes(&render_to_buffer(comparison(), &keys, (80, 24)));
            let past_the_end = page[1].is_empty() && page[2].is_empty();
            narrow.push(page);
            if past_the_end || narrow.len() > 40 {
                break;
            }
            keys.push(key(KeyCode::PageDown));
        }
        for (pane, lines) in wide.iter().enumerate() {
            for line in lines {
                assert!(
                    narrow
                        .iter()
                        .any(|panes| panes[pane].contains(line.as_str())),
                    "pair {pair}, pane {pane}: {line:?} is not on the 80x24 screen"
                );
            }
        }
        // The deciding rows of the state change, whole (the cut was `[N5` and `typed positive: `).
        if pair == 0 {
            let first = &narrow[0];
            for (pane, shown) in [
                (1, "≠state:typedpositive:task+messagerefs"),
                (2, "≠state:defaults(notvisible)"),
                (2, "≠visible=false[N5X5N6]"),
            ] {
                assert!(first[pane].contains(shown), "{shown} in {:?}", first[pane]);
            }
        }
    }
}

fn any_key() -> impl Strategy<Value = KeyEvent> {
    prop_oneof![
        prop::sample::select(vec![
            'j', 'k', 'g', 'G', 'f', '/', 'n', 'N', '?', 'a', 'x', '7'
        ])
        .prop_map(|c| key(KeyCode::Char(c))),
        prop::sample::select(vec![
            KeyCode::Esc,
            KeyCode::Enter,
            KeyCode::Backspace,
            KeyCode::PageDown,
            KeyCode::PageUp,
            KeyCode::Up,
            KeyCode::Down,
        ])
        .prop_map(key),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any keys (never q: the view would stop) at any size, down to a 1x1 terminal, draw
    /// without a panic, and the status line always holds the help key.
    #[test]
    fn random_keys_at_any_size_draw(
        keys in prop::collection::vec(any_key(), 0..40),
        width in 1u16..220,
        height in 1u16..60,
    ) {
        let buffer = render_to_buffer(comparison(), &keys, (width, height));
        prop_assert_eq!(buffer.area.width, width);
        if width >= 80 && height >= 24 {
            let text = screen_text(&buffer);
            let status = text.lines().last().unwrap_or_default();
            prop_assert!(
                status.contains("? help") || status.starts_with('/') || status.contains("cleared"),
                "{}", status
            );
        }
    }
}
