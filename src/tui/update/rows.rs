//! The packet list's rows as state changes: a built list shown (the selection kept), a
//! group folded or unfolded in place (no list build at any size), a packet selected.

use crate::tui::state::app::{App, Discarded};
use crate::tui::state::list_rows::{
    group_key, group_label, group_row, AppendedRows, BuiltList, GroupHeader, ListRow,
};

/// Shows a built list, keeping the selected packet (by index: a build covers the packets
/// loaded when it started, which keep their indices until they are replaced) or folded
/// group, else the packet to select again after a reload.
pub fn apply_list(app: &mut App, mut built: BuiltList) {
    let keep = match built.spliced.take() {
        // The packets change under the rows: the selected one is found by where it went.
        Some(spliced) => app.swap_in(*spliced),
        None => app.selected_packet(),
    };
    let keep_group = app.selected_group_label();
    // A million rows take tens of milliseconds to free: not here.
    let rows = std::mem::replace(&mut app.list.rows, built.rows);
    let listed = std::mem::replace(&mut app.list.listed, built.listed);
    app.discard(Discarded::Rows(rows, listed));
    app.list.visible_packets = built.visible_packets;
    app.list.filter = built.filter;
    app.list.built_mode = built.mode;
    app.list.built_over = built.packets;
    app.list.group_keys = built.group_keys;
    app.bundles = built.bundles;
    if built.folded != app.list.folded {
        refold(app);
    }
    let unfolded = app.list.folded.is_empty();
    let group_starts = built.group_starts;
    let row_of = |packet: usize| {
        if unfolded {
            // Every group open: a packet's row is its place in `listed` plus the headers
            // of its group and those before (`listed` is a tenth of the rows' bytes).
            let at = app.list.listed.iter().position(|index| *index == packet)?;
            let group = group_starts.partition_point(|start| *start <= at);
            return Some(at + group);
        }
        app.list
            .rows
            .iter()
            .position(|row| *row == ListRow::Packet(packet))
    };
    let found = keep.and_then(row_of);
    let found_group = keep_group.and_then(|wanted| {
        app.list.rows.iter().position(
            |row| matches!(row, ListRow::Group(group) if group.folded && group.label == wanted),
        )
    });
    let reselected = built.reselected.and_then(row_of);
    if reselected.is_some() {
        app.reselect = None;
    }
    app.list.selected = match found.or(found_group).or(reselected) {
        Some(row) => row,
        None => app
            .first_packet_row_from(
                app.list.selected.min(app.list.rows.len().saturating_sub(1)),
                true,
            )
            .unwrap_or(0),
    };
    app.refresh_detail();
}

/// Puts in the rows of packets loaded after those the list was built over: a group the list
/// has takes them after its own (its header recounted in place), a new one goes where its key
/// sorts. Packets arrive in walk order, so most go at the end and no row moves; rows after
/// an insertion move down, and the selection with them. An empty list selects its first
/// packet. False (nothing changed) when the rows are not the groups they were built with.
pub fn append_list(app: &mut App, appended: AppendedRows) -> bool {
    // Where each group goes, found before anything changes: its key's place among the
    // groups, its header's row (hopping header to header) and where its packets start in
    // `listed`.
    let Some(places) = group_places(app) else {
        return false;
    };
    app.bundles.extend(appended.bundles);
    // From the last group back, so the places found before stay true.
    for group in appended.groups.into_iter().rev() {
        let list = &mut app.list;
        let at = list.group_keys.binary_search(&group.key);
        let (place, exists) = match at {
            Ok(at) => (at, true),
            Err(at) => (at, false),
        };
        let inserted = group.members.len();
        let Place { row, listed_from } = places[place];
        let (row, listed_at, shown) = if exists {
            let Some(ListRow::Group(header)) = list.rows.get_mut(row) else {
                continue;
            };
            let GroupHeader {
                count,
                failing,
                folded,
                ..
            } = &mut **header;
            let at = (
                row + 1 + if *folded { 0 } else { *count },
                listed_from + *count,
            );
            *count += inserted;
            for (failing, more) in failing.iter_mut().zip(group.failing) {
                *failing += more;
            }
            (at.0, at.1, !*folded)
        } else {
            let header = group_row(&group, &list.folded, &app.bundles);
            let shown = !header.group().is_some_and(|group| group.folded);
            list.rows.insert(row, header);
            list.group_keys.insert(place, group.key.clone());
            shift_selection(list, row, 1);
            (row + 1, listed_from, shown)
        };
        if shown {
            list.visible_packets += inserted;
            list.rows
                .splice(row..row, group.members.iter().copied().map(ListRow::Packet));
            shift_selection(list, row, inserted);
        }
        list.listed.splice(listed_at..listed_at, group.members);
    }
    app.list.built_over = appended.packets;
    if appended.reselected.is_some() {
        app.reselect = None;
    }
    let selectable = app
        .list
        .rows
        .get(app.list.selected)
        .is_some_and(ListRow::is_selectable);
    if !selectable {
        let reselected = appended.reselected.and_then(|packet| {
            app.list
                .rows
                .iter()
                .position(|row| *row == ListRow::Packet(packet))
        });
        app.list.selected = reselected
            .or_else(|| app.first_packet_row_from(0, true))
            .unwrap_or(0);
    }
    app.refresh_detail();
    true
}

