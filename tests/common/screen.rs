//! Reading a drawn TUI buffer as text, shared by the screen tests.
#![allow(dead_code)]

use ratatui::buffer::Buffer;

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
