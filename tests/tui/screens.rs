//! Screens of the interactive inspector, drawn with ratatui's TestBackend on the bundled
//! fixtures, and key handling on the state alone.

use crate::common::screen::{headless_on, press, screen_text};
use handoff_inspector::a2a::Mode;
use handoff_inspector::tui::runtime::drive::Headless;
use handoff_inspector::tui::state::app::{Focus, Overlay, Tab};
use handoff_inspector::tui::update::Action;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use std::path::PathBuf;

fn keys(app: &mut Headless, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn select(app: &mut Headless, name: &str) {
    keys(app, "/");
    keys(app, name);
    press(app, KeyCode::Enter);
    let selected = app
        .selected_summary()
        .map(|summary| summary.source.to_string())
        .unwrap_or_default();
    assert!(
        selected.contains(name),
        "selected {selected}, wanted {name}"
    );
}

fn draw(app: &mut Headless, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.view(frame)).unwrap();
    terminal
}

fn find(buffer: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let text = screen_text(buffer);
    text.lines().enumerate().find_map(|(y, line)| {
        line.find(needle)
            .map(|byte| (line[..byte].chars().count() as u16, y as u16))
    })
}

#[test]
fn every_tab_of_the_typed_positive_packet() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "happy_task_requested.json");
    for (index, tab) in Tab::ALL.iter().enumerate() {
        press(&mut app, KeyCode::Char(char::from(b'1' + index as u8)));
        assert_eq!(app.tab, *tab);
        let terminal = draw(&mut app, 120, 40);
        insta::assert_snapshot!(
            format!("tab_{}", tab.title().to_lowercase()),
            terminal.backend()
        );
    }
}

#[test]
fn conversion_shows_both_modes_when_they_differ() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "negative_missing_task_id.json");
    keys(&mut app, "2");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!("conversion_strict_vs_lenient", terminal.backend());
}

#[test]
fn digests_diff_against_a_drifted_expected_payload() {
    let dir = tempfile::tempdir().unwrap();
    let raw = std::fs::read("fixtures/a2a/happy_task_requested.json").unwrap();
    std::fs::write(dir.path().join("drift.json"), raw).unwrap();
    let mut expected: serde_json::Value = serde_json::from_slice(
        &std::fs::read("fixtures/a2a/happy_task_requested.strict.payload.json").unwrap(),
    )
    .unwrap();
    expected["handoff"]["message_ref_visible"] = false.into();
    expected["adapter_version"] = "3.3.0".into();
    std::fs::write(
        dir.path().join("drift.strict.payload.json"),
        expected.to_string(),
    )
    .unwrap();
    let mut app = Headless::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        true,
    );
    app.load();
    select(&mut app, "drift.json");
    keys(&mut app, "4");
    let terminal = draw(&mut app, 120, 40);
    let text = screen_text(terminal.backend().buffer());
    assert!(
        text.contains("handoff   ≠ e478af7359a2 typed positive: task + message refs"),
        "{text}"
    );
    assert!(
        text.contains("expected c956bc2d9e8d typed positive: task ref only"),
        "{text}"
    );
    assert!(
        text.contains("-   \"adapter_version\": \"3.3.0\","),
        "{text}"
    );
    assert!(
        text.contains("+   \"adapter_version\": \"3.4.0\","),
        "{text}"
    );
    keys(&mut app, "d");
    let side = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(
        side.lines().any(|line| line.contains("\"3.3.0\"")
            && line.contains(" │ ")
            && line.contains("\"3.4.0\"")),
        "{side}"
    );
}

#[test]
fn help_overlay_is_generated_from_the_keymap() {
    let mut app = headless_on("fixtures/a2a", true);
    keys(&mut app, "?");
    assert!(matches!(app.overlay, Some(Overlay::Help { scroll: 0 })));
    let terminal = draw(&mut app, 140, 40);
    insta::assert_snapshot!("help", terminal.backend());
    for binding in handoff_inspector::tui::state::keymap::KEYMAP {
        assert!(
            screen_text(terminal.backend().buffer()).contains(binding.help),
            "{}",
            binding.help
        );
    }
    keys(&mut app, "x");
    assert!(app.overlay.is_none());
}

