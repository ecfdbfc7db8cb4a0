//! Every tab at the smallest supported terminal (80x24) and a large one (200x50), as insta
//! snapshots of the real screen; and at 80x24 every packet of the fixtures is told apart in
//! the list and the active tab's label is visible.

use crate::common::screen::screen_text_trimmed as text;
use handoff_inspector::corpus::CheckOptions;
use handoff_inspector::tui::app::{ListRow, Tab};
use handoff_inspector::tui::drive::{Driver, Step};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::HashMap;
use std::path::PathBuf;

fn press(driver: &mut Driver, code: KeyCode) {
    driver
        .apply(&Step::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        .unwrap();
    driver.settle().unwrap();
}

fn driver(path: &str, size: (u16, u16)) -> Driver {
    Driver::new(
        vec![PathBuf::from(path)],
        CheckOptions::default(),
        size,
        false,
    )
    .unwrap()
}

fn select(driver: &mut Driver, name: &str) {
    press(driver, KeyCode::Char('/'));
    for c in name.chars() {
        press(driver, KeyCode::Char(c));
    }
    press(driver, KeyCode::Enter);
    let selected = driver.app.selected_summary().unwrap().source.to_string();
    assert!(selected.contains(name), "{selected}");
    driver.app.search = None;
    driver.apply(&Step::Deliver(0)).unwrap();
}

/// The packet each tab is best shown with.
fn packet_for(tab: Tab) -> (&'static str, &'static str) {
    match tab {
        Tab::Migrate => ("fixtures/migrate", "task.v03.jsonrpc.json"),
        Tab::Conversion => ("fixtures/a2a", "negative_missing_task_id.json"),
        _ => ("fixtures/a2a", "happy_task_requested.json"),
    }
}

#[test]
fn every_tab_at_80x24_and_200x50() {
    for (width, height) in [(80u16, 24u16), (200, 50)] {
        for (index, tab) in Tab::ALL.iter().enumerate() {
            let (corpus, packet) = packet_for(*tab);
            let mut driver = driver(corpus, (width, height));
            select(&mut driver, packet);
            press(&mut driver, KeyCode::Char(char::from(b'1' + index as u8)));
            assert_eq!(driver.app.tab, *tab);
            let screen = text(driver.buffer());
            assert!(
                screen.contains(&format!("{} {}", index + 1, tab.short_title()))
                    || screen.contains(&format!("{} {}", index + 1, tab.title())),
                "the active tab's label is visible at {width}x{height}:\n{screen}"
            );
            insta::assert_snapshot!(format!("{}_{width}x{height}", tab.title()), screen);
        }
    }
}

/// At 80x24, within each group, no two packets are listed under the same (shortened) name.
#[test]
fn every_fixture_name_is_distinguishable_at_80x24() {
    let mut driver = driver("fixtures", (80, 24));
    let list_top = usize::from(driver.app.list_area_top);
    let list_left = 1u16;
    let list_width =
        handoff_inspector::tui::views::layout::list_rows(ratatui::layout::Rect::new(0, 0, 80, 24))
            .width;
    let mut shown: HashMap<usize, String> = HashMap::new();
    let rows = driver.app.rows.len();
    for _ in 0..rows {
        let buffer = driver.buffer().clone();
        for screen_row in 0..usize::from(driver.app.list_area_height) {
            let row = driver.app.list_offset + screen_row;
            if let Some(ListRow::Packet(_)) = driver.app.rows.get(row) {
                let y = (list_top + screen_row) as u16;
                let line: String = (list_left..list_left + list_width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect();
                // Glyph column, then the name up to the column gap.
                let name = line.chars().skip(3).collect::<String>();
                let name = name.split("  ").next().unwrap_or("").trim().to_owned();
                shown.entry(row).or_insert(name);
            }
        }
        press(&mut driver, KeyCode::Char('j'));
    }
    let mut group = String::new();
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for (row, entry) in driver.app.rows.iter().enumerate() {
        match entry {
            ListRow::Group { label, .. } => group = label.clone(),
            ListRow::Packet(_) => {
                let name = shown.get(&row).cloned().unwrap_or_default();
                assert!(!name.is_empty(), "row {row} was never on screen");
                if let Some(other) = seen.insert((group.clone(), name.clone()), row) {
                    panic!("rows {other} and {row} of {group} both read {name:?}");
                }
            }
        }
    }
}

/// A golden drifted in one field (the lenient state) shows `≠` on the Digests tab with the
/// recorded and the current value, and the changed path.
#[test]
fn golden_drift_of_one_field_shows_on_the_digests_tab() {
    let mut driver = driver("screenshots/demo-golden-drift", (80, 24));
    press(&mut driver, KeyCode::Char('4'));
    press(&mut driver, KeyCode::Char('m'));
    let screen = text(driver.buffer());
    assert!(screen.contains("≠ state"), "{screen}");
    assert!(screen.contains("recorded task_ref_only"), "{screen}");
    assert!(
        screen.contains("current  task_and_message_refs"),
        "{screen}"
    );
    assert!(screen.contains("$.message_ref_visible"), "{screen}");
    insta::assert_snapshot!("golden_drift_lenient_80x24", screen);
}

/// `d` with no payload diff says why instead of doing nothing visible.
#[test]
fn d_explains_when_there_is_nothing_to_diff() {
    let mut driver = driver("screenshots/demo-golden-drift", (80, 24));
    press(&mut driver, KeyCode::Char('4'));
    press(&mut driver, KeyCode::Char('d'));
    let message = driver.app.message.clone().unwrap_or_default();
    assert!(message.contains("nothing to diff here"), "{message}");
}

/// The Migrate tab counts warnings and notes as the CLI's `migrate` reports them.
#[test]
fn migrate_tab_counts_warnings_and_notes_like_the_cli() {
    let packet = "fixtures/migrate/get-task-request.v03.jsonrpc.json";
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .args(["migrate", packet])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let count = |label: &str| {
        stderr
            .lines()
            .filter(|line| line.starts_with(label))
            .count()
    };
    let (warnings, notes) = (count("warning:"), count("note:"));
    assert!(warnings > 0 && notes > 0, "{stderr}");
    let mut driver = driver(packet, (200, 50));
    press(&mut driver, KeyCode::Char('7'));
    let screen = text(driver.buffer());
    assert!(
        screen.contains(&format!("{warnings} warning(s), {notes} note(s)")),
        "CLI: {warnings} warning(s), {notes} note(s)\n{screen}"
    );
}

/// A per-mode finding whose message names its mode is not prefixed with it again.
#[test]
fn findings_name_the_mode_once() {
    let mut driver = driver("screenshots/demo-golden-drift", (200, 50));
    press(&mut driver, KeyCode::Char('5'));
    let screen = text(driver.buffer());
    assert!(screen.contains("lenient: state"), "{screen}");
    assert!(!screen.contains("lenient lenient"), "{screen}");
}

/// At 80x24 the help is one column that scrolls with j/k instead of being cut off.
#[test]
fn help_scrolls_at_80x24() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    press(&mut driver, KeyCode::Char('?'));
    let first = text(driver.buffer());
    assert!(first.contains("j/k scroll"), "{first}");
    insta::assert_snapshot!("help_80x24", first);
    for _ in 0..60 {
        press(&mut driver, KeyCode::Char('j'));
    }
    let last = text(driver.buffer());
    assert!(last.contains("Golden review"), "{last}");
    assert!(last.contains("Long lines wrap"), "{last}");
}

/// The detail scroll stays inside its content: after G (bottom), one k scrolls up at once,
/// and on the Handoff tab j past the last field scrolls the text.
#[test]
fn detail_scroll_stays_inside_the_content() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    select(&mut driver, "happy_task_requested.json");
    press(&mut driver, KeyCode::Char('1'));
    press(&mut driver, KeyCode::Enter);
    press(&mut driver, KeyCode::Char('G'));
    let bottom = driver.app.detail_scroll;
    assert!(bottom > 0 && Some(bottom) == driver.app.detail_scroll_max.get());
    press(&mut driver, KeyCode::Char('k'));
    assert_eq!(driver.app.detail_scroll, bottom - 1);
    press(&mut driver, KeyCode::Char('3'));
    for _ in 0..5 {
        press(&mut driver, KeyCode::Char('j'));
    }
    assert_eq!(driver.app.detail_cursor, 3);
    assert_eq!(driver.app.detail_scroll, 2, "j past the last field scrolls");
}
