//! Telling an A2A object's kind from its shape. Published v0.3 examples often omit `kind`,
//! `role` or `messageId` (spec section 2), so every test below accepts the shape alone; `kind`
//! wins when present. Each test is narrow enough not to claim ordinary JSON.

use super::model::{ObjectKind, SECURITY_SCHEME_MEMBERS, TASK_STATES, WRAPPER_MEMBERS};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;

/// A shape test and the kind it recognises.
type ShapeTest = (fn(&Obj) -> bool, ObjectKind);

fn is_object(obj: &Obj, key: &str) -> bool {
    obj.get(key).is_some_and(Value::is_object)
}

fn is_array(obj: &Obj, key: &str) -> bool {
    obj.get(key).is_some_and(Value::is_array)
}

fn is_string(obj: &Obj, key: &str) -> bool {
    obj.get(key).is_some_and(Value::is_string)
}

fn keys_within(obj: &Obj, allowed: &[&str]) -> bool {
    obj.keys().all(|key| allowed.contains(&key.as_str()))
}

/// The kind named by a v0.3 `kind` discriminator.
pub(crate) fn kind_discriminated(obj: &Obj) -> Option<ObjectKind> {
    match obj.get("kind")?.as_str()? {
        "task" => Some(ObjectKind::Task),
        "message" => Some(ObjectKind::Message),
        "status-update" => Some(ObjectKind::StatusUpdateEvent),
        "artifact-update" => Some(ObjectKind::ArtifactUpdateEvent),
        "text" | "file" | "data" => Some(ObjectKind::Part),
        _ => None,
    }
}

/// `{"task": {...}}` and the other three: exactly one wrapper member holding an object.
pub(crate) fn wrapper_member(obj: &Obj) -> Option<(&'static str, ObjectKind)> {
    if obj.len() != 1 {
        return None;
    }
    WRAPPER_MEMBERS
        .iter()
        .find(|(member, _)| is_object(obj, member))
        .copied()
}

pub fn looks_like_task(obj: &Obj) -> bool {
    is_string(obj, "id") && is_object(obj, "status") && !obj.contains_key("taskId")
}

pub fn looks_like_status_event(obj: &Obj) -> bool {
    is_string(obj, "taskId") && is_object(obj, "status")
}

pub fn looks_like_artifact_event(obj: &Obj) -> bool {
    is_string(obj, "taskId") && is_object(obj, "artifact")
}

pub fn looks_like_message(obj: &Obj) -> bool {
    let has_content = is_array(obj, "parts") || is_array(obj, "content");
    has_content && (is_string(obj, "role") || is_string(obj, "messageId"))
}

pub fn looks_like_artifact(obj: &Obj) -> bool {
    is_string(obj, "artifactId") && is_array(obj, "parts")
}

/// ProtoJSON leaves an empty id out (spec section 3), so an object whose id was `""` is
/// told by its other members, where they are narrow enough: a `status` that reads as a
/// TaskStatus beside a Task's own lists, an `artifact` beside an event's flags, or parts
/// that read as parts beside an Artifact's name or description.
fn looks_like_task_without_id(obj: &Obj) -> bool {
    status_shaped(obj)
        && (is_array(obj, "history") || is_array(obj, "artifacts"))
        && keys_within(obj, TASK_KEYS)
}

/// A Task's members in either version.
const TASK_KEYS: &[&str] = &[
    "id",
    "contextId",
    "status",
    "history",
    "artifacts",
    "metadata",
    "kind",
];

pub fn looks_like_artifact_event_without_task_id(obj: &Obj) -> bool {
    is_object(obj, "artifact")
        && (obj.contains_key("append")
            || obj.contains_key("lastChunk")
            || is_string(obj, "contextId"))
        && keys_within(
            obj,
            &[
                "taskId",
                "contextId",
                "artifact",
                "append",
                "lastChunk",
                "metadata",
                "kind",
            ],
        )
}

pub fn looks_like_artifact_without_id(obj: &Obj) -> bool {
    let parts = obj
        .get("parts")
        .and_then(Value::as_array)
        .is_some_and(|parts| {
            !parts.is_empty()
                && parts
                    .iter()
                    .all(|part| part.as_object().is_some_and(part_shaped))
        });
    parts
        && (is_string(obj, "name") || is_string(obj, "description"))
        && keys_within(
            obj,
            &[
                "artifactId",
                "name",
                "description",
                "parts",
                "metadata",
                "extensions",
            ],
        )
}

fn status_shaped(obj: &Obj) -> bool {
    obj.get("status")
        .and_then(Value::as_object)
        .is_some_and(|status| keys_within(status, &["state", "message", "timestamp"]))
}

