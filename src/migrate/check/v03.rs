//! The v0.3 JSON-RPC dialect checks for `migrate --to 0.3` results (S03,
//! `specification/json/a2a.json` v0.3.0).

use super::checker::{row, Checker};
use crate::json::JsonPath;
use crate::migrate::model::{method_row, ObjectKind, ROLES, TASK_STATES};
use crate::rules::RuleTable;
use serde_json::{Map, Value};

pub static V03_CHECKS: RuleTable = RuleTable {
    id: "a2a-v03",
    name: "A2A v0.3 JSON-RPC shape checks for objects converted back from v1.0",
    rows: &[
        row(
            "V03-REQUIRED",
            "required field present",
            "a field S03 lists in `required` (including `kind`) is absent",
            "error",
            "S03; spec 4",
        ),
        row(
            "V03-ENUM",
            "enum value known",
            "a task state or role is not a v0.3 JSON-RPC value",
            "error",
            "S03 TaskState L2440",
        ),
        row(
            "V03-STALE",
            "no v1.0-only field left",
            "a member that exists only in v1.0 is still present",
            "error",
            "spec 4",
        ),
        row(
            "V03-JSONRPC",
            "JSON-RPC envelope",
            "a request lacks `jsonrpc` \"2.0\", an `id` that is a string or an integer, or the `params` its method requires; a response lacks `id`, or its `id` is not a string, an integer or null",
            "error",
            "S03 SendMessageRequest (required: id, jsonrpc, method, params) and the other requests; JSONRPCResponse",
        ),
        row(
            "V03-METHOD",
            "method is a v0.3.0 method",
            "a JSON-RPC method is not a v0.3.0 name",
            "error",
            "spec 4.26",
        ),
    ],
};

