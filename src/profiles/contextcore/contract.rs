//! ContextCore's governance `HandoffContract` v1 (JSON Schema 2020-12, closed) reproduced as
//! data, with the error envelopes its boundary produces: code, JSON-pointer `failed_path`
//! (the parent object for a missing or unknown key), jsonschema's message and the boundary's
//! next action, in the order `Draft202012Validator.iter_errors` yields them: the schema's
//! keywords as its file lists them (`type`, `additionalProperties`, `required`, `properties`
//! at the root; `type` before `enum`/`const`/`minLength` in a property), properties in the
//! schema's order. The boundary message keeps the first three, so the order is part of it.

use crate::json::JsonPath;
use crate::profiles::py;
use crate::profiles::py_source::PySource;
use crate::profiles::report::SchemaError;
use serde_json::{Map, Value};

fn json_path(parts: &[&str]) -> JsonPath {
    JsonPath::keys(parts)
}

/// The JSON type or constraint a property has in the schema.
#[derive(Clone, Copy)]
enum Constraint {
    /// `const "v1"`.
    ConstV1,
    /// `type: string, minLength: 1`.
    NonEmptyString,
    /// `enum [...]`.
    OneOf(&'static [&'static str]),
    /// `type: object`, any members.
    OpenObject,
    /// `type: string, format: date-time` (the format is never checked upstream).
    DateTime,
}

struct Property {
    name: &'static str,
    constraint: Constraint,
}

const PRIORITIES: &[&str] = &["low", "normal", "high", "critical"];
const STATUSES: &[&str] = &[
    "pending",
    "accepted",
    "in_progress",
    "completed",
    "failed",
    "expired",
];

const fn prop(name: &'static str, constraint: Constraint) -> Property {
    Property { name, constraint }
}

/// Top-level properties in schema order (`expected_output` between `inputs` and `status`,
/// checked on its own).
const PROPERTIES: [Property; 15] = [
    prop("schema_version", Constraint::ConstV1),
    prop("handoff_id", Constraint::NonEmptyString),
    prop("project_id", Constraint::NonEmptyString),
    prop("trace_id", Constraint::NonEmptyString),
    prop("parent_task_id", Constraint::NonEmptyString),
    prop("from_agent", Constraint::NonEmptyString),
    prop("to_agent", Constraint::NonEmptyString),
    prop("capability_id", Constraint::NonEmptyString),
    prop("priority", Constraint::OneOf(PRIORITIES)),
    prop("inputs", Constraint::OpenObject),
    prop("status", Constraint::OneOf(STATUSES)),
    prop("result_trace_id", Constraint::NonEmptyString),
    prop("error", Constraint::NonEmptyString),
    prop("created_at", Constraint::DateTime),
    prop("deadline", Constraint::DateTime),
];
const EXPECTED_OUTPUT: &str = "expected_output";
/// `required` in the schema's order: expected_output sits after inputs.
const REQUIRED_ORDER: [&str; 7] = [
    "schema_version",
    "handoff_id",
    "from_agent",
    "to_agent",
    "capability_id",
    "inputs",
    "expected_output",
];

/// Members of `expected_output` (closed): `type` required, `schema_ref` optional.
const EXPECTED_OUTPUT_PROPERTIES: [Property; 2] = [
    prop("type", Constraint::NonEmptyString),
    prop("schema_ref", Constraint::NonEmptyString),
];

/// The keys a closed HandoffContract may have at the top level.
pub(crate) fn is_declared(key: &str) -> bool {
    key == EXPECTED_OUTPUT || PROPERTIES.iter().any(|p| p.name == key)
}