/// A part in either version: one content member and the part's own others.
fn part_shaped(obj: &Obj) -> bool {
    keys_within(obj, PART_KEYS)
        && ["text", "file", "data", "raw", "url"]
            .iter()
            .filter(|key| obj.contains_key(**key))
            .count()
            == 1
}

pub fn looks_like_card(obj: &Obj) -> bool {
    // v1.0's `supportedInterfaces` is a card's alone: it names the card even when ProtoJSON
    // left an empty name out.
    let interfaces = obj
        .get("supportedInterfaces")
        .and_then(Value::as_array)
        .is_some_and(|items| {
            items.iter().all(|item| {
                item.as_object().is_some_and(|item| {
                    item.contains_key("url") || item.contains_key("protocolBinding")
                })
            })
        });
    let card_member = [
        "name",
        "description",
        "version",
        "capabilities",
        "skills",
        "defaultInputModes",
        "defaultOutputModes",
    ]
    .iter()
    .any(|key| obj.contains_key(*key));
    if interfaces && card_member {
        return true;
    }
    let named = is_string(obj, "name");
    let described = is_array(obj, "skills") || is_object(obj, "capabilities");
    let located = [
        "url",
        "supportedInterfaces",
        "protocolVersion",
        "defaultInputModes",
    ]
    .iter()
    .any(|key| obj.contains_key(*key));
    named && described && located
}

pub fn looks_like_task_push_config(obj: &Obj) -> bool {
    let nested = is_object(obj, "pushNotificationConfig")
        && (is_string(obj, "taskId") || is_string(obj, "name"));
    let flat = is_string(obj, "taskId") && is_string(obj, "url");
    nested || flat
}

pub fn looks_like_push_config(obj: &Obj) -> bool {
    is_string(obj, "url")
        && (obj.contains_key("authentication") || obj.contains_key("token"))
        && keys_within(obj, &["id", "url", "token", "authentication"])
}

const PART_KEYS: &[&str] = &[
    "kind",
    "text",
    "file",
    "data",
    "raw",
    "url",
    "mediaType",
    "filename",
    "metadata",
];

/// Strict: a bare `{"text": ...}` or `{"data": ...}` is too common to claim on its own.
fn looks_like_part(obj: &Obj) -> bool {
    if matches!(kind_discriminated(obj), Some(ObjectKind::Part)) {
        return true;
    }
    if !keys_within(obj, PART_KEYS) {
        return false;
    }
    let file_object = obj
        .get("file")
        .and_then(Value::as_object)
        .is_some_and(|file| {
            ["uri", "bytes", "fileWithUri", "fileWithBytes"]
                .iter()
                .any(|key| file.contains_key(*key))
        });
    let v10_part = ["text", "raw", "url", "data"]
        .iter()
        .any(|key| obj.contains_key(*key))
        && (obj.contains_key("mediaType") || obj.contains_key("filename"));
    file_object || v10_part
}

pub fn looks_like_security_scheme(obj: &Obj) -> bool {
    let typed = obj
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| SECURITY_SCHEME_MEMBERS.iter().any(|(v03, _)| *v03 == t));
    let wrapped = obj.len() == 1
        && SECURITY_SCHEME_MEMBERS
            .iter()
            .any(|(_, member)| is_object(obj, member));
    typed || wrapped
}

/// A known state value in any of the three spellings.
fn is_known_state(state: &str) -> bool {
    TASK_STATES
        .iter()
        .any(|(v03, v10)| *v03 == state || *v10 == state)
        || state == super::model::REST_CANCELLED
}

pub fn looks_like_task_status(obj: &Obj) -> bool {
    obj.get("state")
        .and_then(Value::as_str)
        .is_some_and(is_known_state)
        && keys_within(obj, &["state", "message", "timestamp"])
}

pub fn looks_like_send_params(obj: &Obj) -> bool {
    let message = obj.get("message").or_else(|| obj.get("request"));
    let message_like = message.and_then(Value::as_object).is_some_and(|m| {
        ["role", "parts", "content", "messageId"]
            .iter()
            .any(|key| m.contains_key(*key))
    });
    message_like
        && keys_within(
            obj,
            &["message", "request", "configuration", "metadata", "tenant"],
        )
}

/// A REST / v1.0 list-configs response body: `{configs: [...], nextPageToken}`.
fn looks_like_push_config_list(obj: &Obj) -> bool {
    obj.get("configs")
        .and_then(Value::as_array)
        .is_some_and(|configs| {
            configs.iter().all(|config| {
                config.as_object().is_some_and(|config| {
                    looks_like_task_push_config(config) || config.contains_key("url")
                })
            })
        })
        && keys_within(obj, &["configs", "nextPageToken"])
}

