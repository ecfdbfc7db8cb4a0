//! Detection of an A2A object's version, dialect and type, with the reasons (spec section 2).
//!
//! The root kind comes from the JSON-RPC envelope, a `kind` discriminator or the object's
//! shape; the version comes from the signals every nested object carries. Objects that carry
//! both v0.3 and v1.0 signals are reported as mixed, and migrated from v0.3.

use super::hints::{HintSource, Hints};
use super::model::{method_row, Dialect, ObjectKind, Version};
use super::shape;
use super::signals::{object_signals, Class, Signal};
use super::walk::collect;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// What an input is, and why the tool thinks so.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Detection {
    pub version: Version,
    pub dialect: Dialect,
    pub object: ObjectKind,
    /// The JSON-RPC method of a request, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// True when the object carries signals of both versions.
    pub mixed: bool,
    /// Human-readable reasons, each naming a JSON path; terminal-safe.
    pub reasons: Vec<String>,
    /// The signals that contradict the detected version (empty unless `mixed`).
    pub conflicts: Vec<String>,
    /// True when nothing in the object differs between v0.3 and v1.0 (its version, if
    /// any, came from a hint): it migrates to itself.
    pub identical: bool,
}

impl Detection {
    /// `A2A v0.3 Task (JSON-RPC dialect)`.
    pub fn summary(&self) -> String {
        let object = match &self.method {
            Some(method) => format!("{} {}", self.object.label(), crate::json::safe_text(method)),
            None => self.object.label().to_owned(),
        };
        let mixed = if self.mixed { ", mixed versions" } else { "" };
        format!(
            "A2A {} {} ({}{})",
            self.version.label(),
            object,
            self.dialect.label(),
            mixed
        )
    }
}

/// Why an input is not an A2A object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotA2a(pub String);

