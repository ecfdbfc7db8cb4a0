//! The coverage matrix's counts: which cells a packet counts in, kept as packets arrive and
//! leave.

use crate::a2a::Mode;
use crate::freeze::COVERAGE_ROW_IDS;
use crate::tui::state::app::App;
use crate::tui::state::listed::ListedPacket;

/// The coverage matrix cells (rule row, mode column) a packet counts in.
pub(crate) fn coverage_cells(summary: &ListedPacket) -> impl Iterator<Item = (usize, usize)> + '_ {
    Mode::BOTH
        .into_iter()
        .enumerate()
        .filter_map(|(column, mode)| Some((column, summary.mode(mode)?)))
        .flat_map(|(column, mode_summary)| {
            mode_summary.rows.ids().filter_map(move |id| {
                let row = COVERAGE_ROW_IDS.iter().position(|row| *row == id)?;
                Some((row, column))
            })
        })
}

impl App {
    pub(crate) fn count_coverage(&mut self, summary: &ListedPacket, delta: i64) {
        for (row, column) in coverage_cells(summary) {
            let cell = &mut self.coverage[row][column];
            *cell = (i64::from(*cell) + delta).max(0) as u32;
        }
    }
}
