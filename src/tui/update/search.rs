//! Search (`/` Enter, `n`, `N`) as state changes. Enter asks the reader to scan the listed
//! packets' names and text (a `reads::Read::Search`, off the UI thread), starting at the
//! selection; the scan reports progress, the first match is selected as soon as it is found,
//! and when it ends its matches are kept so that `n`/`N` move between them in memory, saying
//! "match K of N" and when they wrap. Esc cancels a running scan. Results stay valid while the
//! packets, the filter and the mode are those scanned; otherwise `n` scans again.

use crate::tui::state::app::{App, SearchResults, SearchRun, SearchThen};
use crate::tui::state::progress::thousands;
use crate::tui::state::reads::{Read, SearchEvent, SearchRequest};

/// Starts a scan for the current query (replacing any running one).
pub(crate) fn start(app: &mut App, then: SearchThen) {
    let Some(query) = app.search.query.clone() else {
        return;
    };
    app.search.generation += 1;
    app.search.results = None;
    let (start, _) = start_position(app);
    let count = app.list.listed.len();
    app.search.running = Some(SearchRun {
        generation: app.search.generation,
        total: count,
        scanned: 0,
        matches: 0,
        then,
        jumped: false,
        packets_epoch: app.packets_epoch,
    });
    app.request(Read::Search(SearchRequest {
        generation: app.search.generation,
        needle: query.to_lowercase(),
        // Cheap on the UI thread at a million packets: the chunks are shared, and the list
        // order is one copy of its indices (building a (index, source, offset) per packet
        // here held Enter for 39 ms on 1M packets).
        packets: app.packets.clone(),
        listed: app.list.listed.clone(),
        start,
    }));
}

/// Where a scan starts in `listed`: the selected packet, or the first packet of a selected
/// folded group; and whether a packet (not a group) is selected there.
fn start_position(app: &App) -> (usize, bool) {
    let current = app
        .selected_packet()
        .and_then(|packet| app.list.listed.iter().position(|index| *index == packet));
    match current {
        Some(position) => (position, true),
        None => (
            crate::tui::state::selection::first_listed_of_selected_group(app).unwrap_or(0),
            false,
        ),
    }
}

/// Stops a running scan; false when none runs.
pub(crate) fn cancel(app: &mut App) -> bool {
    let Some(run) = app.search.running.take() else {
        return false;
    };
    // Anything the cancelled scan still sends belongs to an older generation.
    app.search.generation += 1;
    app.message = Some(format!(
        "search cancelled after {} of {} packets ({} match(es) so far)",
        thousands(run.scanned),
        thousands(run.total),
        run.matches
    ));
    true
}

/// A scan's report, taken if it belongs to the running scan.
pub(crate) fn on_event(app: &mut App, generation: u64, event: SearchEvent) {
    let Some(run) = app.search.running.as_mut() else {
        return;
    };
    if run.generation != generation {
        return;
    }
    if run.packets_epoch != app.packets_epoch {
        // The packets were replaced under the scan: its indices name other packets now.
        app.search.running = None;
        app.search.generation += 1;
        return;
    }
    match event {
        SearchEvent::Progress {
            scanned,
            matches,
            first,
        } => {
            run.scanned = scanned;
            run.matches = matches;
            if let (Some(first), false, SearchThen::SelectFirst) = (first, run.jumped, run.then) {
                run.jumped = true;
                select_packet(app, first);
            }
        }
        SearchEvent::Done { mut matches } => {
            let Some(run) = app.search.running.take() else {
                return;
            };
            if run.then == SearchThen::SelectFirst && !run.jumped {
                if let Some(first) = matches.first() {
                    select_packet(app, *first);
                }
            }
            matches.sort_unstable();
            app.search.results = Some(SearchResults {
                matches,
                packets_epoch: app.packets_epoch,
                packets: app.packets.len(),
                filter: app.list.filter,
                mode: app.mode,
            });
            match run.then {
                SearchThen::SelectFirst => say_where(app, None),
                SearchThen::Step(forward) => step(app, forward),
            }
        }
    }
}

fn select_packet(app: &mut App, index: usize) {
    crate::tui::update::rows::select_packet(app, index);
}

/// The results of the last scan, if they still describe the list.
fn current_results(app: &App) -> Option<&SearchResults> {
    let results = app.search.results.as_ref()?;
    let same_list = results.packets_epoch == app.packets_epoch
        && results.packets == app.packets.len()
        && results.filter == app.list.filter
        && (results.filter.status.is_none() || results.mode == app.mode);
    same_list.then_some(results)
}

/// `n` (forward) / `N`: the next / previous match from the selection, wrapping around and
/// saying so; scans again first when the list changed since the last scan.
pub(crate) fn step(app: &mut App, forward: bool) {
    if app.search.query.is_none() {
        app.message = Some("no search: press / first".to_owned());
        return;
    }
    if let Some(run) = &app.search.running {
        app.message = Some(format!(
            "still searching: {} match(es) in {} of {} packets so far (Esc cancels)",
            run.matches,
            thousands(run.scanned),
            thousands(run.total)
        ));
        return;
    }
    let Some(results) = current_results(app) else {
        start(app, SearchThen::Step(forward));
        return;
    };
    let positions = match_positions(app, results);
    if positions.is_empty() {
        say_where(app, None);
        return;
    }
    let (start, on_packet) = start_position(app);
    // From a folded group (no packet selected) its first packet counts as the next.
    let at = positions.partition_point(|position| *position < start);
    let (target, wrapped) = if forward {
        let next = if on_packet {
            positions.partition_point(|position| *position <= start)
        } else {
            at
        };
        match positions.get(next) {
            Some(position) => (*position, false),
            None => (positions[0], true),
        }
    } else {
        match at.checked_sub(1) {
            Some(previous) => (positions[previous], false),
            None => (positions[positions.len() - 1], true),
        }
    };
    let index = app.list.listed[target];
    select_packet(app, index);
    say_where(app, wrapped.then_some(forward));
}

/// The listed positions of the matches, ascending.
fn match_positions(app: &App, results: &SearchResults) -> Vec<usize> {
    if results.matches.is_empty() {
        return Vec::new();
    }
    app.list
        .listed
        .iter()
        .enumerate()
        .filter(|(_, index)| results.matches.binary_search(index).is_ok())
        .map(|(position, _)| position)
        .collect()
}

/// Says which match is selected ("match K of N"), and that the move wrapped (`Some(true)`:
/// past the last to the first; `Some(false)`: before the first to the last).
fn say_where(app: &mut App, wrapped: Option<bool>) {
    let query = app.search.query.clone().unwrap_or_default();
    let Some(results) = current_results(app) else {
        return;
    };
    let positions = match_positions(app, results);
    if positions.is_empty() {
        app.message = Some(format!(
            "no packet matches \"{}\"",
            crate::json::safe_text(&query)
        ));
        return;
    }
    let selected = app
        .selected_packet()
        .and_then(|packet| app.list.listed.iter().position(|index| *index == packet));
    let k = selected.and_then(|position| positions.binary_search(&position).ok());
    let mut message = match k {
        Some(k) => format!("match {} of {}", k + 1, positions.len()),
        None => format!("{} match(es)", positions.len()),
    };
    match wrapped {
        Some(true) => message.push_str(" (wrapped past the last to the first)"),
        Some(false) => message.push_str(" (wrapped before the first to the last)"),
        None => {}
    }
    app.message = Some(message);
}

#[cfg(test)]
mod tests {
    use crate::tui::state::progress::thousands;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
