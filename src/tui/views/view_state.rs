//! What the views keep between frames, beside the `App` they draw: how far the detail could
//! scroll, and the lines and digests built for the selected packet's detail.

use crate::tui::state::app::App;
use crate::tui::views::window::{DrawnCache, WindowLines};
use ratatui::text::Line;
use std::rc::Rc;

/// What the views keep between frames: how far the last drawn detail could scroll (`None`:
/// the tab does not scroll; the state keeps its scroll inside it, see
/// `App::clamp_detail_scroll`), and for the selected packet's detail, the lines built per
/// view state and the digests of the whole object (hashing a big object's canonical bytes
/// takes longer than a frame). Whoever draws owns one next to the `App`.
#[derive(Debug, Default)]
pub struct ViewState {
    pub scroll_max: Option<u16>,
    /// The detail (by its read's generation) that `drawn` and `object_digests` belong to.
    pub(super) detail: Option<u64>,
    pub(super) drawn: DrawnCache,
    pub(super) object_digests: Option<Option<ObjectDigests>>,
}

impl ViewState {
    /// Forgets what was kept for another detail than the one `app` shows.
    pub(super) fn follow(&mut self, app: &App) {
        let shown = app
            .detail
            .as_ref()
            .filter(|detail| detail.read.is_some())
            .map(|detail| detail.generation);
        if shown != self.detail {
            self.detail = shown;
            self.forget_drawn();
        }
    }

    /// Forgets every line and digest kept (the next frame builds them afresh).
    pub fn forget_drawn(&mut self) {
        self.drawn.clear();
        self.object_digests = None;
    }
}

/// The digest texts of a packet that is not converted: the whole object's and its
/// handoff's, when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectDigests {
    pub object: String,
    pub handoff: Option<String>,
}

/// The lines built for one view state of the selected packet (`key` names the state), kept
/// in the view state for the packet's detail: a frame that shows the same state again reuses
/// them.
pub fn cached(
    state: &mut ViewState,
    key: String,
    build: impl FnOnce() -> Vec<Line<'static>>,
) -> Rc<WindowLines> {
    let cache = &mut state.drawn;
    if let Some((_, lines)) = cache.iter().find(|(at, _)| *at == key) {
        return Rc::clone(lines);
    }
    let lines = Rc::new(WindowLines::new(build()));
    // A few states (side-by-side columns, a step and its neighbours) stay; older ones go.
    if cache.len() >= 4 {
        cache.remove(0);
    }
    cache.push((key, Rc::clone(&lines)));
    lines
}
