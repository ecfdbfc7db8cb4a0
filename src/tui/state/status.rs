//! How the library's per-packet `Status` (the same verdict `check` gives) is shown in the list.

pub use crate::corpus::Status;

pub fn glyph(status: Status) -> &'static str {
    match status {
        Status::Conforms => "✓",
        Status::FailsAsRecorded => "⊘",
        Status::NotChecked => "·",
        Status::NoGolden => "○",
        Status::Finding => "!",
        Status::Mismatch => "≠",
        Status::Error => "✗",
    }
}

/// What each glyph says, for the help's legend and docs/inspector.md's (one definition for both).
pub fn meaning(status: Status) -> &'static str {
    match status {
        Status::Conforms => "everything recorded matched and nothing was found",
        Status::FailsAsRecorded => {
            "fails exactly as its golden records: an intentional negative (expected), not a pass"
        }
        Status::NotChecked => "nothing to evaluate: no known shape, or a bundle's non-A2A event",
        Status::NoGolden => "converted or evaluated, nothing recorded to compare with",
        Status::Finding => "fails: an audit, profile, migration or bundle check, or duplicate keys",
        Status::Mismatch => "fails: differs from its golden or paired expected payload",
        Status::Error => "fails: unreadable input, not JSON, or a manifest that cannot be used",
    }
}

/// The help's legend, three short lines: (prefix, statuses, suffix).
pub const LEGEND_ROWS: [(Option<&str>, &[Status], Option<&str>); 3] = [
    (
        None,
        &[Status::Conforms, Status::FailsAsRecorded],
        Some(" (expected)"),
    ),
    (
        Some("failing: "),
        &[Status::Finding, Status::Mismatch, Status::Error],
        None,
    ),
    (None, &[Status::NoGolden, Status::NotChecked], None),
];

/// How a list group's header reads (docs/inspector.md).
pub const GROUP_LEGEND: &str = "A group's header gives its packet count, then `· N failing` (packets whose status is failing in the mode shown); an evidence bundle's group adds upstream's verdict, `✓ verified` or `✗ ERROR-CODE`.";

/// The glyph table in docs/inspector.md, generated from the same definitions as the help's legend.
pub fn legend_markdown() -> String {
    let mut out = String::from("| glyph | status | meaning |\n|---|---|---|\n");
    for status in Status::ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            glyph(status),
            status.label(),
            meaning(status)
        ));
    }
    out.push('\n');
    out.push_str(GROUP_LEGEND);
    out.push('\n');
    out
}

/// Whether a status counts as failing in a group's count: something was found or differs, or
/// the input could not be read.
pub fn is_failing(status: Status) -> bool {
    matches!(status, Status::Finding | Status::Mismatch | Status::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_glyph_and_a_place_in_the_legend() {
        let glyphs: std::collections::HashSet<&str> =
            Status::ALL.iter().map(|s| glyph(*s)).collect();
        assert_eq!(glyphs.len(), Status::ALL.len());
        for status in Status::ALL {
            let rows = LEGEND_ROWS
                .iter()
                .filter(|row| row.1.contains(&status))
                .count();
            assert_eq!(rows, 1, "{status:?}");
        }
        assert_ne!(glyph(Status::FailsAsRecorded), glyph(Status::Conforms));
    }
}
