//! Version signals: the fields and values that differ between v0.3 (JSON-RPC or REST
//! dialect) and v1.0, found object by object (spec section 2).

use super::model::shown;
use super::model::{method_row, ObjectKind, OAUTH_FLOWS, REST_CANCELLED, ROLES, TASK_STATES};
use crate::json::JsonPath;
use serde_json::{Map, Value};

/// Which version (and dialect) a signal points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// v0.3 JSON-RPC / Agent-Card dialect only.
    Rpc,
    /// v0.3 HTTP+JSON / gRPC (ProtoJSON of the 0.3 proto) only.
    Rest,
    /// v0.3, either dialect.
    V03,
    /// v0.3, or the v1.0 release candidate (`blocking`, nested push config).
    V03OrRc,
    /// ProtoJSON form shared by v0.3 REST and v1.0 (`TASK_STATE_*`, `ROLE_*`, wrappers).
    ProtoJson,
    /// v1.0 only.
    V10,
}

impl Class {
    pub fn label(self) -> &'static str {
        match self {
            Class::Rpc => "v0.3 JSON-RPC dialect",
            Class::Rest => "v0.3 HTTP+JSON dialect",
            Class::V03 => "v0.3",
            Class::V03OrRc => "v0.3 or v1.0 release candidate",
            Class::ProtoJson => "ProtoJSON: v1.0, or v0.3 HTTP+JSON",
            Class::V10 => "v1.0",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    pub class: Class,
    pub path: JsonPath,
    pub what: String,
}

struct Sink<'a> {
    out: &'a mut Vec<Signal>,
    path: &'a JsonPath,
}

impl Sink<'_> {
    fn push(&mut self, class: Class, key: &str, what: impl Into<String>) {
        // An empty key points at the object itself.
        let path = if key.is_empty() {
            self.path.clone()
        } else {
            self.path.key(key)
        };
        self.out.push(Signal {
            class,
            path,
            what: what.into(),
        });
    }

    fn when(&mut self, obj: &Map<String, Value>, key: &str, class: Class, what: &str) {
        if obj.contains_key(key) {
            self.push(class, key, what);
        }
    }
}

