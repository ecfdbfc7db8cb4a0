//! Evaluates a ContextCore handoff in whichever of its three shapes it came: the closed
//! HandoffContract schema (CC-CONTRACT), the doc's handoff_message (CC-MSG, no schema) and the
//! camelCase storage record (CC-STORE). Adds the status mapping and OTel attributes.

mod contract;
mod dataclass;
mod lifecycle;
pub(super) mod mapping;
mod table;

use super::detect::ProfileKind;
use super::options::ProfileOptions;
use super::py;
use super::py_dates;
use super::py_source::PySource;
use super::report::{ContextCoreView, ProfileReport};
use super::rows::{clip, evidence, whole_packet, Rows};
use crate::json::JsonPath;
use crate::rules::Verdict;
use dataclass::check_message_like;
use mapping::{otel_attributes, state_mapping};
use serde_json::Value;

pub use table::{CC_QUIRKS, CC_TABLE};

pub(super) fn quirk(id: &str) -> &'static super::quirk::Quirk {
    CC_QUIRKS
        .iter()
        .find(|q| q.id == id)
        .unwrap_or(&CC_QUIRKS[0])
}

/// Evaluates `value`, whose document text is `raw_bytes` (the messages show values from it,
/// as Python's `json` read them).
pub(crate) fn evaluate(
    value: &Value,
    raw_bytes: &[u8],
    kind: ProfileKind,
    options: &ProfileOptions,
    report: &mut ProfileReport,
) {
    let source = PySource::new(raw_bytes, value);
    let mut rows = Rows::new(&CC_TABLE);
    let mut view = ContextCoreView {
        state: Some(state_mapping(kind, value)),
        otel: otel_attributes(kind, value),
        schema_errors: Vec::new(),
    };
    match kind {
        ProfileKind::CcContract => view.schema_errors = check_contract(&source, &mut rows),
        ProfileKind::CcStore => check_message_like(&source, kind, options, &mut rows, report),
        _ => check_message_like(&source, ProfileKind::CcMsg, options, &mut rows, report),
    }
    if let Some(state) = &view.state {
        if state.silent_fallback {
            report.quirk(
                quirk("cc-unknown-state-fallback"),
                state.path.clone(),
                state.note.clone(),
            );
        }
    }
    let shape = match kind {
        ProfileKind::CcContract => "CC-CONTRACT",
        ProfileKind::CcStore => "CC-STORE",
        _ => "CC-MSG",
    };
    rows.mark_untouched(
        Verdict::NotApplicable,
        &format!("does not apply to the {shape} shape"),
    );
    let (outcomes, findings) = rows.finish();
    report.contextcore = Some(view);
    report.absorb(outcomes, findings);
}

fn check_contract(source: &PySource, rows: &mut Rows) -> Vec<super::report::SchemaError> {
    let value = source.root();
    let errors = contract::validate_source(source);
    for error in &errors {
        let paths = if error.paths.is_empty() {
            vec![JsonPath::root()]
        } else {
            error.paths.clone()
        };
        for path in paths {
            rows.fail(
                error.rule,
                evidence(&path, value),
                format!(
                    "{} at {}: {}",
                    error.error_code, error.failed_path, error.message
                ),
            );
        }
    }
    for rule in ["CC-01", "CC-02", "CC-03", "CC-04", "CC-05", "CC-06"] {
        if rows.verdict(rule).is_none() {
            rows.pass(rule, whole_packet());
        }
    }
    check_contract_dates(value, rows);
    if errors.is_empty() {
        rows.pass("CC-08", whole_packet());
    } else {
        rows.fail("CC-08", whole_packet(), contract::boundary_message(&errors));
    }
    for rule in ["CC-09", "CC-10", "CC-11", "CC-12", "CC-13", "CC-14"] {
        rows.mark(
            rule,
            Verdict::NotApplicable,
            None,
            "does not apply to the CC-CONTRACT shape",
        );
    }
    errors
}

fn check_contract_dates(value: &Value, rows: &mut Rows) {
    for key in ["created_at", "deadline"] {
        let path = JsonPath::root().key(key);
        match path.lookup(value) {
            None => {}
            Some(Value::String(text))
                if chrono::DateTime::parse_from_rfc3339(text).is_err()
                    || py_dates::pydantic_datetime(text).is_err() =>
            {
                let rfc3339 = if chrono::DateTime::parse_from_rfc3339(text).is_ok() {
                    "is RFC 3339"
                } else {
                    "is not an RFC 3339 date-time"
                };
                let pydantic = match py_dates::pydantic_datetime(text) {
                    Ok(()) => "the Pydantic model accepts it too".to_owned(),
                    Err(why) => format!("the Pydantic model rejects it ({why})"),
                };
                rows.warn(
                    "CC-07",
                    evidence(&path, value),
                    format!(
                        "{key} {} {rfc3339}: the schema path accepts it (no FormatChecker); {pydantic}",
                        py::repr_str(&clip(text))
                    ),
                )
            }
            Some(_) => rows.mark(
                "CC-07",
                Verdict::NotChecked,
                Some(evidence(&path, value)),
                "date-time format is not enforced upstream (no FormatChecker)",
            ),
        }
    }
    if rows.verdict("CC-07").is_none() {
        rows.mark(
            "CC-07",
            Verdict::NotApplicable,
            None,
            "no created_at or deadline",
        );
    }
}
