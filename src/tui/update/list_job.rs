//! Building the list off the UI thread, as state changes. A filter (the menu, a coverage
//! matrix cell, Esc clearing it), a mode switch under a status filter, and packets arriving or
//! being replaced ask for the list to be built again (a `reads::Read::List` over a snapshot of
//! the packets); the rows shown stay until the build's answer lands, and an answer to a build
//! that was superseded or cancelled is dropped by generation. A filter's build shows a
//! progress line and Esc cancels it (the list stays as it was). While packets keep arriving,
//! a build goes through only the packets after the rows built and its rows are put in
//! (`rows::append_list`), so a million-line load goes through each packet once, not once per
//! batch after it; a build that lands starts the next.
//! A file checked again after the watcher saw it change is spliced into the packets by the
//! build too (the replacement rides on every build started until one lands, so a filter
//! chosen meanwhile does not lose it); the packets and rows shown stay until then.

use crate::corpus::LoadError;
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::app::{App, Filter, ListBuild, ListWhy};
use crate::tui::state::app::{Discarded, ListedPacket, LoadProgress};
use crate::tui::state::list_rows::{Appending, ListEvent};
use crate::tui::state::packets::Replacement;
use crate::tui::state::progress::thousands;
use crate::tui::state::reads::Read;
use crate::tui::state::recheck::Recheck;
use std::path::PathBuf;
use std::sync::Arc;

/// Adds freshly loaded packets, keeping the coverage counts current.
pub fn add_packets(app: &mut App, summaries: Vec<ListedPacket>) {
    for packet in &summaries {
        app.count_coverage(packet, 1);
    }
    app.packets.extend(summaries);
    packets_added(app);
}

/// Replaces every packet of `path` (a file that changed on disk): the list job splices
/// them into a new snapshot off the UI thread, and the packets and rows shown stay until
/// it lands (`swap_in`).
pub fn replace_file(
    app: &mut App,
    path: PathBuf,
    summaries: Vec<ListedPacket>,
    errors: Vec<LoadError>,
) {
    if let Some(recheck) = &mut app.recheck {
        recheck.waiting = recheck.waiting.saturating_sub(1);
    }
    let replacement = Replacement {
        path,
        checks: summaries,
        errors,
    };
    file_rechecked(app, replacement);
}

/// Forgets every packet (before a reload), remembering which one was selected so that the
/// selection comes back when it is loaded again.
pub fn clear_packets(app: &mut App) {
    if let Some(source) = app.selected_source() {
        app.reselect = Some(source);
    }
    app.forget_rows();
    let forgotten = std::mem::take(&mut app.packets);
    app.discard(Discarded::Packets(forgotten));
    app.load_errors.clear();
    // Read again by the next load, with the packets.
    app.pending.clear();
    app.coverage = vec![[0, 0]; COVERAGE_ROW_IDS.len()];
    app.progress = LoadProgress::default();
    // The reload checks every file again; answers to the re-check are dropped by generation.
    app.recheck = None;
    packets_forgotten(app);
}

/// Files changed on disk are being checked again (`files` of them): the status bar says so
/// with `shown` until they are checked and spliced into the list, then with `done`. A message
/// of another kind (an accept's result, say) is not replaced: the list's progress line shows
/// the update meanwhile.
pub(crate) fn recheck_started(app: &mut App, files: usize, shown: String, done: String) {
    let earlier = app.recheck.take();
    let ours = match app.message.as_deref() {
        None => true,
        Some(message) => earlier
            .as_ref()
            .is_some_and(|recheck| recheck.shown == message),
    };
    let waiting = earlier.map_or(0, |recheck| recheck.waiting) + files;
    let shown = if ours {
        app.message = Some(shown.clone());
        shown
    } else {
        String::new()
    };
    app.recheck = Some(Recheck {
        waiting,
        shown,
        done,
    });
    recheck_landed(app);
}

/// A re-check has landed once every file it asked for has been answered and spliced in: its
/// message gives way to its result, if it is still the one shown.
fn recheck_landed(app: &mut App) {
    let landed = app
        .recheck
        .as_ref()
        .is_some_and(|recheck| recheck.waiting == 0)
        && app.list.replacing.is_empty()
        && app.list.building.is_none();
    if !landed {
        return;
    }
    if let Some(recheck) = app.recheck.take() {
        if app.message.as_deref() == Some(recheck.shown.as_str()) {
            app.message = Some(recheck.done);
        }
    }
}

/// Starts building the list for `filter` (replacing any build under way); `done` is what the
/// status bar says when it lands.
pub(crate) fn start(app: &mut App, filter: Filter, why: ListWhy, done: Option<String>) {
    // Packets arrived after the rows: only they are gone through, their rows appended.
    let append = why == ListWhy::Load
        && filter == app.list.filter
        && app.list.built_mode == app.mode
        && app.list.replacing.is_empty();
    start_build(app, filter, why, done, append);
}