#[test]
fn what_if_panel_follows_the_toggles() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "happy_task_requested.json");
    keys(&mut app, "w");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!("what_if", terminal.backend());
    keys(&mut app, "k");
    let text = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(text.contains("\"analysis\""), "{text}");
    assert!(text.contains("defaults (not visible)"), "{text}");
    assert!(text.contains("N5 X5"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert!(!app.should_quit);
}

#[test]
fn rules_matrix_cell_filters_the_list() {
    let mut app = headless_on("fixtures/a2a", true);
    keys(&mut app, "6");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!("rules_matrix", terminal.backend());
    keys(&mut app, "l");
    assert_eq!(app.focus, Focus::Detail);
    // Row N3 (index 6) in strict mode.
    keys(&mut app, "jjjjjj");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.list.filter.rule, Some(("N3", Mode::Strict)));
    assert_eq!(app.focus, Focus::List);
    let shown: Vec<String> = app
        .list
        .rows
        .iter()
        .filter_map(|row| match row {
            handoff_inspector::tui::state::app::ListRow::Packet(index) => {
                app.packets[*index].source.file_name().map(str::to_owned)
            }
            _ => None,
        })
        .collect();
    // task.id 42 is not a string, so positive_no_refs is the same N3 case in strict mode.
    assert_eq!(
        shown,
        vec!["negative_missing_task_id.json", "positive_no_refs.json"]
    );
    press(&mut app, KeyCode::Esc);
    assert!(!app.list.filter.is_active());
    assert!(!app.should_quit);
}

#[test]
fn colour_carries_meaning_and_no_color_drops_it() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "happy_task_requested.json");
    keys(&mut app, "3");
    let terminal = draw(&mut app, 120, 40);
    let buffer = terminal.backend().buffer();
    // The matched P row is highlighted; an unmatched row (N1) is plain, not faint.
    let (x, y) = find(buffer, "● P").unwrap();
    assert_eq!(buffer[(x, y)].fg, Color::Yellow);
    assert!(buffer[(x, y)].modifier.contains(Modifier::BOLD));
    let (x, y) = find(buffer, "· N1").unwrap();
    assert_eq!(buffer[(x, y)].fg, Color::Reset);
    assert!(buffer[(x, y)].modifier.is_empty());
    // The selected list row is reversed, so it shows without colour too.
    let y = 2 + (app.list.selected - app.list.offset) as u16;
    assert!(buffer[(3, y)].modifier.contains(Modifier::REVERSED));
    assert!(!buffer[(3, y + 1)].modifier.contains(Modifier::REVERSED));

    let mut plain = headless_on("fixtures/a2a", false);
    select(&mut plain, "happy_task_requested.json");
    keys(&mut plain, "3");
    let terminal = draw(&mut plain, 120, 40);
    let buffer = terminal.backend().buffer();
    assert!(buffer
        .content()
        .iter()
        .all(|cell| cell.fg == Color::Reset && cell.bg == Color::Reset));
    let (x, y) = find(buffer, "● P").unwrap();
    assert!(buffer[(x, y)].modifier.contains(Modifier::BOLD));
    // Focus shows without colour: the focused pane's title is bold, the other's plain.
    let list_title = find(buffer, "┌ packets ").unwrap();
    let detail_title = find(buffer, "┌ fixtures/a2a/happy_task_requested.json ").unwrap();
    let bold = |(x, y): (u16, u16)| buffer[(x + 2, y)].modifier.contains(Modifier::BOLD);
    assert!(
        bold(list_title) && !bold(detail_title),
        "{:?} {:?} focus {:?}",
        list_title,
        detail_title,
        plain.focus
    );
    press(&mut plain, KeyCode::Enter);
    let terminal = draw(&mut plain, 120, 40);
    let buffer = terminal.backend().buffer();
    let bold = |(x, y): (u16, u16)| buffer[(x + 2, y)].modifier.contains(Modifier::BOLD);
    assert!(!bold(list_title) && bold(detail_title));
}

