//! Checking a migration's result against the target version: required fields, enum values,
//! oneof members, formats, and fields of the other version left behind. Each check is a row
//! of a static [`RuleTable`](crate::rules::RuleTable); failures are [`Finding`]s with JSON paths.

mod v03;
mod v10;

pub use v03::V03_CHECKS;
pub use v10::V10_CHECKS;

use super::edit::shown;
use super::model::ObjectKind;
use super::walk::collect;
use crate::json::JsonPath;
use crate::rules::{Finding, RuleRow, Severity};
use serde_json::{Map, Value};

/// A check row: what a pass may and must not be read as is the same for every row.
const fn row(
    id: &'static str,
    title: &'static str,
    condition: &'static str,
    result: &'static str,
    source: &'static str,
) -> RuleRow {
    RuleRow {
        id,
        title,
        condition,
        result,
        may_imply: "the migrated JSON has this shape",
        must_not_imply: "the object's content is correct, authorized or accepted by a peer",
        source,
    }
}

/// Checks `value` (rooted at an object of `root` kind) against v1.0.
pub fn check_v10(value: &Value, root: ObjectKind) -> Vec<Finding> {
    run(value, root, v10::check_object)
}

/// Checks `value` against the v0.3 JSON-RPC dialect.
pub fn check_v03(value: &Value, root: ObjectKind) -> Vec<Finding> {
    run(value, root, v03::check_object)
}

fn run(
    value: &Value,
    root: ObjectKind,
    check_object: fn(ObjectKind, &Map<String, Value>, &JsonPath, &mut Checker),
) -> Vec<Finding> {
    let mut checker = Checker::default();
    for node in collect(value, root) {
        if let Some(obj) = node.path.lookup(value).and_then(Value::as_object) {
            check_object(node.kind, obj, &node.path, &mut checker);
        }
    }
    checker.findings
}

/// Collects findings; the helpers below are the checks every row is made of.
#[derive(Default)]
pub(crate) struct Checker {
    pub findings: Vec<Finding>,
}

impl Checker {
    pub fn fail(&mut self, rule: &str, path: JsonPath, message: String) {
        self.findings
            .push(Finding::new(rule, Severity::Error, path, message));
    }

    pub fn warn(&mut self, rule: &str, path: JsonPath, message: String) {
        self.findings
            .push(Finding::new(rule, Severity::Warning, path, message));
    }

    pub fn required(
        &mut self,
        rule: &str,
        kind: ObjectKind,
        obj: &Map<String, Value>,
        at: &JsonPath,
        keys: &[&str],
    ) {
        for key in keys {
            if obj.get(*key).is_none_or(Value::is_null) {
                self.fail(
                    rule,
                    at.key(key),
                    format!("{} requires `{key}`", kind.label()),
                );
            }
        }
    }

    pub fn stale(
        &mut self,
        rule: &str,
        obj: &Map<String, Value>,
        at: &JsonPath,
        keys: &[&str],
        version: &str,
    ) {
        for key in keys {
            if let Some(value) = obj.get(*key) {
                self.fail(
                    rule,
                    at.key(key),
                    format!("`{key}` = {} is not a {version} field", shown(value)),
                );
            }
        }
    }

    /// For each `(member, required)` present as an object, its `required` fields.
    pub fn required_in_members(
        &mut self,
        rule: &str,
        kind: ObjectKind,
        obj: &Map<String, Value>,
        at: &JsonPath,
        members: &[(&str, &[&str])],
    ) {
        for (member, required) in members {
            if let Some(Value::Object(inner)) = obj.get(*member) {
                self.required(rule, kind, inner, &at.key(member), required);
            }
        }
    }

    /// Exactly one of `members` must be present.
    pub fn oneof(
        &mut self,
        rule: &str,
        obj: &Map<String, Value>,
        at: &JsonPath,
        members: &[&str],
        what: &str,
    ) {
        let present: Vec<&str> = members
            .iter()
            .copied()
            .filter(|member| obj.contains_key(*member))
            .collect();
        match present.len() {
            1 => {}
            0 => self.fail(
                rule,
                at.clone(),
                format!(
                    "{what} needs exactly one of {}; found none",
                    members.join(", ")
                ),
            ),
            _ => self.fail(
                rule,
                at.clone(),
                format!("{what} is a oneof; found {} together", present.join(", ")),
            ),
        }
    }

    /// A `google.protobuf.Struct` member must be a JSON object.
    pub fn structs(&mut self, rule: &str, obj: &Map<String, Value>, at: &JsonPath, keys: &[&str]) {
        for key in keys {
            if let Some(value) = obj.get(*key) {
                if !value.is_object() {
                    self.fail(
                        rule,
                        at.key(key),
                        format!("`{key}` must be a JSON object, found {}", shown(value)),
                    );
                }
            }
        }
    }

    /// A string member must be one of `allowed`.
    pub fn enum_value(
        &mut self,
        rule: &str,
        obj: &Map<String, Value>,
        at: &JsonPath,
        key: &str,
        allowed: &[&str],
    ) {
        let Some(value) = obj.get(key) else {
            return;
        };
        if !value.as_str().is_some_and(|text| allowed.contains(&text)) {
            self.fail(
                rule,
                at.key(key),
                format!(
                    "`{key}` = {} is not one of {}",
                    shown(value),
                    allowed.join(", ")
                ),
            );
        }
    }
}
