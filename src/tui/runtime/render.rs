//! Headless drawing of any view of the real TUI (for `render`, screenshots and docs): the
//! same `App`, `update` and `view` as the interactive inspector, on a TestBackend.

use crate::a2a::Mode;
use crate::corpus::CheckOptions;
use crate::tui::runtime::drive::{Driver, Step};
use crate::tui::state::app::Tab;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
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
    /// The clock for expiry checks (`--now`, as the inspector and `check` take it); `None`
    /// reads the system clock.
    pub now: Option<chrono::DateTime<chrono::Utc>>,
    /// How the PATHs are walked (`--no-ignore`, `--follow-outside`).
    pub walk: crate::input::WalkOptions,
    /// The keys trusted for bundles' attestations (none: not looked at).
    pub trusted_keys: std::sync::Arc<[crate::bundle::attest::TrustedKey]>,
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

/// Presses a key and lets any reload it starts finish, as a user waiting a moment would.
fn press(driver: &mut Driver, key: KeyEvent) -> Result<(), String> {
    driver.apply(&Step::Key(key))?;
    driver.settle()
}

fn char_key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

/// Loads the paths, applies the spec and draws one frame, through the same driver as the
/// property test (so every key's effects, reload included, happen as in the inspector).
pub fn render(spec: &RenderSpec) -> Result<Buffer, String> {
    let keys = parse_keys(&spec.keys)?;
    let mut options = CheckOptions::default();
    options.evaluate.profile.now = spec.now;
    options.walk = spec.walk;
    options.trusted_keys = spec.trusted_keys.clone();
    let mut driver = Driver::new(
        spec.paths.clone(),
        options,
        (spec.width, spec.height),
        spec.color,
    )?;
    driver.app.mode = spec.mode;
    crate::tui::runtime::drive::headless::rebuild_rows_now(&mut driver.app);
    if let Some(select) = &spec.select {
        press(&mut driver, char_key('/'))?;
        for c in select.chars() {
            press(&mut driver, char_key(c))?;
        }
        press(
            &mut driver,
            KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
        )?;
        if driver
            .app
            .message
            .as_deref()
            .is_some_and(|message| message.starts_with("no packet matches"))
        {
            return Err(format!("no packet matches {select:?}"));
        }
        // The search's status-line text ("match K of N", the query) is not part of the picture.
        driver.app.search.query = None;
        driver.app.message = None;
    }
    driver.app.tab = spec.view.tab();
    match spec.view {
        View::Help => press(&mut driver, char_key('?'))?,
        View::WhatIf => press(&mut driver, char_key('w'))?,
        _ => {}
    }
    for key in keys {
        press(&mut driver, key)?;
    }
    // Draw the final state once more (the settle above drew before any manual change).
    driver.apply(&Step::Deliver(0))?;
    Ok(driver.buffer().clone())
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
