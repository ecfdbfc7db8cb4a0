//! The Bundle view and a bundle's group, drawn with ratatui's TestBackend on upstream-written
//! bundles (tests/data/bundles): a valid one and one with an edited line.

use crate::common::screen::{headless_on, press, screen_text as text};
use handoff_inspector::tui::runtime::drive::Headless;
use handoff_inspector::tui::state::app::{ListRow, Tab};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use ratatui::Terminal;
use std::path::{Path, PathBuf};

const VALID: &str = "tests/data/bundles/valid-02-two-events.tar.gz";
const EDITED: &str = "tests/data/bundles/bad-events-edited-no-rehash.tar.gz";

fn draw(app: &mut Headless, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| app.view(frame)).unwrap();
    terminal.backend().buffer().clone()
}

/// The colour of the first cell of `needle` on the screen.
fn colour_of(buffer: &Buffer, needle: &str) -> Option<Color> {
    let screen = text(buffer);
    screen.lines().enumerate().find_map(|(y, line)| {
        let byte = line.find(needle)?;
        let x = line[..byte].chars().count() as u16;
        Some(buffer[(x, y as u16)].fg)
    })
}

/// Selects the bundle's own packet (the first packet of its group).
fn select_bundle(app: &mut Headless) {
    let row = app
        .list
        .rows
        .iter()
        .position(
            |row| matches!(row, ListRow::Packet(index) if app.packets[*index].bundle.is_some()),
        )
        .expect("the bundle's own packet is listed");
    app.list.selected = row;
    app.refresh_detail();
}

#[test]
fn a_bundle_is_one_group_with_its_verdict() {
    for (path, verdict) in [(VALID, "✓ verified"), (EDITED, "✗ IntegrityEventHash")] {
        let mut app = headless_on(path, true);
        let groups: Vec<&ListRow> = app
            .list
            .rows
            .iter()
            .filter(|row| matches!(row, ListRow::Group(_)))
            .collect();
        assert_eq!(groups.len(), 1, "{path}: {groups:?}");
        // At 120 columns the group names its bundle whole before the verdict's code; at 200
        // both show.
        let name = std::path::Path::new(path)
            .file_name()
            .unwrap()
            .to_string_lossy();
        let narrow = text(&draw(&mut app, 120, 40));
        let header = narrow.lines().nth(2).unwrap_or_default();
        assert!(
            header.contains(&format!("…/{name} {}", &verdict[..3])),
            "{path}:\n{narrow}"
        );
        let screen = draw(&mut app, 200, 50);
        let shown = text(&screen);
        assert!(shown.contains(verdict), "{path}:\n{shown}");
        let colour = if verdict.starts_with('✓') {
            Color::Green
        } else {
            Color::Red
        };
        assert_eq!(colour_of(&screen, verdict), Some(colour), "{path}");
    }
}

#[test]
fn bundle_view_of_a_valid_bundle() {
    let mut app = headless_on(VALID, true);
    select_bundle(&mut app);
    let screen = draw(&mut app, 160, 110);
    let shown = text(&screen);
    assert!(shown.contains("Bundle view"), "{shown}");
    assert!(!shown.contains("UNVERIFIED"), "{shown}");
    // The spec's worked run root (§6), recomputed.
    assert!(
        shown.contains("sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb")
    );
    insta::assert_snapshot!("bundle_view_valid", shown);
}

#[test]
fn bundle_view_of_a_failed_bundle_names_the_check_and_the_values() {
    let mut app = headless_on(EDITED, true);
    select_bundle(&mut app);
    let screen = draw(&mut app, 160, 110);
    let shown = text(&screen);
    assert!(shown.contains("FAIL"), "{shown}");
    assert!(shown.contains("IntegrityEventHash"), "{shown}");
    assert!(shown.contains("≠ stored"), "{shown}");
    assert_eq!(colour_of(&screen, "✗ UNVERIFIED BUNDLE"), Some(Color::Red));
    insta::assert_snapshot!("bundle_view_failed", shown);
}

#[test]
fn every_screen_of_an_unverified_bundles_event_says_so_in_red() {
    let mut app = headless_on(EDITED, true);
    select_bundle(&mut app);
    press(&mut app, KeyCode::Char('j'));
    let source = app.selected_summary().unwrap().source.clone();
    assert!(source.is_bundle_event(), "{source}");
    for (index, tab) in Tab::ALL.iter().enumerate() {
        press(&mut app, KeyCode::Char(char::from(b'1' + index as u8)));
        assert_eq!(app.tab, *tab);
        let screen = draw(&mut app, 120, 40);
        assert_eq!(
            colour_of(&screen, "UNVERIFIED"),
            Some(Color::Red),
            "{tab:?}:\n{}",
            text(&screen)
        );
    }
    // Digests: the event's content hash, recomputed vs stored; line 1 is the edited one.
    press(&mut app, KeyCode::Char('4'));
    let shown = text(&draw(&mut app, 160, 40));
    assert!(shown.contains("recomputed sha256:"), "{shown}");
    assert!(
        shown.contains("= matches the stored hash"),
        "line 0:\n{shown}"
    );
    press(&mut app, KeyCode::Char('j'));
    assert!(app
        .selected_summary()
        .unwrap()
        .source
        .to_string()
        .ends_with(":1"));
    let screen = draw(&mut app, 160, 40);
    assert_eq!(
        colour_of(&screen, "≠ differs from the stored hash"),
        Some(Color::Red),
        "{}",
        text(&screen)
    );
}

