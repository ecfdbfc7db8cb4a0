//! `handoff-inspector formats`: the cross-format view. For the A2A adapter seam and each
//! other handoff format, which field plays each role of the A2A handoff seam, side by side.

use super::output::{CliError, Exit, Output};
use super::profile::{print_json, Format};
use crate::profiles::{crosswalk, seam_roles, CrosswalkCell, Expressibility};

#[derive(Debug, clap::Args)]
#[command(
    about = "Show which field of each handoff format plays each A2A handoff-seam role",
    long_about = "For the A2A adapter seam (K1-A v1) and each other handoff format (master/sub \
                  record, ContextCore CC-MSG / CC-CONTRACT / CC-STORE, UAIX \
                  uai.agent.handoff.v1): the field that plays each role of the A2A handoff seam \
                  (task reference, message or handoff id, from agent, to agent, reason, next \
                  action), or that the format cannot express it."
)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

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

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    match args.format {
        Format::Text => {
            for line in table_lines() {
                output.line(&line);
            }
        }
        Format::Json => print_json(&crosswalk(), output)?,
    }
    Ok(Exit::Ok)
}
