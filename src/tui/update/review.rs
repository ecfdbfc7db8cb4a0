//! The golden review (`a`): the queue of listed packets that differ from or lack a golden,
//! the accept (with confirmation) / reject / skip decisions, and what is said when nothing is
//! left. Accepting returns an effect; the runtime writes the manifest.

use crate::corpus::FindingKind;
use crate::tui::state::app::{App, ListedPacket, Overlay, ReviewState, ReviewTally, Tab};
use crate::tui::state::keymap::{lookup, Command, Context};
use crate::tui::state::review::{accept_preview, pending_file_of};
use crate::tui::state::selection::first_listed_of_selected_group;
use crate::tui::update::effect::Effect;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use std::path::{Path, PathBuf};

/// Whether a packet is reviewed: it differs from its golden, or has none and was found in a
/// directory named on the command line (a file given alone, say a bundle opened from a
/// download or temporary directory, is not offered a new `goldens.json` beside it; `bless`
/// records one there when asked), or its paired expected payload differs (the panel shows
/// what changed and the command that updates the file: neither bless nor accept rewrites it).
pub(crate) fn reviewable(roots: &[PathBuf], check: &ListedPacket) -> bool {
    check.records_golden
        && (check.has_finding(FindingKind::GoldenMismatch)
            || check.has_finding(FindingKind::PairedMismatch)
            || (check.has_finding(FindingKind::NoGolden)
                && in_named_directory(roots, &check.source.path)))
}

/// The queue's packets against the list's failing count in the mode shown.
fn tally(app: &App, queue: &[crate::corpus::Source]) -> ReviewTally {
    use crate::tui::state::status::is_failing;
    let queued: std::collections::HashSet<&crate::corpus::Source> = queue.iter().collect();
    let mut tally = ReviewTally::default();
    for check in app
        .list
        .listed
        .iter()
        .filter_map(|index| app.packets.get(*index))
    {
        let failing = is_failing(check.status_in(app.mode));
        match (queued.contains(&check.source), failing) {
            (true, true) => tally.failing += 1,
            (true, false) => tally.other += 1,
            (false, true) if reviewable(&app.roots, check) => tally.rejected_before += 1,
            (false, true) => tally.not_golden += 1,
            (false, false) => {}
        }
    }
    tally
}

/// A packet without a golden that the review leaves to `bless`: see `reviewable`.
fn lacks_golden_outside_named_directories(roots: &[PathBuf], check: &ListedPacket) -> bool {
    check.records_golden
        && !in_named_directory(roots, &check.source.path)
        && check.has_finding(FindingKind::NoGolden)
}

/// Whether `path` was found by walking a directory named on the command line (rather than
/// being a file named on it).
fn in_named_directory(roots: &[PathBuf], path: &Path) -> bool {
    roots
        .iter()
        .any(|root| root.as_path() != path && path.starts_with(root))
}

pub(crate) fn open_review(app: &mut App) {
    // Every listed packet (folded groups too), starting at the selection.
    let count = app.list.listed.len();
    let start = app
        .selected_packet()
        .and_then(|packet| app.list.listed.iter().position(|index| *index == packet))
        .or_else(|| first_listed_of_selected_group(app))
        .unwrap_or(0);
    let mut queue: Vec<crate::corpus::Source> = (0..count)
        .map(|offset| (start + offset) % count)
        .filter_map(|position| app.packets.get(app.list.listed[position]))
        .filter(|check| {
            reviewable(&app.roots, check) && !app.review_rejected.contains(&check.source)
        })
        .map(|check| check.source.clone())
        .collect();
    // What a CI run left pending is what the reviewer came for: those first, in list order.
    let (pending, rest): (Vec<_>, Vec<_>) = queue
        .into_iter()
        .partition(|source| pending_file_of(app, source).is_some());
    let pending_count = pending.len();
    queue = pending;
    queue.extend(rest);
    let Some(first) = queue.first().cloned() else {
        let rejected = app
            .list
            .listed
            .iter()
            .filter_map(|index| app.packets.get(*index))
            .filter(|check| {
                reviewable(&app.roots, check) && app.review_rejected.contains(&check.source)
            })
            .count();
        let left_to_bless = app
            .list
            .listed
            .iter()
            .filter_map(|index| app.packets.get(*index))
            .filter(|check| lacks_golden_outside_named_directories(&app.roots, check))
            .count();
        app.message = Some(if left_to_bless > 0 {
            // Short enough for the status bar at 80 columns with hundreds of packets.
            format!("nothing to review: {left_to_bless} have no golden and were given as a file (bless records)")
        } else if rejected > 0 {
            format!("nothing new to review: {rejected} rejected this session (they still differ; their goldens were kept)")
        } else {
            "nothing to review: no listed packet differs from or lacks a golden".to_owned()
        });
        return;
    };
    crate::tui::update::rows::select_source(app, &first);
    app.tab = Tab::Digests;
    let tally = tally(app, &queue);
    app.overlay = Some(Overlay::Review(ReviewState {
        tally,
        queue,
        position: 0,
        confirming: false,
        accepted: 0,
        rejected: 0,
        skipped: 0,
        pending: pending_count,
    }));
}

