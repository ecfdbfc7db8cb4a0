//! Arbitrary bytes as a driver session, for fuzzing: any input decodes into valid steps.

use crate::tui::runtime::drive::step::Step;
use ratatui::crossterm::event::{KeyEvent, MouseEvent};

/// Decodes arbitrary bytes into steps (for fuzzing the driver): each step takes a kind byte
/// and two argument bytes. Keys come from the keymap's chords (every context) plus a few it
/// does not bind; file steps use a fixed set of scratch names and contents.
pub fn steps_from_bytes(data: &[u8]) -> Vec<Step> {
    use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEventKind};
    let mut keys: Vec<KeyEvent> = crate::tui::state::keymap::KEYMAP
        .iter()
        .flat_map(|binding| binding.chords.iter())
        .map(|chord| KeyEvent::new(chord.code, chord.modifiers))
        .collect();
    for code in [
        KeyCode::Char('x'),
        KeyCode::Char('é'),
        KeyCode::Backspace,
        KeyCode::F(5),
    ] {
        keys.push(KeyEvent::new(code, KeyModifiers::NONE));
    }
    const NAMES: [&str; 4] = [
        "a.json",
        "b.ndjson",
        "goldens.json",
        "a.strict.payload.json",
    ];
    const CONTENTS: [&str; 5] = [
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://x"},"task":{"id":"t-1","kind":"delegation"}}"#,
        "{\"protocol\":\"a2a\"}\nnot json\n",
        "{",
        "",
        r#"{"text":"\u001b[31m \u202e"}"#,
    ];
    data.chunks_exact(3)
        .map(|chunk| {
            let (kind, a, b) = (chunk[0], chunk[1], chunk[2]);
            match kind % 16 {
                0..=9 => Step::Key(keys[usize::from(a) % keys.len()]),
                10 => Step::Resize(u16::from(a) + 1, u16::from(b) / 3 + 1),
                11 => Step::Mouse(MouseEvent {
                    kind: match a % 3 {
                        0 => MouseEventKind::Down(MouseButton::Left),
                        1 => MouseEventKind::ScrollDown,
                        _ => MouseEventKind::ScrollUp,
                    },
                    column: u16::from(b),
                    row: u16::from(a) / 4,
                    modifiers: KeyModifiers::NONE,
                }),
                12 => Step::Deliver(usize::from(a % 4) + 1),
                13 => Step::Notify,
                14 => Step::WriteFile {
                    name: NAMES[usize::from(a) % NAMES.len()].to_owned(),
                    contents: CONTENTS[usize::from(b) % CONTENTS.len()].to_owned(),
                },
                _ => Step::RemoveFile {
                    name: NAMES[usize::from(a) % NAMES.len()].to_owned(),
                },
            }
        })
        .collect()
}