/// Where a group's rows begin: its header's row, and where its packets start in `listed`.
#[derive(Clone, Copy)]
struct Place {
    row: usize,
    listed_from: usize,
}

/// The place of each group of the list, and one past the last (where a group sorting after
/// every one goes); `None` when the rows are not the groups `group_keys` names.
fn group_places(app: &App) -> Option<Vec<Place>> {
    let list = &app.list;
    let mut places = Vec::with_capacity(list.group_keys.len() + 1);
    let (mut row, mut listed_from) = (0, 0);
    for _ in &list.group_keys {
        places.push(Place { row, listed_from });
        let group = list.rows.get(row)?.group()?;
        row += 1 + if group.folded { 0 } else { group.count };
        listed_from += group.count;
    }
    (row == list.rows.len() && listed_from == list.listed.len()).then_some(())?;
    places.push(Place { row, listed_from });
    Some(places)
}

/// Rows put in at `row` move the selection down when it is at or after them.
fn shift_selection(list: &mut crate::tui::state::app::ListState, row: usize, inserted: usize) {
    if !list.rows.is_empty() && list.selected >= row && list.rows.len() > inserted {
        list.selected += inserted;
    }
}

/// Folds the selected packet's group (the selection moves to the group).
pub fn fold_selected_group(app: &mut App) {
    let Some(packet) = app.list.rows.get(app.list.selected) else {
        return;
    };
    if !matches!(packet, ListRow::Packet(_)) {
        return;
    }
    let Some(row) = app.list.rows[..app.list.selected]
        .iter()
        .rposition(|row| matches!(row, ListRow::Group(_)))
    else {
        return;
    };
    fold_group_at(app, row);
    app.list.selected = row;
    app.refresh_detail();
}

/// Unfolds the selected folded group and selects its first packet; false when the
/// selection is not a folded group.
pub fn unfold_selected_group(app: &mut App) -> bool {
    if app.selected_group_label().is_none() {
        return false;
    }
    let row = app.list.selected;
    unfold_group_at(app, row);
    app.list.selected = app.first_packet_row_from(row, true).unwrap_or(0);
    app.refresh_detail();
    true
}

/// Folds the group at `row` in place: its packet rows go (no list build at any size).
fn fold_group_at(app: &mut App, row: usize) {
    let rows = &mut app.list.rows;
    let end = rows[row + 1..]
        .iter()
        .position(|row| matches!(row, ListRow::Group(_)))
        .map_or(rows.len(), |at| row + 1 + at);
    if let Some(ListRow::Group(group)) = rows.get_mut(row) {
        group.folded = true;
        app.list.folded.insert(group.label.clone());
    }
    rows.drain(row + 1..end);
    app.list.visible_packets -= end - row - 1;
}

/// Unfolds the folded group at `row` in place: its listed packets come back after it.
fn unfold_group_at(app: &mut App, row: usize) {
    // `listed` holds every group's packets in row order, folded ones included.
    let start: usize = app.list.rows[..row]
        .iter()
        .map(|row| match row {
            ListRow::Group(group) => group.count,
            ListRow::Packet(_) => 0,
        })
        .sum();
    let Some(ListRow::Group(group)) = app.list.rows.get_mut(row) else {
        return;
    };
    if !group.folded {
        return;
    }
    group.folded = false;
    let count = group.count;
    app.list.folded.remove(group.label.as_str());
    let members = app.list.listed[start..start + count]
        .iter()
        .map(|index| ListRow::Packet(*index));
    app.list.rows.splice(row + 1..row + 1, members);
    app.list.visible_packets += count;
}

/// Folds and unfolds the groups of freshly built rows as `folded` says now (a group
/// folded or unfolded while the build ran).
fn refold(app: &mut App) {
    let changed: Vec<String> = app
        .list
        .rows
        .iter()
        .filter_map(|row| match row {
            ListRow::Group(group) if group.folded != app.list.folded.contains(&group.label) => {
                Some(group.label.clone())
            }
            _ => None,
        })
        .collect();
    for label in changed {
        let Some(row) = app.group_row(&label) else {
            continue;
        };
        if app.list.folded.contains(&label) {
            fold_group_at(app, row);
        } else {
            // `unfold_group_at` forgets the label; this group is meant to be open.
            app.list.folded.insert(label);
            unfold_group_at(app, row);
        }
    }
}

/// Selects the packet from `source` if it is in the list; returns whether it is.
pub fn select_source(app: &mut App, source: &crate::corpus::Source) -> bool {
    let index = app.list.listed.iter().copied().find(|index| {
        app.packets
            .get(*index)
            .is_some_and(|check| check.source == *source)
    });
    index.is_some_and(|index| select_packet(app, index))
}

/// Selects packet `index` if it is in the list (unfolding its group); returns whether it is.
pub fn select_packet(app: &mut App, index: usize) -> bool {
    // A packet inside a folded group is shown by unfolding the group.
    let Some(check) = app.packets.get(index) else {
        return false;
    };
    let label = group_label(&group_key(&check.source));
    if app.list.folded.contains(&label) {
        if let Some(row) = app.group_row(&label) {
            unfold_group_at(app, row);
        }
    }
    let row = app
        .list
        .rows
        .iter()
        .position(|row| *row == ListRow::Packet(index));
    if let Some(row) = row {
        app.list.selected = row;
        app.refresh_detail();
    }
    row.is_some()
}
