//! One frame, drawn the same way by the interactive runtime, the headless driver and
//! `render`: the list's geometry taken from the terminal's size first (so paging and the mouse
//! meet the rows drawn), the views drawn from the state, and the detail scroll kept inside what
//! the frame measured.

use crate::tui::state::app::App;
use crate::tui::views::{Screen, ViewState};
use ratatui::backend::Backend;
use ratatui::Terminal;

/// Draws a frame of `app` on `terminal`.
pub fn draw_frame<B: Backend>(
    app: &mut App,
    view_state: &mut ViewState,
    terminal: &mut Terminal<B>,
) -> Result<(), B::Error> {
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    app.sync_list_geometry();
    terminal
        .draw(|frame| frame.render_stateful_widget(Screen { app }, frame.area(), view_state))?;
    app.clamp_detail_scroll(view_state.scroll_max);
    Ok(())
}
