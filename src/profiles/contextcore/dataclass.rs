//! The MSG and STORE dataclasses' checks: fields, types, enums, limits, and what the storage
//! reader raises.

use super::lifecycle::{check_completed_trace, check_transition};
use super::{contract, quirk};
use crate::json::type_name;
use crate::json::JsonPath;
use crate::profiles::detect::ProfileKind;
use crate::profiles::options::ProfileOptions;
use crate::profiles::py;
use crate::profiles::py_dates;
use crate::profiles::py_source::PySource;
use crate::profiles::report::ProfileReport;
use crate::profiles::rows::{clip, evidence, whole_packet, Rows};
use crate::rules::Verdict;
use serde_json::{Map, Value};

const MSG_STATUSES: [&str; 9] = [
    "pending",
    "accepted",
    "in_progress",
    "input_required",
    "completed",
    "failed",
    "timeout",
    "cancelled",
    "rejected",
];
const MSG_PRIORITIES: [&str; 4] = ["critical", "high", "normal", "low"];
const STORE_PRIORITIES: [&str; 4] = ["critical", "high", "medium", "low"];
const STORE_STATUSES: [&str; 6] = [
    "pending",
    "accepted",
    "in_progress",
    "completed",
    "failed",
    "timeout",
];

/// The JSON type a dataclass field declares.
#[derive(Clone, Copy)]
enum Expect {
    Str,
    StrOrNull,
    Int,
    IntOrNull,
    Bool,
    Object,
    StrList,
}

impl Expect {
    fn accepts(self, value: &Value) -> bool {
        let int = |v: &Value| v.as_i64().is_some() || v.as_u64().is_some();
        match self {
            Expect::Str => value.is_string(),
            Expect::StrOrNull => value.is_string() || value.is_null(),
            Expect::Int => int(value),
            Expect::IntOrNull => int(value) || value.is_null(),
            Expect::Bool => value.is_boolean(),
            Expect::Object => value.is_object(),
            Expect::StrList => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Expect::Str => "string",
            Expect::StrOrNull => "string or null",
            Expect::Int => "integer",
            Expect::IntOrNull => "integer or null",
            Expect::Bool => "boolean",
            Expect::Object => "object",
            Expect::StrList => "array of strings",
        }
    }
}

/// A field of the MSG/STORE dataclass: the names it may be written under (the storage
/// reader accepts camelCase or snake_case), its type, and whether the doc requires it.
struct Field {
    names: &'static [&'static str],
    expect: Expect,
    required: bool,
}

const fn field(names: &'static [&'static str], expect: Expect, required: bool) -> Field {
    Field {
        names,
        expect,
        required,
    }
}

const MSG_FIELDS: [Field; 13] = [
    field(&["id"], Expect::Str, true),
    field(&["from_agent"], Expect::Str, true),
    field(&["to_agent"], Expect::Str, true),
    field(&["capability_id"], Expect::Str, true),
    field(&["task"], Expect::Str, true),
    field(&["inputs"], Expect::Object, true),
    field(&["expected_output"], Expect::Object, true),
    field(&["priority"], Expect::Str, false),
    field(&["timeout_ms"], Expect::Int, false),
    field(&["status"], Expect::Str, false),
    field(&["created_at"], Expect::Str, false),
    field(&["result_trace_id"], Expect::StrOrNull, false),
    field(&["error_message"], Expect::StrOrNull, false),
];

const STORE_FIELDS: [Field; 13] = [
    field(&["id"], Expect::Str, true),
    field(&["fromAgent", "from_agent"], Expect::Str, true),
    field(&["toAgent", "to_agent"], Expect::Str, true),
    field(&["capabilityId", "capability_id"], Expect::Str, true),
    field(&["task"], Expect::Str, true),
    field(&["inputs"], Expect::Object, true),
    field(&["expectedOutput", "expected_output"], Expect::Object, true),
    field(&["priority"], Expect::Str, false),
    field(&["timeoutMs", "timeout_ms"], Expect::Int, false),
    field(&["status"], Expect::Str, false),
    field(&["createdAt", "created_at"], Expect::Str, false),
    field(
        &["resultTraceId", "result_trace_id"],
        Expect::StrOrNull,
        false,
    ),
    field(&["errorMessage", "error_message"], Expect::StrOrNull, false),
];

const OUTPUT_FIELDS: [Field; 7] = [
    field(&["type"], Expect::Str, true),
    field(&["fields"], Expect::StrList, true),
    field(&["max_lines"], Expect::IntOrNull, false),
    field(&["max_tokens"], Expect::IntOrNull, false),
    field(&["completeness_markers"], Expect::StrList, false),
    field(&["allows_chunking"], Expect::Bool, false),
    field(&["chunk_correlation_id"], Expect::StrOrNull, false),
];