pub(crate) fn on_review_key(app: &mut App, key: KeyEvent, mut review: ReviewState) -> Vec<Effect> {
    let Some(source) = review.queue.get(review.position).cloned() else {
        return Vec::new();
    };
    let mut effects = Vec::new();
    if review.confirming {
        review.confirming = false;
        if key.code != KeyCode::Char('y') {
            app.overlay = Some(Overlay::Review(review));
            return effects;
        }
        // The check shown when accept was asked for (it was there: see Command::Accept).
        let Some(check) = shown_check(app, &source).cloned() else {
            app.message = Some(still_reading(&source));
            app.overlay = Some(Overlay::Review(review));
            return effects;
        };
        review.accepted += 1;
        effects.push(Effect::AcceptGolden(Box::new(check)));
    } else {
        match lookup(Context::Review, &key) {
            Some(Command::Accept) => {
                // What would be recorded is the packet's full check, which comes with its
                // detail: until it is read there is nothing to confirm.
                let Some(check) = shown_check(app, &source) else {
                    app.message = Some(still_reading(&source));
                    app.overlay = Some(Overlay::Review(review));
                    return effects;
                };
                // Nothing would change: nothing to confirm, and no "recorded" to say.
                if let Some(nothing) = nothing_to_record(app, check) {
                    app.message = Some(nothing);
                    app.overlay = Some(Overlay::Review(review));
                    return effects;
                }
                review.confirming = true;
                app.overlay = Some(Overlay::Review(review));
                return effects;
            }
            Some(Command::Reject) => {
                review.rejected += 1;
                app.review_rejected.insert(source);
            }
            Some(Command::Skip) => review.skipped += 1,
            Some(Command::Back) => {
                app.message = Some(review_summary(&review, "review stopped"));
                return effects;
            }
            Some(Command::Quit) if key.code == KeyCode::Char('c') => {
                app.should_quit = true;
                return effects;
            }
            _ => {
                app.overlay = Some(Overlay::Review(review));
                return effects;
            }
        }
    }
    review.position += 1;
    match review.queue.get(review.position).cloned() {
        Some(next) => {
            crate::tui::update::rows::select_source(app, &next);
            app.overlay = Some(Overlay::Review(review));
        }
        None => app.message = Some(review_summary(&review, "review done")),
    }
    effects
}

/// The selected packet's full check when it is the reviewed packet's and has been read.
fn shown_check<'a>(
    app: &'a App,
    source: &crate::corpus::Source,
) -> Option<&'a crate::corpus::PacketCheck> {
    app.selected_check()
        .filter(|check| &check.summary.source == source)
}

/// What `a` says at once when accepting `check` would leave its manifest as it is (the
/// panel's preview says "no change"), `None` when something would be written.
fn nothing_to_record(app: &App, check: &crate::corpus::PacketCheck) -> Option<String> {
    let golden = &app.detail_read()?.golden;
    let preview = accept_preview(check, golden);
    if !preview.writes_nothing() {
        return None;
    }
    let (dir, _) = crate::corpus::manifest_key(&check.summary.source);
    let manifest = crate::golden::manifest_path(&dir);
    Some(format!(
        "nothing to record: {} (s skips, r rejects)",
        preview.why_nothing(&manifest)
    ))
}

fn still_reading(source: &crate::corpus::Source) -> String {
    format!(
        "{} is still being read; press a again when its digests show",
        crate::json::safe_text(&source.to_string())
    )
}

fn review_summary(review: &ReviewState, what: &str) -> String {
    format!(
        "{what}: {} accepted, {} rejected, {} skipped",
        review.accepted, review.rejected, review.skipped
    )
}