/// The status bar's key descriptions are not faint (SGR 2 reads as background on many dark
/// 16-colour themes): at 80x24 no cell of the bottom row is DIM.
#[test]
fn status_bar_key_descriptions_are_not_faint() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "happy_task_requested.json");
    // A key clears the search's "match 1 of 1": the keys come back.
    keys(&mut app, "1");
    let terminal = draw(&mut app, 80, 24);
    let buffer = terminal.backend().buffer();
    let bottom: String = (0..80).map(|x| buffer[(x, 23)].symbol()).collect();
    assert!(bottom.contains("? help"), "{bottom}");
    let faint: String = (0..80)
        .map(|x| &buffer[(x, 23)])
        .filter(|cell| cell.modifier.contains(Modifier::DIM))
        .map(|cell| cell.symbol())
        .collect();
    assert_eq!(faint.trim(), "", "faint in the status bar");
}

/// Every drawn character, on every tab and overlay, is in the default foreground or one of the
/// colours 16-colour themes tune for their own background: never ANSI 8 (Solarized Dark's
/// background), 0, 7, 15 or blue, and never faint (SGR 2, which many dark themes draw close to
/// their background). Backgrounds stay the terminal's own.
#[test]
fn text_colours_are_readable_on_light_and_dark_themes() {
    use handoff_inspector::tui::views::theme::Theme;
    let check = |app: &mut Headless, what: &str| {
        for (width, height) in [(80, 24), (120, 40)] {
            let terminal = draw(app, width, height);
            let buffer = terminal.backend().buffer();
            for (index, cell) in buffer.content().iter().enumerate() {
                if cell.symbol().trim().is_empty() {
                    continue;
                }
                let (x, y) = buffer.pos_of(index);
                assert!(
                    Theme::readable_text_colour(cell.fg),
                    "{what} at {width}x{height}: {:?} in {:?} at ({x}, {y})",
                    cell.symbol(),
                    cell.fg
                );
                assert_eq!(cell.bg, Color::Reset, "{what}: background at ({x}, {y})");
                assert!(
                    !cell.modifier.contains(Modifier::DIM),
                    "{what} at {width}x{height}: {:?} is faint at ({x}, {y})",
                    cell.symbol()
                );
            }
        }
    };
    for (corpus, packet) in [
        ("fixtures/a2a", "happy_task_requested.json"),
        ("fixtures/a2a", "negative_missing_task_id.json"),
        ("fixtures/migrate", "task.v03.jsonrpc.json"),
        ("fixtures/profiles", "uaix"),
    ] {
        let mut app = headless_on(corpus, true);
        select(&mut app, packet);
        for (index, tab) in Tab::ALL.iter().enumerate() {
            press(&mut app, KeyCode::Char(char::from(b'1' + index as u8)));
            check(&mut app, &format!("{packet} {tab:?}"));
        }
        for overlay in ["?", "f", "w"] {
            keys(&mut app, overlay);
            check(&mut app, &format!("{packet} overlay {overlay}"));
            press(&mut app, KeyCode::Esc);
        }
    }
}

#[test]
fn hostile_strings_are_escaped_on_every_tab() {
    let mut app = headless_on("fixtures/a2a", true);
    select(&mut app, "hostile_control_characters.json");
    for tab in 1..=6 {
        keys(&mut app, &tab.to_string());
        let terminal = draw(&mut app, 120, 40);
        let text = screen_text(terminal.backend().buffer());
        for forbidden in ['\u{1b}', '\u{9b}', '\u{202e}', '\u{200b}'] {
            assert!(!text.contains(forbidden), "{forbidden:?} on tab {tab}");
        }
    }
    keys(&mut app, "1");
    let text = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(
        text.contains("\\u{202e}toor") || text.contains("\\u202etoor"),
        "{text}"
    );
}

#[test]
fn small_terminals_get_a_message() {
    let mut app = headless_on("fixtures/a2a", true);
    let terminal = draw(&mut app, 70, 20);
    let text = screen_text(terminal.backend().buffer());
    assert!(
        text.contains("needs at least 80x24 (this terminal is 70x20)"),
        "{text}"
    );
}

