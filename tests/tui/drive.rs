//! No key sequence breaks the inspector: random sequences of keys (every keymap chord), mouse
//! events, resizes (below 80x24 and back), files added / removed / changed between presses,
//! watcher reports and loader results arriving mid-sequence, driven through the real `update`
//! and `view` over the fixture corpora and a generated one. After every step the driver checks
//! the state invariants (every listed packet passing the filter in the mode shown among them)
//! and that no control character reached the screen; a panic anywhere fails the case. The
//! driver performs every effect through the runtime's own `perform` and draws its frames with
//! the runtime's `draw_frame`.

use crate::common::screen::screen_text;
use handoff_inspector::tui::runtime::drive::{steps_from_bytes, Driver, Step};
use handoff_inspector::tui::state::keymap::KEYMAP;
use proptest::prelude::*;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use std::path::PathBuf;

const FIXTURE_CORPORA: [&str; 3] = ["fixtures/a2a", "fixtures/migrate", "fixtures/profiles"];

/// File names the generated corpus uses: fixture names (so the copied manifest records some
/// of them), a stream, a paired expected payload, the manifest itself and a new name.
const SCRATCH_NAMES: [&str; 7] = [
    "happy_task_requested.json",
    "duplicate_task_kind.json",
    "happy_task_requested.strict.payload.json",
    "error_invalid_json.json",
    "stream.ndjson",
    "goldens.json",
    "new_packet.json",
];

/// Contents the generated corpus is written from: real packets of every kind, a stream, a
/// manifest, and broken or hostile text.
fn scratch_contents() -> Vec<String> {
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
    let happy = read("fixtures/a2a/happy_task_requested.json");
    let duplicate = read("fixtures/a2a/duplicate_task_kind.json");
    let one_line = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    vec![
        happy.clone(),
        duplicate.clone(),
        read("fixtures/a2a/happy_task_requested.strict.payload.json"),
        read("fixtures/a2a/hostile_control_characters.json"),
        read("fixtures/a2a/goldens.json"),
        read("fixtures/migrate/agent-card.v03.jsonrpc.json"),
        format!("{}\n{}\nnot json\n", one_line(&happy), one_line(&duplicate)),
        happy.replace("task.requested", "task.\u{1b}[31mred"),
        String::new(),
        "{".to_owned(),
        "{\"goldens\": 3}".to_owned(),
        drifted_manifest(),
    ]
}

/// The a2a fixtures' manifest with `happy_task_requested.json`'s lenient payload digest
/// changed: that packet conforms in strict mode and fails as recorded in lenient, so which
/// packets a status filter lists follows the mode.
fn drifted_manifest() -> String {
    let manifest = std::fs::read_to_string("fixtures/a2a/goldens.json").unwrap_or_default();
    let entry = manifest
        .find("\"happy_task_requested.json\": {")
        .unwrap_or(0);
    let lenient = entry + manifest[entry..].find("\"lenient\": {").unwrap_or(0);
    let field = "\"payload\": \"";
    let Some(at) = manifest[lenient..]
        .find(field)
        .map(|at| lenient + at + field.len())
    else {
        return manifest;
    };
    let mut drifted = manifest;
    drifted.replace_range(at..at + 64, &"0".repeat(64));
    drifted
}

