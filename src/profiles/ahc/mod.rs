//! Evaluates a master/sub handoff record the way `validate_agent_handoff_contract.py` does
//! (v1.0 by default, v1.2.7 on request), row by row, with the validator's exact messages.

mod artifacts;
mod table;

use super::options::{AhcVersion, ProfileOptions};
use super::py;
use super::report::ProfileReport;
use super::rows::{clip, evidence, Rows};
use crate::json::type_name;
use crate::json::JsonPath;
use crate::rules::{Evidence, Verdict};
use artifacts::{ArtifactRoot, ArtifactStatus};
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
const FORBIDDEN_MUTATIONS: [&str; 4] = [
    "gates",
    "protocol_review_contract",
    "identity_update_lifecycle_contract",
    "trigger_regression_contract",
];
const PLACEHOLDERS: [&str; 6] = ["todo", "tbd", "n/a", "none", "pending", "later"];

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

struct Context<'a> {
    root: &'a Value,
    version: AhcVersion,
    rows: Rows,
    report: &'a mut ProfileReport,
}

impl Context<'_> {
    fn ev(&self, path: &JsonPath) -> Evidence {
        evidence(path, self.root)
    }

    fn v127(&self) -> bool {
        self.version == AhcVersion::V1_2_7
    }

    fn quirk(&mut self, id: &str, path: JsonPath, detail: String) {
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

fn check_artifacts(
    cx: &mut Context,
    map: &Map<String, Value>,
    source_path: Option<&Path>,
    options: &ProfileOptions,
) {
    let path = JsonPath::root().key("artifacts");
    let items = match map.get("artifacts").and_then(Value::as_array) {
        Some(items) if !items.is_empty() => items,
        _ => {
            cx.rows
                .fail("AHC-05", cx.ev(&path), "artifacts must be non-empty array");
            for rule in ["AHC-06", "AHC-07", "AHC-08", "AHC-09"] {
                cx.rows.mark(
                    rule,
                    Verdict::NotApplicable,
                    None,
                    "no artifact items to check",
                );
            }
            return;
        }
    };
    cx.rows.pass("AHC-05", cx.ev(&path));
    let resolver = artifact_root(source_path, options);
    for (index, item) in items.iter().enumerate() {
        let item_path = path.index(index);
        let Some(object) = item.as_object() else {
            cx.rows.fail(
                "AHC-06",
                cx.ev(&item_path),
                format!("artifacts[{index}] must be object"),
            );
            continue;
        };
        cx.rows.pass("AHC-06", cx.ev(&item_path));
        check_artifact_path(cx, index, object, &item_path, &resolver);
        check_artifact_kind(cx, index, object, &item_path);
    }
    for rule in ["AHC-07", "AHC-08", "AHC-09"] {
        if cx.rows.verdict(rule).is_none() {
            cx.rows.mark(
                rule,
                Verdict::NotApplicable,
                None,
                "no object artifact items",
            );
        }
    }
}

fn artifact_root(
    source_path: Option<&Path>,
    options: &ProfileOptions,
) -> Result<ArtifactRoot, String> {
    let dir = match (&options.artifact_root, source_path) {
        (Some(root), _) => root.clone(),
        (None, Some(packet)) => match packet.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        },
        (None, None) => {
            return Err("no artifact root: give --artifact-root (the packet has no path)".into())
        }
    };
    ArtifactRoot::open(&dir).map_err(|e| format!("artifact root unusable: {e}"))
}