#[test]
fn navigation_skips_group_headers_and_keeps_bounds() {
    let mut app = headless_on("fixtures", true);
    let first = app.selected_packet();
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(app.selected_packet(), first, "k at the top stays");
    keys(&mut app, "G");
    let last = app.selected_packet().unwrap();
    assert_eq!(
        last,
        *app.list
            .rows
            .iter()
            .rev()
            .find_map(|row| match row {
                handoff_inspector::tui::state::app::ListRow::Packet(index) => Some(index),
                _ => None,
            })
            .unwrap()
    );
    keys(&mut app, "g");
    assert_eq!(app.selected_packet(), first);
    press(&mut app, KeyCode::PageDown);
    assert!(app.selected_packet().unwrap() > first.unwrap());
    // Tabs wrap both ways.
    keys(&mut app, "1");
    press(&mut app, KeyCode::BackTab);
    assert_eq!(app.tab, *Tab::ALL.last().unwrap());
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.tab, Tab::Raw);
    // m toggles the mode; q quits; Ctrl-C quits.
    keys(&mut app, "m");
    assert_eq!(app.mode, Mode::Lenient);
    keys(&mut app, "q");
    assert!(app.should_quit);
    let mut other = headless_on("fixtures/a2a", true);
    other.update(Action::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(other.should_quit);
}

#[test]
fn search_finds_text_inside_packets_and_wraps() {
    let mut app = headless_on("fixtures/a2a", true);
    keys(&mut app, "/agent://worker");
    press(&mut app, KeyCode::Enter);
    let first = app.selected_packet();
    let bytes = std::fs::read(&*app.selected_summary().unwrap().source.path).unwrap();
    assert!(
        String::from_utf8_lossy(&bytes).contains("agent://worker"),
        "matched on the packet text"
    );
    keys(&mut app, "n");
    assert_ne!(app.selected_packet(), first);
    let mut seen = vec![app.selected_packet()];
    for _ in 0..10 {
        keys(&mut app, "n");
        seen.push(app.selected_packet());
    }
    assert!(seen.contains(&first), "n wraps around");
    keys(&mut app, "/zzz-nothing-matches");
    press(&mut app, KeyCode::Enter);
    assert!(app
        .message
        .as_deref()
        .unwrap_or("")
        .contains("no packet matches"));
}

#[test]
fn filter_menu_by_status() {
    // fixtures/migrate/not-a2a holds two JSON-RPC messages of another protocol: not checked.
    let mut app = headless_on("fixtures/migrate", true);
    let total = app.packet_count();
    keys(&mut app, "f");
    // The menu lists "clear", then the statuses in the library's order.
    let position = handoff_inspector::corpus::Status::ALL
        .iter()
        .position(|status| status.label() == "not checked")
        .unwrap();
    keys(&mut app, &"j".repeat(position + 1));
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.list.filter.status.map(|status| status.label()),
        Some("not checked")
    );
    let shown = app.packet_count();
    assert!(shown > 0 && shown < total, "{shown} of {total}");
    for row in &app.list.rows {
        if let handoff_inspector::tui::state::app::ListRow::Packet(index) = row {
            assert_eq!(app.status(*index).label(), "not checked");
        }
    }
    // Clearing the filter shows everything again.
    keys(&mut app, "f");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.packet_count(), total);
}

#[test]
fn migrate_tab_steps_and_switches_steps_off() {
    let mut app = headless_on("fixtures/migrate", true);
    select(&mut app, "migrate/task.v03.jsonrpc.json");
    keys(&mut app, "7");
    assert_eq!(app.tab, Tab::Migrate);
    keys(&mut app, "l");
    let steps: Vec<&str> = app
        .selected_detail()
        .and_then(|detail| detail.migration())
        .map(|migration| migration.steps.iter().map(|run| run.step.id).collect())
        .unwrap();
    assert!(steps.len() >= 2, "{steps:?}");
    keys(&mut app, "nn");
    assert_eq!(app.tabs.migrate.cursor, 2.min(steps.len() - 1));
    keys(&mut app, "p");
    assert_eq!(app.tabs.migrate.cursor, 1);
    let first = draw(&mut app, 120, 40);
    let text = screen_text(first.backend().buffer());
    assert!(text.contains(&format!("{}: ", steps[1])), "{text}");
    keys(&mut app, " ");
    assert_eq!(app.tabs.migrate.off, vec![steps[1]]);
    let text = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(text.contains("effect of switching off:"), "{text}");
    keys(&mut app, " ");
    assert!(app.tabs.migrate.off.is_empty());
    // Selecting another packet starts its migration from the first step, all steps on.
    keys(&mut app, " h");
    press(&mut app, KeyCode::Down);
    assert_eq!(app.tabs.migrate.cursor, 0);
    assert!(app.tabs.migrate.off.is_empty());
}