impl fmt::Display for NotA2a {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The version, dialect and type of an A2A v0.3 or v1.0 object; `None` for other JSON,
/// including the A2A adapter's own packets, canonical payloads and evidence events.
pub fn detect(value: &Value) -> Option<Detection> {
    detect_explained(value).ok()
}

/// Like [`detect`], with the reason when the input is not an A2A object.
pub fn detect_explained(value: &Value) -> Result<Detection, NotA2a> {
    detect_with(value, &Hints::none())
}

/// The one detection every face asks: [`detect_explained`] settled by what the caller knows
/// beyond the JSON ([`Hints`]: a forced kind or version, a fixture's file name).
pub fn detect_with(value: &Value, hints: &Hints) -> Result<Detection, NotA2a> {
    // ProtoJSON's proto names (`message_id`) read as their JSON names, as the migration
    // reads them ([`super::proto_names`]); a copy only for objects that use them.
    if value.get("event_type").is_none() && super::proto_names::has_proto_names(value) {
        let mut renamed = value.clone();
        let names = super::proto_names::camel_case_members(&mut renamed);
        let mut detection = detect_renamed(&renamed, hints)?;
        detection.reasons.push(proto_names_reason(&names));
        // v0.3's JSON-RPC dialect never writes proto names and v1.0's writers use the JSON
        // names, while a2a-python's v0.3 REST client writes them: a data part still in the
        // REST `{"data": {"data": ...}}` wrapper then reads as the REST DataPart, as the
        // SDK's REST reader reads it.
        if detection.version == Version::Indeterminate
            && has_rest_data_wrapper(&renamed, detection.object)
        {
            detection.version = Version::V0_3;
            detection.dialect = Dialect::Rest;
            detection.identical = false;
            detection.reasons.push(
                "a data part in the REST `{\"data\": {\"data\": ...}}` wrapper, beside proto names: read as the v0.3 HTTP+JSON/REST dialect".into(),
            );
        }
        return Ok(detection);
    }
    detect_renamed(value, hints)
}

/// True when a Part below `value` holds `{"data": {"data": ...}}` and nothing else in `data`.
fn has_rest_data_wrapper(value: &Value, root: ObjectKind) -> bool {
    collect(value, root).iter().any(|node| {
        node.kind == ObjectKind::Part
            && node
                .path
                .lookup(value)
                .and_then(|part| part.get("data"))
                .and_then(Value::as_object)
                .is_some_and(|data| data.len() == 1 && data.contains_key("data"))
    })
}

/// The reason naming the members read under their proto names.
pub(crate) fn proto_names_reason(names: &[super::proto_names::ProtoName]) -> String {
    let first = names
        .first()
        .map(|name| {
            format!(
                " (first: `{}` read as {})",
                crate::json::safe_text(&name.written),
                name.path
            )
        })
        .unwrap_or_default();
    format!(
        "{} member(s) written with their proto (snake_case) names, read as their JSON names{first}",
        names.len()
    )
}

/// Why a JSON text whose root is not an object is no A2A object (said without its tree:
/// `migrate` reads such a root with `json::read_root`).
pub fn not_an_object(json_type: crate::json::JsonType) -> NotA2a {
    NotA2a(format!(
        "the top-level JSON value is {}, not an object",
        json_type.with_article()
    ))
}

/// [`detect_with`] on an object whose members carry their JSON names.
fn detect_renamed(value: &Value, hints: &Hints) -> Result<Detection, NotA2a> {
    let Some(obj) = value.as_object() else {
        return Err(not_an_object(crate::json::JsonType::of(value)));
    };
    if let Some(reason) = adapter_artifact(obj) {
        return Err(NotA2a(reason));
    }
    let (object, how) = match hints.kind {
        Some(kind) => (kind, "`--kind`, forced".to_owned()),
        None => root_kind(obj)
            .or_else(|why| hinted_kind(obj, hints).ok_or(why))
            .map_err(NotA2a)?,
    };
    let method = (object == ObjectKind::JsonRpcRequest)
        .then(|| obj.get("method").and_then(Value::as_str).map(str::to_owned))
        .flatten();
    let mut signals = Vec::new();
    for node in collect(value, object) {
        if let Some(node_obj) = node.path.lookup(value).and_then(Value::as_object) {
            object_signals(node.kind, node_obj, &node.path, &mut signals);
        }
    }
    let mut detection = decide(object, method, how, &signals);
    if let Some(hint) = &hints.version {
        let forced = hint.source == HintSource::Forced;
        if forced || detection.version == Version::Indeterminate {
            detection.version = hint.version;
            detection.dialect = match (hint.version, detection.dialect) {
                // v0.3's ProtoJSON is its HTTP+JSON/REST dialect: an object that reads as
                // v1.0 ProtoJSON and is said to be v0.3 is a REST object.
                (Version::V0_3, Dialect::Rest | Dialect::ProtoJson) => Dialect::Rest,
                (Version::V0_3, _) => Dialect::JsonRpc,
                (Version::V1_0Rc, _) => Dialect::PreRelease,
                _ => Dialect::ProtoJson,
            };
            detection.mixed = false;
            detection.conflicts.clear();
            detection.reasons.push(hint.why());
        }
    }
    if let (Some(dialect), Version::V0_3) = (hints.dialect, detection.version) {
        if detection.dialect != dialect {
            detection.dialect = dialect;
            detection
                .reasons
                .push(format!("{} forced (`--from 0.3-rest`)", dialect.label()));
        }
    }
    Ok(detection)
}

/// The kind of an object its own members leave open, when a hint says it is an A2A object
/// of a version: a JSON-RPC envelope with a generic result or error, or a bare Part.
fn hinted_kind(obj: &Map<String, Value>, hints: &Hints) -> Option<(ObjectKind, String)> {
    hints.version.as_ref()?;
    if let Some(kind) = shape::classify_envelope(obj) {
        return Some((
            kind,
            "a JSON-RPC envelope, an A2A one by the version hint".into(),
        ));
    }
    bare_part(obj).then(|| {
        (
            ObjectKind::Part,
            "a bare `text` or `data` member, a Part by the version hint".into(),
        )
    })
}

fn bare_part(obj: &Map<String, Value>) -> bool {
    !obj.is_empty()
        && (obj.contains_key("text") || obj.contains_key("data"))
        && obj
            .keys()
            .all(|key| matches!(key.as_str(), "text" | "data" | "metadata"))
}

fn no_shape_reason(obj: &Map<String, Value>) -> String {
    let bare_part = !obj.is_empty()
        && obj
            .keys()
            .all(|key| matches!(key.as_str(), "text" | "data" | "metadata"));
    if bare_part {
        return "no A2A object found: a bare `text` or `data` member (with `metadata`) reads the \
                same in v0.3 without `kind` and in v1.0, and is too common to claim as a Part; \
                add `kind`, or say what it is with `--kind part --from 0.3|1.0`"
            .into();
    }
    let bare_url = obj.get("url").is_some_and(Value::is_string)
        && obj
            .keys()
            .all(|key| matches!(key.as_str(), "url" | "id" | "token"));
    if bare_url {
        return "no A2A object found: a `url` alone reads as a v0.3 PushNotificationConfig and \
                as a v1.0 TaskPushNotificationConfig whose empty task id ProtoJSON left out; \
                say which with `--kind push-notification-config --from 0.3` or `--kind \
                task-push-notification-config --from 1.0`"
            .into();
    }
    "no A2A object found: no JSON-RPC envelope, no `kind` discriminator, and no Task, \
     Message, event, push-config or Agent Card shape; `--kind KIND` (see `migrate --help`) \
     and `--from 0.3|1.0` say what it is"
        .into()
}

/// The adapter's own artifacts look A2A-ish but are not protocol objects; the corpus
/// classifier must keep them apart.
fn adapter_artifact(obj: &Map<String, Value>) -> Option<String> {
    artifact_reason(
        |key| obj.get(key).and_then(Value::as_str),
        |key| obj.contains_key(key),
    )
}

/// The top-level members [`adapter_artifact`] reads.
const ARTIFACT_MEMBERS: [&str; 5] = [
    "protocol",
    "event_type",
    "adapter_id",
    "specversion",
    "type",
];

/// [`detect_with`]'s refusal of one of the adapter's own artifacts (its first check, whatever
/// the hints), read from a JSON text without its tree: `migrate` refuses a raw adapter packet
/// of 200k keys in milliseconds instead of building a 20 MB tree to refuse. `None` when the
/// text is no such artifact, or not a JSON object (the reading of its tree says why).
pub fn adapter_artifact_in_text(bytes: &[u8]) -> Option<NotA2a> {
    let members = crate::json::read_top_level(bytes, &ARTIFACT_MEMBERS).ok()??;
    let member = |key: &str| {
        ARTIFACT_MEMBERS
            .iter()
            .position(|name| *name == key)
            .and_then(|index| members.get(index)?.as_ref())
    };
    artifact_reason(
        |key| member(key).and_then(crate::json::TopLevel::as_str),
        |key| member(key).is_some(),
    )
    .map(NotA2a)
}

/// Why an object whose top-level string members are `text` and whose members are `present`
/// is one of the adapter's artifacts, if it is one.
fn artifact_reason<'a>(
    text: impl Fn(&str) -> Option<&'a str>,
    present: impl Fn(&str) -> bool,
) -> Option<String> {
    if text("protocol") == Some("a2a") && present("event_type") {
        return Some(
            "a raw A2A adapter packet (top-level `protocol` \"a2a\" with `event_type`), \
             not an A2A protocol object"
                .into(),
        );
    }
    if text("adapter_id") == Some("assay-adapter-a2a") {
        return Some(
            "a canonical A2A adapter payload (`adapter_id` \"assay-adapter-a2a\"), not an A2A \
             protocol object"
                .into(),
        );
    }
    let evidence_type = text("type").is_some_and(|t| t.starts_with("assay.adapter.a2a."));
    if present("specversion") && evidence_type {
        return Some(
            "an adapter evidence event (`specversion` with `type` assay.adapter.a2a.*), not \
             an A2A protocol object"
                .into(),
        );
    }
    None
}

