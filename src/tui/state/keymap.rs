//! The one keymap table. Key handling, the status bar and the `?` help overlay all read it,
//! so a key cannot do one thing and be documented as another.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for; `update` decides what that means in the current state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Quit,
    Down,
    Up,
    PageDown,
    PageUp,
    Top,
    Bottom,
    Left,
    Right,
    NextTab,
    PrevTab,
    GoTab(usize),
    Enter,
    Back,
    ToggleMode,
    Search,
    NextMatch,
    PrevMatch,
    Filter,
    Reload,
    Copy,
    OpenEditor,
    Help,
    WhatIf,
    Review,
    Accept,
    Reject,
    Skip,
    DiffLayout,
    StepNext,
    StepPrev,
    Toggle,
    WhatIfEvent,
    WhatIfKind,
    WhatIfTaskId,
    WhatIfMessageId,
}

/// Where a binding applies. `Global` bindings apply wherever no overlay takes the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    Global,
    WhatIf,
    /// The Migrate tab with the detail focused.
    Migrate,
    /// The golden review panel.
    Review,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Browse",
            Context::WhatIf => "What-if panel",
            Context::Migrate => "Migrate tab (detail focused)",
            Context::Review => "Golden review",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

const fn key(code: KeyCode) -> Chord {
    Chord {
        code,
        modifiers: KeyModifiers::NONE,
    }
}

const fn ch(c: char) -> Chord {
    key(KeyCode::Char(c))
}

const fn ctrl(c: char) -> Chord {
    Chord {
        code: KeyCode::Char(c),
        modifiers: KeyModifiers::CONTROL,
    }
}

pub struct Binding {
    pub context: Context,
    pub chords: &'static [Chord],
    pub command: Command,
    /// Short label for the status bar (empty: not shown there).
    pub short: &'static str,
    pub help: &'static str,
}

macro_rules! bind {
    ($context:ident, [$($chord:expr),+], $command:expr, $short:expr, $help:expr) => {
        Binding { context: Context::$context, chords: &[$($chord),+], command: $command, short: $short, help: $help }
    };
}

