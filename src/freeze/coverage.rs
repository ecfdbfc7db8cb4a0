//! Which cells of the K1-A coverage matrix (row x mode) no packet can ever exercise, and why.
//! These follow from the rows' own definitions and the adapter's strict rejections; the
//! property test `unreachable_cells_are_never_matched` holds the converter to them.

use crate::a2a::Mode;

/// (row, mode, why no packet can reach it).
pub static UNREACHABLE_CELLS: [(&str, Mode, &str); 5] = [
    (
        "SYN",
        Mode::Strict,
        "strict mode never substitutes: a task packet without task.id is rejected (S3)",
    ),
    (
        "N2",
        Mode::Strict,
        "strict mode rejects an unmapped event_type (S2) instead of falling back to a generic message",
    ),
    (
        "X2",
        Mode::Strict,
        "the generic message event only comes from the lenient fallback; strict rejects it (S2)",
    ),
    (
        "N3",
        Mode::Lenient,
        "N3 is the strict-mode rejection by definition; lenient substitutes unknown-task (N4)",
    ),
    (
        "N4",
        Mode::Strict,
        "N4 is the lenient-mode case by definition; strict rejects the packet (N3)",
    ),
];

/// Why the cell (row, mode) is unreachable, or `None` when a packet can exercise it.
pub fn unreachable_reason(row: &str, mode: Mode) -> Option<&'static str> {
    UNREACHABLE_CELLS
        .iter()
        .find(|(id, cell_mode, _)| *id == row && *cell_mode == mode)
        .map(|(_, _, reason)| *reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::COVERAGE_ROW_IDS;

    #[test]
    fn cells_name_real_rows() {
        for (id, _, _) in UNREACHABLE_CELLS {
            assert!(COVERAGE_ROW_IDS.contains(&id), "{id}");
        }
        assert!(unreachable_reason("N3", Mode::Lenient).is_some());
        assert!(unreachable_reason("N3", Mode::Strict).is_none());
    }
}
