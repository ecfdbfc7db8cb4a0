//! Evaluates a master/sub handoff record the way `validate_agent_handoff_contract.py` does
//! (v1.0 by default, v1.2.7 on request), row by row, with the validator's exact messages.

mod artifact_rows;
mod artifacts;
mod follow_up;
mod table;

use super::options::{AhcVersion, ProfileOptions};
use super::py;
use super::report::ProfileReport;
use super::rows::{clip, evidence, Rows};
use crate::json::type_name;
use crate::json::JsonPath;
use crate::rules::{Evidence, Verdict};
use artifact_rows::check_artifacts;
use follow_up::{check_mutations, check_next_action, check_rulebook};
use serde_json::{Map, Value};
use std::path::Path;

pub use table::{AHC_QUIRKS, AHC_TABLE, AHC_VIOLATIONS_TABLE};

/// The mandatory keys, in the spec's order (the order of the missing-fields message).
const REQUIRED: [&str; 10] = [
    "handoff_id",
    "task_id",
    "from_agent",
    "to_agent",
    "input_scope",
    "actions_taken",
    "artifacts",
    "result",
    "next_action",
    "rulebook_update",
];
const RESULTS: [&str; 3] = ["PASS", "FAIL", "BLOCKED"];
pub(super) const FORBIDDEN_MUTATIONS: [&str; 4] = [
    "gates",
    "protocol_review_contract",
    "identity_update_lifecycle_contract",
    "trigger_regression_contract",
];
pub(super) const PLACEHOLDERS: [&str; 6] = ["todo", "tbd", "n/a", "none", "pending", "later"];

fn quirk(id: &str) -> &'static super::quirk::Quirk {
    AHC_QUIRKS
        .iter()
        .find(|q| q.id == id)
        .unwrap_or(&AHC_QUIRKS[0])
}

fn shown_path(source_path: Option<&Path>) -> String {
    source_path
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "<packet>".into())
}

pub(super) struct Context<'a> {
    pub(super) root: &'a Value,
    pub(super) version: AhcVersion,
    pub(super) rows: Rows,
    pub(super) report: &'a mut ProfileReport,
}

impl Context<'_> {
    pub(super) fn ev(&self, path: &JsonPath) -> Evidence {
        evidence(path, self.root)
    }

    pub(super) fn v127(&self) -> bool {
        self.version == AhcVersion::V1_2_7
    }

    pub(super) fn quirk(&mut self, id: &str, path: JsonPath, detail: String) {
        self.report.quirk(quirk(id), path, detail);
    }
}

pub(crate) fn evaluate(
    value: &Value,
    source_path: Option<&Path>,
    options: &ProfileOptions,
    report: &mut ProfileReport,
) {
    report.profile_version = Some(options.profile_version.label());
    let mut cx = Context {
        root: value,
        version: options.profile_version,
        rows: Rows::new(&AHC_TABLE),
        report,
    };
    let shown = shown_path(source_path);
    match value.as_object() {
        Some(map) => check_record(&mut cx, map, source_path, options),
        None => check_non_object_root(&mut cx, &shown),
    }
    finish(cx);
}

/// Bytes that are not JSON: AHC-01 fails and nothing else runs.
pub(crate) fn invalid_json(
    parse_error: &str,
    source_path: Option<&Path>,
    options: &ProfileOptions,
    report: &mut ProfileReport,
) {
    report.profile_version = Some(options.profile_version.label());
    let mut cx = Context {
        root: &Value::Null,
        version: options.profile_version,
        rows: Rows::new(&AHC_TABLE),
        report,
    };
    let shown = shown_path(source_path);
    cx.rows.fail(
        "AHC-01",
        Evidence {
            path: JsonPath::root(),
            seen: Some(Value::String("<not JSON>".into())),
        },
        format!("invalid handoff json {shown}: {}", clip(parse_error)),
    );
    cx.rows.mark_untouched(
        Verdict::NotApplicable,
        "not evaluated: the file is not JSON (the parser's wording differs from Python's)",
    );
    finish(cx);
}

fn check_non_object_root(cx: &mut Context, shown: &str) {
    let root = JsonPath::root();
    let kind = type_name(cx.root);
    if cx.v127() {
        cx.rows.fail(
            "AHC-01",
            cx.ev(&root),
            format!("invalid handoff json {shown}: JSON root must be object: {shown}"),
        );
        cx.rows.mark_untouched(
            Verdict::NotApplicable,
            "not evaluated: the v1.2.7 validator stops at a non-object root",
        );
        cx.quirk(
            "ahc-root-not-object",
            root,
            format!("the root is {kind}; v1.2.7 rejects it as not an object"),
        );
        return;
    }
    cx.rows.pass("AHC-01", cx.ev(&root));
    cx.rows.fail(
        "AHC-02",
        cx.ev(&root),
        format!("missing required fields: {}", py::repr_str_list(REQUIRED)),
    );
    cx.rows.mark_untouched(
        Verdict::NotApplicable,
        "not evaluated: the validator stops after missing required fields",
    );
    let detail = match cx.root {
        Value::Array(_) => "the root is an array; v1.0 reports all 10 fields missing".to_owned(),
        Value::String(_) => "the root is a string; v1.0 would test `key in text` as substrings; reported here as all 10 fields missing".to_owned(),
        _ => format!("the root is {kind}; the v1.0 validator would stop with a Python TypeError; reported here as all 10 fields missing"),
    };
    cx.quirk("ahc-root-not-object", root, detail);
}

