//! The cross-format view as text: for the A2A adapter seam and each other handoff format,
//! which field plays each A2A-seam role. Shared by `formats` and the TUI's Formats tab.

use crate::profiles::{crosswalk, seam_roles, CrosswalkCell, Expressibility};

fn cell_text(cell: &CrosswalkCell) -> String {
    match (cell.expressibility, cell.field) {
        (Expressibility::Field, Some(field)) => field.to_owned(),
        (Expressibility::Partial, Some(field)) => format!("~{field}"),
        _ => "-".to_owned(),
    }
}

/// The table as lines: one row per role, one column per format, then the notes.
pub fn table_lines() -> Vec<String> {
    let columns = crosswalk();
    let roles = seam_roles();
    let mut grid: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["role".to_owned()];
    header.extend(columns.iter().map(|c| c.id.to_owned()));
    grid.push(header);
    for (index, role) in roles.iter().enumerate() {
        let mut row = vec![role.label().to_owned()];
        row.extend(
            columns
                .iter()
                .map(|c| c.cells.get(index).map(cell_text).unwrap_or_default()),
        );
        grid.push(row);
    }
    let widths: Vec<usize> = (0..=columns.len())
        .map(|col| {
            grid.iter()
                .map(|row| row.get(col).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut lines: Vec<String> = grid
        .iter()
        .map(|row| {
            row.iter()
                .zip(&widths)
                .map(|(cell, width)| format!("{cell:<width$}"))
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_owned()
        })
        .collect();
    if let Some(rule) = widths.iter().sum::<usize>().checked_add(2 * columns.len()) {
        lines.insert(1, "-".repeat(rule));
    }
    lines.push(String::new());
    lines
        .push("~field: comes close but means something else (see notes); -: cannot express".into());
    lines.push(String::new());
    for column in columns {
        lines.push(format!("{} = {}: {}", column.id, column.name, column.note));
        for cell in &column.cells {
            if !cell.note.is_empty() {
                lines.push(format!("  {}: {}", cell.role.label(), cell.note));
            }
        }
    }
    lines
}
