//! The lifecycle a handoff_message status belongs to: `_HANDOFF_TRANSITIONS` and the
//! completed trace.

use super::dataclass::lookup;
use super::quirk;
use crate::json::JsonPath;
use crate::profiles::options::ProfileOptions;
use crate::profiles::py;
use crate::profiles::report::ProfileReport;
use crate::profiles::rows::{clip, evidence, Rows};
use crate::rules::Verdict;
use serde_json::{Map, Value};

/// `_HANDOFF_TRANSITIONS`: the statuses each status may move to.
fn allowed_next(status: &str) -> Option<&'static [&'static str]> {
    match status {
        "pending" => Some(&["accepted", "rejected", "cancelled"]),
        "accepted" => Some(&["in_progress", "cancelled"]),
        "in_progress" | "input_required" => Some(match status {
            "in_progress" => &["input_required", "completed", "failed", "cancelled"],
            _ => &["in_progress", "completed", "failed", "cancelled"],
        }),
        "completed" | "failed" | "timeout" | "cancelled" | "rejected" => Some(&[]),
        _ => None,
    }
}

pub(super) fn check_transition(
    status: Option<&Value>,
    path: &JsonPath,
    root: &Value,
    options: &ProfileOptions,
    rows: &mut Rows,
    report: &mut ProfileReport,
) {
    let Some(previous) = options.previous_status.as_deref() else {
        rows.mark(
            "CC-11",
            Verdict::NotApplicable,
            None,
            "one snapshot shows no transition; give an earlier snapshot (--previous) to check one",
        );
        return;
    };
    let current = match status {
        None => "pending",
        Some(Value::String(text)) => text.as_str(),
        Some(_) => {
            rows.warn(
                "CC-11",
                evidence(path, root),
                "status is not a string; no transition to check",
            );
            return;
        }
    };
    let shown = format!("{} -> {}", clip(previous), clip(current));
    if previous == current {
        rows.pass("CC-11", evidence(path, root));
        return;
    }
    match allowed_next(previous) {
        None => rows.warn(
            "CC-11",
            evidence(path, root),
            format!("{shown}: the earlier status is not a ContextCore status"),
        ),
        Some(allowed) if allowed.contains(&current) => rows.pass("CC-11", evidence(path, root)),
        Some(_) => {
            rows.warn(
                "CC-11",
                evidence(path, root),
                format!(
                    "{shown} is not in _HANDOFF_TRANSITIONS (advisory; never enforced upstream)"
                ),
            );
            if current == "timeout" {
                report.quirk(
                    quirk("cc-timeout-outside-table"),
                    path.clone(),
                    format!("{shown}: timeout is set by the caller, never by a listed transition"),
                );
            } else if previous == "accepted" && current == "completed" {
                report.quirk(
                    quirk("cc-transitions-advisory"),
                    path.clone(),
                    format!("{shown}: the doc's own flow (accept, then complete) does this"),
                );
            }
        }
    }
}

pub(super) fn check_completed_trace(
    map: &Map<String, Value>,
    status: Option<&Value>,
    trace_names: &[&'static str],
    root: &Value,
    rows: &mut Rows,
) {
    if status.and_then(Value::as_str) != Some("completed") {
        rows.mark(
            "CC-13",
            Verdict::NotApplicable,
            None,
            "status is not completed",
        );
        return;
    }
    let (name, trace) = lookup(map, trace_names).unwrap_or((trace_names[0], &Value::Null));
    let path = JsonPath::root().key(name);
    if py::str_or_empty_stripped(Some(trace)).is_empty() {
        rows.warn(
            "CC-13",
            evidence(&path, root),
            format!("status is completed but {name} is missing or empty (complete() requires it; not checked upstream)"),
        );
    } else {
        rows.pass("CC-13", evidence(&path, root));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transition_table_matches_the_source() {
        assert_eq!(
            allowed_next("pending"),
            Some(&["accepted", "rejected", "cancelled"][..])
        );
        assert_eq!(allowed_next("input_required").map(|a| a.len()), Some(4));
        assert_eq!(allowed_next("timeout"), Some(&[][..]));
        assert_eq!(allowed_next("expired"), None);
    }
}