fn check_artifact_path(
    cx: &mut Context,
    index: usize,
    object: &Map<String, Value>,
    item_path: &JsonPath,
    resolver: &Result<ArtifactRoot, String>,
) {
    let path = item_path.key("path");
    let given = py::str_or_empty_stripped(object.get("path"));
    if given.is_empty() {
        cx.rows.fail(
            "AHC-07",
            cx.ev(&path),
            format!("artifacts[{index}].path missing"),
        );
        return;
    }
    cx.rows.pass("AHC-07", cx.ev(&path));
    let root = match resolver {
        Ok(root) => root,
        Err(why) => {
            cx.rows.mark(
                "AHC-08",
                Verdict::NotChecked,
                Some(cx.ev(&path)),
                why.clone(),
            );
            return;
        }
    };
    let shown = clip(&given);
    match root.resolve(&given) {
        ArtifactStatus::Exists => cx.rows.pass("AHC-08", cx.ev(&path)),
        ArtifactStatus::NotFound => cx.rows.fail(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path not found: {shown}"),
        ),
        ArtifactStatus::Outside(why) => {
            cx.rows.fail(
                "AHC-08",
                cx.ev(&path),
                format!(
                    "artifacts[{index}].path outside --artifact-root: {shown} ({why}; not looked at)"
                ),
            );
            cx.quirk(
                "ahc-artifact-root",
                path,
                format!("{shown}: {why}; upstream would test it against its working directory"),
            );
        }
        ArtifactStatus::Undecidable(why) => cx.rows.fail(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path cannot be checked: {shown} ({why})"),
        ),
        ArtifactStatus::ExistsUnreadable(why) => cx.rows.warn(
            "AHC-08",
            cx.ev(&path),
            format!("artifacts[{index}].path exists but cannot be read: {shown} ({why})"),
        ),
    }
}

fn check_artifact_kind(
    cx: &mut Context,
    index: usize,
    object: &Map<String, Value>,
    item_path: &JsonPath,
) {
    let path = item_path.key("kind");
    let kind = py::str_or_empty_stripped(object.get("kind"));
    match (cx.v127(), kind.is_empty()) {
        (true, true) => cx.rows.fail(
            "AHC-09",
            cx.ev(&path),
            format!("artifacts[{index}].kind missing"),
        ),
        (true, false) => cx.rows.pass("AHC-09", cx.ev(&path)),
        (false, missing) => {
            cx.rows.mark(
                "AHC-09",
                Verdict::NotApplicable,
                None,
                "v1.0 does not check artifact kind (use --profile-version 1.2.7)",
            );
            if missing {
                cx.quirk(
                    "ahc-v10-lenient-applied-kind",
                    path,
                    format!("artifacts[{index}].kind is missing or blank; v1.0 passes it, v1.2.7 would not"),
                );
            }
        }
    }
}

fn check_next_action(cx: &mut Context, map: &Map<String, Value>) {
    let path = JsonPath::root().key("next_action");
    let Some(action) = map.get("next_action").and_then(Value::as_object) else {
        cx.rows
            .fail("AHC-10", cx.ev(&path), "next_action must be object");
        for rule in ["AHC-11", "AHC-12"] {
            cx.rows.mark(
                rule,
                Verdict::NotApplicable,
                None,
                "next_action is not an object",
            );
        }
        return;
    };
    cx.rows.pass("AHC-10", cx.ev(&path));
    for key in ["owner", "action", "input"] {
        let field = path.key(key);
        let value = py::str_or_empty_stripped(action.get(key));
        if value.is_empty() {
            cx.rows.fail(
                "AHC-11",
                cx.ev(&field),
                format!("next_action.{key} missing/empty"),
            );
            continue;
        }
        cx.rows.pass("AHC-11", cx.ev(&field));
        let placeholder = PLACEHOLDERS.contains(&value.to_lowercase().as_str());
        match (cx.v127(), placeholder) {
            (true, true) => cx.rows.fail(
                "AHC-12",
                cx.ev(&field),
                format!("next_action.{key} is placeholder: {}", clip(&value)),
            ),
            (true, false) => cx.rows.pass("AHC-12", cx.ev(&field)),
            (false, true) => cx.rows.mark(
                "AHC-12",
                Verdict::NotApplicable,
                Some(cx.ev(&field)),
                format!(
                    "v1.0 does not check placeholders; next_action.{key} = {} would fail under 1.2.7",
                    py::repr_str(&clip(&value))
                ),
            ),
            (false, false) => cx.rows.mark(
                "AHC-12",
                Verdict::NotApplicable,
                None,
                "v1.0 does not check placeholders (use --profile-version 1.2.7)",
            ),
        }
    }
    if cx.rows.verdict("AHC-12").is_none() {
        cx.rows.mark(
            "AHC-12",
            Verdict::NotApplicable,
            None,
            "no non-empty next_action values to check",
        );
    }
}