pub fn looks_like_list_tasks_result(obj: &Obj) -> bool {
    is_array(obj, "tasks")
        && [
            "nextPageToken",
            "totalSize",
            "pageSize",
            "next_page_token",
            "total_size",
            "page_size",
        ]
        .iter()
        .any(|key| obj.contains_key(*key))
}

/// The kind of a bare A2A object (not a JSON-RPC envelope), by `kind` or by shape.
pub(crate) fn classify_object(obj: &Obj) -> Option<ObjectKind> {
    if let Some(kind) = kind_discriminated(obj) {
        return Some(kind);
    }
    if wrapper_member(obj).is_some() {
        return Some(ObjectKind::StreamResponse);
    }
    let tests: &[ShapeTest] = &[
        (looks_like_card, ObjectKind::AgentCard),
        (
            looks_like_task_push_config,
            ObjectKind::TaskPushNotificationConfig,
        ),
        (looks_like_status_event, ObjectKind::StatusUpdateEvent),
        (looks_like_artifact_event, ObjectKind::ArtifactUpdateEvent),
        (looks_like_task, ObjectKind::Task),
        (looks_like_message, ObjectKind::Message),
        (looks_like_artifact, ObjectKind::Artifact),
        (looks_like_task_without_id, ObjectKind::Task),
        (
            looks_like_artifact_event_without_task_id,
            ObjectKind::ArtifactUpdateEvent,
        ),
        (looks_like_artifact_without_id, ObjectKind::Artifact),
        (looks_like_list_tasks_result, ObjectKind::ListTasksResult),
        (looks_like_push_config_list, ObjectKind::PushConfigList),
        (looks_like_send_params, ObjectKind::SendMessageParams),
        (looks_like_security_scheme, ObjectKind::SecurityScheme),
        (looks_like_task_status, ObjectKind::TaskStatus),
        (looks_like_part, ObjectKind::Part),
        (looks_like_push_config, ObjectKind::PushNotificationConfig),
    ];
    tests
        .iter()
        .find(|(test, _)| test(obj))
        .map(|(_, kind)| *kind)
}

/// The kind of a JSON-RPC `result`: the list-configs array or object, or a bare object.
/// `null` (the delete result) has no kind.
pub(crate) fn classify_result(result: &Value) -> Option<ObjectKind> {
    match result {
        Value::Array(items) if items.iter().all(Value::is_object) => {
            Some(ObjectKind::PushConfigList)
        }
        Value::Object(obj) if is_array(obj, "configs") && !obj.contains_key("tasks") => {
            Some(ObjectKind::PushConfigList)
        }
        // No v0.3 or v1.0 result is a bare PushNotificationConfig: a `url` with push-config
        // members there is the v1.0 flat TaskPushNotificationConfig.
        Value::Object(obj) => match classify_object(obj) {
            Some(ObjectKind::PushNotificationConfig) => {
                Some(ObjectKind::TaskPushNotificationConfig)
            }
            Some(kind) => Some(kind),
            None => result_only_shape(obj),
        },
        _ => None,
    }
}

/// Shapes a JSON-RPC result can have that a bare object could not be claimed by: ProtoJSON
/// leaves out what is empty, and in a result position (an A2A response, by its own members
/// or by a hint) what is left is narrow. `{}` is the v1.0 list-configs result with no
/// configs (v0.3 writes `[]`); a `url` with push-config members is the v1.0
/// TaskPushNotificationConfig a set/get call returns (no v0.3 result is a bare
/// PushNotificationConfig).
fn result_only_shape(obj: &Obj) -> Option<ObjectKind> {
    if obj.is_empty() {
        return Some(ObjectKind::PushConfigList);
    }
    let push_config = is_string(obj, "url")
        && keys_within(
            obj,
            &["id", "taskId", "url", "token", "authentication", "tenant"],
        );
    // A v1.0 result's bare Task whose empty id ProtoJSON left out: v1.0 wraps every
    // stream event, so a bare status in a result is a Task's.
    if status_shaped(obj) && keys_within(obj, TASK_KEYS) {
        return Some(ObjectKind::Task);
    }
    let nested = is_object(obj, "pushNotificationConfig")
        && keys_within(obj, &["taskId", "pushNotificationConfig", "name"]);
    (push_config || nested).then_some(ObjectKind::TaskPushNotificationConfig)
}

