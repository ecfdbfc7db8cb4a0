//! A readable difference between an expected and an actual JSON value: the JSON paths that
//! changed (with both values), and a line diff of their canonical, indented forms.

use crate::json::{canonical_pretty, safe_text, shown_json, text_hunks, write_unified, JsonPath};
use serde::Serialize;
use serde_json::Value;

/// At most this many changed paths are listed; the line diff still shows everything.
pub const MAX_LISTED_CHANGES: usize = 50;

/// The longest value a changed path's line shows (`shown_json`'s cut).
const CHANGE_VALUE_CHARS: usize = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Present in the actual value only.
    Added,
    /// Present in the expected value only.
    Removed,
    /// Present in both with different values (or JSON types).
    Changed,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathChange {
    pub path: JsonPath,
    pub change: ChangeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
}

impl PathChange {
    /// `~ $.task.kind: "delegation" -> "analysis"`; terminal-safe.
    pub fn describe(&self) -> String {
        let shown = |value: &Option<Value>| {
            value
                .as_ref()
                .map(|value| shown_json(value, CHANGE_VALUE_CHARS))
                .unwrap_or_default()
        };
        match self.change {
            ChangeKind::Added => format!("+ {}: {}", self.path, shown(&self.actual)),
            ChangeKind::Removed => format!("- {}: {}", self.path, shown(&self.expected)),
            ChangeKind::Changed => format!(
                "~ {}: {} -> {}",
                self.path,
                shown(&self.expected),
                shown(&self.actual)
            ),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JsonDiff {
    /// Changed paths in document order, at most `MAX_LISTED_CHANGES`.
    pub changes: Vec<PathChange>,
    /// How many changed paths there are in all.
    pub total_changes: usize,
    /// Unified line diff of the canonical indented JSON (`---` expected, `+++` actual),
    /// every line terminal-safe.
    pub lines: String,
}

impl JsonDiff {
    pub fn is_empty(&self) -> bool {
        self.total_changes == 0
    }
}

/// Compares `expected` with `actual`. `expected_name`/`actual_name` label the line diff.
pub fn diff_json(
    expected: &Value,
    actual: &Value,
    expected_name: &str,
    actual_name: &str,
) -> JsonDiff {
    let mut changes = Vec::new();
    let mut total = 0;
    let mut path = JsonPath::root();
    walk(expected, actual, &mut path, &mut changes, &mut total);
    let lines = if total == 0 {
        String::new()
    } else {
        line_diff(
            &(canonical_pretty(expected) + "\n"),
            &(canonical_pretty(actual) + "\n"),
            expected_name,
            actual_name,
        )
    };
    JsonDiff {
        changes,
        total_changes: total,
        lines,
    }
}

fn record(changes: &mut Vec<PathChange>, total: &mut usize, change: PathChange) {
    *total += 1;
    if changes.len() < MAX_LISTED_CHANGES {
        changes.push(change);
    }
}

fn walk(
    expected: &Value,
    actual: &Value,
    path: &mut JsonPath,
    changes: &mut Vec<PathChange>,
    total: &mut usize,
) {
    match (expected, actual) {
        (Value::Object(left), Value::Object(right)) => {
            // Both maps iterate in byte order, so a merge walk visits keys in document order.
            let mut keys: Vec<&String> = left.keys().chain(right.keys()).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                path.push_key(key);
                match (left.get(key), right.get(key)) {
                    (Some(l), Some(r)) => walk(l, r, path, changes, total),
                    (Some(l), None) => record(changes, total, removed(path, l)),
                    (None, Some(r)) => record(changes, total, added(path, r)),
                    (None, None) => {}
                }
                path.pop();
            }
        }
        (Value::Array(left), Value::Array(right)) => {
            for index in 0..left.len().max(right.len()) {
                path.push_index(index);
                match (left.get(index), right.get(index)) {
                    (Some(l), Some(r)) => walk(l, r, path, changes, total),
                    (Some(l), None) => record(changes, total, removed(path, l)),
                    (None, Some(r)) => record(changes, total, added(path, r)),
                    (None, None) => {}
                }
                path.pop();
            }
        }
        (left, right) if left != right => record(
            changes,
            total,
            PathChange {
                path: path.clone(),
                change: ChangeKind::Changed,
                expected: Some(left.clone()),
                actual: Some(right.clone()),
            },
        ),
        _ => {}
    }
}

fn added(path: &JsonPath, value: &Value) -> PathChange {
    PathChange {
        path: path.clone(),
        change: ChangeKind::Added,
        expected: None,
        actual: Some(value.clone()),
    }
}

fn removed(path: &JsonPath, value: &Value) -> PathChange {
    PathChange {
        path: path.clone(),
        change: ChangeKind::Removed,
        expected: Some(value.clone()),
        actual: None,
    }
}

/// A unified diff with two lines of context, `--- expected_name` / `+++ actual_name` first,
/// lines joined by newlines (no newline after the last); every line terminal-safe. Empty when
/// the texts are equal. `json::line_diff`'s model, written by `json::write_unified`.
pub fn line_diff(expected: &str, actual: &str, expected_name: &str, actual_name: &str) -> String {
    let hunks = text_hunks(expected, actual, 2);
    if hunks.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "--- {}\n+++ {}\n",
        safe_text(expected_name),
        safe_text(actual_name)
    );
    write_unified(hunks.iter().map(Vec::as_slice), &mut text);
    text.pop();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The line diff as it was written before the one model: `similar`'s unified diff.
    fn former_line_diff(expected: &str, actual: &str) -> String {
        let diff = crate::json::bounded_line_diff(expected, actual);
        let text = diff
            .unified_diff()
            .context_radius(2)
            .header("expected", "actual")
            .to_string();
        text.lines()
            .map(|line| safe_text(line).into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn line_diffs_are_what_they_were() {
        let base =
            json!({"a": {"b": [1, 2, 3], "c": "x\u{202e}"}, "d": [{"e": 1}, {"e": 2}], "z": true});
        for other in [
            json!({"a": {"b": [1, 2, 4], "c": "x\u{202e}"}, "d": [{"e": 1}, {"e": 2}], "z": true}),
            json!({"a": {"b": [], "c": "y"}, "d": [{"e": 2}], "z": false, "new": null}),
            json!([1, 2]),
            base.clone(),
        ] {
            let (old, new) = (
                canonical_pretty(&base) + "\n",
                canonical_pretty(&other) + "\n",
            );
            assert_eq!(
                line_diff(&old, &new, "expected", "actual"),
                former_line_diff(&old, &new)
            );
        }
    }

    #[test]
    fn lists_changed_added_and_removed_paths() {
        let expected =
            json!({"task": {"id": "t", "kind": "delegation"}, "list": [1, 2], "gone": true});
        let actual =
            json!({"task": {"id": "t", "kind": "analysis"}, "list": [1, 2, 3], "new": null});
        let diff = diff_json(&expected, &actual, "expected", "actual");
        let shown: Vec<String> = diff.changes.iter().map(PathChange::describe).collect();
        assert_eq!(
            shown,
            vec![
                "- $.gone: true",
                "+ $.list[2]: 3",
                "+ $.new: null",
                "~ $.task.kind: \"delegation\" -> \"analysis\"",
            ]
        );
        assert!(
            diff.lines.starts_with("--- expected\n+++ actual\n"),
            "{}",
            diff.lines
        );
        assert!(
            diff.lines.contains("-    \"kind\": \"delegation\""),
            "{}",
            diff.lines
        );
        assert!(
            diff.lines.contains("+    \"kind\": \"analysis\""),
            "{}",
            diff.lines
        );
    }

    #[test]
    fn equal_values_have_an_empty_diff() {
        let value = json!({"a": [1, {"b": 2}]});
        let diff = diff_json(&value, &value.clone(), "x", "y");
        assert!(diff.is_empty());
        assert!(diff.lines.is_empty());
    }

    #[test]
    fn long_lists_are_capped_but_counted() {
        let expected = Value::Array((0..80).map(Value::from).collect());
        let actual = Value::Array((100..180).map(Value::from).collect());
        let diff = diff_json(&expected, &actual, "x", "y");
        assert_eq!(diff.total_changes, 80);
        assert_eq!(diff.changes.len(), MAX_LISTED_CHANGES);
    }

    #[test]
    fn hostile_strings_are_escaped_in_both_views() {
        let diff = diff_json(&json!({"a": "x"}), &json!({"a": "\u{202e}evil"}), "x", "y");
        assert!(diff.changes[0].describe().contains("\\u{202e}"));
        assert!(!diff.lines.contains('\u{202e}'));
    }
}
