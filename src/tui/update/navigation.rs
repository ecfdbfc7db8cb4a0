//! Moving about: the tab switched, the selection or the detail's scroll moved by keys, and
//! the mouse's wheel and clicks.

use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::app::{App, DigestsState, Focus, HandoffState, ListRow, Tab};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

pub(super) fn switch_tab(app: &mut App, index: usize) {
    app.tab = Tab::ALL[index.min(Tab::ALL.len() - 1)];
    app.tabs.scroll = 0;
    app.tabs.handoff.cursor = 0;
    app.tabs.digests.cursor = 0;
}

pub(super) fn move_or_scroll(app: &mut App, delta: i64) {
    if app.focus == Focus::Detail {
        match app.tab {
            Tab::Rules => {
                let row = app.tabs.rules.cursor.0 as i64 + delta;
                app.tabs.rules.cursor.0 = row.clamp(0, COVERAGE_ROW_IDS.len() as i64 - 1) as usize;
            }
            // j/k move the selected line (what y copies); past its first or last, they scroll.
            Tab::Handoff | Tab::Digests if delta.abs() == 1 => {
                let (cursor, limit) = match app.tab {
                    Tab::Handoff => (&mut app.tabs.handoff.cursor, HandoffState::LINES),
                    _ => (&mut app.tabs.digests.cursor, DigestsState::LINES),
                };
                let next = *cursor as i64 + delta;
                if (0..limit as i64).contains(&next) {
                    *cursor = next as usize;
                } else {
                    let scroll = i64::from(app.tabs.scroll) + delta;
                    app.tabs.scroll = scroll.clamp(0, i64::from(u16::MAX / 2)) as u16;
                }
            }
            _ => {
                let scroll = i64::from(app.tabs.scroll) + delta;
                app.tabs.scroll = scroll.clamp(0, i64::from(u16::MAX / 2)) as u16;
            }
        }
        return;
    }
    // Move by `delta` selectable rows, skipping the headers of unfolded groups.
    let mut row = app.list.selected;
    let step = delta.signum();
    let mut remaining = delta.abs();
    while remaining > 0 {
        let next = row as i64 + step;
        if next < 0 || next >= app.list.rows.len() as i64 {
            break;
        }
        row = next as usize;
        if app.list.rows[row].is_selectable() {
            remaining -= 1;
        }
    }
    let target = app
        .list
        .rows
        .get(row)
        .is_some_and(ListRow::is_selectable)
        .then_some(row);
    select_row(app, target.or(Some(app.list.selected)));
}

pub(super) fn select_row(app: &mut App, row: Option<usize>) {
    if let Some(row) = row {
        app.list.selected = row;
        app.refresh_detail();
    }
}

pub(super) fn on_mouse(app: &mut App, mouse: MouseEvent) {
    let in_list = mouse.column
        < crate::tui::state::geometry::areas(ratatui::layout::Rect::new(
            0, 0, app.size.0, app.size.1,
        ))
        .detail
        .x;
    match mouse.kind {
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let delta = if mouse.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            let focus = app.focus;
            app.focus = if in_list { Focus::List } else { Focus::Detail };
            move_or_scroll(app, delta);
            if in_list {
                app.focus = focus;
            }
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if in_list
                && mouse.row >= app.list.area_top
                && mouse.row < app.list.area_top + app.list.area_height
            {
                let row = app.list.offset + usize::from(mouse.row - app.list.area_top);
                match app.list.rows.get(row) {
                    Some(ListRow::Packet(_)) => {
                        app.focus = Focus::List;
                        select_row(app, Some(row));
                    }
                    // A click on a group header folds or unfolds it.
                    Some(ListRow::Group(group)) => {
                        app.focus = Focus::List;
                        if group.folded {
                            select_row(app, Some(row));
                            crate::tui::update::rows::unfold_selected_group(app);
                        } else if let Some(packet) = app.first_packet_row_from(row, true) {
                            select_row(app, Some(packet));
                            crate::tui::update::rows::fold_selected_group(app);
                        }
                    }
                    None => {}
                }
            } else if !in_list {
                app.focus = Focus::Detail;
            }
        }
        _ => {}
    }
}
