//! The other handoff formats beside the A2A seam: the master/sub handoff record (AHC-*), the
//! three ContextCore shapes (CC-*) and the UAIX `uai.agent.handoff.v1` envelope (UAIX-*).
//!
//! Each profile keeps its rule table as `static` data ([`AHC_TABLE`], [`CC_TABLE`],
//! [`UAIX_TABLE`]); the evaluators only decide verdicts and collect evidence. Entry points:
//! [`detect`] (which profile a JSON value is shaped like, and why), [`evaluate`] (every row of
//! that profile's table evaluated on one packet) and [`crosswalk`] (which field of each format
//! plays each role of the A2A handoff seam).

mod ahc;
mod contextcore;
mod crosswalk;
mod detect;
mod options;
mod py;
mod py_dates;
mod py_printable;
mod py_source;
mod quirk;
mod report;
mod rows;
mod uaix;

pub use ahc::{AHC_QUIRKS, AHC_TABLE, AHC_VIOLATIONS_TABLE};
pub use contextcore::mapping::{
    otel_mapping_rows, state_mapping_rows, MappingBasis, OtelAttribute, OtelMappingRow,
    StateMapping, StateMappingRow,
};
pub use contextcore::{CC_QUIRKS, CC_TABLE};
pub use crosswalk::{
    crosswalk, seam_roles, CrosswalkCell, Expressibility, FormatColumn, SeamRole, SeamValue,
};
pub use detect::{detect, ProfileDetection, ProfileKind};
pub use options::{AhcVersion, ProfileOptions};
pub use quirk::Quirk;
pub use report::{
    ContextCoreView, IntegrityCheck, ProfileReport, QuirkNote, UaixView, VerdictCounts,
};
pub use uaix::{UAIX_NOTES, UAIX_TABLE};

use crate::rules::{RuleRow, RuleTable};
use serde_json::Value;
use std::path::Path;

/// Every rule table of this module, in display order.
pub fn tables() -> [&'static RuleTable; 4] {
    [&AHC_TABLE, &AHC_VIOLATIONS_TABLE, &CC_TABLE, &UAIX_TABLE]
}

/// The row with this id in any profile table.
pub fn rule_row(id: &str) -> Option<&'static RuleRow> {
    tables().into_iter().find_map(|table| table.row(id))
}

/// Detects (or takes from `options.force`) the profile of `value` and evaluates every row of
/// its table. An unrecognised value gives a report with no profile and one finding.
pub fn evaluate(
    value: &Value,
    raw_bytes: &[u8],
    source_path: Option<&Path>,
    options: &ProfileOptions,
) -> ProfileReport {
    let detection = match options.force {
        Some(kind) => Some(ProfileDetection::forced(kind)),
        None => detect(value),
    };
    let mut report = match detection {
        None => ProfileReport::unrecognised(source_path),
        Some(detection) => {
            let mut report = ProfileReport::new(detection.clone(), source_path);
            report.seam = crosswalk::seam_values(detection.kind, value);
            match detection.kind {
                ProfileKind::Ahc => ahc::evaluate(value, source_path, options, &mut report),
                ProfileKind::CcMsg | ProfileKind::CcContract | ProfileKind::CcStore => {
                    contextcore::evaluate(value, raw_bytes, detection.kind, options, &mut report)
                }
                ProfileKind::Uaix => uaix::evaluate(value, options, &mut report),
            }
            report
        }
    };
    report.note_duplicate_keys(raw_bytes);
    report
}

/// [`evaluate`] on JSON whose root is not an object, read without its tree (see
/// `json::read_root`): no profile is detected on one, so the report is the one `evaluate`
/// gives an unrecognised packet. `None` when a profile is forced: its rows read the tree.
pub fn evaluate_not_an_object(
    raw_bytes: &[u8],
    source_path: Option<&Path>,
    options: &ProfileOptions,
) -> Option<ProfileReport> {
    if options.force.is_some() {
        return None;
    }
    let mut report = ProfileReport::unrecognised(source_path);
    report.note_duplicate_keys(raw_bytes);
    Some(report)
}

/// The report for bytes that are not JSON. Only the master/sub profile has a row for that
/// (AHC-01), so `--as ahc` gives an AHC report; otherwise the report has no profile and one
/// `PARSE` finding.
pub fn evaluate_unparsable(
    parse_error: &str,
    source_path: Option<&Path>,
    options: &ProfileOptions,
) -> ProfileReport {
    match options.force {
        Some(ProfileKind::Ahc) => {
            let mut report =
                ProfileReport::new(ProfileDetection::forced(ProfileKind::Ahc), source_path);
            ahc::invalid_json(parse_error, source_path, options, &mut report);
            report
        }
        _ => ProfileReport::without_profile(
            source_path,
            "PARSE",
            format!("not JSON: {}", rows::clip(parse_error)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// An array or a scalar gets, without its tree, the report its tree would give.
    #[test]
    fn a_root_that_is_not_an_object_is_reported_as_its_tree_would_be() {
        let options = ProfileOptions::default();
        for text in [r#"[{"a":1,"a":2},{"b":1}]"#, "3", r#""x""#, "null", "[]"] {
            let value: Value = serde_json::from_str(text).unwrap();
            let with_tree = evaluate(&value, text.as_bytes(), None, &options);
            let without = evaluate_not_an_object(text.as_bytes(), None, &options).unwrap();
            assert_eq!(
                serde_json::to_value(&without).unwrap(),
                serde_json::to_value(&with_tree).unwrap(),
                "{text}"
            );
        }
        let forced = ProfileOptions {
            force: Some(ProfileKind::Ahc),
            ..ProfileOptions::default()
        };
        assert!(evaluate_not_an_object(b"[]", None, &forced).is_none());
    }

    #[test]
    fn row_ids_are_unique_across_profile_tables() {
        let mut seen = HashSet::new();
        for table in tables() {
            for row in table.rows {
                assert!(seen.insert(row.id), "duplicate row id {}", row.id);
            }
        }
    }

    #[test]
    fn tables_have_the_ids_the_issue_names() {
        let ids = |table: &RuleTable| table.rows.iter().map(|r| r.id).collect::<Vec<_>>();
        let expect = |prefix: &str, n: usize| {
            (1..=n)
                .map(|i| format!("{prefix}-{i:02}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&AHC_TABLE), expect("AHC", 16));
        // CC-15 is the storage reader's row the spec's §2.5 note describes (from_dict raises,
        // the store skips the record) after its table's CC-01..CC-14.
        assert_eq!(ids(&CC_TABLE), expect("CC", 15));
        assert_eq!(ids(&UAIX_TABLE), expect("UAIX", 12));
    }

    #[test]
    fn every_row_says_what_a_pass_must_not_imply() {
        for table in tables() {
            for row in table.rows {
                assert!(
                    !row.must_not_imply.is_empty(),
                    "{} lacks must_not_imply",
                    row.id
                );
                assert!(!row.source.is_empty(), "{} lacks a source", row.id);
            }
        }
    }
}