/// Starts a build, appending to the rows shown or of the whole list.
fn start_build(app: &mut App, filter: Filter, why: ListWhy, done: Option<String>, append: bool) {
    app.list.generation += 1;
    let mut request = app.list_request(app.list.generation, filter);
    if append {
        request.appending = Some(Appending {
            from: app.list.built_over,
        });
    }
    app.list.building = Some(ListBuild {
        generation: app.list.generation,
        total: request.size(),
        scanned: 0,
        filter,
        why,
        done,
    });
    app.request(Read::List(request));
}

/// The filter last asked for: a filter build's under way, else the one the list shows (what a
/// further filter choice adds to).
pub fn wanted_filter(app: &App) -> Filter {
    match &app.list.building {
        Some(build) => build.filter,
        None => app.list.filter,
    }
}

/// Packets were added after those the rows cover: build again, unless a build is under way
/// (when it lands, it starts the next).
pub(crate) fn packets_added(app: &mut App) {
    if app.list.building.is_none() {
        start(app, app.list.filter, ListWhy::Load, None);
    }
}

/// A file was checked again: its packets are spliced in by a new build, which supersedes the
/// one under way (keeping what that one was for); an earlier replacement of the same file not
/// yet landed is superseded too.
pub(crate) fn file_rechecked(app: &mut App, replacement: Replacement) {
    app.list
        .replacing
        .retain(|pending| pending.path != replacement.path);
    app.list.replacing.push(Arc::new(replacement));
    let filter = wanted_filter(app);
    let (why, done) = match app.list.building.take() {
        Some(build) if build.why != ListWhy::Load => (build.why, build.done),
        _ => (ListWhy::Replace, None),
    };
    start(app, filter, why, done);
}

/// Every packet was forgotten (a reload starts): nothing to build until packets arrive; a
/// filter asked for meanwhile is what they will be listed with.
pub(crate) fn packets_forgotten(app: &mut App) {
    app.list.filter = wanted_filter(app);
    // The reload checks every file again.
    app.list.replacing.clear();
    if app.list.building.take().is_some() {
        app.list.generation += 1;
    }
}

/// Esc: stops a filter's build (the list stays as it was); false when none runs.
pub(crate) fn cancel(app: &mut App) -> bool {
    let Some(build) = app
        .list
        .building
        .take_if(|build| build.why == ListWhy::Filter)
    else {
        return false;
    };
    app.list.generation += 1;
    app.message = Some(format!(
        "filter cancelled after {} of {} packets; the list is as it was",
        thousands(build.scanned),
        thousands(build.total)
    ));
    // Rows that cover fewer packets than are loaded (packets arrived while the filter's
    // build ran), or files checked again not yet spliced in: built again for the filter shown.
    restart_if_behind(app);
    true
}

/// A build's report, taken if it belongs to the build under way.
pub(crate) fn on_event(app: &mut App, generation: u64, event: ListEvent) {
    let Some(build) = app.list.building.as_mut() else {
        return;
    };
    if build.generation != generation {
        return;
    }
    match event {
        ListEvent::Progress { scanned } => build.scanned = scanned.min(build.total),
        ListEvent::Done(built) => {
            let Some(build) = app.list.building.take() else {
                return;
            };
            crate::tui::update::rows::apply_list(app, *built);
            if build.done.is_some() {
                app.message = build.done;
            }
            restart_if_behind(app);
            recheck_landed(app);
        }
        ListEvent::Appended(appended) => {
            let Some(build) = app.list.building.take() else {
                return;
            };
            if !crate::tui::update::rows::append_list(app, *appended) {
                // The rows are not those the build appended to: built whole instead.
                start_build(app, build.filter, build.why, build.done, false);
                return;
            }
            restart_if_behind(app);
        }
    }
}

/// Starts a build when the rows are behind the packets or the mode: some arrived since they
/// were built, files checked again wait to be spliced in, or a status filter's rows were built
/// in the other mode (`m` was pressed while a build that a cancelled one superseded ran).
fn restart_if_behind(app: &mut App) {
    if app.list.filter.status.is_some() && app.list.built_mode != app.mode {
        start(app, app.list.filter, ListWhy::Mode, None);
    } else if !app.list.replacing.is_empty() {
        start(app, app.list.filter, ListWhy::Replace, None);
    } else if app.list.built_over < app.packets.len() {
        start(app, app.list.filter, ListWhy::Load, None);
    }
}

#[cfg(test)]
mod tests {
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
        let line =
            crate::tui::state::progress::list_line(&app).expect("a progress line while it runs");
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
}
