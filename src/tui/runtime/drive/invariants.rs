//! What must hold after every step of the inspector, whatever happened before.

use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::app::{filter_choices, App, DigestsState, HandoffState, ListRow, Overlay};
use crate::tui::views::ViewState;

/// The state invariants every step must keep: the selection is a visible packet row, the list
/// scroll keeps it in view and stays inside the rows, the packets listed are those that pass
/// the filter in the mode shown, cursors and focus point at something.
pub fn check_invariants(app: &App) -> Result<(), String> {
    for (row, entry) in app.list.rows.iter().enumerate() {
        if let ListRow::Packet(index) = entry {
            if *index >= app.packets.len() {
                return Err(format!(
                    "row {row} names packet {index} of {}",
                    app.packets.len()
                ));
            }
        }
    }
    let packet_rows = app
        .list
        .rows
        .iter()
        .filter(|row| matches!(row, ListRow::Packet(_)))
        .count();
    if packet_rows != app.list.visible_packets {
        return Err(format!(
            "visible_packets is {} but {packet_rows} packet rows are listed",
            app.list.visible_packets
        ));
    }
    let selectable = app.list.rows.iter().any(ListRow::is_selectable);
    if selectable
        && !app
            .list
            .rows
            .get(app.list.selected)
            .is_some_and(ListRow::is_selectable)
    {
        return Err(format!(
            "selection {} is not a packet or folded group row ({} rows)",
            app.list.selected,
            app.list.rows.len()
        ));
    }
    let listed: usize = app
        .list
        .rows
        .iter()
        .map(|row| match row {
            ListRow::Group(group) => group.count,
            ListRow::Packet(_) => 0,
        })
        .sum();
    if listed != app.list.listed.len() {
        return Err(format!(
            "groups count {listed} packets but {} are listed",
            app.list.listed.len()
        ));
    }
    if packet_rows == 0 && app.selected_packet().is_some() {
        return Err("a packet is selected in an empty list".to_owned());
    }
    if !app.list.rows.is_empty() {
        let height = usize::from(app.list.area_height.max(1));
        if app.list.selected < app.list.offset || app.list.selected >= app.list.offset + height {
            return Err(format!(
                "selection {} outside the list view {}..{}",
                app.list.selected,
                app.list.offset,
                app.list.offset + height
            ));
        }
    }
    // Rows hidden above while blank rows show below: a filter left the list scrolled (the
    // group header and earlier matches off screen until G).
    let height = usize::from(app.list.area_height.max(1));
    if app.list.offset > app.list.rows.len().saturating_sub(height) {
        return Err(format!(
            "list scrolled to {} with {} rows in a view of {height}: rows hidden above, blanks below",
            app.list.offset,
            app.list.rows.len()
        ));
    }
    // Every listed packet passes the list's filter in the mode shown, once no build is under
    // way (one asked for by a filter, a mode switch or new packets lists them when it lands).
    if app.list.building.is_none() {
        let failing = app.list.listed.iter().find(|index| {
            app.packets
                .get(**index)
                .is_some_and(|packet| !app.list.filter.passes(packet, app.mode))
        });
        if let Some(index) = failing {
            return Err(format!(
                "packet {index} is listed but does not pass the filter {} in {} mode",
                app.list.filter.describe(),
                app.mode
            ));
        }
        // And every packet the rows were built over that passes is listed.
        let passing = (0..app.list.built_over.min(app.packets.len()))
            .filter(|index| app.list.filter.passes(&app.packets[*index], app.mode))
            .count();
        if passing != app.list.listed.len() {
            return Err(format!(
                "{passing} packets pass the filter {} in {} mode but {} are listed",
                app.list.filter.describe(),
                app.mode,
                app.list.listed.len()
            ));
        }
    }
    match (&app.detail, app.selected_packet()) {
        (Some(detail), Some(selected)) if detail.packet != selected => {
            return Err(format!(
                "detail shows packet {} but packet {selected} is selected",
                detail.packet
            ))
        }
        (Some(detail), None) => {
            return Err(format!(
                "detail shows packet {} with nothing selected",
                detail.packet
            ))
        }
        _ => {}
    }
    if let Some(run) = &app.search.running {
        if app.search.query.is_none() || run.generation != app.search.generation {
            return Err(format!(
                "search {} runs with query {:?} at generation {}",
                run.generation, app.search.query, app.search.generation
            ));
        }
        if run.scanned > run.total {
            return Err(format!("search scanned {} of {}", run.scanned, run.total));
        }
    }
    match &app.overlay {
        Some(Overlay::Filter { cursor }) if *cursor >= filter_choices().len() => {
            return Err(format!("filter cursor {cursor} past the menu"))
        }
        Some(Overlay::Review(review)) if review.position >= review.queue.len() => {
            return Err(format!(
                "review at {} of {} packets",
                review.position,
                review.queue.len()
            ))
        }
        _ => {}
    }
    if app.overlay.is_some() && app.search.input.is_some() {
        return Err("search input open under an overlay".to_owned());
    }
    if app.tabs.rules.cursor.0 >= COVERAGE_ROW_IDS.len() || app.tabs.rules.cursor.1 > 1 {
        return Err(format!(
            "rules cursor {:?} off the matrix",
            app.tabs.rules.cursor
        ));
    }
    if app.tabs.handoff.cursor >= HandoffState::LINES
        || app.tabs.digests.cursor >= DigestsState::LINES
    {
        return Err(format!(
            "detail cursor {:?} past its lines",
            (app.tabs.handoff.cursor, app.tabs.digests.cursor)
        ));
    }
    // Only a migration a view or key has run: checking must not run it (a big object's
    // migration is most of its detail's memory, and `render` checks after every key).
    if let Some(steps) = app
        .selected_detail()
        .and_then(|detail| detail.migration_if_run())
        .map(|migration| migration.steps.len())
    {
        if steps > 0 && app.tabs.migrate.cursor >= steps {
            return Err(format!(
                "migrate cursor {} past {steps} steps",
                app.tabs.migrate.cursor
            ));
        }
    }
    Ok(())
}

/// The detail scroll stays inside what the last frame drew.
pub(crate) fn check_scroll(app: &App, view: &ViewState) -> Result<(), String> {
    match view.scroll_max {
        Some(max) if app.tabs.scroll > max => Err(format!(
            "detail scrolled to {} past its content ({max})",
            app.tabs.scroll
        )),
        _ => Ok(()),
    }
}
