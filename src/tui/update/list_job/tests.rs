use super::*;
use crate::corpus::{CheckOptions, Status};
use crate::tui::runtime::list_build::build_list;
use crate::tui::runtime::reader::Reader;
use crate::tui::state::list_rows::ListRequest;
use crate::tui::update::{update, Action};

fn loaded() -> App {
    loaded_from("fixtures/a2a")
}

/// An app with the packets under `dir` loaded and its reads taken.
fn loaded_from(dir: &str) -> App {
    let reader = Reader::new(CheckOptions::default());
    let mut app = App::new(
        vec![std::path::PathBuf::from(dir)],
        CheckOptions::default(),
        false,
    );
    crate::tui::runtime::drive::load_blocking(&mut app, &reader);
    app.take_reads();
    app
}

/// The build `app` asked for last.
fn asked(app: &mut App) -> ListRequest {
    let reads = app.take_reads();
    match reads.into_iter().find_map(|read| match read {
        Read::List(request) => Some(request),
        _ => None,
    }) {
        Some(request) => request,
        None => panic!("no list build asked for"),
    }
}

fn answer(request: &ListRequest) -> Vec<Action> {
    let mut events = Vec::new();
    build_list(request, &|| true, &mut |event| {
        events.push(Action::List(request.generation, event));
        true
    });
    events
}

#[test]
fn an_answer_to_a_superseded_build_is_dropped_even_when_it_lands_last() {
    let mut app = loaded();
    let failing = Filter {
        status: Some(Status::Finding),
        ..Default::default()
    };
    start(&mut app, failing, ListWhy::Filter, None);
    let first = asked(&mut app);
    let no_golden = Filter {
        status: Some(Status::NoGolden),
        ..Default::default()
    };
    start(&mut app, no_golden, ListWhy::Filter, None);
    let second = asked(&mut app);
    for action in answer(&second) {
        update(&mut app, action);
    }
    let shown = (app.list.rows.clone(), app.list.listed.clone());
    assert_eq!(app.list.filter, no_golden);
    assert!(app.list.building.is_none());
    for action in answer(&first) {
        update(&mut app, action);
    }
    assert_eq!(app.list.filter, no_golden);
    assert_eq!((app.list.rows.clone(), app.list.listed.clone()), shown);
}

#[test]
fn packets_arriving_during_a_build_are_listed_by_the_next() {
    let mut app = loaded();
    let more: Vec<_> = app.packets.iter().cloned().collect();
    let before = app.packets.len();
    start(&mut app, Filter::default(), ListWhy::Load, None);
    let running = asked(&mut app);
    crate::tui::update::list_job::add_packets(&mut app, more);
    assert!(
        app.take_reads().is_empty(),
        "no second build while one runs"
    );
    let mut effects = Vec::new();
    for action in answer(&running) {
        effects.extend(update(&mut app, action));
    }
    assert_eq!(app.list.listed.len(), before);
    let next = effects
        .into_iter()
        .find_map(|effect| match effect {
            crate::tui::update::Effect::Read(Read::List(request)) => Some(request),
            _ => None,
        })
        .expect("the landing asks for the next build");
    assert_eq!(next.packets.len(), 2 * before);
    for action in answer(&next) {
        update(&mut app, action);
    }
    assert_eq!(app.list.listed.len(), 2 * before);
    assert_eq!(app.list.built_over, 2 * before);
}

#[test]
fn a_landing_build_keeps_the_selected_packet_in_any_group() {
    let reader = Reader::new(CheckOptions::default());
    let mut app = App::new(
        vec![std::path::PathBuf::from("fixtures/migrate")],
        CheckOptions::default(),
        false,
    );
    crate::tui::runtime::drive::load_blocking(&mut app, &reader);
    let packet_rows: Vec<usize> = (0..app.list.rows.len())
        .filter(|row| {
            matches!(
                app.list.rows[*row],
                crate::tui::state::app::ListRow::Packet(_)
            )
        })
        .collect();
    for fold in [false, true] {
        if fold {
            // A folded group before the selection: the rows no longer follow `listed`.
            app.list.selected = packet_rows[0];
            crate::tui::update::rows::fold_selected_group(&mut app);
        }
        for row in packet_rows.iter().copied() {
            if !app
                .list
                .rows
                .get(row)
                .is_some_and(|row| row.is_selectable())
            {
                continue;
            }
            app.list.selected = row;
            let selected = app.selected_packet();
            start(&mut app, Filter::default(), ListWhy::Load, None);
            let request = asked(&mut app);
            for action in answer(&request) {
                update(&mut app, action);
            }
            assert_eq!(app.selected_packet(), selected, "row {row}, folded {fold}");
            assert_eq!(app.list.selected, row);
        }
    }
}