/// Every chord of the keymap (all contexts), plus keys it does not bind.
fn keys() -> Vec<KeyEvent> {
    let mut keys: Vec<KeyEvent> = KEYMAP
        .iter()
        .flat_map(|binding| binding.chords.iter())
        .map(|chord| KeyEvent::new(chord.code, chord.modifiers))
        .collect();
    for c in ['x', 'z', 'é', '0', '9', ' ', 'Q'] {
        keys.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    keys.push(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    keys.push(KeyEvent::new(KeyCode::F(5), KeyModifiers::NONE));
    keys
}

fn step() -> impl Strategy<Value = Step> {
    let keys = keys();
    let contents = scratch_contents();
    let name = proptest::sample::select(SCRATCH_NAMES.to_vec()).prop_map(str::to_owned);
    let size = prop_oneof![
        proptest::sample::select(vec![
            (80u16, 24u16),
            (200, 50),
            (79, 24),
            (80, 23),
            (120, 40),
            (30, 8),
            (1, 1)
        ]),
        (1u16..260, 1u16..90),
    ];
    let mouse_kind = proptest::sample::select(vec![
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::ScrollDown,
        MouseEventKind::ScrollUp,
        MouseEventKind::Moved,
    ]);
    prop_oneof![
        60 => proptest::sample::select(keys).prop_map(Step::Key),
        6 => size.prop_map(|(width, height)| Step::Resize(width, height)),
        5 => (mouse_kind, 0u16..260, 0u16..90).prop_map(|(kind, column, row)| {
            Step::Mouse(MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE })
        }),
        10 => (1usize..4).prop_map(Step::Deliver),
        4 => Just(Step::Notify),
        4 => (name.clone(), proptest::sample::select(contents))
            .prop_map(|(name, contents)| Step::WriteFile { name, contents }),
        2 => name.prop_map(|name| Step::RemoveFile { name }),
    ]
}

/// A filter chosen from the menu (`f`, down to an entry, Enter), then `m` or not: random keys
/// alone rarely reach a filter, and which packets a status filter lists follows the mode.
fn filter_then_mode() -> impl Strategy<Value = Vec<Step>> {
    let press = |code: KeyCode| Step::Key(KeyEvent::new(code, KeyModifiers::NONE));
    // Mostly a status (the entries after "clear"), the only filter a mode switch re-lists.
    let down = prop_oneof![3 => 1usize..8, 1 => 0usize..24];
    (down, any::<bool>(), 1usize..3).prop_map(move |(down, mode, deliver)| {
        let mut steps = vec![press(KeyCode::Char('f'))];
        steps.extend(std::iter::repeat_n(press(KeyCode::Down), down));
        steps.push(press(KeyCode::Enter));
        steps.extend(std::iter::repeat_n(Step::Deliver(4), deliver));
        if mode {
            steps.push(press(KeyCode::Char('m')));
        }
        steps
    })
}

/// Steps one at a time, with now and then a filter chosen (see `filter_then_mode`).
fn steps() -> impl Strategy<Value = Vec<Step>> {
    let group = prop_oneof![
        12 => step().prop_map(|step| vec![step]),
        1 => filter_then_mode(),
    ];
    proptest::collection::vec(group, 1..32)
        .prop_map(|groups| groups.into_iter().flatten().collect())
}

/// Runs one sequence; `corpus` indexes the fixture corpora, one past them is a generated one.
fn run(corpus: usize, steps: &[Step]) -> Result<(), String> {
    let scratch = tempfile::tempdir().map_err(|error| error.to_string())?;
    let (root, generated) = match FIXTURE_CORPORA.get(corpus) {
        Some(path) => (PathBuf::from(path), false),
        None => {
            let contents = scratch_contents();
            for (name, text) in SCRATCH_NAMES.iter().zip(&contents) {
                std::fs::write(scratch.path().join(name), text).map_err(|e| e.to_string())?;
            }
            // A manifest that one packet meets in strict mode only.
            std::fs::write(scratch.path().join("goldens.json"), drifted_manifest())
                .map_err(|e| e.to_string())?;
            (scratch.path().to_path_buf(), true)
        }
    };
    let mut driver = Driver::new(
        vec![root],
        crate::common::fixture_options(),
        (120, 40),
        false,
    )?;
    if generated {
        // Only the generated corpus may change on disk or have goldens written.
        driver = driver.with_scratch(scratch.path().to_path_buf());
    }
    for (index, step) in steps.iter().enumerate() {
        driver
            .apply(step)
            .map_err(|error| format!("step {index} {step:?}: {error}"))?;
        // A quit ends a real session; the driver explores on from the same state instead.
        driver.app.should_quit = false;
    }
    driver.settle()
}

// 128 sequences (and 64 decoded sessions below) by default, so the whole `cargo test` stays
// within its time; HANDOFF_DEEP_TESTS=1 (a nightly-style job, a developer) runs 2,000 (and 300).
proptest! {
    #![proptest_config(ProptestConfig {
        max_shrink_iters: 2000,
        ..crate::common::proptest_config(128, 2000)
    })]

    #[test]
    fn no_step_sequence_breaks_the_inspector(
        corpus in 0usize..=FIXTURE_CORPORA.len(),
        steps in steps(),
    ) {
        if let Err(error) = run(corpus, &steps) {
            return Err(TestCaseError::fail(error));
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(64, 300))]

    /// The byte decoder a fuzz target feeds the driver with: any bytes are a valid session.
    #[test]
    fn any_bytes_decode_into_a_session_that_keeps_the_invariants(
        corpus in 0usize..=FIXTURE_CORPORA.len(),
        data in proptest::collection::vec(any::<u8>(), 0..96),
    ) {
        if let Err(error) = run(corpus, &steps_from_bytes(&data)) {
            return Err(TestCaseError::fail(error));
        }
    }
}

