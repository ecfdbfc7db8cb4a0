//! Reading a drawn TUI buffer as text, shared by the screen tests.
#![allow(dead_code)]

use handoff_inspector::tui::runtime::drive::Headless;
use handoff_inspector::tui::update::Action;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

/// Each row of the buffer, cell symbols joined, full width.
pub fn screen_rows(buffer: &Buffer) -> impl Iterator<Item = String> + '_ {
    let area = buffer.area;
    (0..area.height).map(move |y| {
        (0..area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect::<String>()
    })
}

/// The whole screen, rows joined by newlines, full width.
pub fn screen_text(buffer: &Buffer) -> String {
    screen_rows(buffer).collect::<Vec<_>>().join("\n")
}

/// The whole screen with each row's trailing blanks removed (for snapshots that should not
/// depend on the terminal's width past the last drawn cell).
pub fn screen_text_trimmed(buffer: &Buffer) -> String {
    screen_rows(buffer)
        .map(|row| row.trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The inspector, headless, loaded on one path at 120x40 with the fixtures' fixed clock.
pub fn headless_on(path: &str, color: bool) -> Headless {
    let mut app = Headless::new(
        vec![PathBuf::from(path)],
        crate::common::fixture_options(),
        color,
    );
    app.size = (120, 40);
    app.load();
    app
}

/// One key press without modifiers, then the list's geometry as a drawn frame leaves it.
pub fn press(app: &mut Headless, code: KeyCode) {
    app.update(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    app.sync_list_geometry();
}
