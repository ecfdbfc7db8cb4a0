//! Finding every A2A object inside a document, by position. Detection names the root kind;
//! from there the schema says where each nested object lives (a Task's `status.message`,
//! `history[*]`, `artifacts[*].parts[*]`, ...). Every position accepts both the v0.3 and the
//! v1.0 shape, so the same walk serves before, during and after a migration, and a step that
//! is switched off never hides objects from the steps after it.
//!
//! The walk follows the schema, not the data: `metadata` and `data` are never entered, so its
//! depth is bounded whatever the input holds.

use super::model::{method_row, ObjectKind, WRAPPER_MEMBERS};
use super::shape;
use crate::json::JsonPath;
use serde_json::{Map, Value};

/// One A2A object found in a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeAt {
    pub path: JsonPath,
    pub kind: ObjectKind,
}

/// Every object below `doc` (the root included), parents before children.
pub fn collect(doc: &Value, root: ObjectKind) -> Vec<NodeAt> {
    walk(doc, root, None)
}

/// The paths of the objects of `kind` below `doc`, in [`collect`]'s order. Only those paths
/// are built: a step that edits Tasks does not copy the path of each of 60,000 parts.
pub(crate) fn collect_kind(doc: &Value, root: ObjectKind, kind: ObjectKind) -> Vec<JsonPath> {
    walk(doc, root, Some(kind))
        .into_iter()
        .map(|node| node.path)
        .collect()
}

fn walk(doc: &Value, root: ObjectKind, only: Option<ObjectKind>) -> Vec<NodeAt> {
    let mut out = Found {
        only,
        nodes: Vec::new(),
    };
    let kind = settle(root, doc);
    visit(doc, kind, &mut JsonPath::root(), &mut out);
    out.nodes
}

/// The objects found so far, and the one kind wanted (`None`: every kind).
struct Found {
    only: Option<ObjectKind>,
    nodes: Vec<NodeAt>,
}

impl Found {
    fn found(&mut self, path: &JsonPath, kind: ObjectKind) {
        if self.only.is_none_or(|only| only == kind) {
            self.nodes.push(NodeAt {
                path: path.clone(),
                kind,
            });
        }
    }
}

/// Re-classifies positions whose shape a step may have changed: a Task that was wrapped as
/// `{"task": ...}` (or unwrapped back) is still found.
fn settle(expected: ObjectKind, value: &Value) -> ObjectKind {
    if !shape::is_streamish(expected) {
        return expected;
    }
    let Some(obj) = value.as_object() else {
        return expected;
    };
    if shape::wrapper_member(obj).is_some() {
        return ObjectKind::StreamResponse;
    }
    match shape::classify_object(obj) {
        Some(kind) if shape::is_streamish(kind) => kind,
        _ if expected == ObjectKind::StreamResponse => expected,
        _ => expected,
    }
}

enum Child {
    One(ObjectKind),
    Each(ObjectKind),
    Values(ObjectKind),
}

fn children(kind: ObjectKind) -> &'static [(&'static str, Child)] {
    use Child::*;
    use ObjectKind as K;
    match kind {
        K::Task => &[
            ("status", One(K::TaskStatus)),
            ("history", Each(K::Message)),
            ("artifacts", Each(K::Artifact)),
        ],
        K::TaskStatus => &[("message", One(K::Message))],
        K::Message => &[("parts", Each(K::Part)), ("content", Each(K::Part))],
        K::Artifact => &[("parts", Each(K::Part))],
        K::StatusUpdateEvent => &[("status", One(K::TaskStatus))],
        K::ArtifactUpdateEvent => &[("artifact", One(K::Artifact))],
        K::PushNotificationConfig => &[("authentication", One(K::AuthenticationInfo))],
        K::TaskPushNotificationConfig => &[
            ("pushNotificationConfig", One(K::PushNotificationConfig)),
            ("authentication", One(K::AuthenticationInfo)),
        ],
        K::PushConfigList => &[("configs", Each(K::TaskPushNotificationConfig))],
        K::AgentCard => &[
            ("capabilities", One(K::AgentCapabilities)),
            ("skills", Each(K::AgentSkill)),
            ("securitySchemes", Values(K::SecurityScheme)),
            ("additionalInterfaces", Each(K::AgentInterface)),
            ("supportedInterfaces", Each(K::AgentInterface)),
        ],
        K::SecurityScheme => &[("flows", One(K::OAuthFlows))],
        K::SendMessageParams => &[
            ("message", One(K::Message)),
            ("request", One(K::Message)),
            ("configuration", One(K::SendMessageConfiguration)),
        ],
        K::SendMessageConfiguration => &[
            ("pushNotificationConfig", One(K::PushNotificationConfig)),
            ("pushNotification", One(K::PushNotificationConfig)),
            ("taskPushNotificationConfig", One(K::PushNotificationConfig)),
        ],
        K::ListTasksResult => &[("tasks", Each(K::Task))],
        K::JsonRpcResponse => &[("error", One(K::JsonRpcError))],
        _ => &[],
    }
}