/// The reported crash, as a fixed sequence: select the second packet, reload.
#[test]
fn reload_after_moving_the_selection() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    run(0, &[press('j'), press('r'), Step::Deliver(1), press('j')]).unwrap();
}

/// A file removed and another added between presses, reported by the watcher while a packet
/// of the removed file is selected.
#[test]
fn files_removed_and_added_under_the_selection() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let steps = [
        press('G'),
        Step::RemoveFile {
            name: "stream.ndjson".to_owned(),
        },
        Step::RemoveFile {
            name: "new_packet.json".to_owned(),
        },
        Step::WriteFile {
            name: "new_packet.json".to_owned(),
            contents: "{".to_owned(),
        },
        Step::Notify,
        Step::Deliver(usize::MAX),
        press('k'),
        press('a'),
        press('a'),
        press('y'),
        Step::Notify,
        Step::Deliver(usize::MAX),
    ];
    run(FIXTURE_CORPORA.len(), &steps).unwrap();
}

/// The reported crash through the real binary: `j` then `r` in a headless render.
#[test]
fn render_after_j_and_reload_exits_zero() {
    let run = crate::common::run(&[
        "render",
        "--view",
        "handoff",
        "--keys",
        "jr",
        "fixtures/a2a",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stdout.starts_with("<svg"),
        "{}",
        &run.stdout[..run.stdout.len().min(200)]
    );
    assert!(
        run.stdout.contains("34 packets"),
        "the reload brought the packets back"
    );
}

/// The golden review shows what accepting writes (a field change, or a new entry), and a
/// rejected packet stays counted: `a` afterwards says how many were rejected, not "nothing".
#[test]
fn review_shows_what_accepting_writes_and_remembers_rejections() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let roots = vec![
        PathBuf::from("screenshots/demo-golden-drift"),
        PathBuf::from("screenshots/demo-drift"),
    ];
    let mut driver =
        Driver::new(roots, crate::common::fixture_options(), (120, 40), false).unwrap();
    let screen = |driver: &Driver| screen_text(driver.buffer());
    // Three packets differ: a raw packet and its expected payload with no entry yet (new
    // entries, the payload's an object golden), and a drifted raw packet.
    driver.apply(&press('a')).unwrap();
    let mut screens = vec![screen(&driver)];
    for rejected in 1..=2 {
        driver.apply(&press('r')).unwrap();
        let shown = screen(&driver);
        assert!(
            shown.contains(&format!("{rejected} rejected this session")),
            "{shown}"
        );
        screens.push(shown);
    }
    let new_entries = screens
        .iter()
        .filter(|shown| shown.contains("accepting writes a new entry"))
        .count();
    assert_eq!(new_entries, 2, "{screens:#?}");
    let drift = screens
        .iter()
        .find(|shown| shown.contains("accepting writes (recorded"))
        .expect("the drifted packet is reviewed");
    assert!(
        drift.contains("task_ref_only → task_and_message_refs"),
        "{drift}"
    );
    let object = screens
        .iter()
        .find(|shown| shown.contains("kind       + payload"))
        .expect("the expected payload's object golden is offered");
    assert!(object.contains("object     + "), "{object}");
    driver.apply(&press('r')).unwrap();
    assert!(driver.effects.accepted.is_empty());
    driver.apply(&press('a')).unwrap();
    let message = driver.app.message.clone().unwrap_or_default();
    assert!(message.contains("3 rejected this session"), "{message}");
}

/// The bundle fixtures (verified bundles, a failing one, their events and goldens): every row
/// on every tab, folding, a mode switch and a reload keep the invariants. A fixed sequence
/// rather than a fifth proptest corpus: the random run is already the slowest test here.
#[test]
fn every_bundle_row_on_every_tab_keeps_the_invariants() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let mut driver = Driver::new(
        vec![PathBuf::from("fixtures/bundles")],
        crate::common::fixture_options(),
        (120, 40),
        false,
    )
    .unwrap();
    let mut steps = vec![press('g')];
    for _ in 0..60 {
        steps.extend("12345678".chars().map(press));
        steps.push(press('j'));
    }
    steps.extend(['h', 'h', 'l', 'm', 'r'].map(press));
    steps.push(Step::Deliver(usize::MAX));
    steps.extend(['G', 'l', 'k', 'h', 'g'].map(press));
    for (index, step) in steps.iter().enumerate() {
        driver
            .apply(step)
            .unwrap_or_else(|error| panic!("step {index} {step:?}: {error}"));
    }
    driver.settle().unwrap();
}

