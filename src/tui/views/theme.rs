//! One theme: a restrained palette where colour repeats what a glyph or word already says,
//! so that NO_COLOR (or `--color never`) loses nothing but colour.
//!
//! Text is drawn only in the default foreground or in red, green, yellow, cyan and magenta:
//! 16-colour themes tune those for their own background. Black, white and the two greys
//! (ANSI 0, 7, 8, 15) and blue are left out, because some popular theme paints each of them
//! in (or near) its background: ANSI 8 is Solarized Dark's background colour, ANSI 7 nearly
//! Solarized Light's. Nothing is faint (SGR 2): many dark themes draw faint text close to their
//! background, and every word on screen is one a reader may need (a digest, a table's header,
//! a key's description, the unfocused pane). Secondary text is the plain foreground; what
//! stands out does so by bold, colour and its glyph.

use crate::tui::state::status::Status;
use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    pub fn new(color: bool) -> Theme {
        Theme { color }
    }

    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    pub fn text(&self) -> Style {
        Style::new()
    }

    /// Secondary text (evidence, descriptions, unmatched rows): the default foreground, never
    /// faint (see the module note). A role of its own, so the call sites say what they draw.
    pub fn secondary(&self) -> Style {
        Style::new()
    }

    /// Whether `color` is one of the colours text may be drawn in (see the module note).
    pub fn readable_text_colour(color: Color) -> bool {
        matches!(
            color,
            Color::Reset | Color::Red | Color::Green | Color::Yellow | Color::Cyan | Color::Magenta
        )
    }

    pub fn title(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn accent(&self) -> Style {
        self.fg(Color::Cyan)
    }

    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// The selected row: reversed, so it shows without colour too.
    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn good(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn bad(&self) -> Style {
        self.fg(Color::Red)
    }

    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow)
    }

    /// A matched rule row or a value that differs: bold, and coloured where colour is on.
    pub fn highlight(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    pub fn status(&self, status: Status) -> Style {
        match status {
            Status::Conforms => self.good(),
            Status::FailsAsRecorded => self.accent(),
            Status::Mismatch | Status::Error => self.bad(),
            Status::NoGolden | Status::NotChecked => self.secondary(),
            Status::Finding => self.warn(),
        }
    }

    /// A pane's border: the focused pane's in the accent colour, the other's plain.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.accent()
        } else {
            self.secondary()
        }
    }

    /// A pane's title: bold on the focused pane, so focus shows without colour too.
    pub fn pane_title(&self, focused: bool) -> Style {
        if focused {
            self.title()
        } else {
            self.secondary()
        }
    }

    pub fn diff_added(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn diff_removed(&self) -> Style {
        self.fg(Color::Red)
    }
}
