//! ProtoJSON parsers accept a field's proto name (`message_id`) as well as its JSON name
//! (`messageId`), and a2a-python's v0.3 REST client writes proto names (spec section 3). The
//! migration reads both and writes lowerCamel: before detection, every member whose
//! lowerCamel form is a known A2A field is renamed, and each rename is reported.
//!
//! Free-form maps are left alone: `metadata`, `data`, `header` and extension `params` hold
//! the sender's own keys, and the names under `securitySchemes`, `schemes` and `scopes` are
//! the sender's scheme and scope names.

use crate::json::JsonPath;
use serde_json::Value;

/// The A2A fields whose proto name differs from their JSON name (v0.3 REST and v1.0).
/// `last_updated_after` is not here: the a2a-go draft `tasks/list` spelling is the
/// `list-tasks-draft-params` step's to read (its value is a date, not epoch milliseconds).
const PROTO_NAMES: &[&str] = &[
    "message_id",
    "context_id",
    "task_id",
    "reference_task_ids",
    "artifact_id",
    "last_chunk",
    "push_notification_config",
    "push_notification",
    "history_length",
    "accepted_output_modes",
    "return_immediately",
    "task_push_notification_config",
    "media_type",
    "mime_type",
    "file_with_uri",
    "file_with_bytes",
    "protocol_version",
    "preferred_transport",
    "additional_interfaces",
    "supported_interfaces",
    "protocol_binding",
    "documentation_url",
    "icon_url",
    "default_input_modes",
    "default_output_modes",
    "security_schemes",
    "security_requirements",
    "supports_authenticated_extended_card",
    "extended_agent_card",
    "push_notifications",
    "state_transition_history",
    "input_modes",
    "output_modes",
    "api_key_security_scheme",
    "http_auth_security_scheme",
    "oauth2_security_scheme",
    "open_id_connect_security_scheme",
    "mtls_security_scheme",
    "bearer_format",
    "oauth2_metadata_url",
    "open_id_connect_url",
    "authorization_code",
    "client_credentials",
    "device_code",
    "authorization_url",
    "token_url",
    "refresh_url",
    "pkce_required",
    "device_authorization_url",
    "status_update",
    "artifact_update",
    "next_page_token",
    "page_size",
    "page_token",
    "total_size",
    "include_artifacts",
    "status_timestamp_after",
    "push_notification_config_id",
];

/// Members whose value is the sender's own map: neither its keys nor anything below it are
/// A2A field names.
const FREE_FORM: &[&str] = &["metadata", "data", "header"];

/// An AgentExtension's `params` (beside its `uri`) is free-form too; a JSON-RPC `params`
/// is not.
fn free_form(obj: &serde_json::Map<String, Value>, key: &str) -> bool {
    FREE_FORM.contains(&key) || (key == "params" && obj.contains_key("uri"))
}

/// Members whose keys are names the sender chose (schemes, scopes), over A2A values.
const NAMED_MAPS: &[&str] = &["securitySchemes", "schemes", "scopes"];

/// The lowerCamel JSON name of a proto field name.
pub(crate) fn lower_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// One member read under its proto name.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ProtoName {
    /// Where it is, under its new name.
    pub path: JsonPath,
    /// The proto name as written.
    pub written: String,
    /// The JSON name it was read as.
    pub json: String,
    /// Where it was, under its proto name.
    pub was: JsonPath,
}

/// True when some member of `value` is written with a proto name.
pub(crate) fn has_proto_names(value: &Value) -> bool {
    any_proto_name(value, false)
}

/// Renames every member written with its proto name to its JSON name, in place; returns
/// them. A member whose JSON name is present too is left as it is (the object says both,
/// and the check reports the stale one).
pub(crate) fn camel_case_members(value: &mut Value) -> Vec<ProtoName> {
    let mut renamed = Vec::new();
    rename(value, &JsonPath::root(), &mut renamed);
    renamed
}

fn known(key: &str) -> bool {
    key.contains('_') && PROTO_NAMES.contains(&key)
}

/// The JSON name of `key` in `obj` when `key` is a proto name: the table's, and the three
/// v0.3 proto fields whose `json_name` is not their lowerCamel form (a2a_v0_3.proto:
/// `TaskStatus.update`, the `msg` of StreamResponse and SendMessageResponse, all JSON
/// `message`), told by the object they sit in (the names alone are too common).
fn json_name(obj: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    if known(key) {
        return Some(lower_camel(key));
    }
    let status = key == "update"
        && obj
            .keys()
            .all(|member| matches!(member.as_str(), "state" | "update" | "timestamp"));
    let wrapper = key == "msg" && obj.len() == 1;
    (status || wrapper).then(|| "message".to_owned())
}

fn names_a_map(key: &str) -> bool {
    NAMED_MAPS.contains(&key)
        || (key.contains('_') && NAMED_MAPS.contains(&lower_camel(key).as_str()))
}

