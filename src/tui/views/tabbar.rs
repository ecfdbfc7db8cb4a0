//! The tab bar fits any width: full titles when they fit, short ones otherwise, and when even
//! those do not fit, a window of tabs around the active one with ‹ › marking tabs off-screen.
//! The active tab is always visible.

use crate::tui::state::app::Tab;
use crate::tui::views::theme::Theme;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

const DIVIDER: &str = "│";

fn labels(short: bool, padded: bool) -> Vec<String> {
    Tab::ALL
        .iter()
        .enumerate()
        .map(|(index, tab)| {
            let title = if short {
                tab.short_title()
            } else {
                tab.title()
            };
            if padded {
                format!(" {} {title} ", index + 1)
            } else {
                format!("{} {title}", index + 1)
            }
        })
        .collect()
}

fn width_of(labels: &[String]) -> usize {
    labels
        .iter()
        .map(|label| label.chars().count())
        .sum::<usize>()
        + labels.len().saturating_sub(1)
}

/// Which tabs to show (a range of `Tab::ALL`) and with which labels, for `width` columns.
pub fn layout(active: Tab, width: usize) -> (Vec<String>, std::ops::Range<usize>) {
    for (short, padded) in [(false, true), (false, false), (true, true), (true, false)] {
        let labels = labels(short, padded);
        if width_of(&labels) <= width {
            let count = labels.len();
            return (labels, 0..count);
        }
    }
    let labels = labels(true, false);
    let active = active.index();
    // Grow a window around the active tab, alternating right and left, while it fits with
    // the ‹ › markers (2 columns each).
    let (mut start, mut end) = (active, active + 1);
    loop {
        let mut grown = false;
        for right in [true, false] {
            let (next_start, next_end) = if right {
                (start, (end + 1).min(labels.len()))
            } else {
                (start.saturating_sub(1), end)
            };
            if (next_start, next_end) == (start, end) {
                continue;
            }
            let markers =
                2 * usize::from(next_start > 0) + 2 * usize::from(next_end < labels.len());
            if width_of(&labels[next_start..next_end]) + markers <= width {
                (start, end) = (next_start, next_end);
                grown = true;
            }
        }
        if !grown {
            break;
        }
    }
    (labels, start..end)
}

pub fn line(active: Tab, width: usize, theme: &Theme) -> Line<'static> {
    let (labels, shown) = layout(active, width);
    let mut spans = Vec::new();
    if shown.start > 0 {
        spans.push(Span::styled("‹ ", theme.accent()));
    }
    for index in shown.clone() {
        if index > shown.start {
            spans.push(Span::styled(DIVIDER, theme.secondary()));
        }
        let style = if index == active.index() {
            theme
                .accent()
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            theme.secondary()
        };
        spans.push(Span::styled(labels[index].clone(), style));
    }
    if shown.end < labels.len() {
        spans.push(Span::styled(" ›", theme.accent()));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_titles_when_they_fit() {
        let (labels, shown) = layout(Tab::Raw, 200);
        assert_eq!(shown, 0..8);
        assert_eq!(labels[3], " 4 Digests ");
    }

    #[test]
    fn short_titles_then_a_window_that_keeps_the_active_tab() {
        let (labels, shown) = layout(Tab::Raw, 70);
        assert_eq!((labels[1].as_str(), shown), (" 2 Conv ", 0..8));
        let (labels, shown) = layout(Tab::Raw, 60);
        assert_eq!((labels[1].as_str(), shown), ("2 Conv", 0..8));
        for width in [10, 20, 30, 42, 60] {
            for tab in Tab::ALL {
                let (labels, shown) = layout(tab, width);
                assert!(shown.contains(&tab.index()), "{tab:?} at {width}");
                let markers =
                    2 * usize::from(shown.start > 0) + 2 * usize::from(shown.end < labels.len());
                assert!(
                    width_of(&labels[shown.clone()]) + markers <= width || shown.len() == 1,
                    "{tab:?} at {width}: {shown:?}"
                );
            }
        }
    }
}