/// A watched file changes while the list shows it: its packets are spliced in by a list job
/// (the driver holds the job's answer until `Deliver`), a key pressed before the answer lands
/// moves over the rows shown, and the landing keeps the selection on the packet the key chose
/// although that packet's index moved.
#[test]
fn a_watched_files_change_lands_and_a_key_meanwhile_is_handled() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let happy = std::fs::read_to_string("fixtures/a2a/happy_task_requested.json").unwrap();
    let line = happy.split_whitespace().collect::<Vec<_>>().join(" ");
    let scratch = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(scratch.path().join(name), text).unwrap();
    write("a_first.json", &happy);
    write("m_stream.ndjson", &format!("{line}\n{line}\n"));
    write("z_last.json", &happy);
    let mut driver = Driver::new(
        vec![scratch.path().to_path_buf()],
        crate::common::fixture_options(),
        (120, 40),
        false,
    )
    .unwrap()
    .with_scratch(scratch.path().to_path_buf());
    let selected = |driver: &Driver| {
        driver.app.selected_summary().map(|packet| {
            (
                packet
                    .source
                    .path
                    .file_name()
                    .map(|name| name.to_os_string()),
                packet.source.line,
            )
        })
    };
    assert_eq!(driver.app.packets.len(), 4);
    driver
        .apply(&Step::WriteFile {
            name: "m_stream.ndjson".to_owned(),
            contents: format!("{line}\n{line}\n{line}\n"),
        })
        .unwrap();
    driver.apply(&Step::Notify).unwrap();
    // The re-check's result arrives; the list job it starts has not answered yet.
    driver.apply(&Step::Deliver(1)).unwrap();
    assert!(driver.app.list.building.is_some(), "a list job runs");
    assert_eq!(
        driver.app.packets.len(),
        4,
        "the old packets stay until it lands"
    );
    let shown = screen_text(driver.buffer());
    assert!(shown.contains("updating the list for"), "{shown}");
    // The key is handled at once, over the rows shown: the directory's second file.
    driver.apply(&press('j')).unwrap();
    let chosen = selected(&driver);
    assert_eq!(chosen, Some((Some("z_last.json".into()), None)));
    driver.settle().unwrap();
    assert!(driver.app.list.building.is_none());
    assert_eq!(driver.app.packets.len(), 5, "the third line is listed");
    assert_eq!(driver.app.packet_count(), 5);
    assert_eq!(
        selected(&driver),
        chosen,
        "the selection stays on z_last.json"
    );
    let shown = screen_text(driver.buffer());
    assert!(!shown.contains("updating the list for"), "{shown}");
    assert!(shown.contains(" ○ :3 "), "{shown}");
}

/// Pending goldens a CI run left (`check --write-pending`) come first in the review, which
/// says which file they are in; the packets without one follow in list order.
#[test]
fn review_opens_pending_goldens_first_and_says_where_they_came_from() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_files(&crate::common::fixtures().join("a2a"), dir.path());
    let drift = |name: &str| {
        let path = dir.path().join(name);
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        value["agent"]["id"] = serde_json::json!("agent://someone-else");
        std::fs::write(&path, value.to_string()).unwrap();
    };
    // The later packet drifts in CI, which leaves it pending; then the earlier one drifts too.
    drift("positive_task_ref_only.json");
    let ci = crate::common::run_env(
        &["check", "--write-pending", dir.path().to_str().unwrap()],
        &[("CI", Some("true"))],
    );
    assert_eq!(ci.code, 1, "{}", ci.stderr);
    drift("happy_task_requested.json");
    let mut driver = Driver::new(
        vec![dir.path().to_path_buf()],
        crate::common::fixture_options(),
        (160, 40),
        false,
    )
    .unwrap();
    driver.apply(&press('a')).unwrap();
    let first = screen_text(driver.buffer());
    assert!(first.contains("positive_task_ref_only.json"), "{first}");
    assert!(
        first.contains("goldens.pending.json (left by check --write-pending; 1 pending first)"),
        "{first}"
    );
    driver.apply(&press('s')).unwrap();
    let second = screen_text(driver.buffer());
    assert!(second.contains("golden review 2 of"), "{second}");
    assert!(
        !second.contains("left by check --write-pending"),
        "{second}"
    );
}