fn visit(value: &Value, kind: ObjectKind, path: &mut JsonPath, out: &mut Found) {
    // The v0.3 list-configs result is a bare array of configs.
    if let (ObjectKind::PushConfigList, Value::Array(items)) = (kind, value) {
        out.found(path, kind);
        for (index, item) in items.iter().enumerate() {
            path.push_index(index);
            visit(item, ObjectKind::TaskPushNotificationConfig, path, out);
            path.pop();
        }
        return;
    }
    let Some(obj) = value.as_object() else {
        return;
    };
    out.found(path, kind);
    for (key, child) in children(kind) {
        let Some(inner) = obj.get(*key) else {
            continue;
        };
        path.push_key(key);
        match child {
            Child::One(child_kind) => visit_settled(inner, *child_kind, path, out),
            Child::Each(child_kind) => visit_each(inner, *child_kind, path, out),
            Child::Values(child_kind) => {
                if let Some(map) = inner.as_object() {
                    for (name, item) in map {
                        path.push_key(name);
                        visit(item, *child_kind, path, out);
                        path.pop();
                    }
                }
            }
        }
        path.pop();
    }
    visit_special(obj, kind, path, out);
}

fn visit_settled(value: &Value, kind: ObjectKind, path: &mut JsonPath, out: &mut Found) {
    let kind = settle(kind, value);
    visit(value, kind, path, out);
}

fn visit_each(value: &Value, kind: ObjectKind, path: &mut JsonPath, out: &mut Found) {
    if let Some(items) = value.as_array() {
        for (index, item) in items.iter().enumerate() {
            path.push_index(index);
            visit(item, kind, path, out);
            path.pop();
        }
    }
}

/// Children whose kind depends on a sibling: request params (by method), response results
/// (by shape), wrapper members, and the v1.0 OAuth flows inside the scheme wrapper.
fn visit_special(obj: &Map<String, Value>, kind: ObjectKind, path: &mut JsonPath, out: &mut Found) {
    match kind {
        ObjectKind::JsonRpcRequest => {
            let params_kind = obj
                .get("method")
                .and_then(Value::as_str)
                .and_then(method_row)
                .map(|row| row.params);
            if let (Some(params_kind), Some(params)) = (params_kind, obj.get("params")) {
                path.push_key("params");
                visit(params, params_kind, path, out);
                path.pop();
            }
        }
        ObjectKind::JsonRpcResponse => {
            if let Some(result) = obj.get("result") {
                if let Some(result_kind) = shape::classify_result(result) {
                    path.push_key("result");
                    visit(result, result_kind, path, out);
                    path.pop();
                }
            }
        }
        ObjectKind::StreamResponse => {
            for (member, member_kind) in WRAPPER_MEMBERS {
                if let Some(inner) = obj.get(*member) {
                    path.push_key(member);
                    visit(inner, *member_kind, path, out);
                    path.pop();
                }
            }
        }
        ObjectKind::SecurityScheme => {
            let flows = obj
                .get("oauth2SecurityScheme")
                .and_then(|scheme| scheme.get("flows"));
            if let Some(flows) = flows {
                path.push_key("oauth2SecurityScheme");
                path.push_key("flows");
                visit(flows, ObjectKind::OAuthFlows, path, out);
                path.pop();
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds_at(doc: &Value, root: ObjectKind) -> Vec<String> {
        collect(doc, root)
            .into_iter()
            .map(|node| format!("{} {:?}", node.path, node.kind))
            .collect()
    }

    #[test]
    fn finds_nested_objects_in_a_send_request() {
        let doc = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {
            "message": {"role": "user", "parts": [{"kind": "text", "text": "hi"}], "messageId": "m"},
            "configuration": {"pushNotificationConfig": {"url": "https://h", "authentication": {"schemes": ["Bearer"]}}}
        }});
        assert_eq!(
            kinds_at(&doc, ObjectKind::JsonRpcRequest),
            vec![
                "$ JsonRpcRequest",
                "$.params SendMessageParams",
                "$.params.message Message",
                "$.params.message.parts[0] Part",
                "$.params.configuration SendMessageConfiguration",
                "$.params.configuration.pushNotificationConfig PushNotificationConfig",
                "$.params.configuration.pushNotificationConfig.authentication AuthenticationInfo",
            ]
        );
    }

    #[test]
    fn results_are_found_bare_or_wrapped() {
        let bare = json!({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t", "status": {"state": "working"}}});
        let wrapped = json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t", "status": {"state": "working"}}}});
        assert!(kinds_at(&bare, ObjectKind::JsonRpcResponse)
            .contains(&"$.result.status TaskStatus".into()));
        assert!(kinds_at(&wrapped, ObjectKind::JsonRpcResponse)
            .contains(&"$.result.task.status TaskStatus".into()));
    }

    #[test]
    fn collecting_one_kind_is_filtering_all_of_them() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|ext| ext != "json") {
                continue;
            }
            let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            let Some(detection) = crate::migrate::detect(&doc) else {
                continue;
            };
            let all = collect(&doc, detection.object);
            for node in &all {
                let filtered: Vec<JsonPath> = all
                    .iter()
                    .filter(|other| other.kind == node.kind)
                    .map(|other| other.path.clone())
                    .collect();
                assert_eq!(collect_kind(&doc, detection.object, node.kind), filtered);
            }
        }
    }

    #[test]
    fn a_root_task_wrapped_later_is_still_found() {
        let wrapped = json!({"task": {"id": "t", "status": {"state": "working"}}});
        assert_eq!(
            kinds_at(&wrapped, ObjectKind::Task),
            vec![
                "$ StreamResponse",
                "$.task Task",
                "$.task.status TaskStatus"
            ]
        );
    }
}
