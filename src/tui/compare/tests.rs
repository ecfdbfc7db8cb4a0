//! The Compare inspector: its list, filter, search, help and both sides.

use crate::compare::{compare, CompareOptions};
use crate::tui::compare::*;
use ratatui::crossterm::event::KeyModifiers;
use std::path::Path;

fn app() -> CompareApp {
    let options = CompareOptions::new(
        crate::a2a::Mode::Strict,
        Default::default(),
        Default::default(),
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/demo-compare");
    let comparison = compare(&root.join("run1"), &root.join("run2"), &options).unwrap();
    CompareApp::new(comparison, false)
}

fn press(app: &mut CompareApp, keys: &str) {
    for c in keys.chars() {
        app.handle(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
}

fn labels(app: &CompareApp) -> Vec<String> {
    app.shown
        .iter()
        .map(|&index| app.label(&app.comparison.pairs[index]))
        .collect()
}

#[test]
fn the_list_holds_what_changed_most_significant_first_with_a_marker_per_kind() {
    let app = app();
    assert_eq!(
        labels(&app),
        vec![
            "~ happy_task_requested.json  task+msg -> defaults",
            "~ positive_task_ref_only.json  task only",
            "+ n7_task_updated_delegation.json  defaults",
            "- happy_artifact_shared.json  defaults",
        ]
    );
}

#[test]
fn the_filter_cycles_change_kinds_then_transitions() {
    let mut app = app();
    let mut seen = Vec::new();
    for _ in 0..app.filters.len() {
        press(&mut app, "f");
        seen.push((app.filter_text(), app.shown.len()));
    }
    assert_eq!(seen[0], ("changed".to_owned(), 2));
    assert_eq!(seen[3], ("unchanged".to_owned(), 1));
    assert!(seen.contains(&(
        "typed positive: task + message refs -> defaults (not visible)".to_owned(),
        1
    )));
    // Round trip to the default.
    assert_eq!(seen.last().unwrap(), &("what changed".to_owned(), 4));
}

#[test]
fn search_moves_to_matches_and_help_comes_from_the_keymap() {
    let mut app = app();
    press(&mut app, "/n7");
    app.handle(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(app.selected, 2);
    press(&mut app, "n");
    assert_eq!(app.selected, 2, "the only match stays selected");
    press(&mut app, "j");
    assert_eq!(app.selected, 3);
    press(&mut app, "?");
    assert!(app.help);
    let buffer = {
        let backend = ratatui::backend::TestBackend::new(120, 30);
        let mut terminal = ratatui::Terminal::new(backend).unwrap();
        app.prepare();
        terminal.draw(|frame| app.draw(frame)).unwrap();
        terminal.backend().buffer().clone()
    };
    let text: String = buffer.content().iter().map(|cell| cell.symbol()).collect();
    assert!(
        text.contains("filter: what changed, each change kind"),
        "{text}"
    );
    assert!(text.contains("j/↓"), "{text}");
    press(&mut app, "x");
    assert!(!app.help);
    press(&mut app, "q");
    assert!(app.should_quit);
}

#[test]
fn a_changed_pair_shows_both_sides_with_differing_lines_marked() {
    let mut app = app();
    app.prepare();
    let Some((_, columns)) = &app.columns else {
        panic!("no columns")
    };
    let marked = |lines: &[(bool, String)]| {
        lines
            .iter()
            .filter(|(differs, _)| *differs)
            .map(|(_, text)| text.clone())
            .collect::<Vec<_>>()
    };
    let base = marked(&columns.base);
    assert!(
        base.contains(&"  visible = true  [P]".to_owned()),
        "{base:?}"
    );
    assert!(
        base.contains(&"  $.task.kind = \"delegation\"".to_owned()),
        "{base:?}"
    );
    let candidate = marked(&columns.candidate);
    assert!(
        candidate.contains(&"  visible = false  [N5 X5 N6]".to_owned()),
        "{candidate:?}"
    );
    // Discovery did not change: not marked.
    assert!(!base.iter().any(|line| line.contains("agent_card_visible")));
}

fn esc(app: &mut CompareApp) {
    app.handle(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
}

#[test]
fn esc_clears_the_search_then_the_filter_then_quits_and_q_quits_at_once() {
    let mut app = app();
    press(&mut app, "f/happy");
    // Typing a search: Esc cancels the typing, nothing else.
    esc(&mut app);
    assert!(!app.searching && app.search.is_empty() && app.filter == 1);
    press(&mut app, "/happy");
    app.handle(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!((app.filter, app.search.as_str()), (1, "happy"));
    // The help open: Esc closes it, nothing else.
    press(&mut app, "?");
    esc(&mut app);
    assert!(!app.help);
    assert_eq!((app.filter, app.search.as_str()), (1, "happy"));
    esc(&mut app);
    assert_eq!((app.filter, app.search.as_str()), (1, ""));
    assert_eq!(app.message.as_deref(), Some("search \"happy\" cleared"));
    assert!(!app.should_quit);
    esc(&mut app);
    assert_eq!(app.filter, 0);
    assert_eq!(app.message.as_deref(), Some("filter cleared"));
    assert_eq!(app.shown.len(), 4, "the default filter again");
    assert!(!app.should_quit);
    esc(&mut app);
    assert!(app.should_quit);

    let mut other = self::app();
    press(&mut other, "f/happy");
    other.handle(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    press(&mut other, "q");
    assert!(other.should_quit, "q quits with a filter and a search set");
}

#[test]
fn every_key_the_view_takes_is_in_its_help_once_and_j_and_k_say_different_things() {
    let mut app = app();
    press(&mut app, "?");
    let buffer = {
        let backend = ratatui::backend::TestBackend::new(80, 24);
        let mut terminal = ratatui::Terminal::new(backend).unwrap();
        app.prepare();
        terminal.draw(|frame| app.draw(frame)).unwrap();
        terminal.backend().buffer().clone()
    };
    let width = buffer.area.width as usize;
    let cells: Vec<&str> = buffer.content().iter().map(|cell| cell.symbol()).collect();
    let text: String = cells.chunks(width).map(|row| row.concat() + "\n").collect();
    for (_, help) in COMMANDS {
        assert_eq!(text.matches(help).count(), 1, "{help:?} in\n{text}");
    }
    assert_ne!(command_help(Command::Down), command_help(Command::Up));
    assert!(text.contains("j/↓          next pair"), "{text}");
    assert!(text.contains("k/↑          previous pair"), "{text}");
    // A command the view does not take does nothing and is not in its help.
    assert_eq!(command_help(Command::WhatIf), None);
    press(&mut app, "x");
    assert!(!app.handle(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE)));
}