/// The golden review shows what changed in the event (paths before -> after, the handoff
/// state in the freeze's words), a drifted paired payload with the command that updates it,
/// and a queue that counts what the group header counts ("2 failing": the raw packet whose
/// paired payload differs, and the hand-edited payload file).
#[test]
fn golden_review_shows_what_changed_and_counts_what_the_list_counts() {
    // Under target/ with a fixed-length name: the path is drawn, and replaced below.
    std::fs::create_dir_all("target").unwrap();
    let dir = tempfile::Builder::new()
        .prefix("review-")
        .rand_bytes(6)
        .tempdir_in("target")
        .unwrap();
    // Relative, so the drawn path has the same length on every machine.
    let relative = PathBuf::from("target").join(dir.path().file_name().unwrap());
    let root = relative.to_string_lossy().into_owned();
    for name in [
        "happy_task_requested.json",
        "happy_task_requested.strict.payload.json",
        "happy_task_requested.lenient.payload.json",
        "goldens.json",
    ] {
        std::fs::copy(format!("fixtures/a2a/{name}"), dir.path().join(name)).unwrap();
    }
    let edit = |name: &str, from: &str, to: &str| {
        let path = dir.path().join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{name}: {from}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    };
    edit(
        "happy_task_requested.json",
        "\"kind\":\"delegation\"",
        "\"kind\":\"analysis\"",
    );
    edit(
        "happy_task_requested.json",
        "\"id\":\"msg-1\"",
        "\"id\":\"msg-2\"",
    );
    edit(
        "happy_task_requested.strict.payload.json",
        "\"priority\": \"urgent\"",
        "\"priority\": \"low\"",
    );
    let mut app = Headless::new(
        vec![relative.clone()],
        crate::common::fixture_options(),
        false,
    );
    app.size = (120, 40);
    app.load();
    let list = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(list.contains(" 3 · 2 failing"), "{list}");
    keys(&mut app, "a");
    let Some(Overlay::Review(review)) = &app.overlay else {
        panic!("no review panel")
    };
    assert_eq!(review.queue.len(), 2);
    let shown = |app: &mut Headless| {
        crate::common::screen::screen_text_trimmed(draw(app, 120, 40).backend().buffer())
            .replace(&root, "target/review-XXXXXX")
    };
    let first = shown(&mut app);
    assert!(first.contains("golden review 1 of 2"), "{first}");
    assert!(
        first.contains("in review: 2 of the list's 2 failing (strict)"),
        "{first}"
    );
    insta::assert_snapshot!("golden_review_drift", first);
    keys(&mut app, "s");
    let second = shown(&mut app);
    assert!(second.contains("golden review 2 of 2"), "{second}");
    insta::assert_snapshot!("golden_review_paired_payload", second);
}

/// Two packets without goldens in a directory of their own (so both are reviewed), loaded.
fn two_unrecorded_packets() -> (tempfile::TempDir, Headless) {
    let dir = tempfile::tempdir().unwrap();
    let raw = std::fs::read_to_string("fixtures/a2a/happy_task_requested.json").unwrap();
    std::fs::write(dir.path().join("one.json"), &raw).unwrap();
    std::fs::write(
        dir.path().join("two.json"),
        raw.replace("delegation", "analysis"),
    )
    .unwrap();
    let mut app = Headless::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        true,
    );
    app.size = (120, 40);
    app.load();
    (dir, app)
}