pub(super) fn check_object(
    kind: ObjectKind,
    obj: &Map<String, Value>,
    at: &JsonPath,
    c: &mut Checker,
) {
    use ObjectKind as K;
    const REQ: &str = "V03-REQUIRED";
    const STALE: &str = "V03-STALE";
    const V: &str = "v0.3";
    match kind {
        K::Task => c.required(REQ, kind, obj, at, &["id", "contextId", "status", "kind"]),
        K::TaskStatus => {
            c.required(REQ, kind, obj, at, &["state"]);
            let states: Vec<&str> = TASK_STATES.iter().map(|(v03, _)| *v03).collect();
            c.enum_value("V03-ENUM", obj, at, "state", &states);
        }
        K::Message => {
            c.required(REQ, kind, obj, at, &["messageId", "role", "parts", "kind"]);
            let roles: Vec<&str> = ROLES.iter().map(|(v03, _)| *v03).collect();
            c.enum_value("V03-ENUM", obj, at, "role", &roles);
        }
        K::Part => {
            c.required(REQ, kind, obj, at, &["kind"]);
            c.stale(STALE, obj, at, &["raw", "url", "mediaType", "filename"], V);
        }
        K::StatusUpdateEvent => c.required(
            REQ,
            kind,
            obj,
            at,
            &["taskId", "contextId", "status", "final", "kind"],
        ),
        K::ArtifactUpdateEvent => c.required(
            REQ,
            kind,
            obj,
            at,
            &["taskId", "contextId", "artifact", "kind"],
        ),
        K::Artifact => c.required(REQ, kind, obj, at, &["artifactId", "parts"]),
        K::TaskPushNotificationConfig => {
            c.required(REQ, kind, obj, at, &["taskId", "pushNotificationConfig"]);
            c.stale(
                STALE,
                obj,
                at,
                &["url", "token", "authentication", "tenant"],
                V,
            );
        }
        K::AuthenticationInfo => {
            c.required(REQ, kind, obj, at, &["schemes"]);
            c.stale(STALE, obj, at, &["scheme"], V);
        }
        K::SendMessageConfiguration => c.stale(
            STALE,
            obj,
            at,
            &["returnImmediately", "taskPushNotificationConfig"],
            V,
        ),
        K::SendMessageParams
        | K::GetTaskParams
        | K::CancelTaskParams
        | K::SubscribeParams
        | K::GetPushConfigParams
        | K::ListPushConfigsParams
        | K::DeletePushConfigParams => {
            c.stale(STALE, obj, at, &["tenant", "taskId"], V);
            let required: &[&str] = if kind == K::SendMessageParams {
                &["message"]
            } else {
                &["id"]
            };
            c.required(REQ, kind, obj, at, required);
        }
        K::AgentCard => {
            c.required(
                REQ,
                kind,
                obj,
                at,
                &[
                    "name",
                    "description",
                    "version",
                    "url",
                    "protocolVersion",
                    "capabilities",
                    "defaultInputModes",
                    "defaultOutputModes",
                    "skills",
                ],
            );
            c.stale(
                STALE,
                obj,
                at,
                &["supportedInterfaces", "securityRequirements"],
                V,
            );
        }
        K::AgentInterface => {
            c.required(REQ, kind, obj, at, &["url", "transport"]);
            c.stale(
                STALE,
                obj,
                at,
                &["protocolBinding", "protocolVersion", "tenant"],
                V,
            );
        }
        K::AgentCapabilities => c.stale(STALE, obj, at, &["extendedAgentCard"], V),
        K::AgentSkill => c.stale(STALE, obj, at, &["securityRequirements"], V),
        K::SecurityScheme => c.required(REQ, kind, obj, at, &["type"]),
        K::OAuthFlows => {
            c.stale(STALE, obj, at, &["deviceCode"], V);
            if let Some(Value::Object(code)) = obj.get("authorizationCode") {
                c.stale(
                    STALE,
                    code,
                    &at.key("authorizationCode"),
                    &["pkceRequired"],
                    V,
                );
            }
        }
        K::JsonRpcRequest => {
            c.jsonrpc_envelope("V03-JSONRPC", obj, at, true);
            let method = obj.get("method").and_then(Value::as_str);
            // Every v0.3 request but the extended card's requires `params` (S03).
            let needs_params = method
                .and_then(method_row)
                .is_some_and(|row| row.params != K::ExtendedCardParams && row.in_v03);
            match obj.get("params") {
                None if needs_params => c.fail(
                    "V03-JSONRPC",
                    at.key("params"),
                    "this v0.3 request requires `params`".into(),
                ),
                Some(params) if !params.is_object() => c.fail(
                    "V03-JSONRPC",
                    at.key("params"),
                    format!(
                        "`params` must be an object, found {}",
                        crate::migrate::model::shown(params)
                    ),
                ),
                _ => {}
            }
            if let Some(method) = method {
                if !method_row(method).is_some_and(|row| row.v03 == method && row.in_v03) {
                    c.fail(
                        "V03-METHOD",
                        at.key("method"),
                        format!(
                            "method {} is not a v0.3.0 method",
                            crate::migrate::model::shown(&Value::String(method.to_owned()))
                        ),
                    );
                }
            }
        }
        K::JsonRpcResponse => {
            match obj.get("id") {
                None => c.fail(
                    "V03-JSONRPC",
                    at.key("id"),
                    "a v0.3 response requires `id` (null when the request's could not be read)"
                        .into(),
                ),
                Some(Value::String(_) | Value::Null) => {}
                Some(Value::Number(number)) if number.is_i64() || number.is_u64() => {}
                Some(other) => c.fail(
                    "V03-JSONRPC",
                    at.key("id"),
                    format!(
                        "`id` must be a string, an integer or null, found {}",
                        crate::migrate::model::shown(other)
                    ),
                ),
            }
            let wrapped = obj
                .get("result")
                .and_then(Value::as_object)
                .and_then(crate::migrate::shape::wrapper_member);
            if let Some((member, _)) = wrapped {
                c.fail(STALE, at.key("result").key(member), format!(
                    "v0.3 results are bare objects discriminated by `kind`, not wrapped in `{member}`"
                ));
            }
        }
        _ => {}
    }
}
