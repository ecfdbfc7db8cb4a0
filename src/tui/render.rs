//! Headless drawing of any view of the real TUI (for `render`, screenshots and docs): the
//! same `App`, `update` and `view` as the interactive inspector, on a TestBackend.

use super::app::{App, Tab};
use super::update::{update, Action};
use crate::a2a::Mode;
use crate::corpus::CheckOptions;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    Raw,
    Conversion,
    Handoff,
    Digests,
    Findings,
    Rules,
    Migrate,
    Formats,
    Help,
    WhatIf,
}

impl View {
    fn tab(self) -> Tab {
        match self {
            View::Raw => Tab::Raw,
            View::Conversion => Tab::Conversion,
            View::Handoff | View::Help | View::WhatIf => Tab::Handoff,
            View::Digests => Tab::Digests,
            View::Findings => Tab::Findings,
            View::Rules => Tab::Rules,
            View::Migrate => Tab::Migrate,
            View::Formats => Tab::Formats,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RenderSpec {
    pub paths: Vec<PathBuf>,
    pub view: View,
    pub width: u16,
    pub height: u16,
    /// Select the first packet whose path or text contains this (as `/` does).
    pub select: Option<String>,
    pub mode: Mode,
    /// Keys to press after selecting, e.g. `lnn` or `<Enter>`, `<Tab>`, `<Esc>`, `<Down>`.
    pub keys: String,
    pub color: bool,
}

/// Splits `lnn<Enter>x` into key events.
pub fn parse_keys(keys: &str) -> Result<Vec<KeyEvent>, String> {
    let mut events = Vec::new();
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            let end = rest
                .find('>')
                .ok_or_else(|| format!("unclosed <...> in keys: {rest}"))?;
            let code = match &rest[1..end] {
                "Enter" => KeyCode::Enter,
                "Tab" => KeyCode::Tab,
                "BackTab" => KeyCode::BackTab,
                "Esc" => KeyCode::Esc,
                "Up" => KeyCode::Up,
                "Down" => KeyCode::Down,
                "Left" => KeyCode::Left,
                "Right" => KeyCode::Right,
                "PageUp" => KeyCode::PageUp,
                "PageDown" => KeyCode::PageDown,
                "Space" => KeyCode::Char(' '),
                "lt" => KeyCode::Char('<'),
                other => return Err(format!("unknown key <{other}> (Enter, Tab, BackTab, Esc, Up, Down, Left, Right, PageUp, PageDown, Space, lt)")),
            };
            events.push(KeyEvent::new(code, KeyModifiers::NONE));
            rest = &rest[end + 1..];
        } else {
            events.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(events)
}

fn press(app: &mut App, key: KeyEvent) {
    update(app, Action::Key(key));
    app.sync_list_geometry();
}

/// Loads the paths, applies the spec and draws one frame.
pub fn render(spec: &RenderSpec) -> Result<Buffer, String> {
    let keys = parse_keys(&spec.keys)?;
    let mut app = App::new(spec.paths.clone(), CheckOptions::default(), spec.color);
    app.size = (spec.width, spec.height);
    app.load_blocking();
    app.mode = spec.mode;
    app.rebuild_rows();
    app.sync_list_geometry();
    if let Some(select) = &spec.select {
        press(
            &mut app,
            KeyEvent::new(KeyCode::Char('/'), KeyModifiers::NONE),
        );
        for c in select.chars() {
            press(
                &mut app,
                KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
            );
        }
        press(&mut app, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        if app
            .message
            .as_deref()
            .is_some_and(|message| message.starts_with("no packet matches"))
        {
            return Err(format!("no packet matches {select:?}"));
        }
        // The search's status-line text is not part of the picture.
        app.search = None;
    }
    app.tab = spec.view.tab();
    match spec.view {
        View::Help => press(
            &mut app,
            KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE),
        ),
        View::WhatIf => press(
            &mut app,
            KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE),
        ),
        _ => {}
    }
    for key in keys {
        press(&mut app, key);
    }
    let mut terminal = Terminal::new(TestBackend::new(spec.width, spec.height))
        .map_err(|error| error.to_string())?;
    terminal
        .draw(|frame| super::views::view(&app, frame))
        .map_err(|error| error.to_string())?;
    Ok(terminal.backend().buffer().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse() {
        let keys = parse_keys("ln<Enter><lt>").unwrap();
        let codes: Vec<KeyCode> = keys.iter().map(|key| key.code).collect();
        assert_eq!(
            codes,
            vec![
                KeyCode::Char('l'),
                KeyCode::Char('n'),
                KeyCode::Enter,
                KeyCode::Char('<')
            ]
        );
        assert!(parse_keys("<Nope>").is_err());
        assert!(parse_keys("<Enter").is_err());
    }
}
