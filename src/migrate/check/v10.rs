//! The v1.0 checks (P10, `specification/a2a.proto` v1.0.0; spec sections 3 and 4).

use super::checker::{row, Checker};
use crate::json::JsonPath;
use crate::migrate::base64::{self, Base64};
use crate::migrate::members;
use crate::migrate::model::{method_row, ObjectKind, OAUTH_FLOWS, TASK_STATES};
use crate::migrate::timestamp;
use crate::rules::RuleTable;
use serde_json::{Map, Value};

pub static V10_CHECKS: RuleTable = RuleTable {
    id: "a2a-v10",
    name: "A2A v1.0 shape checks for migrated objects",
    rows: &[
        row("V10-REQUIRED", "required field present", "a field P10 annotates REQUIRED is absent or null", "error: names the object and the field", "P10; spec 4"),
        row("V10-ENUM", "enum value known", "a TaskState or Role value is not a v1.0 name", "error: lists the v1.0 values", "P10 L187, L245"),
        row("V10-STALE", "no v0.3-only field left", "a member that exists only in v0.3 is still present", "error: strict ProtoJSON parsers reject unknown fields", "spec 3"),
        row("V10-ONEOF", "oneof holds one member", "Part content, SecurityScheme, OAuthFlows or a StreamResponse has none or several members", "error: lists the members found", "spec 3"),
        row("V10-TIMESTAMP", "timestamp is RFC 3339 UTC", "a Timestamp is not RFC 3339 or not in UTC `Z`", "error", "spec 3; D10 5.6.1"),
        row("V10-BASE64", "raw bytes are base64", "Part.raw is not standard or URL-safe base64", "error", "spec 3"),
        row("V10-STRUCT", "Struct is an object", "metadata, params or header is not a JSON object", "error", "spec 3"),
        row("V10-METHOD", "method is a v1.0 method", "a JSON-RPC method is not a v1.0 name", "error", "spec 4.26"),
        row("V10-VERSION", "interface version is Major.Minor", "an interface protocolVersion has patch digits", "warning: SHOULD NOT use patch numbers", "D10 3.6"),
        row("V10-ERROR-DATA", "error data is a list of Any", "error.data is not an array of objects with `@type`", "error", "spec 4.27"),
        row("V10-UNKNOWN", "no member v1.0 does not define", "a member is not a field of the v1.0 message (P10) and no other row named it", "error: strict ProtoJSON parsers reject unknown fields", "spec 3; P10"),
        row("V10-JSONRPC", "JSON-RPC envelope", "`jsonrpc` is not \"2.0\", or `id` is not a string or integer (absent: a notification, which gets no response: a warning)", "error (warning for a notification)", "JSON-RPC 2.0 4, 4.1; spec 4.26"),
    ],
};

fn v10_states() -> Vec<&'static str> {
    TASK_STATES.iter().map(|(_, v10)| *v10).collect()
}

pub(super) fn check_object(
    kind: ObjectKind,
    obj: &Map<String, Value>,
    at: &JsonPath,
    c: &mut Checker,
) {
    let since = c.findings.len();
    check_shape(kind, obj, at, c);
    // Under a v0.3 `additionalInterfaces` (itself named stale) the members are v0.3's.
    let v03_interface =
        kind == ObjectKind::AgentInterface && at.to_string().contains("additionalInterfaces");
    if let (Some(known), false) = (members::v10_members(kind), v03_interface) {
        c.unknown(since, "V10-UNKNOWN", kind, obj, at, known, "v1.0");
    }
}

