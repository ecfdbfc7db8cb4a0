//! Typed fields (spec section 3): a field is typed only when it is a JSON string at that exact
//! path; any other JSON type counts as absent.

use serde_json::{Map, Value};

/// The top-level keys the adapter maps; every other top-level key is unmapped.
pub const RECOGNISED_TOP_LEVEL_KEYS: [&str; 9] = [
    "protocol",
    "version",
    "event_type",
    "timestamp",
    "agent",
    "task",
    "artifact",
    "message",
    "attributes",
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypedFields {
    pub event_type: Option<String>,
    pub timestamp: Option<String>,
    pub agent_id: Option<String>,
    pub agent_name: Option<String>,
    pub agent_role: Option<String>,
    /// String items of `agent.capabilities`, sorted; `None` unless it is an array.
    pub agent_capabilities: Option<Vec<String>>,
    pub task_id: Option<String>,
    pub task_status: Option<String>,
    pub task_kind: Option<String>,
    pub artifact_id: Option<String>,
    pub artifact_name: Option<String>,
    pub artifact_media_type: Option<String>,
    pub message_id: Option<String>,
    pub message_role: Option<String>,
    /// Unmapped top-level keys, in byte order.
    pub unmapped_keys: Vec<String>,
}

fn string_at(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn nested_string(root: &Map<String, Value>, outer: &str, inner: &str) -> Option<String> {
    root.get(outer)
        .and_then(Value::as_object)
        .and_then(|object| string_at(object, inner))
}

impl TypedFields {
    pub fn read(root: &Map<String, Value>) -> TypedFields {
        let agent_capabilities = root
            .get("agent")
            .and_then(Value::as_object)
            .and_then(|agent| agent.get("capabilities"))
            .and_then(Value::as_array)
            .map(|items| {
                let mut strings: Vec<String> = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
                strings.sort_unstable();
                strings
            });
        TypedFields {
            event_type: string_at(root, "event_type"),
            timestamp: string_at(root, "timestamp"),
            agent_id: nested_string(root, "agent", "id"),
            agent_name: nested_string(root, "agent", "name"),
            agent_role: nested_string(root, "agent", "role"),
            agent_capabilities,
            task_id: nested_string(root, "task", "id"),
            task_status: nested_string(root, "task", "status"),
            task_kind: nested_string(root, "task", "kind"),
            artifact_id: nested_string(root, "artifact", "id"),
            artifact_name: nested_string(root, "artifact", "name"),
            artifact_media_type: nested_string(root, "artifact", "media_type"),
            message_id: nested_string(root, "message", "id"),
            message_role: nested_string(root, "message", "role"),
            unmapped_keys: root
                .keys()
                .filter(|key| !RECOGNISED_TOP_LEVEL_KEYS.contains(&key.as_str()))
                .cloned()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_strings_are_typed() {
        let packet = json!({
            "agent": {"id": 7, "role": "planner", "capabilities": ["b", 1, "a"]},
            "task": {"id": null, "kind": ["delegation"]},
            "message": "msg-1",
            "extra": 1, "zeta": 2
        });
        let fields = TypedFields::read(packet.as_object().unwrap());
        assert_eq!(fields.agent_id, None);
        assert_eq!(fields.agent_role.as_deref(), Some("planner"));
        assert_eq!(
            fields.agent_capabilities,
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(fields.task_id, None);
        assert_eq!(fields.task_kind, None);
        assert_eq!(fields.message_id, None);
        assert_eq!(fields.unmapped_keys, vec!["extra", "zeta"]);
    }

    #[test]
    fn capabilities_that_are_not_an_array_are_absent() {
        let packet = json!({"agent": {"capabilities": "search"}});
        assert_eq!(
            TypedFields::read(packet.as_object().unwrap()).agent_capabilities,
            None
        );
    }
}