/// The packets of the file the first packet is in, as a check of it would give them
/// again, plus one more (told apart by its line).
fn rechecked_first_file(app: &App) -> Replacement {
    let path = app.packets[0].source.path.to_path_buf();
    let mut checks: Vec<_> = app
        .packets
        .iter()
        .filter(|packet| *packet.source.path == *path)
        .cloned()
        .collect();
    let mut extra = checks[0].clone();
    extra.source.line = Some(2);
    checks.push(extra);
    Replacement {
        path,
        checks,
        errors: Vec::new(),
    }
}

fn key(code: char) -> Action {
    Action::Key(ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Char(code),
        ratatui::crossterm::event::KeyModifiers::NONE,
    ))
}

#[test]
fn a_changed_file_is_spliced_in_by_the_job_and_a_key_meanwhile_is_kept() {
    let mut app = loaded();
    let before = app.packets.len();
    let (rows, epoch) = (app.list.rows.clone(), app.packets_epoch);
    app.list.selected = 3;
    let replacement = rechecked_first_file(&app);
    crate::tui::update::list_job::replace_file(
        &mut app,
        replacement.path,
        replacement.checks,
        replacement.errors,
    );
    let request = asked(&mut app);
    // Nothing changed on the UI thread: the same packets and rows until the job lands.
    assert_eq!(app.packets.len(), before);
    assert_eq!(app.list.rows, rows);
    assert_eq!(app.packets_epoch, epoch);
    assert_eq!(request.replacing.len(), 1);
    let line = crate::tui::state::progress::list_line(&app).expect("a progress line while it runs");
    assert!(line.starts_with("updating the list for "), "{line}");
    // A key pressed meanwhile moves over the rows shown.
    update(&mut app, key('j'));
    let selected = app.selected_summary().map(|packet| packet.source.clone());
    assert!(selected.is_some());
    for action in answer(&request) {
        update(&mut app, action);
    }
    assert_eq!(app.packets.len(), before + 1);
    assert_eq!(app.list.listed.len(), before + 1);
    assert!(app.list.replacing.is_empty() && app.list.building.is_none());
    assert_ne!(app.packets_epoch, epoch);
    assert_eq!(
        app.selected_summary().map(|packet| packet.source.clone()),
        selected,
        "the selection stays on the packet the key moved to"
    );
    assert!(crate::tui::state::progress::list_line(&app).is_none());
}

#[test]
fn a_newer_change_or_a_filter_supersedes_a_splice_and_keeps_it() {
    let mut app = loaded();
    let before = app.packets.len();
    let replacement = rechecked_first_file(&app);
    let path = replacement.path.clone();
    crate::tui::update::list_job::replace_file(
        &mut app,
        replacement.path,
        replacement.checks,
        replacement.errors,
    );
    let first = asked(&mut app);
    // A filter chosen meanwhile: its build carries the replacement too.
    let no_golden = Filter {
        status: Some(Status::NoGolden),
        ..Default::default()
    };
    start(&mut app, no_golden, ListWhy::Filter, None);
    let filtered = asked(&mut app);
    assert_eq!(filtered.replacing.len(), 1);
    // The same file changed again (now gone): it supersedes both.
    crate::tui::update::list_job::replace_file(&mut app, path.clone(), Vec::new(), Vec::new());
    let last = asked(&mut app);
    assert_eq!(last.filter, no_golden, "the filter asked for is kept");
    assert_eq!(last.replacing.len(), 1);
    for stale in [&first, &filtered] {
        for action in answer(stale) {
            update(&mut app, action);
        }
        assert_eq!(app.packets.len(), before, "a superseded splice is dropped");
    }
    for action in answer(&last) {
        update(&mut app, action);
    }
    let gone = before - app.packets.len();
    assert!(gone >= 1);
    assert!(app
        .packets
        .iter()
        .all(|packet| *packet.source.path != *path));
    assert_eq!(app.list.filter, no_golden);
    assert!(app.list.replacing.is_empty());
}