/// The root's kind and how it was told, or why the object is not an A2A object.
fn root_kind(obj: &Map<String, Value>) -> Result<(ObjectKind, String), String> {
    match shape::classify_envelope(obj) {
        Some(ObjectKind::JsonRpcRequest) => {
            let method = obj.get("method").and_then(Value::as_str).unwrap_or("");
            if method_row(method).is_none() {
                return Err(format!(
                    "a JSON-RPC request, but {} is not an A2A method of v0.3 or v1.0",
                    super::model::shown(&Value::String(method.to_owned()))
                ));
            }
            return Ok((
                ObjectKind::JsonRpcRequest,
                "a JSON-RPC envelope with an A2A `method`".into(),
            ));
        }
        Some(kind) => {
            return a2a_response(obj)
                .map(|how| (kind, how.into()))
                .ok_or_else(|| {
                    "a JSON-RPC response whose result or error carries nothing A2A-specific (a \
                     null or unknown result, or a generic error code); `--from 0.3|1.0` says \
                     it is an A2A response"
                        .into()
                })
        }
        None => {}
    }
    if let Some(kind) = shape::kind_discriminated(obj) {
        return Ok((kind, "its `kind` discriminator".into()));
    }
    shape::classify_object(obj)
        .map(|kind| (kind, "its shape (no `kind` member)".into()))
        .ok_or_else(|| no_shape_reason(obj))
}