/// RFC 6901 pointer of `parts` ('/' for the root, as ContextCore prints it).
fn pointer(parts: &[&str]) -> String {
    if parts.is_empty() {
        return "/".into();
    }
    parts
        .iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

fn error(
    rule: &'static str,
    code: &'static str,
    failed_path: String,
    message: String,
    paths: Vec<JsonPath>,
) -> SchemaError {
    // validator.py's `_next_action_for`: one action per code, a generic one for the rest.
    let next_action = match code {
        "MISSING_REQUIRED_FIELD" => format!("Add the missing required field at '{failed_path}'."),
        "UNKNOWN_FIELD" => format!(
            "Remove the unknown field at '{failed_path}'. v1 contracts do not allow extra top-level fields."
        ),
        "ENUM_MISMATCH" => format!("Use one of the allowed enum values for '{failed_path}'."),
        "CONST_VIOLATION" => format!("Set '{failed_path}' to the required constant value."),
        "WRONG_TYPE" => format!("Correct the type of '{failed_path}'."),
        "MIN_LENGTH_VIOLATION" => format!("Provide a non-empty value for '{failed_path}'."),
        _ => format!("Fix the validation error at '{failed_path}'."),
    };
    SchemaError {
        rule,
        error_code: code,
        failed_path,
        message,
        next_action,
        paths,
    }
}

/// Python's `repr` of the value at `parts`, as jsonschema words it (from the document's text:
/// every digit, members in document order).
fn shown(source: &PySource, parts: &[&str], value: &Value) -> String {
    source.repr_at(parts).unwrap_or_else(|| py::repr(value))
}

fn wrong_type(source: &PySource, parts: &[&str], value: &Value, expected: &str) -> SchemaError {
    error(
        "CC-06",
        "WRONG_TYPE",
        pointer(parts),
        format!(
            "{} is not of type '{expected}'",
            shown(source, parts, value)
        ),
        vec![json_path(parts)],
    )
}

/// Every error ContextCore's `validate_outbound("HandoffContract", ...)` would report on the
/// parsed tree alone (values shown from it): what the tests ask.
#[cfg(test)]
pub(crate) fn validate(value: &Value) -> Vec<SchemaError> {
    validate_source(&PySource::tree(value))
}

/// [`validate`] with the values in its messages shown from the document's text.
pub(crate) fn validate_source(source: &PySource) -> Vec<SchemaError> {
    let value = source.root();
    let Some(map) = value.as_object() else {
        return vec![wrong_type(source, &[], value, "object")];
    };
    let mut errors = Vec::new();
    check_object(
        map,
        &[],
        &REQUIRED_ORDER,
        &|key| is_declared(key),
        &mut errors,
    );
    for property in &PROPERTIES {
        if let Some(member) = map.get(property.name) {
            check_property(source, property, member, &[property.name], &mut errors);
        }
        if property.name == "inputs" {
            check_expected_output(source, map, &mut errors);
        }
    }
    errors
}

/// `expected_output`: `type: object`, closed, `type` required.
fn check_expected_output(
    source: &PySource,
    map: &Map<String, Value>,
    errors: &mut Vec<SchemaError>,
) {
    match map.get(EXPECTED_OUTPUT) {
        Some(Value::Object(output)) => {
            let parts = [EXPECTED_OUTPUT];
            check_object(
                output,
                &parts,
                &["type"],
                &|key| EXPECTED_OUTPUT_PROPERTIES.iter().any(|p| p.name == key),
                errors,
            );
            for property in &EXPECTED_OUTPUT_PROPERTIES {
                if let Some(member) = output.get(property.name) {
                    let parts = [EXPECTED_OUTPUT, property.name];
                    check_property(source, property, member, &parts, errors);
                }
            }
        }
        Some(other) => errors.push(wrong_type(source, &[EXPECTED_OUTPUT], other, "object")),
        None => {}
    }
}

/// `additionalProperties: false`, then `required`, of one object (the schema's order).
fn check_object(
    map: &Map<String, Value>,
    parts: &[&str],
    required: &[&str],
    declared: &dyn Fn(&str) -> bool,
    errors: &mut Vec<SchemaError>,
) {
    // jsonschema lists the extras sorted, each as Python's repr, uncut.
    let mut extras: Vec<&String> = map.keys().filter(|key| !declared(key)).collect();
    extras.sort();
    if !extras.is_empty() {
        let listed: Vec<String> = extras.iter().map(|k| py::repr_str(k)).collect();
        let verb = if extras.len() == 1 { "was" } else { "were" };
        errors.push(error(
            "CC-02",
            "UNKNOWN_FIELD",
            pointer(parts),
            format!(
                "Additional properties are not allowed ({} {verb} unexpected)",
                listed.join(", ")
            ),
            extras.iter().map(|k| json_path(parts).key(k)).collect(),
        ));
    }
    for key in required {
        if !map.contains_key(*key) {
            errors.push(error(
                "CC-01",
                "MISSING_REQUIRED_FIELD",
                pointer(parts),
                format!("{} is a required property", py::repr_str(key)),
                vec![json_path(parts).key(key)],
            ));
        }
    }
}

fn check_property(
    source: &PySource,
    property: &Property,
    value: &Value,
    parts: &[&str],
    errors: &mut Vec<SchemaError>,
) {
    match property.constraint {
        Constraint::ConstV1 => {
            if !value.is_string() {
                errors.push(wrong_type(source, parts, value, "string"));
            }
            if value.as_str() != Some("v1") {
                errors.push(error(
                    "CC-03",
                    "CONST_VIOLATION",
                    pointer(parts),
                    "'v1' was expected".into(),
                    vec![json_path(parts)],
                ));
            }
        }
        Constraint::NonEmptyString | Constraint::DateTime => match value.as_str() {
            None => errors.push(wrong_type(source, parts, value, "string")),
            Some("") if matches!(property.constraint, Constraint::NonEmptyString) => {
                errors.push(error(
                    "CC-05",
                    "MIN_LENGTH_VIOLATION",
                    pointer(parts),
                    "'' should be non-empty".into(),
                    vec![json_path(parts)],
                ))
            }
            Some(_) => {}
        },
        Constraint::OneOf(allowed) => {
            if !value.is_string() {
                errors.push(wrong_type(source, parts, value, "string"));
            }
            if !value.as_str().is_some_and(|v| allowed.contains(&v)) {
                errors.push(error(
                    "CC-04",
                    "ENUM_MISMATCH",
                    pointer(parts),
                    format!(
                        "{} is not one of {}",
                        shown(source, parts, value),
                        py::repr_str_list(allowed.iter().copied())
                    ),
                    vec![json_path(parts)],
                ));
            }
        }
        Constraint::OpenObject => {
            if !value.is_object() {
                errors.push(wrong_type(source, parts, value, "object"));
            }
        }
    }
}

/// ContextCore's boundary message for a failed outbound validation.
pub(crate) fn boundary_message(errors: &[SchemaError]) -> String {
    let first: Vec<&str> = errors.iter().take(3).map(|e| e.message.as_str()).collect();
    let more = if errors.len() > 3 {
        format!(" (and {} more)", errors.len() - 3)
    } else {
        String::new()
    };
    format!(
        "OUTBOUND boundary validation failed for HandoffContract: {}{more}",
        first.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(value: Value) -> Vec<&'static str> {
        validate(&value).iter().map(|e| e.error_code).collect()
    }

    #[test]
    fn minimal_fixture_is_valid() {
        let fixture = json!({"schema_version":"v1","handoff_id":"handoff-001","from_agent":"orchestrator","to_agent":"artifact-generator","capability_id":"generate_dashboard","inputs":{"service":"checkout-api"},"expected_output":{"type":"artifact_bundle"}});
        assert!(validate(&fixture).is_empty());
    }

    #[test]
    fn schema_version_only_gives_six_missing() {
        let errors = validate(&json!({"schema_version":"v1"}));
        assert_eq!(errors.len(), 6);
        assert!(errors
            .iter()
            .all(|e| e.error_code == "MISSING_REQUIRED_FIELD"));
        assert_eq!(errors[0].message, "'handoff_id' is a required property");
        assert_eq!(errors[0].failed_path, "/");
        assert_eq!(
            errors[0].next_action,
            "Add the missing required field at '/'."
        );
    }

    #[test]
    fn rogue_field_is_unknown_plus_missing() {
        let errors = validate(&json!({"schema_version":"v1","rogue":"x"}));
        assert_eq!(errors.len(), 7);
        let unknown: Vec<_> = errors
            .iter()
            .filter(|e| e.error_code == "UNKNOWN_FIELD")
            .collect();
        assert_eq!(
            unknown[0].message,
            "Additional properties are not allowed ('rogue' was unexpected)"
        );
    }

    #[test]
    fn each_constraint_has_its_code_and_wording() {
        let base = json!({"schema_version":"v2","handoff_id":"","from_agent":"a","to_agent":"b","capability_id":"c","inputs":[],"expected_output":{"type":"t","extra":1},"priority":"urgent","created_at":"not-a-date"});
        let errors = validate(&base);
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert!(messages.contains(&"'v1' was expected"));
        assert!(messages.contains(&"'' should be non-empty"));
        assert!(messages.contains(&"[] is not of type 'object'"));
        assert!(messages.contains(&"'urgent' is not one of ['low', 'normal', 'high', 'critical']"));
        assert!(
            messages.contains(&"Additional properties are not allowed ('extra' was unexpected)")
        );
        assert_eq!(
            errors.len(),
            5,
            "created_at format is never checked: {messages:?}"
        );
        assert_eq!(codes(json!([])), vec!["WRONG_TYPE"]);
    }

    #[test]
    fn errors_come_in_jsonschemas_order_and_a_type_error_sits_beside_enum_and_const() {
        // The repository's own inbound-boundary payload: additionalProperties before required.
        let rogue = validate(&json!({"schema_version":"v1","rogue":"x"}));
        assert_eq!(
            boundary_message(&rogue),
            "OUTBOUND boundary validation failed for HandoffContract: Additional properties are not allowed ('rogue' was unexpected); 'handoff_id' is a required property; 'from_agent' is a required property (and 4 more)"
        );
        let typed = validate(
            &json!({"schema_version": 1, "handoff_id":"h","from_agent":"a","to_agent":"b","capability_id":"c","inputs":{},"expected_output":{"type":"t"},"priority": 0}),
        );
        let messages: Vec<&str> = typed.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "1 is not of type 'string'",
                "'v1' was expected",
                "0 is not of type 'string'",
                "0 is not one of ['low', 'normal', 'high', 'critical']",
            ]
        );
        // expected_output is checked where the schema lists it: after inputs, before status.
        let order = validate(
            &json!({"schema_version":"v1","handoff_id":"h","from_agent":"a","to_agent":"b","capability_id":"c","inputs":[],"expected_output":{},"status":"x"}),
        );
        let codes: Vec<&str> = order.iter().map(|e| e.error_code).collect();
        assert_eq!(
            codes,
            ["WRONG_TYPE", "MISSING_REQUIRED_FIELD", "ENUM_MISMATCH"]
        );
        // Values are Python's repr, uncut.
        let long = "x".repeat(300);
        let errors = validate(
            &json!({"schema_version":"v1","handoff_id":"h","from_agent":"a","to_agent":"b","capability_id":"c","inputs":{},"expected_output":{"type":"t"},"priority": long.clone()}),
        );
        assert_eq!(
            errors[0].message,
            format!("'{long}' is not one of ['low', 'normal', 'high', 'critical']")
        );
    }

    #[test]
    fn boundary_message_lists_three_and_counts_the_rest() {
        let errors = validate(&json!({"schema_version":"v1"}));
        assert_eq!(
            boundary_message(&errors),
            "OUTBOUND boundary validation failed for HandoffContract: 'handoff_id' is a required property; 'from_agent' is a required property; 'to_agent' is a required property (and 3 more)"
        );
    }
}