fn check_shape(kind: ObjectKind, obj: &Map<String, Value>, at: &JsonPath, c: &mut Checker) {
    use ObjectKind as K;
    const REQ: &str = "V10-REQUIRED";
    const STALE: &str = "V10-STALE";
    const V: &str = "v1.0";
    if kind != K::JsonRpcRequest && kind != K::JsonRpcResponse {
        c.stale(STALE, obj, at, &["kind"], V);
    }
    match kind {
        K::Task => {
            c.required(REQ, kind, obj, at, &["id", "status"]);
            c.structs("V10-STRUCT", obj, at, &["metadata"]);
        }
        K::TaskStatus => {
            c.required(REQ, kind, obj, at, &["state"]);
            c.enum_value("V10-ENUM", obj, at, "state", &v10_states());
            check_timestamp(obj, at, "timestamp", c);
        }
        K::Message => {
            c.required(REQ, kind, obj, at, &["messageId", "role", "parts"]);
            c.enum_value(
                "V10-ENUM",
                obj,
                at,
                "role",
                &["ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED"],
            );
            c.stale(STALE, obj, at, &["content"], V);
            c.structs("V10-STRUCT", obj, at, &["metadata"]);
        }
        K::Part => {
            c.oneof(
                "V10-ONEOF",
                obj,
                at,
                &["text", "raw", "url", "data"],
                "Part content",
            );
            c.stale(STALE, obj, at, &["file", "mimeType", "name"], V);
            c.structs("V10-STRUCT", obj, at, &["metadata"]);
            if let Some(raw) = obj.get("raw") {
                let valid = raw
                    .as_str()
                    .is_some_and(|text| !matches!(base64::check(text), Base64::Invalid { .. }));
                if !valid {
                    c.fail(
                        "V10-BASE64",
                        at.key("raw"),
                        "`raw` is not valid base64".into(),
                    );
                }
            }
        }
        K::Artifact => {
            c.required(REQ, kind, obj, at, &["artifactId", "parts"]);
            if obj
                .get("parts")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty)
            {
                c.fail(
                    REQ,
                    at.key("parts"),
                    "Artifact requires at least one part".into(),
                );
            }
            c.structs("V10-STRUCT", obj, at, &["metadata"]);
        }
        K::StatusUpdateEvent => {
            c.required(REQ, kind, obj, at, &["taskId", "contextId", "status"]);
            c.stale(STALE, obj, at, &["final"], V);
        }
        K::ArtifactUpdateEvent => {
            c.required(REQ, kind, obj, at, &["taskId", "contextId", "artifact"]);
        }
        K::StreamResponse => {
            c.oneof(
                "V10-ONEOF",
                obj,
                at,
                &["task", "message", "statusUpdate", "artifactUpdate"],
                "StreamResponse",
            );
        }
        K::PushNotificationConfig => {
            c.required(REQ, kind, obj, at, &["url"]);
            c.stale(STALE, obj, at, &["pushNotificationConfig"], V);
        }
        K::TaskPushNotificationConfig => {
            c.required(REQ, kind, obj, at, &["url"]);
            c.stale(
                STALE,
                obj,
                at,
                &["pushNotificationConfig", "name", "configId"],
                V,
            );
        }
        K::AuthenticationInfo => {
            c.required(REQ, kind, obj, at, &["scheme"]);
            c.stale(STALE, obj, at, &["schemes"], V);
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
                    "supportedInterfaces",
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
                &[
                    "url",
                    "preferredTransport",
                    "additionalInterfaces",
                    "protocolVersion",
                    "supportsAuthenticatedExtendedCard",
                    "security",
                ],
                V,
            );
        }
        K::AgentInterface => {
            if at.to_string().contains("additionalInterfaces") {
                return;
            }
            c.required(
                REQ,
                kind,
                obj,
                at,
                &["url", "protocolBinding", "protocolVersion"],
            );
            c.stale(STALE, obj, at, &["transport"], V);
            if let Some(version) = obj.get("protocolVersion").and_then(Value::as_str) {
                if version.split('.').count() > 2 {
                    c.warn(
                        "V10-VERSION",
                        at.key("protocolVersion"),
                        format!(
                        "protocolVersion {} has patch digits; v1.0 cards SHOULD use Major.Minor",
                        crate::migrate::model::shown(&Value::String(version.to_owned()))
                    ),
                    );
                }
            }
        }
        K::AgentCapabilities => c.stale(STALE, obj, at, &["stateTransitionHistory"], V),
        K::AgentSkill => {
            c.required(REQ, kind, obj, at, &["id", "name", "description", "tags"]);
            c.stale(STALE, obj, at, &["security"], V);
        }
        K::SecurityScheme => check_scheme(obj, at, c),
        K::OAuthFlows => check_flows(obj, at, c),
        K::SendMessageParams => {
            c.required(REQ, kind, obj, at, &["message"]);
            c.stale(STALE, obj, at, &["request"], V);
            c.structs("V10-STRUCT", obj, at, &["metadata"]);
        }
        K::SendMessageConfiguration => {
            c.stale(
                STALE,
                obj,
                at,
                &["blocking", "pushNotificationConfig", "pushNotification"],
                V,
            );
        }
        K::GetTaskParams | K::SubscribeParams => {
            c.required(REQ, kind, obj, at, &["id"]);
            c.stale(STALE, obj, at, &["metadata"], V);
        }
        K::CancelTaskParams => c.required(REQ, kind, obj, at, &["id"]),
        K::GetPushConfigParams | K::DeletePushConfigParams => {
            c.required(REQ, kind, obj, at, &["taskId", "id"]);
            c.stale(STALE, obj, at, &["pushNotificationConfigId", "metadata"], V);
        }
        K::ListPushConfigsParams => {
            c.required(REQ, kind, obj, at, &["taskId"]);
            c.stale(STALE, obj, at, &["id", "metadata"], V);
        }
        K::ListTasksParams => {
            c.enum_value("V10-ENUM", obj, at, "status", &v10_states());
            check_timestamp(obj, at, "statusTimestampAfter", c);
            c.stale(
                STALE,
                obj,
                at,
                &[
                    "lastUpdatedAfter",
                    "metadata",
                    "context_id",
                    "page_size",
                    "page_token",
                    "history_length",
                    "include_artifacts",
                    "last_updated_after",
                ],
                V,
            );
        }
        K::ListTasksResult => {
            c.required(REQ, kind, obj, at, &["tasks"]);
            c.stale(
                STALE,
                obj,
                at,
                &["total_size", "page_size", "next_page_token"],
                V,
            );
        }
        K::JsonRpcRequest => {
            c.jsonrpc_envelope("V10-JSONRPC", obj, at, false);
            if let Some(method) = obj.get("method").and_then(Value::as_str) {
                if method_row(method).is_none_or(|row| row.v10 != method) {
                    c.fail(
                        "V10-METHOD",
                        at.key("method"),
                        format!(
                            "method {} is not a v1.0 method",
                            crate::migrate::model::shown(&Value::String(method.to_owned()))
                        ),
                    );
                }
            }
        }
        K::JsonRpcResponse => {
            if obj.get("result").is_some_and(Value::is_array) {
                c.fail(
                    STALE,
                    at.key("result"),
                    "a list-configs result is `{configs: [...]}` in v1.0, not an array".into(),
                );
            }
        }
        K::JsonRpcError => {
            if let Some(data) = obj.get("data") {
                let any_list = data.as_array().is_some_and(|items| {
                    items
                        .iter()
                        .all(|item| item.get("@type").is_some_and(Value::is_string))
                });
                if !any_list {
                    c.fail(
                        "V10-ERROR-DATA",
                        at.key("data"),
                        "`data` must be an array of google.rpc Any objects (with `@type`)".into(),
                    );
                }
            }
        }
        K::PushConfigList | K::ExtendedCardParams => {}
    }
}