/// Answers every list build `reads` asks for, and the builds their landings ask for;
/// returns how many answered by appending rows.
fn settle(app: &mut App, mut reads: Vec<Read>) -> usize {
    let mut appended = 0;
    while let Some(read) = reads.pop() {
        let Read::List(request) = read else { continue };
        for action in answer(&request) {
            appended += usize::from(matches!(action, Action::List(_, ListEvent::Appended(_))));
            for effect in update(app, action) {
                if let crate::tui::update::Effect::Read(read) = effect {
                    reads.push(read);
                }
            }
        }
    }
    appended
}

/// `packets` added to an app of no packets `per_batch` at a time with `filter` and the
/// second group folded, each batch's build answered; returns the app and how many of the
/// builds appended rows.
fn added_in_batches(
    packets: &[ListedPacket],
    per_batch: usize,
    filter: Filter,
    fold: Option<&str>,
) -> (App, usize) {
    let mut app = App::new(Vec::new(), CheckOptions::default(), false);
    app.list.filter = filter;
    app.list.folded.extend(fold.map(str::to_owned));
    let mut appended = 0;
    for batch in packets.chunks(per_batch) {
        add_packets(&mut app, batch.to_vec());
        let reads = app.take_reads();
        appended += settle(&mut app, reads);
    }
    (app, appended)
}

#[test]
fn packets_arriving_in_batches_get_the_rows_a_whole_build_gives() {
    let mut all = loaded();
    let mut migrate = loaded_from("fixtures/migrate");
    let mut packets: Vec<ListedPacket> = all.packets.take();
    packets.extend(migrate.packets.take());
    let failing = Filter {
        status: Some(Status::Finding),
        ..Default::default()
    };
    for filter in [Filter::default(), failing] {
        for fold in [
            None,
            Some("fixtures/migrate/bad/"),
            Some("fixtures/migrate/not-a2a/"),
        ] {
            for per_batch in [1, 3, 7, packets.len()] {
                let (mut app, appended) = added_in_batches(&packets, per_batch, filter, fold);
                // Every build appended (a directory's files after its subdirectory's go
                // into the middle of the rows).
                assert_eq!(appended, packets.len().div_ceil(per_batch));
                assert!(app.list.building.is_none());
                let shown = (
                    app.list.rows.clone(),
                    app.list.listed.clone(),
                    app.list.visible_packets,
                    app.list.selected,
                );
                crate::tui::runtime::drive::headless::rebuild_rows_now(&mut app);
                let whole = (
                    app.list.rows.clone(),
                    app.list.listed.clone(),
                    app.list.visible_packets,
                    app.list.selected,
                );
                assert_eq!(shown, whole, "{filter:?} {fold:?} {per_batch} a batch");
                assert_eq!(app.bundles.len(), all.bundles.len() + migrate.bundles.len());
            }
        }
    }
}

#[test]
fn packets_of_groups_before_the_last_go_into_the_middle_and_the_selection_stays() {
    let mut app = loaded();
    let mut packets = app.packets.take();
    let mut migrate = loaded_from("fixtures/migrate");
    // fixtures/migrate's packets first, then fixtures/a2a's, which sort before them.
    let mut reordered = migrate.packets.take();
    reordered.append(&mut packets);
    let mut app = App::new(Vec::new(), CheckOptions::default(), false);
    for (at, batch) in reordered.chunks(5).enumerate() {
        add_packets(&mut app, batch.to_vec());
        let reads = app.take_reads();
        assert_eq!(settle(&mut app, reads), 1);
        if at == 0 {
            // A packet of the last group, which rows put in before it move down.
            app.list.selected = app.list.rows.len() - 1;
        }
        assert_eq!(app.selected_packet(), Some(4), "batch {at}");
    }
    let shown = (app.list.rows.clone(), app.list.listed.clone());
    crate::tui::runtime::drive::headless::rebuild_rows_now(&mut app);
    assert_eq!(shown, (app.list.rows.clone(), app.list.listed.clone()));
}

#[test]
fn esc_stops_only_a_filters_build() {
    let mut app = loaded();
    start(&mut app, Filter::default(), ListWhy::Load, None);
    assert!(
        !cancel(&mut app),
        "a load's build is not the user's to stop"
    );
    start(&mut app, Filter::default(), ListWhy::Filter, None);
    assert!(cancel(&mut app));
    assert!(app.list.building.is_none());
    assert!(crate::tui::state::progress::list_line(&app).is_none());
}