/// The first of `names` present in `map`, with its value.
pub(super) fn lookup<'v>(
    map: &'v Map<String, Value>,
    names: &[&'static str],
) -> Option<(&'static str, &'v Value)> {
    names
        .iter()
        .find_map(|name| map.get(*name).map(|value| (*name, value)))
}

/// CC-MSG and CC-STORE share the dataclass checks; only the names and enums differ.
pub(super) fn check_message_like(
    source: &PySource,
    kind: ProfileKind,
    options: &ProfileOptions,
    rows: &mut Rows,
    report: &mut ProfileReport,
) {
    let value = source.root();
    let Some(map) = value.as_object() else {
        rows.fail(
            "CC-06",
            evidence(&JsonPath::root(), value),
            format!(
                "the root is {}; a ContextCore handoff is an object",
                type_name(value)
            ),
        );
        return;
    };
    let store = kind == ProfileKind::CcStore;
    let fields: &[Field] = if store { &STORE_FIELDS } else { &MSG_FIELDS };
    check_fields(map, &JsonPath::root(), fields, value, rows);
    let output_names: &[&'static str] = if store {
        &["expectedOutput", "expected_output"]
    } else {
        &["expected_output"]
    };
    if let Some((name, Value::Object(output))) = lookup(map, output_names) {
        let path = JsonPath::root().key(name);
        check_fields(output, &path, &OUTPUT_FIELDS, value, rows);
        if !store {
            check_output_limits(output, &path, value, rows);
        }
    }
    for rule in ["CC-01", "CC-06"] {
        if rows.verdict(rule).is_none() {
            rows.pass(rule, whole_packet());
        }
    }
    let status = map.get("status");
    let status_path = JsonPath::root().key("status");
    if store {
        check_store_enums(source, map, rows);
        check_store_loads(map, value, rows);
    } else {
        check_enum(
            rows,
            "CC-09",
            "status",
            source,
            &MSG_STATUSES,
            "HandoffStatus",
        );
        check_enum(
            rows,
            "CC-10",
            "priority",
            source,
            &MSG_PRIORITIES,
            "HandoffPriority",
        );
        note_msg_inconsistencies(map, source, report);
    }
    check_transition(status, &status_path, value, options, rows, report);
    let trace_names: &[&'static str] = if store {
        &["resultTraceId", "result_trace_id"]
    } else {
        &["result_trace_id"]
    };
    check_completed_trace(map, status, trace_names, value, rows);
}

/// CC-15: what `HandoffData.from_dict` raises on the record (it reads `id` and `task` with
/// `data[...]`, and `createdAt`, when truthy, with `datetime.fromisoformat`).
fn check_store_loads(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    for key in ["id", "task"] {
        if !map.contains_key(key) {
            rows.fail(
                "CC-15",
                evidence(&JsonPath::root().key(key), root),
                format!("HandoffData.from_dict raises KeyError: {}: the record has no `{key}`, and list_handoffs skips it silently", py::repr_str(key)),
            );
        }
    }
    let path = JsonPath::root().key("createdAt");
    let raised = match map.get("createdAt") {
        Some(created) if py::truthy(created) => match created {
            Value::String(text) => py_dates::fromisoformat(text)
                .err()
                .map(|why| format!("ValueError: {why}")),
            _ => Some("TypeError: fromisoformat: argument must be str".to_owned()),
        },
        _ => None,
    };
    if let Some(raised) = raised {
        rows.fail(
            "CC-15",
            evidence(&path, root),
            format!("HandoffData.from_dict raises {raised} reading `createdAt`, and list_handoffs skips the record silently"),
        );
    }
    if rows.verdict("CC-15").is_none() {
        rows.pass("CC-15", whole_packet());
    }
}

fn check_fields(
    map: &Map<String, Value>,
    at: &JsonPath,
    fields: &[Field],
    root: &Value,
    rows: &mut Rows,
) {
    for field in fields {
        let names = field.names;
        let primary = names.first().copied().unwrap_or("-");
        match lookup(map, names) {
            None if field.required => rows.warn(
                "CC-01",
                evidence(&at.key(primary), root),
                format!(
                    "[derived] {} is absent; the doc lists it as required, but no schema enforces it for this shape",
                    at.key(primary)
                ),
            ),
            None => {}
            Some((name, value)) if !field.expect.accepts(value) => rows.warn(
                "CC-06",
                evidence(&at.key(name), root),
                format!(
                    "[derived] {} is {}; the dataclass declares {} (nothing upstream checks it)",
                    at.key(name),
                    type_name(value),
                    field.expect.name()
                ),
            ),
            Some(_) => {}
        }
    }
}