#[test]
fn golden_review_accepts_with_confirmation_and_skips() {
    let (dir, mut app) = two_unrecorded_packets();
    assert!(app
        .packets
        .iter()
        .all(|check| check.status.label() == "no golden"));

    keys(&mut app, "a");
    let Some(Overlay::Review(review)) = &app.overlay else {
        panic!("no review panel")
    };
    assert_eq!(review.queue.len(), 2);
    let text = screen_text(draw(&mut app, 120, 40).backend().buffer());
    assert!(text.contains("golden review 1 of 2"), "{text}");

    // Accept asks first; anything but y declines.
    keys(&mut app, "a");
    assert!(matches!(&app.overlay, Some(Overlay::Review(review)) if review.confirming));
    assert!(
        screen_text(draw(&mut app, 120, 40).backend().buffer()).contains("Record this outcome in")
    );
    let effects = app.update(Action::Key(KeyEvent::new(
        KeyCode::Char('n'),
        KeyModifiers::NONE,
    )));
    assert!(effects.is_empty());
    keys(&mut app, "a");
    let effects = app.update(Action::Key(KeyEvent::new(
        KeyCode::Char('y'),
        KeyModifiers::NONE,
    )));
    let [handoff_inspector::tui::update::Effect::AcceptGolden(check)] = effects.as_slice() else {
        panic!("expected one accept, got {effects:?}")
    };
    // The effect carries the accepted packet's own check: the review has already moved the
    // selection on to the next packet (taking the selection then recorded the wrong one).
    assert!(check.summary.source.to_string().ends_with("one.json"));
    let selected = app
        .selected_summary()
        .map(|packet| packet.source.to_string());
    assert!(selected.is_some_and(|name| name.ends_with("two.json")));
    let check = check.clone();
    keys(&mut app, "s");
    assert!(app.overlay.is_none());
    assert_eq!(
        app.message.as_deref(),
        Some("review done: 1 accepted, 0 rejected, 1 skipped")
    );
    if std::env::var_os("CI").is_some_and(|value| !value.is_empty()) {
        // Under CI nothing may be written; the library's refusal is tested in corpus::accept.
        return;
    }
    // What the runtime does with the effect, then a fresh check.
    handoff_inspector::corpus::accept_golden(&check, &app.options).unwrap();
    let mut reloaded = Headless::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        true,
    );
    reloaded.load();
    let statuses: Vec<&str> = reloaded
        .packets
        .iter()
        .map(|check| check.status.label())
        .collect();
    assert_eq!(statuses, vec!["conforms", "no golden"]);

    // Rejected packets are not offered again, and the review says so.
    let mut app = reloaded;
    keys(&mut app, "ar");
    assert!(app.overlay.is_none());
    keys(&mut app, "a");
    assert_eq!(
        app.message.as_deref(),
        Some("nothing new to review: 1 rejected this session (they still differ; their goldens were kept)")
    );
}

/// A reviewed packet whose golden already records its outcome (only its paired payload file
/// differs, which accepting never writes): `a` asks nothing and says at once that there is
/// nothing to record, at 80x24; no accept is returned and the review stays on the packet.
#[test]
fn golden_review_asks_no_confirmation_when_accepting_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "happy_task_requested.json",
        "happy_task_requested.strict.payload.json",
        "goldens.json",
    ] {
        std::fs::copy(format!("fixtures/a2a/{name}"), dir.path().join(name)).unwrap();
    }
    let payload = dir.path().join("happy_task_requested.strict.payload.json");
    let text = std::fs::read_to_string(&payload).unwrap();
    std::fs::write(&payload, text.replace("\"urgent\"", "\"low\"")).unwrap();
    let mut app = Headless::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        false,
    );
    app.size = (80, 24);
    app.load();
    keys(&mut app, "a");
    // The raw packet (its payload file is reviewed too: its own golden drifted).
    for _ in 0..2 {
        let reviewed = app
            .selected_summary()
            .map(|packet| packet.source.to_string())
            .unwrap_or_default();
        if reviewed.ends_with("happy_task_requested.json") {
            break;
        }
        keys(&mut app, "s");
    }
    let Some(Overlay::Review(review)) = &app.overlay else {
        panic!("no review panel")
    };
    let position = review.position;
    let preview = screen_text(draw(&mut app, 80, 24).backend().buffer());
    assert!(preview.contains("no change: the manifest"), "{preview}");
    let effects = app.update(Action::Key(KeyEvent::new(
        KeyCode::Char('a'),
        KeyModifiers::NONE,
    )));
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        matches!(&app.overlay, Some(Overlay::Review(review)) if !review.confirming && review.position == position),
        "the review stays on the packet, asking nothing"
    );
    let shown = screen_text(draw(&mut app, 80, 24).backend().buffer());
    assert!(!shown.contains("Record this outcome"), "{shown}");
    let message = app.message.clone().unwrap_or_default();
    assert!(
        message.starts_with("nothing to record: ")
            && message.contains("already records this outcome"),
        "{message}"
    );
    assert!(shown.contains("nothing to record"), "{shown}");
}

