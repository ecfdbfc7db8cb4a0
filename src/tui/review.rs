//! The golden review (`a`): the queue of listed packets that differ from or lack a golden,
//! the accept (with confirmation) / reject / skip decisions, and what is said when nothing is
//! left. Accepting returns an effect; the runtime writes the manifest.

use super::app::{App, Overlay, ReviewState, Tab};
use super::keymap::{lookup, Command, Context};
use super::update::{first_listed_of_selected_group, Effect};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// Whether a packet can be settled by recording a golden: it differs from its golden, or has
/// none. (A differing paired expected payload is not a golden: it is never rewritten.)
fn reviewable(check: &crate::corpus::PacketCheck) -> bool {
    use crate::corpus::FindingKind;
    check.recorded().is_some()
        && check.findings.iter().any(|finding| {
            matches!(
                finding.kind,
                FindingKind::GoldenMismatch | FindingKind::NoGolden
            )
        })
}

pub(super) fn open_review(app: &mut App) {
    // Every listed packet (folded groups too), starting at the selection.
    let count = app.listed.len();
    let start = app
        .selected_packet()
        .and_then(|packet| app.listed.iter().position(|index| *index == packet))
        .or_else(|| first_listed_of_selected_group(app))
        .unwrap_or(0);
    let queue: Vec<crate::corpus::Source> = (0..count)
        .map(|offset| (start + offset) % count)
        .filter_map(|position| app.packets.get(app.listed[position]))
        .filter(|check| reviewable(check) && !app.review_rejected.contains(&check.summary.source))
        .map(|check| check.summary.source.clone())
        .collect();
    let Some(first) = queue.first().cloned() else {
        let rejected = app
            .listed
            .iter()
            .filter_map(|index| app.packets.get(*index))
            .filter(|check| {
                reviewable(check) && app.review_rejected.contains(&check.summary.source)
            })
            .count();
        app.message = Some(if rejected > 0 {
            format!("nothing new to review: {rejected} rejected this session (they still differ; their goldens were kept)")
        } else {
            "nothing to review: no listed packet differs from or lacks a golden".to_owned()
        });
        return;
    };
    app.select_source(&first);
    app.tab = Tab::Digests;
    app.overlay = Some(Overlay::Review(ReviewState {
        queue,
        position: 0,
        confirming: false,
        accepted: 0,
        rejected: 0,
        skipped: 0,
    }));
}

pub(super) fn on_review_key(app: &mut App, key: KeyEvent, mut review: ReviewState) -> Vec<Effect> {
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
        review.accepted += 1;
        effects.push(Effect::AcceptGolden(source));
    } else {
        match lookup(Context::Review, &key) {
            Some(Command::Accept) => {
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
            app.select_source(&next);
            app.overlay = Some(Overlay::Review(review));
        }
        None => app.message = Some(review_summary(&review, "review done")),
    }
    effects
}

fn review_summary(review: &ReviewState, what: &str) -> String {
    format!(
        "{what}: {} accepted, {} rejected, {} skipped",
        review.accepted, review.rejected, review.skipped
    )
}