fn check_mutations(cx: &mut Context, map: &Map<String, Value>) {
    let path = JsonPath::root().key("attempted_mutations");
    let named: Vec<String> = match map.get("attempted_mutations") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                if item.is_array() || item.is_object() {
                    cx.rows.warn(
                        "AHC-13",
                        cx.ev(&path.index(index)),
                        format!(
                            "attempted_mutations[{index}] is an {}; Python's set() would raise TypeError; not compared",
                            type_name(item)
                        ),
                    );
                }
            }
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        }
        Some(Value::String(text)) => {
            let names_one = FORBIDDEN_MUTATIONS.iter().any(|f| text.contains(f));
            cx.quirk(
                "ahc-mutations-string-chars",
                path.clone(),
                format!(
                    "attempted_mutations is the string {}; compared as single characters{}",
                    py::repr_str(&clip(text)),
                    if names_one {
                        ", so the forbidden name it contains passes"
                    } else {
                        ""
                    }
                ),
            );
            text.chars().map(String::from).collect()
        }
        Some(Value::Object(object)) => {
            cx.quirk(
                "ahc-mutations-object-keys",
                path.clone(),
                "attempted_mutations is an object; its keys are compared".into(),
            );
            object.keys().cloned().collect()
        }
        Some(other) => {
            cx.rows.warn(
                "AHC-13",
                cx.ev(&path),
                format!(
                    "attempted_mutations is a {}; Python's set() would raise TypeError; not compared",
                    type_name(other)
                ),
            );
            Vec::new()
        }
    };
    let mut forbidden: Vec<&str> = FORBIDDEN_MUTATIONS
        .iter()
        .copied()
        .filter(|f| named.iter().any(|n| n == f))
        .collect();
    forbidden.sort_unstable();
    if forbidden.is_empty() {
        cx.rows.pass("AHC-13", cx.ev(&path));
    } else {
        cx.rows.fail(
            "AHC-13",
            cx.ev(&path),
            format!(
                "attempted forbidden mutations: {}",
                py::repr_str_list(forbidden)
            ),
        );
    }
}

fn check_rulebook(cx: &mut Context, map: &Map<String, Value>) {
    let path = JsonPath::root().key("rulebook_update");
    let Some(update) = map.get("rulebook_update").and_then(Value::as_object) else {
        cx.rows
            .fail("AHC-14", cx.ev(&path), "rulebook_update must be object");
        for rule in ["AHC-15", "AHC-16"] {
            cx.rows.mark(
                rule,
                Verdict::NotApplicable,
                None,
                "rulebook_update is not an object",
            );
        }
        return;
    };
    cx.rows.pass("AHC-14", cx.ev(&path));
    let applied_path = path.key("applied");
    match (cx.v127(), update.contains_key("applied")) {
        (true, true) => cx.rows.pass("AHC-15", cx.ev(&applied_path)),
        (true, false) => cx.rows.fail(
            "AHC-15",
            cx.ev(&applied_path),
            "rulebook_update.applied missing",
        ),
        (false, present) => {
            cx.rows.mark(
                "AHC-15",
                Verdict::NotApplicable,
                None,
                "v1.0 does not require rulebook_update.applied (use --profile-version 1.2.7)",
            );
            if !present {
                cx.quirk(
                    "ahc-v10-lenient-applied-kind",
                    applied_path.clone(),
                    "rulebook_update.applied is absent; v1.0 passes it, v1.2.7 would not".into(),
                );
            }
        }
    }
    let applied = update.get("applied").unwrap_or(&Value::Null);
    let truthy = py::truthy(applied);
    if let Value::String(text) = applied {
        cx.quirk(
            "ahc-applied-string-truthy",
            applied_path.clone(),
            format!(
                "applied is the string {}, which Python counts as {}",
                py::repr_str(&clip(text)),
                if truthy { "true" } else { "false" }
            ),
        );
    }
    let run_path = path.key("evidence_run_id");
    if truthy && py::str_or_empty_stripped(update.get("evidence_run_id")).is_empty() {
        cx.rows.fail(
            "AHC-16",
            cx.ev(&run_path),
            "rulebook_update.applied=true requires evidence_run_id",
        );
    } else {
        cx.rows.pass("AHC-16", cx.ev(&applied_path));
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
