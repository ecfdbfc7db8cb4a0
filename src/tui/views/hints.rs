//! Keys as the status bar and the help show them, generated from the keymap (the Compare
//! view's status bar is built the same way).

use crate::tui::state::keymap::{binding_label, Binding, Command, Context, KEYMAP};
use crate::tui::views::theme::Theme;
use ratatui::text::{Line, Span};

/// Appends the status bar's key hints (each binding's short label) to `spans`. On a narrow
/// terminal, keys drop from the end of the list, but help and quit stay: help lists
/// everything that was dropped. The Compare view's status bar is built the same way.
pub fn key_hints(spans: &mut Vec<Span<'_>>, mut shown: Vec<&Binding>, width: u16, theme: &Theme) {
    let used: usize = spans.iter().map(|span| span.width()).sum();
    let entry_width = |binding: &&Binding| binding.short.chars().count() + 2;
    while used + shown.iter().map(entry_width).sum::<usize>() > usize::from(width) {
        let Some(drop) = shown
            .iter()
            .rposition(|binding| !matches!(binding.command, Command::Help | Command::Quit))
        else {
            break;
        };
        shown.remove(drop);
    }
    for binding in shown {
        let (key, word) = binding.short.split_once(' ').unwrap_or((binding.short, ""));
        spans.push(Span::styled(format!(" {key}"), theme.key()));
        // What the key does is text a reader needs: the default foreground, never faint
        // (SGR 2 is near the background on many dark themes); the key beside it is bold.
        spans.push(Span::styled(format!(" {word} "), theme.text()));
    }
}

/// The help text of one context, generated from the keymap.
pub fn help_lines(context: Context, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![crate::tui::views::text::heading(context.title(), theme)];
    for binding in KEYMAP.iter().filter(|binding| binding.context == context) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<14}", binding_label(binding)), theme.key()),
            Span::raw(binding.help),
        ]));
    }
    lines
}