/// Accept needs the packet's full check, which comes with its detail: while the detail is
/// still being read, `a` says so and asks for nothing (no confirmation, no effect).
#[test]
fn golden_review_waits_for_the_detail_before_it_confirms() {
    use handoff_inspector::tui::update::update;
    let (_dir, mut app) = two_unrecorded_packets();
    keys(&mut app, "a");
    let key = |c| Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    // From here the reads the review asks for are left unanswered, as a slow disk would.
    assert!(update(&mut app.app, key('a')).is_empty());
    let effects = update(&mut app.app, key('y'));
    assert!(matches!(
        effects.first(),
        Some(handoff_inspector::tui::update::Effect::AcceptGolden(_))
    ));
    assert!(app.selected_check().is_none(), "the next packet is unread");
    let effects = update(&mut app.app, key('a'));
    assert!(effects.is_empty(), "{effects:?}");
    assert!(matches!(&app.overlay, Some(Overlay::Review(review)) if !review.confirming));
    let message = app.message.clone().unwrap_or_default();
    assert!(message.contains("still being read"), "{message}");
}

#[test]
fn mouse_click_selects_and_wheel_scrolls() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let mut app = headless_on("fixtures/a2a", true);
    app.sync_list_geometry();
    let mouse = |kind, column, row| {
        Action::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // Row 0 of the list is the group header; row 3 of the list area is the third packet.
    let top = app.list.area_top;
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 5, top + 3));
    assert_eq!(app.list.selected, 3);
    assert_eq!(app.focus, Focus::List);
    app.update(mouse(MouseEventKind::ScrollDown, 5, top + 3));
    assert_eq!(app.list.selected, 6, "the wheel moves three packets");
    // Over the detail, the wheel scrolls the detail and a click focuses it.
    app.update(mouse(MouseEventKind::ScrollDown, 100, 10));
    assert_eq!(app.tabs.scroll, 3);
    assert_eq!(app.list.selected, 6);
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 100, 10));
    assert_eq!(app.focus, Focus::Detail);
    // A click on the group header folds the group; another unfolds it.
    let rows = app.list.rows.len();
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 5, top));
    assert_eq!((app.list.selected, app.list.rows.len()), (0, 1));
    app.update(mouse(MouseEventKind::Down(MouseButton::Left), 5, top));
    assert_eq!((app.list.selected, app.list.rows.len()), (1, rows));
}

/// Draws `app` once, then again with every line it built for the packet forgotten.
fn warm_and_cold(app: &mut Headless, terminal: &mut Terminal<TestBackend>) -> (Buffer, Buffer) {
    terminal.draw(|frame| app.view(frame)).unwrap();
    let warm = terminal.backend().buffer().clone();
    app.view.forget_drawn();
    // A fresh terminal: the backend's buffer then holds the whole frame, not a patch.
    let mut fresh = Terminal::new(TestBackend::new(app.size.0, app.size.1)).unwrap();
    fresh.draw(|frame| app.view(frame)).unwrap();
    (warm, fresh.backend().buffer().clone())
}