/// The signals one object carries (not those of its children).
pub(crate) fn object_signals(
    kind: ObjectKind,
    obj: &Map<String, Value>,
    path: &JsonPath,
    out: &mut Vec<Signal>,
) {
    let mut sink = Sink { out, path };
    if let Some(kind_value) = obj.get("kind").and_then(Value::as_str) {
        sink.push(
            Class::Rpc,
            "kind",
            format!("`kind` discriminator {}", shown(kind_value)),
        );
    }
    use ObjectKind as K;
    match kind {
        K::TaskStatus => state_signals(obj, "state", &mut sink),
        K::ListTasksParams => {
            state_signals(obj, "status", &mut sink);
            sink.when(
                obj,
                "lastUpdatedAfter",
                Class::Rpc,
                "DRAFT tasks/list `lastUpdatedAfter`",
            );
            snake_case_signals(obj, &mut sink);
            sink.when(
                obj,
                "statusTimestampAfter",
                Class::V10,
                "`statusTimestampAfter`",
            );
        }
        K::ListTasksResult => snake_case_signals(obj, &mut sink),
        K::Message => {
            match obj.get("role").and_then(Value::as_str) {
                Some(role) if ROLES.iter().any(|(v03, _)| *v03 == role) => sink.push(
                    Class::Rpc,
                    "role",
                    format!("lower-case role {}", shown(role)),
                ),
                Some(role) if role.starts_with("ROLE_") => sink.push(
                    Class::ProtoJson,
                    "role",
                    format!("enum role {}", shown(role)),
                ),
                _ => {}
            }
            sink.when(obj, "content", Class::Rest, "`content` instead of `parts`");
        }
        K::Part => part_signals(obj, &mut sink),
        K::StatusUpdateEvent => sink.when(obj, "final", Class::V03, "`final` on a status event"),
        K::TaskPushNotificationConfig => {
            sink.when(
                obj,
                "pushNotificationConfig",
                Class::V03OrRc,
                "nested `pushNotificationConfig`",
            );
            if obj.get("name").and_then(Value::as_str).is_some() {
                sink.push(Class::Rest, "name", "REST resource `name`");
            }
            sink.when(
                obj,
                "configId",
                Class::V03OrRc,
                "release-candidate `configId`",
            );
            if obj.contains_key("url") && !obj.contains_key("pushNotificationConfig") {
                sink.push(Class::V10, "url", "flattened push config");
            }
        }
        K::AuthenticationInfo => {
            sink.when(obj, "schemes", Class::V03, "`schemes[]` list");
            sink.when(obj, "scheme", Class::V10, "single `scheme`");
        }
        K::SendMessageConfiguration => {
            sink.when(obj, "blocking", Class::V03OrRc, "`blocking`");
            sink.when(
                obj,
                "pushNotificationConfig",
                Class::V03OrRc,
                "`pushNotificationConfig` in configuration",
            );
            sink.when(
                obj,
                "pushNotification",
                Class::Rest,
                "REST `pushNotification`",
            );
            sink.when(obj, "returnImmediately", Class::V10, "`returnImmediately`");
            sink.when(
                obj,
                "taskPushNotificationConfig",
                Class::V10,
                "`taskPushNotificationConfig`",
            );
        }
        K::SendMessageParams => sink.when(obj, "request", Class::Rest, "REST `request` member"),
        K::AgentCard => {
            for key in [
                "url",
                "preferredTransport",
                "additionalInterfaces",
                "protocolVersion",
                "supportsAuthenticatedExtendedCard",
            ] {
                sink.when(obj, key, Class::V03, &format!("card-level `{key}`"));
            }
            sink.when(
                obj,
                "supportedInterfaces",
                Class::V10,
                "`supportedInterfaces`",
            );
            security_signals(obj, &mut sink);
        }
        K::AgentSkill => security_signals(obj, &mut sink),
        K::AgentCapabilities => {
            sink.when(
                obj,
                "stateTransitionHistory",
                Class::V03,
                "`stateTransitionHistory`",
            );
            sink.when(obj, "extendedAgentCard", Class::V10, "`extendedAgentCard`");
        }
        K::AgentInterface => {
            sink.when(obj, "transport", Class::V03, "interface `transport`");
            sink.when(
                obj,
                "protocolBinding",
                Class::V10,
                "interface `protocolBinding`",
            );
        }
        K::SecurityScheme => {
            if obj.contains_key("type") {
                sink.push(
                    Class::Rpc,
                    "type",
                    "`type` discriminator on a security scheme",
                );
            } else if let Some(member) = obj.keys().next() {
                sink.push(Class::ProtoJson, member, "security-scheme wrapper member");
            }
        }
        K::OAuthFlows => {
            let present = OAUTH_FLOWS
                .iter()
                .filter(|flow| obj.contains_key(**flow))
                .count();
            if present > 1 {
                sink.push(Class::V03, "", "several OAuth flows on one scheme");
            }
            sink.when(obj, "deviceCode", Class::V10, "`deviceCode` flow");
            let pkce = obj
                .get("authorizationCode")
                .is_some_and(|flow| flow.get("pkceRequired").is_some());
            if pkce {
                sink.push(Class::V10, "authorizationCode", "`pkceRequired`");
            }
        }
        K::GetPushConfigParams | K::DeletePushConfigParams => {
            sink.when(
                obj,
                "pushNotificationConfigId",
                Class::Rpc,
                "`pushNotificationConfigId`",
            );
            sink.when(obj, "taskId", Class::V10, "`taskId` param");
        }
        K::ListPushConfigsParams => {
            sink.when(obj, "id", Class::Rpc, "task `id` param");
            sink.when(obj, "taskId", Class::V10, "`taskId` param");
        }
        K::JsonRpcRequest => method_signals(obj, &mut sink),
        K::JsonRpcResponse => {
            let wrapped = obj
                .get("result")
                .and_then(Value::as_object)
                .and_then(super::shape::wrapper_member);
            if let Some((member, _)) = wrapped {
                sink.push(
                    Class::V10,
                    "result",
                    format!("result wrapped as `{member}`"),
                );
            }
            match obj.get("result") {
                Some(Value::Array(_)) => {
                    sink.push(Class::Rpc, "result", "list-configs result is a bare array")
                }
                Some(Value::Object(result)) if result.contains_key("configs") => {
                    sink.push(Class::ProtoJson, "result", "list-configs result `configs`")
                }
                _ => {}
            }
        }
        K::StreamResponse if path.is_root() => {
            sink.push(Class::ProtoJson, "", "StreamResponse wrapper");
        }
        _ => {}
    }
}

