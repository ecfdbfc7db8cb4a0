//! Colour on the command line: `--color auto|always|never` (one flag for every command, as
//! ripgrep and cargo have it), and the one palette from a report's [`Style`]s to ANSI codes.
//!
//! The palette keeps the inspector's theme (`tui/theme.rs`): only red, green, yellow, cyan
//! and magenta, and bold; never dim, black, white, grey or blue, which some popular
//! 16-colour theme paints in or near its background. Colour only repeats what the words say,
//! so `never` loses nothing else.

use crate::report::styled::{Style, StyledText};
use std::io::IsTerminal;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Never,
    Auto,
    Always,
}

impl ColorChoice {
    /// Whether to colour standard output: `auto` colours only a terminal, and not under
    /// `NO_COLOR` (set and not empty) or `TERM=dumb`; `always` and `never` are what they say.
    pub(crate) fn enabled(self) -> bool {
        self.enabled_for(std::io::stdout().is_terminal())
    }

    fn enabled_for(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Never => false,
            ColorChoice::Always => true,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
                let dumb = std::env::var_os("TERM").is_some_and(|term| term == "dumb");
                terminal && !no_color && !dumb
            }
        }
    }
}

/// The SGR parameters of each style (`ESC [ ... m`).
fn sgr(style: Style) -> &'static str {
    match style {
        Style::Fail => "1;31",
        Style::Pass => "32",
        Style::Warn => "1;33",
        Style::Recorded => "36",
        Style::Rule => "36",
        Style::Path => "35",
        Style::Heading => "1",
        Style::Added => "32",
        Style::Removed => "31",
    }
}

const RESET: &str = "\x1b[0m";

/// `text` with its styles drawn as ANSI codes. Every code is one of [`sgr`]'s: the text itself
/// was made terminal-safe by its writer, so no other escape reaches the terminal. A span is
/// closed before each newline in it and opened again after, so a pager or `grep` of one line
/// never carries colour onto the next.
pub(crate) fn ansi(text: &StyledText) -> String {
    let mut drawn = String::with_capacity(text.as_str().len() + 16);
    for (style, piece) in text.pieces() {
        let Some(style) = style else {
            drawn.push_str(piece);
            continue;
        };
        for (index, line) in piece.split('\n').enumerate() {
            if index > 0 {
                drawn.push('\n');
            }
            if line.is_empty() {
                continue;
            }
            drawn.push_str("\x1b[");
            drawn.push_str(sgr(style));
            drawn.push('m');
            drawn.push_str(line);
            drawn.push_str(RESET);
        }
    }
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_draws_only_colours_every_theme_shows() {
        // Bold, red, green, yellow, magenta, cyan: never 2 (dim), 30/37/90-97 (black, white,
        // greys) or 34 (blue).
        for style in Style::ALL {
            for parameter in sgr(style).split(';') {
                assert!(
                    ["1", "31", "32", "33", "35", "36"].contains(&parameter),
                    "{style:?} draws {parameter}"
                );
            }
        }
    }

    #[test]
    fn spans_close_before_a_newline() {
        let mut text = StyledText::new();
        text.push("a ");
        text.push_styled(Style::Fail, "b\nc");
        assert_eq!(ansi(&text), "a \x1b[1;31mb\x1b[0m\n\x1b[1;31mc\x1b[0m");
    }

    #[test]
    fn auto_colours_only_a_terminal_and_never_never() {
        assert!(!ColorChoice::Auto.enabled_for(false));
        assert!(!ColorChoice::Never.enabled_for(true));
        assert!(ColorChoice::Always.enabled_for(false));
    }
}