/// A JSON-RPC response is claimed only when its result is an A2A object (or the list-configs
/// result), or its error has an A2A code (-32001..-32009) or an A2A ErrorInfo.
fn a2a_response(obj: &Map<String, Value>) -> Option<&'static str> {
    // An empty `{}` result is A2A only by a hint: too common to claim on its own.
    let result = obj
        .get("result")
        .filter(|result| result.as_object().is_none_or(|o| !o.is_empty()));
    if result.and_then(shape::classify_result).is_some() {
        return Some("a JSON-RPC response with an A2A `result`");
    }
    let error = obj.get("error")?;
    let a2a_code = error
        .get("code")
        .and_then(Value::as_i64)
        .is_some_and(|code| (-32009..=-32001).contains(&code));
    let a2a_info = error
        .get("data")
        .and_then(Value::as_array)
        .is_some_and(|items| {
            items.iter().any(|item| {
                item.get("domain").and_then(Value::as_str) == Some(super::model::ERROR_DOMAIN)
            })
        });
    (a2a_code || a2a_info).then_some("a JSON-RPC response with an A2A error")
}

fn decide(
    object: ObjectKind,
    method: Option<String>,
    how: String,
    signals: &[Signal],
) -> Detection {
    let has = |class: Class| signals.iter().any(|signal| signal.class == class);
    let old = has(Class::Rpc) || has(Class::Rest) || has(Class::V03);
    let rc_only = has(Class::V03OrRc) && !old;
    let (version, dialect) = if old || (rc_only && !has(Class::V10)) {
        let dialect = if has(Class::Rpc) {
            Dialect::JsonRpc
        } else if has(Class::Rest) || has(Class::ProtoJson) {
            Dialect::Rest
        } else {
            // JSON-RPC is the v0.3 default transport and the card's dialect.
            Dialect::JsonRpc
        };
        (Version::V0_3, dialect)
    } else if rc_only {
        (Version::V1_0Rc, Dialect::PreRelease)
    } else if has(Class::V10) || has(Class::ProtoJson) {
        (Version::V1_0, Dialect::ProtoJson)
    } else {
        (Version::Indeterminate, Dialect::Unknown)
    };
    let conflicting = |class: Class| match (version, dialect) {
        (Version::V0_3, Dialect::JsonRpc) => {
            matches!(class, Class::V10 | Class::ProtoJson | Class::Rest)
        }
        (Version::V0_3, _) => matches!(class, Class::V10 | Class::Rpc),
        _ => false,
    };
    let supporting: Vec<&Signal> = signals.iter().filter(|s| !conflicting(s.class)).collect();
    let against: Vec<&Signal> = signals.iter().filter(|s| conflicting(s.class)).collect();
    let mut reasons = vec![format!("object: {} (from {how})", object.label())];
    reasons.extend(grouped(&supporting));
    if version == Version::Indeterminate {
        reasons.push("no field or value that differs between v0.3 and v1.0".into());
    }
    let identical = signals.is_empty();
    let conflicts = grouped(&against);
    Detection {
        version,
        dialect,
        object,
        method,
        mixed: !conflicts.is_empty(),
        reasons,
        conflicts,
        identical,
    }
}