fn check_record(
    cx: &mut Context,
    map: &Map<String, Value>,
    source_path: Option<&Path>,
    options: &ProfileOptions,
) {
    let root = JsonPath::root();
    cx.rows.pass("AHC-01", cx.ev(&root));
    let missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|key| !map.contains_key(*key))
        .collect();
    if !missing.is_empty() {
        let message = format!(
            "missing required fields: {}",
            py::repr_str_list(missing.iter().copied())
        );
        for key in &missing {
            cx.rows
                .fail("AHC-02", cx.ev(&root.key(key)), message.clone());
        }
        cx.rows.mark_untouched(
            Verdict::NotApplicable,
            "not evaluated: the validator stops after missing required fields",
        );
        cx.quirk(
            "ahc-early-return",
            root,
            format!(
                "{} mandatory key(s) absent; no other check ran",
                missing.len()
            ),
        );
        return;
    }
    cx.rows.pass("AHC-02", cx.ev(&root));
    note_presence_only(cx, map);
    check_result(cx, map);
    check_actions(cx, map);
    check_artifacts(cx, map, source_path, options);
    check_next_action(cx, map);
    check_mutations(cx, map);
    check_rulebook(cx, map);
}

fn note_presence_only(cx: &mut Context, map: &Map<String, Value>) {
    for key in [
        "handoff_id",
        "task_id",
        "from_agent",
        "to_agent",
        "input_scope",
    ] {
        let value = map.get(key).unwrap_or(&Value::Null);
        if py::str_or_empty_stripped(Some(value)).is_empty() {
            cx.quirk(
                "ahc-presence-only",
                JsonPath::root().key(key),
                format!(
                    "{key} is {}; presence is all that is checked",
                    py::repr(value)
                ),
            );
        }
    }
}

fn check_result(cx: &mut Context, map: &Map<String, Value>) {
    let path = JsonPath::root().key("result");
    match map.get("result").and_then(Value::as_str) {
        Some(result) if RESULTS.contains(&result) => cx.rows.pass("AHC-03", cx.ev(&path)),
        _ => cx.rows.fail(
            "AHC-03",
            cx.ev(&path),
            "result must be one of ['BLOCKED', 'FAIL', 'PASS']",
        ),
    }
}

fn check_actions(cx: &mut Context, map: &Map<String, Value>) {
    let path = JsonPath::root().key("actions_taken");
    match map.get("actions_taken").and_then(Value::as_array) {
        Some(items) if !items.is_empty() => cx.rows.pass("AHC-04", cx.ev(&path)),
        _ => cx.rows.fail(
            "AHC-04",
            cx.ev(&path),
            "actions_taken must be non-empty array",
        ),
    }
}

/// Turns the rows into outcomes, then derives the four contract-violation rows from them.
fn finish(cx: Context) {
    let Context {
        rows, report, root, ..
    } = cx;
    let (outcomes, findings) = rows.finish();
    let worst = |ids: &[&str]| {
        outcomes
            .iter()
            .filter(|o| ids.contains(&o.rule))
            .map(|o| o.verdict)
            .max_by_key(|v| super::rows::strength(*v))
            .unwrap_or(Verdict::NotApplicable)
    };
    let derived = [
        ("V1", worst(&["AHC-13"]), "follows AHC-13"),
        (
            "V2",
            worst(&["AHC-05", "AHC-07", "AHC-08", "AHC-09"]),
            "follows AHC-05, AHC-07, AHC-08, AHC-09",
        ),
        (
            "V3",
            worst(&["AHC-10", "AHC-11", "AHC-12"]),
            "follows AHC-10, AHC-11, AHC-12",
        ),
    ];
    let mut violations: Vec<crate::rules::RuleOutcome> = derived
        .into_iter()
        .map(|(rule, verdict, message)| crate::rules::RuleOutcome {
            rule,
            verdict,
            evidence: Vec::new(),
            message: Some(message.into()),
        })
        .collect();
    violations.push(crate::rules::RuleOutcome {
        rule: "V4",
        verdict: Verdict::NotChecked,
        evidence: vec![evidence(&JsonPath::root().key("result"), root)],
        message: Some(
            "not machine-checked: whether the result contradicts the artifacts is for a reviewer"
                .into(),
        ),
    });
    report.absorb(outcomes, findings);
    report.absorb(violations, Vec::new());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse() {
        assert_eq!("1.0".parse(), Ok(AhcVersion::V1_0));
        assert_eq!("v1.2.7".parse(), Ok(AhcVersion::V1_2_7));
        assert!("1.2.9".parse::<AhcVersion>().is_err());
    }
}