#[test]
fn the_word_verified_is_only_a_bundles_verdict() {
    // A directory of handoff fixtures: no bundle, so the word never appears.
    let mut app = headless_on("fixtures/a2a", true);
    let shown = text(&draw(&mut app, 120, 40));
    assert!(!shown.to_lowercase().contains("verified"), "{shown}");
}

/// How many times `bundle::open::open_path` opened (or tried to open) each path in this
/// process, counted through its hook.
static OPENED: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<PathBuf, usize>>> =
    std::sync::LazyLock::new(Default::default);

fn count_open(path: &Path) {
    let mut opened = OPENED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *opened.entry(path.to_owned()).or_default() += 1;
}

/// How many times `open_path` opened `path`, as spelled, since the hook was set.
fn times_opened(path: &Path) -> usize {
    let opened = OPENED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    opened.get(path).copied().unwrap_or(0)
}

/// Selecting row after row of a bundle (its own packet, then every event, on every tab) and
/// searching its events opens the bundle once for the whole load, not once per row; a reload
/// starts again from the file. Counted through the library's hook on `open_path`, per path (a
/// copy in a fresh directory, so no other test touches the count).
#[test]
fn stepping_through_a_bundle_opens_it_once_per_load() {
    // Another test of this binary may have set it already: it is the same counter.
    handoff_inspector::bundle::open::observe_opens(count_open);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ten.tar.gz");
    std::fs::copy("tests/data/bundles/valid-03-ten-mixed.tar.gz", &path).unwrap();
    let mut app = Headless::new(vec![path.clone()], crate::common::fixture_options(), true);
    app.size = (120, 40);
    app.load();
    // The load reads it through the input layer; the first selected row may already have
    // opened it for the detail, through the kept bundles.
    assert!(times_opened(&path) <= 1);
    assert_eq!(times_opened(&path), app.reader.bundles().opens());
    select_bundle(&mut app);
    draw(&mut app, 120, 40);
    let mut events = 0;
    for _ in 0..20 {
        press(&mut app, KeyCode::Char('j'));
        if let Some(summary) = app.selected_summary() {
            events += usize::from(summary.source.is_bundle_event());
        }
        for (index, _) in Tab::ALL.iter().enumerate() {
            press(&mut app, KeyCode::Char(char::from(b'1' + index as u8)));
            draw(&mut app, 120, 40);
        }
    }
    assert!(events >= 10, "stepped through {events} events");
    // A search reads every event's line again.
    press(&mut app, KeyCode::Char('/'));
    for c in "no-such-text".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(times_opened(&path), 1);
    assert_eq!(app.reader.bundles().opens(), 1);
    // A new load forgets the kept bundle: the next selection opens it again, once.
    handoff_inspector::tui::update::list_job::clear_packets(&mut app);
    app.load();
    select_bundle(&mut app);
    press(&mut app, KeyCode::Char('j'));
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(times_opened(&path), 2);
}

/// At 80x24, the tampered fixture bundle (its golden records the failure) wears the glyph of
/// "fails as recorded", not that of "conforms"; its group header names its count's meaning;
/// the Bundle view says what a failed check leaves unestablished, not what verifying proves,
/// and its lint rules were not evaluated.
#[test]
fn a_recorded_failure_is_not_drawn_as_conforming_at_80x24() {
    let mut app = Headless::new(
        vec![PathBuf::from(
            "fixtures/bundles/neg-tampered-event-hash.tar.gz",
        )],
        crate::common::fixture_options(),
        true,
    );
    app.size = (80, 24);
    app.load();
    select_bundle(&mut app);
    let screen = text(&draw(&mut app, 80, 24));
    assert!(
        screen.contains("⊘ neg-tampered-event-hash.tar.gz"),
        "{screen}"
    );
    assert!(!screen.contains("✓ neg-tampered"), "{screen}");
    // The group names its bundle (it read `….tar.gz ✗ IntegrityEventHash`); the code is in
    // the detail's banner beside it.
    assert!(
        screen.contains("▾ neg-tampered-event-hash.tar.gz ✗"),
        "{screen}"
    );
    assert!(screen.contains("(IntegrityEventHash)"), "{screen}");
    let mut app = app;
    app.size = (200, 50);
    let wide = text(&draw(&mut app, 200, 50));
    assert!(wide.contains("UNVERIFIED"), "{wide}");
    assert!(wide.contains("stops at the first failed check"), "{wide}");
    assert!(!wide.contains("Upstream's checks show"), "{wide}");
    // Lint rules are further down the view; `explain` is checked for them in tests/bundle/check.rs.
}