/// A JSON-RPC envelope: a request (`method`) or a response (`result` / `error`).
pub(crate) fn classify_envelope(obj: &Obj) -> Option<ObjectKind> {
    let envelope_marked = obj.contains_key("jsonrpc") || obj.contains_key("id");
    if is_string(obj, "method") && (envelope_marked || obj.contains_key("params")) {
        return Some(ObjectKind::JsonRpcRequest);
    }
    if envelope_marked && (obj.contains_key("result") || is_object(obj, "error")) {
        return Some(ObjectKind::JsonRpcResponse);
    }
    None
}

/// Kinds whose position can hold either the bare object or its v1.0 wrapper, so the
/// walker re-classifies them each time (a step may have wrapped or unwrapped them).
pub(crate) fn is_streamish(kind: ObjectKind) -> bool {
    matches!(
        kind,
        ObjectKind::Task
            | ObjectKind::Message
            | ObjectKind::StatusUpdateEvent
            | ObjectKind::ArtifactUpdateEvent
            | ObjectKind::StreamResponse
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn classify(value: Value) -> Option<ObjectKind> {
        classify_object(value.as_object().unwrap())
    }

    #[test]
    fn result_positions_place_what_protojson_left_thin() {
        assert_eq!(
            classify_result(&json!({})),
            Some(ObjectKind::PushConfigList)
        );
        assert_eq!(
            classify_result(&json!({"url": "https://h", "token": "t"})),
            Some(ObjectKind::TaskPushNotificationConfig)
        );
        assert_eq!(
            classify_result(&json!({"contextId": "c", "status": {}})),
            Some(ObjectKind::Task)
        );
        assert_eq!(classify(json!({"url": "https://h"})), None);
        assert_eq!(
            classify(json!({"description": "d", "supportedInterfaces": [{"url": "u"}]})),
            Some(ObjectKind::AgentCard)
        );
    }

    #[test]
    fn kind_wins_then_shape() {
        assert_eq!(
            classify(json!({"kind": "task", "id": "t"})),
            Some(ObjectKind::Task)
        );
        assert_eq!(
            classify(json!({"id": "t", "contextId": "c", "status": {"state": "working"}})),
            Some(ObjectKind::Task)
        );
        assert_eq!(
            classify(json!({"role": "user", "parts": []})),
            Some(ObjectKind::Message)
        );
        assert_eq!(
            classify(json!({"taskId": "t", "contextId": "c", "status": {}, "final": true})),
            Some(ObjectKind::StatusUpdateEvent)
        );
        assert_eq!(
            classify(json!({"statusUpdate": {"taskId": "t"}})),
            Some(ObjectKind::StreamResponse)
        );
    }

    #[test]
    fn objects_whose_empty_id_protojson_left_out_are_still_told() {
        assert_eq!(
            classify(json!({"status": {"state": "TASK_STATE_WORKING"}, "history": []})),
            Some(ObjectKind::Task)
        );
        assert_eq!(
            classify(json!({"contextId": "c", "artifact": {"parts": [{"text": "x"}]}})),
            Some(ObjectKind::ArtifactUpdateEvent)
        );
        assert_eq!(
            classify(json!({"name": "report", "parts": [{"url": "https://h/a"}]})),
            Some(ObjectKind::Artifact)
        );
        // Ambiguous without an id: a Task or a status event; ordinary JSON stays unclaimed.
        assert_eq!(classify(json!({"contextId": "c", "status": {}})), None);
        assert_eq!(classify(json!({"name": "x", "parts": [1, 2]})), None);
        assert_eq!(classify(json!({"name": "x", "parts": [{"a": 1}]})), None);
    }

    #[test]
    fn ordinary_json_is_not_claimed() {
        assert_eq!(classify(json!({"text": "hello"})), None);
        assert_eq!(classify(json!({"data": {"a": 1}})), None);
        assert_eq!(classify(json!({"name": "x", "url": "https://e"})), None);
        assert_eq!(classify(json!({"id": 1, "status": "ok"})), None);
        assert_eq!(classify(json!({"task": 1})), None);
        assert_eq!(classify(json!({"state": "ok"})), None);
    }

    #[test]
    fn results_and_envelopes() {
        assert_eq!(
            classify_result(&json!([{"taskId": "t"}])),
            Some(ObjectKind::PushConfigList)
        );
        assert_eq!(
            classify_result(&json!({"configs": []})),
            Some(ObjectKind::PushConfigList)
        );
        assert_eq!(classify_result(&Value::Null), None);
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get"});
        assert_eq!(
            classify_envelope(request.as_object().unwrap()),
            Some(ObjectKind::JsonRpcRequest)
        );
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": null});
        assert_eq!(
            classify_envelope(response.as_object().unwrap()),
            Some(ObjectKind::JsonRpcResponse)
        );
    }
}
