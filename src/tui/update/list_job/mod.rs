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
mod tests;
