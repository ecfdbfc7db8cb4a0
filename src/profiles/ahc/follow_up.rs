//! The fields that hand the work on: next_action, the mutations a handoff must not make,
//! and the rulebook update.

use super::{Context, FORBIDDEN_MUTATIONS, PLACEHOLDERS};
use crate::json::type_name;
use crate::json::JsonPath;
use crate::profiles::py;
use crate::profiles::rows::clip;
use crate::rules::Verdict;
use serde_json::{Map, Value};

pub(super) fn check_next_action(cx: &mut Context, map: &Map<String, Value>) {
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

pub(super) fn check_mutations(cx: &mut Context, map: &Map<String, Value>) {
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

pub(super) fn check_rulebook(cx: &mut Context, map: &Map<String, Value>) {
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