fn check_output_limits(output: &Map<String, Value>, at: &JsonPath, root: &Value, rows: &mut Rows) {
    let mut declared = Vec::new();
    for key in ["max_lines", "max_tokens"] {
        if let Some(limit) = output.get(key).filter(|v| !v.is_null()) {
            declared.push(format!("{key}={}", clip(&limit.to_string())));
        }
    }
    if let Some(markers) = output
        .get("completeness_markers")
        .and_then(Value::as_array)
        .filter(|m| !m.is_empty())
    {
        declared.push(format!("{} completeness marker(s)", markers.len()));
    }
    if declared.is_empty() {
        rows.mark(
            "CC-12",
            Verdict::NotApplicable,
            None,
            "the packet declares no output limits",
        );
    } else {
        rows.mark(
            "CC-12",
            Verdict::NotChecked,
            Some(evidence(at, root)),
            format!(
                "declares {}; whether an output respects them is judged on the result, not the packet",
                declared.join(", ")
            ),
        );
    }
}

/// A doc enum's constructor on the member `key`: Python's `ValueError`, its value shown as
/// `repr` shows it (uncut, from the document's text).
fn check_enum(
    rows: &mut Rows,
    rule: &str,
    key: &str,
    source: &PySource,
    allowed: &[&str],
    enum_name: &str,
) {
    let root = source.root();
    let path = JsonPath::root().key(key);
    match path.lookup(root) {
        None => rows.pass(rule, evidence(&path, root)),
        Some(Value::String(text)) if allowed.contains(&text.as_str()) => {
            rows.pass(rule, evidence(&path, root))
        }
        Some(other) => rows.fail(
            rule,
            evidence(&path, root),
            format!(
                "ValueError: {} is not a valid {enum_name}",
                source.repr_at(&[key]).unwrap_or_else(|| py::repr(other))
            ),
        ),
    }
}

/// `__post_init__`'s two checks, worded as its f-strings word them (`str` of the value, uncut).
fn check_store_enums(source: &PySource, map: &Map<String, Value>, rows: &mut Rows) {
    let root = source.root();
    let checks: [(&str, &[&str]); 2] =
        [("priority", &STORE_PRIORITIES), ("status", &STORE_STATUSES)];
    for (key, allowed) in checks {
        let path = JsonPath::root().key(key);
        match map.get(key) {
            None => rows.pass("CC-14", evidence(&path, root)),
            Some(Value::String(text)) if allowed.contains(&text.as_str()) => {
                rows.pass("CC-14", evidence(&path, root))
            }
            Some(other) => rows.fail(
                "CC-14",
                evidence(&path, root),
                format!(
                    "Invalid {key} '{}'. Must be one of: {}",
                    source.str_at(&[key]).unwrap_or_else(|| py::str_of(other)),
                    py::repr_str_list(allowed.iter().copied())
                ),
            ),
        }
    }
}

/// The upstream inconsistencies a handoff_message runs into elsewhere in ContextCore.
fn note_msg_inconsistencies(
    map: &Map<String, Value>,
    source: &PySource,
    report: &mut ProfileReport,
) {
    let errors = contract::validate_source(source);
    if !errors.is_empty() {
        let first: Vec<&str> = errors.iter().take(3).map(|e| e.message.as_str()).collect();
        report.quirk(
            quirk("cc-msg-not-contract"),
            JsonPath::root(),
            format!(
                "validate_outbound(\"HandoffContract\", ...) would report {} error(s), e.g. {}",
                errors.len(),
                first.join("; ")
            ),
        );
    }
    let priority = map.get("priority").and_then(Value::as_str);
    if priority.is_none_or(|p| p == "normal") {
        report.quirk(
            quirk("cc-store-enums-differ"),
            JsonPath::root().key("priority"),
            format!(
                "priority {} would be rejected by the storage constructor (storage has `medium`, not `normal`)",
                if priority.is_some() { "'normal'" } else { "absent (default 'normal')" }
            ),
        );
    }
    if let Some(status) = map
        .get("status")
        .and_then(Value::as_str)
        .filter(|s| ["input_required", "cancelled", "rejected"].contains(s))
    {
        report.quirk(
            quirk("cc-store-enums-differ"),
            JsonPath::root().key("status"),
            format!("status '{status}' is not in the storage status enum"),
        );
    }
}