pub static KEYMAP: &[Binding] = &[
    bind!(
        Global,
        [ch('j'), key(KeyCode::Down)],
        Command::Down,
        "",
        "next packet, or scroll the detail"
    ),
    bind!(
        Global,
        [ch('k'), key(KeyCode::Up)],
        Command::Up,
        "",
        "previous packet, or scroll the detail"
    ),
    bind!(
        Global,
        [key(KeyCode::PageDown), ctrl('d')],
        Command::PageDown,
        "",
        "page down"
    ),
    bind!(
        Global,
        [key(KeyCode::PageUp), ctrl('u')],
        Command::PageUp,
        "",
        "page up"
    ),
    bind!(
        Global,
        [ch('g'), key(KeyCode::Home)],
        Command::Top,
        "",
        "first"
    ),
    bind!(
        Global,
        [ch('G'), key(KeyCode::End)],
        Command::Bottom,
        "",
        "last"
    ),
    bind!(
        Global,
        [ch('h'), key(KeyCode::Left)],
        Command::Left,
        "",
        "fold the group / focus the list; Rules: left"
    ),
    bind!(
        Global,
        [ch('l'), key(KeyCode::Right)],
        Command::Right,
        "",
        "unfold the group / focus detail; Rules: right"
    ),
    bind!(
        Global,
        [key(KeyCode::Tab)],
        Command::NextTab,
        "tab tabs",
        "next tab"
    ),
    bind!(
        Global,
        [key(KeyCode::BackTab)],
        Command::PrevTab,
        "",
        "previous tab"
    ),
    bind!(Global, [ch('1')], Command::GoTab(0), "", "Raw tab"),
    bind!(Global, [ch('2')], Command::GoTab(1), "", "Conversion tab"),
    bind!(Global, [ch('3')], Command::GoTab(2), "", "Handoff tab"),
    bind!(Global, [ch('4')], Command::GoTab(3), "", "Digests tab"),
    bind!(Global, [ch('5')], Command::GoTab(4), "", "Findings tab"),
    bind!(Global, [ch('6')], Command::GoTab(5), "", "Rules tab"),
    bind!(
        Global,
        [ch('7')],
        Command::GoTab(6),
        "",
        "Migrate tab (A2A v0.3 <-> v1.0 steps)"
    ),
    bind!(
        Global,
        [ch('8')],
        Command::GoTab(7),
        "",
        "Formats tab (cross-format view)"
    ),
    bind!(
        Global,
        [key(KeyCode::Enter)],
        Command::Enter,
        "enter detail",
        "unfold the group / focus detail; Rules: filter"
    ),
    bind!(
        Global,
        [ch('m')],
        Command::ToggleMode,
        "m mode",
        "toggle strict / lenient"
    ),
    bind!(
        Global,
        [ch('/')],
        Command::Search,
        "/ search",
        "search paths, ids and packet text"
    ),
    bind!(
        Global,
        [ch('n')],
        Command::NextMatch,
        "",
        "next search match"
    ),
    bind!(
        Global,
        [ch('N')],
        Command::PrevMatch,
        "",
        "previous search match"
    ),
    bind!(
        Global,
        [ch('f')],
        Command::Filter,
        "f filter",
        "filter by status, kind or rule"
    ),
    bind!(
        Global,
        [ch('w')],
        Command::WhatIf,
        "w what-if",
        "what-if panel for the selected raw packet"
    ),
    bind!(
        Global,
        [ch('a')],
        Command::Review,
        "a review",
        "review differing or missing goldens"
    ),
    bind!(
        Global,
        [ch('d')],
        Command::DiffLayout,
        "",
        "digest diff: unified / side by side"
    ),
    bind!(Global, [ch('r')], Command::Reload, "", "reload from disk"),
    bind!(
        Global,
        [ch('y')],
        Command::Copy,
        "y copy",
        "copy the selected path or digest (OSC 52)"
    ),
    bind!(
        Global,
        [ch('o')],
        Command::OpenEditor,
        "o open",
        "open the file in $VISUAL/$EDITOR at its line"
    ),
    bind!(
        Global,
        [ch('?')],
        Command::Help,
        "? help",
        "this help (j/k scroll it)"
    ),
    bind!(
        Global,
        [ch('q'), key(KeyCode::Esc), ctrl('c')],
        Command::Quit,
        "q quit",
        "quit (Esc first: job, panel, search, filter)"
    ),
    bind!(
        WhatIf,
        [ch('e')],
        Command::WhatIfEvent,
        "e event",
        "cycle the event type"
    ),
    bind!(
        WhatIf,
        [ch('k')],
        Command::WhatIfKind,
        "k kind",
        "cycle task.kind"
    ),
    bind!(
        WhatIf,
        [ch('t')],
        Command::WhatIfTaskId,
        "t task.id",
        "task.id present / absent"
    ),
    bind!(
        WhatIf,
        [ch('i')],
        Command::WhatIfMessageId,
        "i message.id",
        "message.id present / absent"
    ),
    bind!(
        WhatIf,
        [ch('m')],
        Command::ToggleMode,
        "m mode",
        "strict / lenient"
    ),
    bind!(
        WhatIf,
        [ch('w'), key(KeyCode::Esc), ch('q')],
        Command::Back,
        "esc close",
        "close the panel (nothing is written)"
    ),
    bind!(
        Migrate,
        [ch('j'), key(KeyCode::Down), ch('n')],
        Command::StepNext,
        "n/j next",
        "next migration step"
    ),
    bind!(
        Migrate,
        [ch('k'), key(KeyCode::Up), ch('p')],
        Command::StepPrev,
        "p/k prev",
        "previous migration step"
    ),
    bind!(
        Migrate,
        [key(KeyCode::Char(' '))],
        Command::Toggle,
        "space on/off",
        "switch a step off / on to see its effect"
    ),
    bind!(
        Review,
        [ch('a')],
        Command::Accept,
        "a accept",
        "accept: record as the golden (asks first)"
    ),
    bind!(
        Review,
        [ch('r')],
        Command::Reject,
        "r reject",
        "reject: keep the golden, do not offer again"
    ),
    bind!(
        Review,
        [ch('s'), key(KeyCode::Char(' '))],
        Command::Skip,
        "s skip",
        "skip for now"
    ),
    bind!(
        Review,
        [key(KeyCode::Esc), ch('q')],
        Command::Back,
        "esc stop",
        "stop reviewing"
    ),
];