/// Whether some member below `value` has a proto name, descending as `rename_in` does and
/// stopping at the first (no paths are built: the classifier asks this of every object).
fn any_proto_name(value: &Value, named: bool) -> bool {
    match value {
        Value::Object(obj) => obj.iter().any(|(key, item)| {
            (!named && json_name(obj, key).is_some())
                || ((named || !free_form(obj, key))
                    && any_proto_name(item, !named && names_a_map(key)))
        }),
        Value::Array(items) => items.iter().any(|item| any_proto_name(item, false)),
        _ => false,
    }
}

fn rename(value: &mut Value, at: &JsonPath, renamed: &mut Vec<ProtoName>) {
    rename_in(value, at, renamed, false);
}

fn rename_in(value: &mut Value, at: &JsonPath, renamed: &mut Vec<ProtoName>, named: bool) {
    match value {
        Value::Object(obj) => {
            if !named && obj.keys().any(|key| json_name(obj, key).is_some()) {
                let names: Vec<Option<String>> =
                    obj.keys().map(|key| json_name(obj, key)).collect();
                let old = std::mem::take(obj);
                // Both spellings present: both kept (the check reports the stale one).
                let doubled: Vec<String> = old
                    .keys()
                    .zip(&names)
                    .filter_map(|(key, name)| {
                        name.as_ref()
                            .filter(|name| old.contains_key(name.as_str()))
                            .map(|_| key.clone())
                    })
                    .collect();
                for ((key, item), name) in old.into_iter().zip(names) {
                    if let Some(camel) = name.filter(|_| !doubled.contains(&key)) {
                        renamed.push(ProtoName {
                            path: at.key(&camel),
                            was: at.key(&key),
                            written: key,
                            json: camel.clone(),
                        });
                        obj.insert(camel, item);
                    } else {
                        obj.insert(key, item);
                    }
                }
            }
            let extension = obj.contains_key("uri");
            for (key, item) in obj.iter_mut() {
                let free = FREE_FORM.contains(&key.as_str()) || (key == "params" && extension);
                if !named && free {
                    continue;
                }
                let child_named = !named && names_a_map(key);
                rename_in(item, &at.key(key), renamed, child_named);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                rename_in(item, &at.index(index), renamed, false);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn proto_names_become_json_names_outside_free_form_maps() {
        let mut value = json!({
            "message_id": "m1",
            "role": "ROLE_USER",
            "content": [{"text": "hi", "metadata": {"task_id": "mine"}}],
            "metadata": {"context_id": "mine too"},
            "capabilities": {"extensions": [{"uri": "u", "params": {"task_id": "theirs"}}]},
            "security_schemes": {"api_key": {"api_key_security_scheme": {"location": "header"}}},
        });
        assert!(has_proto_names(&value));
        let renamed = camel_case_members(&mut value);
        assert_eq!(
            value,
            json!({
                "messageId": "m1",
                "role": "ROLE_USER",
                "content": [{"text": "hi", "metadata": {"task_id": "mine"}}],
                "metadata": {"context_id": "mine too"},
                "capabilities": {"extensions": [{"uri": "u", "params": {"task_id": "theirs"}}]},
                "securitySchemes": {"api_key": {"apiKeySecurityScheme": {"location": "header"}}},
            })
        );
        let paths: Vec<String> = renamed.iter().map(|r| r.path.to_string()).collect();
        assert_eq!(
            paths,
            [
                "$.messageId",
                "$.securitySchemes",
                "$.securitySchemes.api_key.apiKeySecurityScheme"
            ]
        );
        assert!(!has_proto_names(&value));
    }

    #[test]
    fn json_names_that_are_not_lower_camel_are_read_by_their_object() {
        let mut status = json!({"state": "TASK_STATE_WORKING", "update": {"message_id": "m"}});
        camel_case_members(&mut status);
        assert_eq!(
            status,
            json!({"state": "TASK_STATE_WORKING", "message": {"messageId": "m"}})
        );
        let mut wrapper = json!({"msg": {"message_id": "m"}});
        camel_case_members(&mut wrapper);
        assert_eq!(wrapper, json!({"message": {"messageId": "m"}}));
        // Elsewhere `update` and `msg` are ordinary words.
        let plain = json!({"update": 1, "msg": "hi", "state": "x", "other": 2});
        assert!(!has_proto_names(&plain));
    }

    #[test]
    fn both_spellings_keep_both() {
        let mut value = json!({"messageId": "a", "message_id": "b"});
        assert!(camel_case_members(&mut value).is_empty());
        assert_eq!(value, json!({"messageId": "a", "message_id": "b"}));
        assert_eq!(lower_camel("oauth2_metadata_url"), "oauth2MetadataUrl");
    }
}