fn state_signals(obj: &Map<String, Value>, key: &str, sink: &mut Sink<'_>) {
    let Some(state) = obj.get(key).and_then(Value::as_str) else {
        return;
    };
    if TASK_STATES.iter().any(|(v03, _)| *v03 == state) {
        sink.push(
            Class::Rpc,
            key,
            format!("lower-case task state {}", shown(state)),
        );
    } else if state == REST_CANCELLED {
        sink.push(Class::Rest, key, "REST spelling `TASK_STATE_CANCELLED`");
    } else if state.starts_with("TASK_STATE_") {
        sink.push(
            Class::ProtoJson,
            key,
            format!("enum task state {}", shown(state)),
        );
    }
}

fn snake_case_signals(obj: &Map<String, Value>, sink: &mut Sink<'_>) {
    for key in obj.keys().filter(|key| key.contains('_')) {
        sink.push(Class::V03, key, "a2a-go 0.3 snake_case member");
    }
}

fn part_signals(obj: &Map<String, Value>, sink: &mut Sink<'_>) {
    if let Some(file) = obj.get("file").and_then(Value::as_object) {
        for (key, class) in [
            ("uri", Class::Rpc),
            ("bytes", Class::Rpc),
            ("data", Class::Rpc),
            ("fileWithUri", Class::Rest),
            ("fileWithBytes", Class::Rest),
        ] {
            if file.contains_key(key) {
                sink.push(class, "file", format!("nested `file.{key}`"));
            }
        }
    }
    for key in ["raw", "url", "mediaType", "filename"] {
        sink.when(obj, key, Class::V10, &format!("part-level `{key}`"));
    }
}

fn security_signals(obj: &Map<String, Value>, sink: &mut Sink<'_>) {
    if let Some(requirements) = obj.get("security").and_then(Value::as_array) {
        let rest_shape = requirements
            .iter()
            .any(|requirement| requirement.get("schemes").is_some_and(Value::is_object));
        if rest_shape {
            sink.push(
                Class::Rest,
                "security",
                "`security` with `schemes` wrappers",
            );
        } else {
            sink.push(Class::Rpc, "security", "`security` scope lists");
        }
    }
    sink.when(
        obj,
        "securityRequirements",
        Class::V10,
        "`securityRequirements`",
    );
}

fn method_signals(obj: &Map<String, Value>, sink: &mut Sink<'_>) {
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return;
    };
    match method_row(method) {
        Some(row) if row.v03 == method && !row.in_v03 => {
            sink.push(Class::Rpc, "method", "DRAFT method `tasks/list`")
        }
        Some(row) if row.v03 == method => sink.push(
            Class::Rpc,
            "method",
            format!("slash-style method {}", shown(method)),
        ),
        Some(_) => sink.push(
            Class::V10,
            "method",
            format!("PascalCase method {}", shown(method)),
        ),
        None => {}
    }
}
