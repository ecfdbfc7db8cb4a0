//! What every check row is made of: the row constructor the two tables share and the
//! [`Checker`] that collects findings, below both tables and the walk that runs them.

use crate::json::JsonPath;
use crate::migrate::model::{shown, ObjectKind};
use crate::rules::{Finding, RuleRow, Severity};
use serde_json::{Map, Value};

/// A check row: what a pass may and must not be read as is the same for every row.
pub(super) const fn row(
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
    pub(crate) fn required_in_members(
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

    /// Every member `known` does not list, unless a row of this object (its findings from
    /// `since` on) already named its path.
    #[allow(clippy::too_many_arguments)]
    pub fn unknown(
        &mut self,
        since: usize,
        rule: &str,
        kind: ObjectKind,
        obj: &Map<String, Value>,
        at: &JsonPath,
        known: &[&str],
        version: &str,
    ) {
        // ProtoJSON parsers read a field's proto name (`context_id`) as its JSON name.
        let listed = |key: &str| {
            known.contains(&key)
                || (key.contains('_')
                    && known.contains(&crate::migrate::proto_names::lower_camel(key).as_str()))
        };
        for key in obj.keys().filter(|key| !listed(key)) {
            let path = at.key(key);
            if self.findings[since..]
                .iter()
                .any(|finding| finding.path == path)
            {
                continue;
            }
            self.fail(
                rule,
                path,
                format!(
                    "`{}` is not a {version} field of a {}",
                    crate::json::safe_text(key),
                    kind.label()
                ),
            );
        }
    }

    /// The JSON-RPC 2.0 envelope of a request: `jsonrpc` "2.0" and an `id` that is a string
    /// or an integer. Without `id` the request is a notification, which the server does not
    /// answer: an error where the version requires `id` (`id_required`), a warning otherwise.
    pub(crate) fn jsonrpc_envelope(
        &mut self,
        rule: &str,
        obj: &Map<String, Value>,
        at: &JsonPath,
        id_required: bool,
    ) {
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            let found = obj
                .get("jsonrpc")
                .map_or_else(|| "nothing".to_owned(), shown);
            self.fail(
                rule,
                at.key("jsonrpc"),
                format!("`jsonrpc` must be \"2.0\", found {found}"),
            );
        }
        match obj.get("id") {
            None if id_required => self.fail(
                rule,
                at.key("id"),
                "a request requires `id` (a string or an integer); without it it is a notification, which the server never answers".into(),
            ),
            None => self.warn(
                rule,
                at.key("id"),
                "no `id`: a JSON-RPC notification, which the server never answers".into(),
            ),
            Some(Value::String(_)) => {}
            Some(Value::Number(number)) if number.is_i64() || number.is_u64() => {}
            Some(other) => self.fail(
                rule,
                at.key("id"),
                format!(
                    "`id` must be a string or an integer, found {}",
                    shown(other)
                ),
            ),
        }
    }

    /// A string member must be one of `allowed`.
    pub(crate) fn enum_value(
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