/// The command a key asks for in `context` (falling back to the global bindings).
pub fn lookup(context: Context, event: &KeyEvent) -> Option<Command> {
    let matches = |binding: &&Binding| {
        binding.chords.iter().any(|chord| {
            chord.code == event.code
                && (event.modifiers - KeyModifiers::SHIFT)
                    == (chord.modifiers - KeyModifiers::SHIFT)
        })
    };
    KEYMAP
        .iter()
        .filter(|binding| binding.context == context)
        .find(matches)
        .or_else(|| {
            KEYMAP
                .iter()
                .filter(|binding| binding.context == Context::Global)
                .find(matches)
        })
        .map(|binding| binding.command)
}

/// The keymap as Markdown tables, one per context (for docs/inspector.md; a test keeps it current).
pub fn keymap_markdown() -> String {
    let mut out = String::new();
    for context in [
        Context::Global,
        Context::WhatIf,
        Context::Migrate,
        Context::Review,
    ] {
        out.push_str(&format!("| {} | |\n|---|---|\n", context.title()));
        for binding in KEYMAP.iter().filter(|binding| binding.context == context) {
            let keys = binding_label(binding).replace('|', "\\|");
            out.push_str(&format!("| `{keys}` | {} |\n", binding.help));
        }
        out.push('\n');
    }
    out.trim_end().to_owned()
}

/// How a chord is written in the status bar and help.
pub fn chord_label(chord: &Chord) -> String {
    let base = match chord.code {
        KeyCode::Char(' ') => "space".to_owned(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Up => "↑".to_owned(),
        KeyCode::Down => "↓".to_owned(),
        KeyCode::Left => "←".to_owned(),
        KeyCode::Right => "→".to_owned(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::Home => "Home".to_owned(),
        KeyCode::End => "End".to_owned(),
        KeyCode::Enter => "Enter".to_owned(),
        KeyCode::Esc => "Esc".to_owned(),
        KeyCode::Tab => "Tab".to_owned(),
        KeyCode::BackTab => "Shift-Tab".to_owned(),
        other => format!("{other:?}"),
    };
    if chord.modifiers.contains(KeyModifiers::CONTROL) {
        format!("Ctrl-{base}")
    } else {
        base
    }
}

pub fn binding_label(binding: &Binding) -> String {
    binding
        .chords
        .iter()
        .map(chord_label)
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn no_chord_is_bound_twice_in_one_context() {
        for context in [
            Context::Global,
            Context::WhatIf,
            Context::Migrate,
            Context::Review,
        ] {
            let mut seen = HashSet::new();
            for binding in KEYMAP.iter().filter(|binding| binding.context == context) {
                for chord in binding.chords {
                    assert!(
                        seen.insert(format!("{chord:?}")),
                        "{chord:?} twice in {context:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn contexts_override_global_keys() {
        let k = press(KeyCode::Char('k'), KeyModifiers::NONE);
        assert_eq!(lookup(Context::Global, &k), Some(Command::Up));
        assert_eq!(lookup(Context::WhatIf, &k), Some(Command::WhatIfKind));
        assert_eq!(
            lookup(
                Context::WhatIf,
                &press(KeyCode::Char('j'), KeyModifiers::NONE)
            ),
            Some(Command::Down)
        );
        assert_eq!(
            lookup(
                Context::Global,
                &press(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Command::Quit)
        );
        assert_eq!(
            lookup(
                Context::Global,
                &press(KeyCode::Char('G'), KeyModifiers::SHIFT)
            ),
            Some(Command::Bottom)
        );
        assert_eq!(
            lookup(
                Context::Global,
                &press(KeyCode::Char('z'), KeyModifiers::NONE)
            ),
            None
        );
    }
}
