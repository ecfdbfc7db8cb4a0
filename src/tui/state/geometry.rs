//! Screen geometry, shared by the view and by `update` (paging, mouse hit-testing).

use ratatui::layout::Rect;

pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub list: Rect,
    pub detail: Rect,
    pub status: Rect,
}

/// Title line, list (45%, at least 34 columns), detail, status line.
pub fn areas(screen: Rect) -> Areas {
    let body_height = screen.height.saturating_sub(2);
    let list_width = (screen.width * 9 / 20).clamp(34.min(screen.width), screen.width);
    Areas {
        title: Rect {
            x: screen.x,
            y: screen.y,
            width: screen.width,
            height: 1.min(screen.height),
        },
        list: Rect {
            x: screen.x,
            y: screen.y + 1,
            width: list_width,
            height: body_height,
        },
        detail: Rect {
            x: screen.x + list_width,
            y: screen.y + 1,
            width: screen.width.saturating_sub(list_width),
            height: body_height,
        },
        status: Rect {
            x: screen.x,
            y: screen.y + screen.height.saturating_sub(1),
            width: screen.width,
            height: 1,
        },
    }
}

/// The list's inner rows (inside its border).
pub fn list_rows(screen: Rect) -> Rect {
    let list = areas(screen).list;
    Rect {
        x: list.x + 1,
        y: list.y + 1,
        width: list.width.saturating_sub(2),
        height: list.height.saturating_sub(2),
    }
}

pub fn too_small(screen: Rect) -> bool {
    screen.width < MIN_WIDTH || screen.height < MIN_HEIGHT
}

/// A centered rectangle of at most `width` x `height`, between the title and status lines. A
/// panel that would leave only a column on each side takes the whole width instead, so its
/// border lies on the panes' borders rather than beside them (no doubled corners).
pub fn centered(screen: Rect, width: u16, height: u16) -> Rect {
    let width = if width.saturating_add(2) >= screen.width {
        screen.width
    } else {
        width
    };
    let height = height.min(screen.height.saturating_sub(2));
    Rect {
        x: screen.x + (screen.width - width) / 2,
        y: screen.y + (screen.height - height) / 2,
        width,
        height,
    }
}
