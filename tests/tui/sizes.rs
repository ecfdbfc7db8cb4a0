//! Every tab at the smallest supported terminal (80x24) and a large one (200x50), as insta
//! snapshots of the real screen; and at 80x24 every packet of the fixtures is told apart in
//! the list and the active tab's label is visible.

use crate::common::screen::screen_text_trimmed as text;
use handoff_inspector::tui::runtime::drive::{Driver, Step};
use handoff_inspector::tui::state::app::{ListRow, Tab};
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
        crate::common::fixture_options(),
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
    driver.app.search.query = None;
    driver.app.message = None;
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
    let list_top = usize::from(driver.app.list.area_top);
    let list_left = 1u16;
    let list_width = handoff_inspector::tui::state::geometry::list_rows(
        ratatui::layout::Rect::new(0, 0, 80, 24),
    )
    .width;
    let mut shown: HashMap<usize, String> = HashMap::new();
    let rows = driver.app.list.rows.len();
    for _ in 0..rows {
        let buffer = driver.buffer().clone();
        for screen_row in 0..usize::from(driver.app.list.area_height) {
            let row = driver.app.list.offset + screen_row;
            if let Some(ListRow::Packet(_)) = driver.app.list.rows.get(row) {
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
    for (row, entry) in driver.app.list.rows.iter().enumerate() {
        match entry {
            ListRow::Group(header) => group = header.label.clone(),
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

/// The bottom `rows` of a screen as one text: wrapped lines joined again at spaces, rules
/// and pane borders dropped.
fn bottom_text(screen: &str, rows: usize) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len().saturating_sub(rows)..]
        .iter()
        .map(|line| line.trim_matches(|c: char| c.is_whitespace() || "─│└┘┴".contains(c)))
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `d` with no payload diff says why instead of doing nothing visible; at 80x24 the sentence
/// is cut on the status line (it covered the rows above it), and `?` shows it whole.
#[test]
fn d_explains_when_there_is_nothing_to_diff() {
    let mut driver = driver("screenshots/demo-golden-drift", (80, 24));
    press(&mut driver, KeyCode::Char('4'));
    press(&mut driver, KeyCode::Char('d'));
    let message = driver.app.message.clone().unwrap_or_default();
    assert!(message.contains("nothing to diff here"), "{message}");
    let screen = text(driver.buffer());
    let status = screen.lines().last().unwrap_or_default();
    assert!(
        status.contains("nothing to diff here") && status.ends_with("…  ? shows all"),
        "{screen}"
    );
    insta::assert_snapshot!("d_nothing_to_diff_80x24", screen);
    press(&mut driver, KeyCode::Char('?'));
    let help = text(driver.buffer());
    assert!(
        bottom_text(&help, 24).contains(&message),
        "the message is not in the help:\n{help}"
    );
}

/// A status-bar message longer than the line takes that one line, cut with `…` (it wrapped
/// onto the rows above it and covered the selected row at the list's bottom): every other row
/// is as it was, and `?` shows the message whole; the next key clears it.
#[test]
fn long_status_messages_take_one_line_and_never_cover_the_selection() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    // The list scrolled to its end: the selected row is the pane's last.
    press(&mut driver, KeyCode::Char('G'));
    let before = text(driver.buffer());
    let path = "fixtures/a2a/some/deeply/nested/directory/of/packets/goldens.json";
    let message =
        format!("golden recorded in {path} (3 change(s)); 12 packets in this directory reread");
    assert!(message.chars().count() > 80);
    driver.app.message = Some(message.clone());
    driver.apply(&Step::Deliver(0)).unwrap();
    let screen = text(driver.buffer());
    let rows = |screen: &str| screen.lines().count();
    let above = |screen: &str| {
        screen
            .lines()
            .take(rows(screen) - 1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        above(&before),
        above(&screen),
        "only the status line changes"
    );
    let status = screen.lines().last().unwrap_or_default();
    assert!(
        status.starts_with(" golden recorded in fixtures/a2a/"),
        "{status}"
    );
    assert!(status.ends_with("…  ? shows all"), "{status}");
    assert!(status.chars().count() <= 80, "{status}");
    press(&mut driver, KeyCode::Char('?'));
    let help = text(driver.buffer());
    assert!(
        bottom_text(&help, 24).contains(&message),
        "the message is not in the help:\n{help}"
    );
    // Any key but j/k closes the help; the message is gone from the status line.
    press(&mut driver, KeyCode::Esc);
    let cleared = text(driver.buffer());
    assert!(!cleared.contains("golden recorded"), "{cleared}");
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
    let bottom = driver.app.tabs.scroll;
    assert!(bottom > 0 && Some(bottom) == driver.view.scroll_max);
    press(&mut driver, KeyCode::Char('k'));
    assert_eq!(driver.app.tabs.scroll, bottom - 1);
    press(&mut driver, KeyCode::Char('3'));
    for _ in 0..5 {
        press(&mut driver, KeyCode::Char('j'));
    }
    assert_eq!(driver.app.tabs.handoff.cursor, 3);
    assert_eq!(driver.app.tabs.scroll, 2, "j past the last field scrolls");
}

/// A filter set from far down the list (`G`, then `6`, `l`, Enter on the P/strict cell)
/// shows the shrunk list from its group header, not its last match alone at the top.
#[test]
fn a_filter_from_the_bottom_shows_the_list_from_its_header() {
    let mut driver = driver("fixtures", (80, 24));
    for key in ['G', '6', 'l'] {
        press(&mut driver, KeyCode::Char(key));
    }
    press(&mut driver, KeyCode::Enter);
    let screen = text(driver.buffer());
    let list: Vec<&str> = screen.lines().skip(2).take(6).collect();
    assert!(list[0].starts_with("│▾ fixtures/a2a/ 5 "), "{screen}");
    assert_eq!(
        list.iter().filter(|line| line.starts_with("│ ✓ ")).count(),
        5,
        "{screen}"
    );
}

/// At 80 columns the title keeps every verdict whole and the detail's messages wrap instead
/// of being cut ("✗ 1", "no packet matches the filter (Esc clears i").
#[test]
fn title_and_messages_fit_at_80_columns() {
    let mut driver = driver("fixtures", (80, 24));
    for key in ['6', 'l'] {
        press(&mut driver, KeyCode::Char(key));
    }
    press(&mut driver, KeyCode::Enter);
    let title = text(driver.buffer())
        .lines()
        .next()
        .unwrap_or("")
        .to_owned();
    // The figures fixtures add to change; the parts must all be there, whole.
    assert!(
        title.starts_with(" 5 of ") || title.starts_with(" 5/"),
        "{title}"
    );
    assert!(
        title.contains(" packets  filter: rule=P/strict  "),
        "{title}"
    );
    assert!(title.contains("strict  ✗ 1 UNVERIFIED"), "{title}");
    // SYN never matches in strict mode: an empty list, and the detail says why.
    press(&mut driver, KeyCode::Esc);
    for key in ['6', 'l', 'j', 'j', 'j'] {
        press(&mut driver, KeyCode::Char(key));
    }
    press(&mut driver, KeyCode::Enter);
    press(&mut driver, KeyCode::Char('3'));
    let detail = pane_text(&text(driver.buffer()));
    assert!(
        detail.contains("no packet matches the filter (Esc clears it)"),
        "{detail}"
    );
    // A folded group's line.
    press(&mut driver, KeyCode::Esc);
    press(&mut driver, KeyCode::Char('g'));
    press(&mut driver, KeyCode::Char('h'));
    let detail = pane_text(&text(driver.buffer()));
    assert!(
        detail.contains("packet(s), 0 failing, folded (l or Enter unfolds)"),
        "{detail}"
    );
}

/// The detail pane's text (right of the list), rows joined by spaces.
fn pane_text(screen: &str) -> String {
    screen
        .lines()
        .skip(1)
        .filter_map(|line| line.chars().skip(37).collect::<String>().into())
        .map(|line: String| line.trim_matches(|c| c == '│' || c == ' ').to_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Esc steps back in one order on both screens: the search (the last thing set on top of the
/// list), then the filter (in the title), then quits; each says what it cleared.
#[test]
fn esc_clears_the_search_before_the_filter() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    for key in "/happy".chars() {
        press(&mut driver, KeyCode::Char(key));
    }
    press(&mut driver, KeyCode::Enter);
    for key in ['6', 'l'] {
        press(&mut driver, KeyCode::Char(key));
    }
    press(&mut driver, KeyCode::Enter);
    assert!(text(driver.buffer()).contains("filter: rule=P/strict"));
    press(&mut driver, KeyCode::Esc);
    let screen = text(driver.buffer());
    assert!(screen.contains("filter: rule=P/strict"), "{screen}");
    assert!(screen.ends_with(" search \"happy\" cleared"), "{screen}");
    assert!(driver.app.search.query.is_none());
    press(&mut driver, KeyCode::Esc);
    let screen = text(driver.buffer());
    assert!(!screen.contains("filter: rule="), "{screen}");
    assert!(screen.ends_with(" filter cleared"), "{screen}");
    assert!(!driver.app.should_quit);
    press(&mut driver, KeyCode::Esc);
    assert!(driver.app.should_quit);
}

/// After `r` the status bar says "reloading" with the packets checked so far until the reload
/// is done, then what was loaded; the next key brings the keys back.
#[test]
fn reloading_shows_until_the_load_is_done() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    let packets = driver.app.packets.len();
    apply_key(&mut driver, KeyCode::Char('r'));
    assert_eq!(last_line(&driver), " reloading: 0 packets checked so far");
    driver.settle().unwrap();
    assert_eq!(
        last_line(&driver),
        format!(" reloaded: {packets} packets, 0 load error(s)")
    );
    press(&mut driver, KeyCode::Char('j'));
    let status = last_line(&driver);
    assert!(status.contains("? help"), "{status}");
}

/// A key applied without delivering what it started (a list build or a search answers later,
/// as on the inspector's threads).
fn apply_key(driver: &mut Driver, code: KeyCode) {
    driver
        .apply(&Step::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        .unwrap();
}

fn last_line(driver: &Driver) -> String {
    text(driver.buffer())
        .lines()
        .last()
        .unwrap_or("")
        .to_owned()
}

/// The rows as packet indices and group labels.
fn rows(driver: &Driver) -> Vec<String> {
    driver
        .app
        .list
        .rows
        .iter()
        .map(|row| match row {
            ListRow::Group(group) => format!("{} {}", group.label, group.count),
            ListRow::Packet(index) => index.to_string(),
        })
        .collect()
}

/// Opens the filter menu and moves to its `entry`-th choice (0: clear).
fn filter_menu_at(driver: &mut Driver, entry: usize) {
    press(driver, KeyCode::Char('f'));
    for _ in 0..entry {
        press(driver, KeyCode::Char('j'));
    }
}

/// A filter's list is built off the UI thread: until it lands the list stays as it was and the
/// status bar shows the build's progress; the first Esc stops it (the list and its filter stay
/// as they were, and its late answer is dropped), the next clears the filter shown, the last
/// quits.
#[test]
fn a_filter_builds_with_a_progress_line_and_the_first_esc_cancels_it() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    let packets = driver.app.packets.len();
    // Status "conforms" (the 2nd entry): a filter shown.
    filter_menu_at(&mut driver, 1);
    press(&mut driver, KeyCode::Enter);
    assert!(text(driver.buffer()).contains("filter: status=conforms"));
    let shown = rows(&driver);
    // Then kind (the first kind entry) on top of it, left building.
    filter_menu_at(&mut driver, 8);
    apply_key(&mut driver, KeyCode::Enter);
    let screen = text(driver.buffer());
    insta::assert_snapshot!("filter_building_80x24", screen);
    assert_eq!(rows(&driver), shown, "the rows stay until the build lands");
    let building = driver.app.list.building.clone().unwrap();
    assert!(building.filter.status.is_some() && building.filter.kind.is_some());
    assert_eq!(
        last_line(&driver),
        format!(
            " filtering {}: 0 of {packets} packets  Esc cancels",
            building.filter.describe()
        )
    );
    // Esc stops the build; what it had sent is dropped when it arrives.
    apply_key(&mut driver, KeyCode::Esc);
    assert_eq!(
        last_line(&driver),
        format!(" filter cancelled after 0 of {packets} packets; the list is as it was")
    );
    driver.settle().unwrap();
    assert_eq!(rows(&driver), shown);
    assert!(driver.app.list.building.is_none());
    assert!(text(driver.buffer()).contains("filter: status=conforms"));
    press(&mut driver, KeyCode::Esc);
    assert!(last_line(&driver).ends_with(" filter cleared"));
    assert_eq!(driver.app.list.listed.len(), packets);
    assert!(!driver.app.should_quit);
    press(&mut driver, KeyCode::Esc);
    assert!(driver.app.should_quit);
}

/// Two filters chosen before either's list lands: the list shows the second (with the first's
/// choice under it), whatever the first's build answers, and when.
#[test]
fn a_superseded_filter_build_never_lands() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    filter_menu_at(&mut driver, 1);
    apply_key(&mut driver, KeyCode::Enter);
    let first = driver.app.list.building.clone().unwrap();
    filter_menu_at(&mut driver, 8);
    apply_key(&mut driver, KeyCode::Enter);
    let second = driver.app.list.building.clone().unwrap();
    assert!(second.generation > first.generation);
    assert_eq!(second.filter.status, first.filter.status);
    assert!(second.filter.kind.is_some());
    driver.settle().unwrap();
    assert_eq!(driver.app.list.filter, second.filter);
    let expected: Vec<usize> = (0..driver.app.packets.len())
        .filter(|index| {
            second
                .filter
                .passes(&driver.app.packets[*index], driver.app.mode)
        })
        .collect();
    let mut listed = driver.app.list.listed.clone();
    listed.sort_unstable();
    assert_eq!(listed, expected);
}

/// At 80x24 the golden review and the help lie on the panes' borders: no second border beside
/// theirs, no letter of the pane below between two borders.
#[test]
fn review_and_help_cover_the_panes_at_80x24() {
    let mut driver = driver("screenshots/demo-golden-drift", (80, 24));
    press(&mut driver, KeyCode::Char('a'));
    let screen = text(driver.buffer());
    let rows: Vec<&str> = screen.lines().collect();
    let top = rows
        .iter()
        .position(|row| row.starts_with("┌ golden review"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(rows[top].ends_with('┐'), "{screen}");
    for row in &rows[top + 1..22] {
        let inside: String = row.chars().skip(1).take(78).collect();
        assert!(
            row.starts_with('│') && row.ends_with('│') && !inside.contains('│'),
            "{screen}"
        );
    }
    assert!(
        rows[22].starts_with("└─") && rows[22].ends_with("─┘"),
        "{screen}"
    );
    assert_eq!(rows[22].matches('└').count(), 1, "{screen}");
    insta::assert_snapshot!("review_80x24", screen);
    press(&mut driver, KeyCode::Esc);
    press(&mut driver, KeyCode::Char('?'));
    let screen = text(driver.buffer());
    for doubled in ["┌┌", "┐┐", "││", "└└", "┘┘"] {
        assert!(!screen.contains(doubled), "{doubled}:\n{screen}");
    }
}

/// At 80x24 the Migrate tab lists step ids whole (above the step when they do not fit beside
/// it), and on a raw packet, which has no steps, it offers no step keys: j/k scroll.
#[test]
fn migrate_tab_at_80x24_shows_whole_ids_and_only_working_keys() {
    let mut driver = driver("fixtures/migrate", (80, 24));
    select(&mut driver, "send-message-response-task.v03.jsonrpc.json");
    press(&mut driver, KeyCode::Char('7'));
    let ids: Vec<&str> = driver
        .app
        .selected_detail()
        .and_then(|detail| detail.migration())
        .map(|migration| migration.steps.iter().map(|run| run.step.id).collect())
        .unwrap_or_default();
    assert!(ids.len() > 1, "{ids:?}");
    let screen = text(driver.buffer());
    for id in &ids {
        assert!(screen.contains(&format!(" {id}")), "{id}:\n{screen}");
    }
    press(&mut driver, KeyCode::Char('l'));
    let status = text(driver.buffer())
        .lines()
        .last()
        .unwrap_or("")
        .to_owned();
    assert!(status.contains("n/j next"), "{status}");

    let mut driver = driver_on_raw_packet();
    press(&mut driver, KeyCode::Char('7'));
    press(&mut driver, KeyCode::Char('l'));
    let status = text(driver.buffer())
        .lines()
        .last()
        .unwrap_or("")
        .to_owned();
    assert!(!status.contains("next"), "{status}");
    press(&mut driver, KeyCode::Char('j'));
    assert_eq!(driver.app.tabs.scroll, 1, "j scrolls the relabelling");
}

/// The Migrate tab on a raw packet names the packet's own reason for the rejection of its
/// relabelling (`unsupported A2A version: 1.0`), never the rule table's example text with its
/// placeholder letter (`unsupported A2A version: V`).
#[test]
fn the_relabelling_names_the_packets_reason_not_a_placeholder() {
    let mut driver = driver_on_raw_packet();
    press(&mut driver, KeyCode::Char('7'));
    let screen = pane_text(&text(driver.buffer()));
    assert!(!screen.contains("version: V"), "{screen}");
    assert!(
        screen.contains("unsupported_protocol_version: unsupported A2A version: 1.0"),
        "{screen}"
    );
}

fn driver_on_raw_packet() -> Driver {
    let mut driver = driver("fixtures/a2a", (80, 24));
    select(&mut driver, "happy_task_requested.json");
    driver
}

/// A row that names every unmapped key (N6, X9) lists its first 20 pieces of evidence on the
/// Handoff tab and counts the rest: a raw packet of 200k keys drew a 4 MB line, which the
/// screen's wrapping held as 240 MB (`explain` still lists every one).
#[test]
fn the_handoff_tab_lists_a_rows_first_evidence_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let keys: String = (0..30)
        .map(|index| format!(r#","k{index:02}":{index}"#))
        .collect();
    let packet = format!(
        r#"{{"protocol":"a2a","version":"0.2","event_type":"artifact.shared","agent":{{"id":"a"}}{keys}}}"#
    );
    std::fs::write(dir.path().join("keys.json"), packet).unwrap();
    let mut driver = driver(dir.path().join("keys.json").to_str().unwrap(), (200, 80));
    press(&mut driver, KeyCode::Char('m'));
    press(&mut driver, KeyCode::Char('3'));
    let screen = text(driver.buffer());
    assert!(screen.contains("$.k17 = 17; and 12 more"), "{screen}");
    assert!(screen.contains("$.k19 = 19; and 10 more"), "{screen}");
    assert!(!screen.contains("$.k20 = 20"), "{screen}");
}

/// At 80x24 the filter menu is as wide as its longest choice: each kind is named in full as the
/// cursor passes it (it was 46 columns and cut "A2A object (version indeterminate").
#[test]
fn the_filter_menu_names_every_kind_in_full_at_80x24() {
    let mut driver = driver("fixtures/a2a", (80, 24));
    press(&mut driver, KeyCode::Char('f'));
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&text(driver.buffer()));
        press(&mut driver, KeyCode::Char('j'));
    }
    for kind in handoff_inspector::packet::PacketKind::ALL {
        assert!(
            seen.contains(&format!("kind    {}", kind.name())),
            "the menu never shows {:?} in full",
            kind.name()
        );
    }
}

/// A wrapped line's continuation rows start indented (a hanging indent), so at 80x24 a
/// continuation of an evidence line or a table row never reads as a row of its own: every
/// row of the Handoff and Rules tabs that continues a wrapped line starts with spaces.
#[test]
fn wrapped_lines_keep_a_hanging_indent_at_80x24() {
    for (tab, continuations) in [
        ('3', &["$.task.kind = \"delegation\"", "highlighted)"][..]),
        ('6', &["per row and mode)", "visible", "never counts"][..]),
    ] {
        let mut driver = driver("fixtures/a2a", (80, 24));
        select(&mut driver, "happy_task_requested.json");
        press(&mut driver, KeyCode::Char(tab));
        let screen = text(driver.buffer());
        for continuation in continuations {
            let row = screen
                .lines()
                .map(|line| line.chars().skip(37).collect::<String>())
                .find(|pane| pane.trim_end_matches(['│', ' ']).ends_with(continuation))
                .unwrap_or_else(|| panic!("{continuation:?} on tab {tab}:\n{screen}"));
            assert!(
                row.starts_with("  "),
                "{continuation:?} continues its line, indented, on tab {tab}: {row:?}\n{screen}"
            );
        }
    }
}