/// One line per kind of signal: the first path, and how many more there are.
fn grouped(signals: &[&Signal]) -> Vec<String> {
    let mut groups: BTreeMap<(Class, &str), (&Signal, usize)> = BTreeMap::new();
    let mut order = Vec::new();
    for signal in signals {
        let key = (signal.class, signal.what.as_str());
        match groups.get_mut(&key) {
            Some((_, count)) => *count += 1,
            None => {
                groups.insert(key, (signal, 0));
                order.push(key);
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| groups.get(&key))
        .map(|(signal, more)| {
            let more = if *more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            format!(
                "{}: {} [{}]{more}",
                signal.path,
                signal.what,
                signal.class.label()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_artifact_refused_from_the_text_is_refused_so_by_the_detection() {
        let mut texts: Vec<Vec<u8>> = [
            &br#"{"protocol":"a2a","event_type":null,"kind":"task"}"#[..],
            br#"{"protocol":"a2a","protocol":1,"event_type":"x"}"#,
            br#"{"protocol":"a2a"}"#,
            br#"{"adapter_id":"assay-adapter-a2a","message_id":"m"}"#,
            br#"{"specversion":"1.0","type":"assay.adapter.a2a.message","data":{}}"#,
            br#"{"specversion":"1.0","type":"other"}"#,
            br#"{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"}}"#,
            br#"[{"protocol":"a2a","event_type":"x"}]"#,
            br#"{"protocol":"a2a","event_type":"x","n":1e400}"#,
        ]
        .iter()
        .map(|text| text.to_vec())
        .collect();
        for dir in ["fixtures/a2a", "fixtures/migrate"] {
            for entry in std::fs::read_dir(dir).unwrap() {
                texts.push(std::fs::read(entry.unwrap().path()).unwrap_or_default());
            }
        }
        let mut refused = 0;
        for text in texts {
            let from_text = adapter_artifact_in_text(&text);
            let Ok(tree) = serde_json::from_slice::<Value>(&text) else {
                assert_eq!(from_text, None, "{}", String::from_utf8_lossy(&text));
                continue;
            };
            match &from_text {
                // The detection's first refusal, whatever the hints say.
                Some(why) => {
                    let forced = Hints::none().forced(Some(ObjectKind::Task), Some(Version::V0_3));
                    for hints in [Hints::none(), forced] {
                        assert_eq!(detect_with(&tree, &hints).as_ref(), Err(why), "{tree}");
                    }
                    refused += 1;
                }
                None => assert_eq!(tree.as_object().and_then(adapter_artifact), None, "{tree}"),
            }
        }
        assert!(refused > 10, "{refused}");
    }

    #[test]
    fn v03_jsonrpc_task_without_kind() {
        let found = detect(&json!({"id": "t", "contextId": "c", "status": {"state": "completed"}}))
            .unwrap();
        assert_eq!(found.version, Version::V0_3);
        assert_eq!(found.dialect, Dialect::JsonRpc);
        assert_eq!(found.object, ObjectKind::Task);
        assert!(!found.mixed);
        assert!(found.reasons[0].contains("shape"), "{:?}", found.reasons);
        assert!(
            found.reasons[1].contains("$.status.state"),
            "{:?}",
            found.reasons
        );
    }

    #[test]
    fn v03_rest_message() {
        let found =
            detect(&json!({"messageId": "m", "role": "ROLE_USER", "content": [{"text": "hi"}]}))
                .unwrap();
        assert_eq!(
            (found.version, found.dialect),
            (Version::V0_3, Dialect::Rest)
        );
    }

    #[test]
    fn v10_and_indeterminate() {
        let v10 =
            detect(&json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t"}}))
                .unwrap();
        assert_eq!(
            (v10.version, v10.dialect),
            (Version::V1_0, Dialect::ProtoJson)
        );
        let plain = detect(&json!({"kind": "task", "id": "t", "status": {}})).unwrap();
        assert_eq!(plain.version, Version::V0_3);
        let neither = detect(&json!({"artifactId": "a", "parts": [{"text": "x"}]})).unwrap();
        assert_eq!(neither.version, Version::Indeterminate);
    }

    #[test]
    fn mixed_versions_are_named() {
        let found = detect(
            &json!({"kind": "task", "id": "t", "status": {"state": "TASK_STATE_COMPLETED"}}),
        )
        .unwrap();
        assert_eq!(found.version, Version::V0_3);
        assert!(found.mixed);
        assert!(
            found.conflicts[0].contains("$.status.state"),
            "{:?}",
            found.conflicts
        );
    }

    #[test]
    fn release_candidate_shapes() {
        let found = detect(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
            "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
            "configuration": {"blocking": true}}}),
        )
        .unwrap();
        assert_eq!(found.version, Version::V1_0Rc);
    }

    #[test]
    fn adapter_artifacts_and_plain_json_are_not_claimed() {
        for value in [
            json!({"protocol": "a2a", "event_type": "task", "task": {"kind": "task"}}),
            json!({"adapter_id": "assay-adapter-a2a", "task": {}}),
            json!({"specversion": "1.0", "type": "assay.adapter.a2a.message", "data": {}}),
            json!({"hello": "world"}),
            json!([1, 2]),
            json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call"}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"balance": 3}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": null}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no such method"}}),
        ] {
            assert!(detect(&value).is_none(), "{value}");
        }
    }
}