#[test]
fn lines_kept_between_frames_draw_as_lines_built_afresh() {
    // The Migrate and Conversion views keep the lines they build per view state; every key
    // that changes what they show must give the frame a freshly built view would.
    for corpus in ["fixtures/migrate", "fixtures/a2a"] {
        for color in [true, false] {
            let mut app = headless_on(corpus, color);
            let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
            let sequence = "7ljj njp kk2m3 7l pjjdm2h2ljjGgj7jjnjh";
            let mut compared = 0;
            // ASCII keys: a char's index is its byte offset.
            for (index, c) in sequence.char_indices() {
                if index % 9 == 8 {
                    press(&mut app, KeyCode::Down);
                }
                match c {
                    ' ' => press(&mut app, KeyCode::Char(' ')),
                    'G' => press(&mut app, KeyCode::PageDown),
                    _ => press(&mut app, KeyCode::Char(c)),
                }
                let (warm, cold) = warm_and_cold(&mut app, &mut terminal);
                assert_eq!(
                    warm,
                    cold,
                    "{corpus} after {:?}:\n{}",
                    &sequence[..=index],
                    screen_text(&warm)
                );
                compared += 1;
            }
            assert!(compared > 30);
        }
    }
}

/// Repeated keys that the golden acknowledges are not drawn as a warning under a verdict that
/// says there is nothing: duplicate_task_kind conforms and its repeated key is listed as
/// acknowledged; without the golden, the same key is a warning of a failing packet.
#[test]
fn findings_tab_never_lists_a_warning_under_conforms() {
    let mut app = headless_on("fixtures/a2a", false);
    select(&mut app, "duplicate_task_kind.json");
    press(&mut app, KeyCode::Char('5'));
    let screen = screen_text(draw(&mut app, 200, 50).backend().buffer());
    assert!(screen.contains("check: ✓ conforms"), "{screen}");
    assert!(
        screen.contains("repeated keys acknowledged by the golden"),
        "{screen}"
    );
    assert!(
        screen.contains("duplicate key, acknowledged by the golden:"),
        "{screen}"
    );
    assert!(!screen.contains("warning [duplicate key]"), "{screen}");

    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "fixtures/a2a/duplicate_task_kind.json",
        dir.path().join("duplicate_task_kind.json"),
    )
    .unwrap();
    let mut app = headless_on(dir.path().to_str().unwrap(), false);
    select(&mut app, "duplicate_task_kind.json");
    press(&mut app, KeyCode::Char('5'));
    let screen = screen_text(draw(&mut app, 200, 50).backend().buffer());
    assert!(screen.contains("check: ! finding"), "{screen}");
    assert!(screen.contains("warning [duplicate key]"), "{screen}");
}

/// The effects `o` returns on the selected packet.
fn press_o(app: &mut Headless) -> Vec<handoff_inspector::tui::update::Effect> {
    app.update(Action::Key(KeyEvent::new(
        KeyCode::Char('o'),
        KeyModifiers::NONE,
    )))
}

#[test]
fn o_asks_to_open_the_file_at_its_line_and_a_bundle_event_opens_its_bundle() {
    use handoff_inspector::tui::state::selection::EditorTarget;
    use handoff_inspector::tui::update::Effect;
    let opened = |effects: Vec<Effect>| match effects.as_slice() {
        [Effect::OpenEditor(target)] => target.clone(),
        other => panic!("o asked for {other:?}"),
    };
    // An event's SEQ is no line of the bundle file: the bundle opens at its first line.
    for (corpus, name, file) in [
        (
            "fixtures/a2a",
            "happy_task_requested.json",
            "fixtures/a2a/happy_task_requested.json",
        ),
        (
            "fixtures/bundles",
            "a2a-ten-events.tar.gz:3",
            "fixtures/bundles/a2a-ten-events.tar.gz",
        ),
    ] {
        let mut app = headless_on(corpus, false);
        select(&mut app, name);
        let wanted = EditorTarget {
            path: PathBuf::from(file),
            line: 1,
        };
        assert_eq!(opened(press_o(&mut app)), wanted, "{name}");
    }
}