/// A filter chosen from the menu, `m` between the steps that choose it: a status filter shown,
/// `m` re-lists it in the other mode, a kind filter chosen before that build lands supersedes
/// it, and Esc cancels the kind filter's build. The list left must be the one the status
/// filter lists in the mode now shown (the driver's invariants check it after every step), not
/// the rows built for the mode before `m`.
#[test]
fn esc_after_m_and_a_filter_leaves_the_list_of_the_mode_shown() {
    use handoff_inspector::corpus::Status;
    use handoff_inspector::tui::state::app::{filter_choices, FilterChoice};
    let press = |code| Step::Key(KeyEvent::new(code, KeyModifiers::NONE));
    let choose = |choice: FilterChoice| {
        let at = filter_choices()
            .iter()
            .position(|entry| *entry == choice)
            .unwrap();
        let mut steps = vec![press(KeyCode::Char('f'))];
        steps.extend(std::iter::repeat_n(press(KeyCode::Down), at));
        steps.push(press(KeyCode::Enter));
        steps
    };
    // The generated corpus: happy_task_requested.json conforms in strict mode only.
    let kind = handoff_inspector::corpus::PacketKind::ALL
        .into_iter()
        .find(|kind| kind.tag() == "raw")
        .unwrap();
    let mut steps = choose(FilterChoice::Status(Status::Conforms));
    steps.push(Step::Deliver(usize::MAX));
    steps.push(press(KeyCode::Char('m')));
    steps.extend(choose(FilterChoice::Kind(kind)));
    steps.push(press(KeyCode::Esc));
    // The second order: m while the kind filter's build runs, then Esc.
    steps.push(Step::Deliver(usize::MAX));
    steps.extend(choose(FilterChoice::Kind(kind)));
    steps.push(press(KeyCode::Char('m')));
    steps.push(press(KeyCode::Esc));
    run(FIXTURE_CORPORA.len(), &steps).unwrap();
}

/// A watched file changes at 80x24: the status bar says it is being checked again, and once
/// the re-check has landed (checked, spliced into the list) it says so in the past tense, with
/// no key pressed. An accept's message is not replaced by the watcher's report of the manifest
/// the accept wrote.
#[test]
fn a_re_check_message_gives_way_to_its_result_when_it_lands() {
    let press = |c| Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    let happy = std::fs::read_to_string("fixtures/a2a/happy_task_requested.json").unwrap();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(scratch.path().join("one.json"), &happy).unwrap();
    std::fs::write(
        scratch.path().join("two.json"),
        happy.replace("delegation", "analysis"),
    )
    .unwrap();
    let mut driver = Driver::new(
        vec![scratch.path().to_path_buf()],
        crate::common::fixture_options(),
        (80, 24),
        false,
    )
    .unwrap()
    .with_scratch(scratch.path().to_path_buf());
    let status = |driver: &Driver| {
        screen_text(driver.buffer())
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned()
    };
    driver
        .apply(&Step::WriteFile {
            name: "two.json".to_owned(),
            contents: happy.replace("delegation", "review"),
        })
        .unwrap();
    driver.apply(&Step::Notify).unwrap();
    assert!(
        status(&driver).contains("re-checking 1 packet file(s)"),
        "{}",
        status(&driver)
    );
    driver.settle().unwrap();
    assert!(driver.app.list.building.is_none(), "the re-check landed");
    let landed = status(&driver);
    assert!(!landed.contains("re-checking"), "{landed}");
    assert!(landed.contains("re-checked 1 packet file(s)"), "{landed}");
    if std::env::var_os("CI").is_some_and(|value| !value.is_empty()) {
        // Under CI nothing may be written (the accept below is refused).
        return;
    }
    // The review: accept one.json's outcome; the watcher then reports goldens.json.
    for step in [press('a'), press('a'), press('y')] {
        driver.apply(&step).unwrap();
    }
    let accepted = driver.app.message.clone().unwrap_or_default();
    assert!(accepted.contains("golden recorded in"), "{accepted}");
    driver.apply(&Step::Notify).unwrap();
    driver.settle().unwrap();
    assert_eq!(driver.app.message.as_deref(), Some(accepted.as_str()));
}