fn check_timestamp(obj: &Map<String, Value>, at: &JsonPath, key: &str, c: &mut Checker) {
    let Some(value) = obj.get(key) else {
        return;
    };
    if !value.as_str().is_some_and(timestamp::is_utc_z) {
        c.fail(
            "V10-TIMESTAMP",
            at.key(key),
            format!(
                "`{key}` = {} is not RFC 3339 in UTC `Z`",
                crate::migrate::model::shown(value)
            ),
        );
    }
}

const SCHEME_MEMBERS: &[&str] = &[
    "apiKeySecurityScheme",
    "httpAuthSecurityScheme",
    "oauth2SecurityScheme",
    "openIdConnectSecurityScheme",
    "mtlsSecurityScheme",
];

fn check_scheme(obj: &Map<String, Value>, at: &JsonPath, c: &mut Checker) {
    c.oneof("V10-ONEOF", obj, at, SCHEME_MEMBERS, "SecurityScheme");
    c.stale("V10-STALE", obj, at, &["type"], "v1.0");
    let member_fields: &[(&str, &[&str])] = &[
        ("apiKeySecurityScheme", &["location", "name"]),
        ("httpAuthSecurityScheme", &["scheme"]),
        ("oauth2SecurityScheme", &["flows"]),
        ("openIdConnectSecurityScheme", &["openIdConnectUrl"]),
    ];
    c.required_in_members(
        "V10-REQUIRED",
        ObjectKind::SecurityScheme,
        obj,
        at,
        member_fields,
    );
    if let Some(Value::Object(api_key)) = obj.get("apiKeySecurityScheme") {
        c.stale(
            "V10-STALE",
            api_key,
            &at.key("apiKeySecurityScheme"),
            &["in"],
            "v1.0",
        );
    }
}

fn check_flows(obj: &Map<String, Value>, at: &JsonPath, c: &mut Checker) {
    c.oneof("V10-ONEOF", obj, at, OAUTH_FLOWS, "OAuthFlows");
    let flow_fields: &[(&str, &[&str])] = &[
        (
            "authorizationCode",
            &["authorizationUrl", "tokenUrl", "scopes"],
        ),
        ("clientCredentials", &["tokenUrl", "scopes"]),
        (
            "deviceCode",
            &["deviceAuthorizationUrl", "tokenUrl", "scopes"],
        ),
    ];
    c.required_in_members("V10-REQUIRED", ObjectKind::OAuthFlows, obj, at, flow_fields);
}