/// A group's failing count keeps its word however narrow the list: `· 2 failing`, never a
/// bare `· 2`.
#[test]
fn a_narrow_group_header_keeps_the_word_failing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(EDITED, dir.path().join("edited-no-rehash-long-name.tar.gz")).unwrap();
    let mut app = Headless::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        true,
    );
    app.load();
    for width in [80u16, 100, 140] {
        app.size = (width, 24);
        let screen = text(&draw(&mut app, width, 24));
        let header = screen
            .lines()
            .find(|line| line.contains('▾'))
            .unwrap_or_else(|| panic!("{screen}"));
        // The bundle and its tampered event (its content hash does not match).
        assert!(header.contains(" · 2 failing"), "{width}: {header}");
    }
}

/// `a` on a bundle given alone (as one opened from a temporary directory) offers no new
/// `goldens.json` beside it, and says why in one status line at 80 columns; the same bundle
/// in a directory named on the command line is offered.
#[test]
fn review_offers_no_new_manifest_beside_a_file_given_alone() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("a2a-ten-events.tar.gz");
    std::fs::copy("fixtures/bundles/a2a-ten-events.tar.gz", &bundle).unwrap();
    let key = |code| {
        handoff_inspector::tui::runtime::drive::Step::Key(KeyEvent::new(code, KeyModifiers::NONE))
    };
    let press_a = |root: PathBuf| {
        let mut driver = handoff_inspector::tui::runtime::drive::Driver::new(
            vec![root],
            crate::common::fixture_options(),
            (80, 24),
            false,
        )
        .unwrap();
        driver.apply(&key(KeyCode::Char('a'))).unwrap();
        driver
    };
    let alone = press_a(bundle.clone());
    assert!(alone.app.overlay.is_none());
    let status = crate::common::screen::screen_text_trimmed(alone.buffer())
        .lines()
        .last()
        .unwrap_or("")
        .to_owned();
    assert_eq!(
        status,
        " nothing to review: 11 have no golden and were given as a file (bless records)"
    );
    let named = press_a(dir.path().to_path_buf());
    assert!(
        matches!(
            named.app.overlay,
            Some(handoff_inspector::tui::state::app::Overlay::Review(_))
        ),
        "a directory named on the command line is reviewed"
    );
    assert!(!dir.path().join("goldens.json").exists());
}

/// The text of a `render` SVG, one string per drawn text run.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|run| {
            let inner = run.split_once('>')?.1.split("</text>").next()?;
            let mut text = String::new();
            let mut in_tag = false;
            for c in inner.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => text.push(c),
                    _ => {}
                }
            }
            Some(
                text.replace("&amp;", "&")
                    .replace("&#39;", "'")
                    .replace("&apos;", "'"),
            )
        })
        .collect()
}

#[test]
fn the_bundle_view_says_who_signed_or_why_the_attestation_was_refused() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("run.tar.gz");
    std::fs::copy(data.join("bundles/valid-03-ten-mixed.tar.gz"), &bundle).unwrap();
    std::fs::copy(
        data.join("attest/valid-03-ten-mixed.key-a.ok.dsse.json"),
        dir.path().join("run.tar.gz.dsse.json"),
    )
    .unwrap();
    let shown = |key: Option<&str>| {
        let key = key.map(|name| data.join("attest").join(name).display().to_string());
        let out = crate::common::run_env(
            &[
                "render",
                "--no-color",
                "--view",
                "raw",
                "--size",
                "160x40",
                bundle.to_str().unwrap(),
            ],
            &[("HANDOFF_TRUSTED_KEYS", key.as_deref())],
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        svg_texts(&out.stdout)
    };
    let verified = shown(Some("key-a.pub.pem"));
    assert!(
        verified.iter().any(|t| t
            .split('│')
            .any(|pane| pane.trim() == "✓ attestation verified")),
        "{verified:?}"
    );
    assert!(verified
        .iter()
        .any(|t| t.contains("attestation verified: signed by ")));
    assert!(verified
        .iter()
        .any(|t| t.contains("An attestation binds who said it")));
    let refused = shown(Some("key-b.pub.pem"));
    assert!(
        refused.iter().any(|t| t
            .split('│')
            .any(|pane| pane.trim() == "✗ attestation refused")),
        "{refused:?}"
    );
    assert!(refused
        .iter()
        .any(|t| t.contains("attestation refused at check 6")));
    let untrusted = shown(None);
    assert!(
        !untrusted.iter().any(|t| t.contains("attestation")),
        "{untrusted:?}"
    );
}
