//! The migration's vocabulary, below every other file of it: the versions and dialects an
//! object can be in, the A2A object kinds, the JSON-RPC method table that ties each method to
//! the kind of its `params`, and a value as the migration's messages show it.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Version {
    #[serde(rename = "0.3")]
    V0_3,
    /// The v1.0 release candidate (`blocking`, nested push configs with v1.0 method names).
    #[serde(rename = "1.0-rc")]
    V1_0Rc,
    #[serde(rename = "1.0")]
    V1_0,
    /// Nothing in the object differs between v0.3 and v1.0.
    #[serde(rename = "indeterminate")]
    Indeterminate,
}

impl Version {
    pub fn label(self) -> &'static str {
        match self {
            Version::V0_3 => "v0.3",
            Version::V1_0Rc => "v1.0 release candidate",
            Version::V1_0 => "v1.0",
            Version::Indeterminate => "version indeterminate",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    /// v0.3 JSON-RPC / Agent-Card dialect (`kind`, kebab-case enums, `file.uri`).
    JsonRpc,
    /// v0.3 HTTP+JSON / gRPC ProtoJSON (`TASK_STATE_CANCELLED`, `content`, `fileWithUri`).
    Rest,
    /// v1.0 ProtoJSON, the only v1.0 form.
    ProtoJson,
    /// Pre-release v1.0 shapes.
    PreRelease,
    /// No dialect-specific field.
    Unknown,
}

impl Dialect {
    pub fn label(self) -> &'static str {
        match self {
            Dialect::JsonRpc => "JSON-RPC dialect",
            Dialect::Rest => "HTTP+JSON/gRPC dialect",
            Dialect::ProtoJson => "ProtoJSON",
            Dialect::PreRelease => "pre-release shapes",
            Dialect::Unknown => "no dialect-specific field",
        }
    }
}

/// The longest value a migration warning shows.
const WARNING_VALUE_CHARS: usize = 60;

/// A value as compact JSON, shortened and terminal-safe, for warnings (`json::shown_json` at
/// migration's width).
pub fn shown<T: serde::Serialize + ?Sized>(value: &T) -> String {
    crate::json::shown_json(value, WARNING_VALUE_CHARS)
}

enum_with_all! {
    /// An A2A object type, in either version. Nested kinds (interfaces, capabilities, OAuth
    /// flows, ...) are listed too, because steps and checks are addressed to them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ObjectKind {
        Task,
        TaskStatus,
        Message,
        Part,
        Artifact,
        StatusUpdateEvent,
        ArtifactUpdateEvent,
        /// v1.0 `StreamResponse` / `SendMessageResponse` (and the v0.3 REST stream wrapper):
        /// exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate`.
        StreamResponse,
        /// v0.3 `PushNotificationConfig` (the inner config), or the config inside
        /// `SendMessageConfiguration`.
        PushNotificationConfig,
        TaskPushNotificationConfig,
        AuthenticationInfo,
        /// The list-push-configs result: a v0.3 array or a v1.0 `{configs, nextPageToken}`.
        PushConfigList,
        AgentCard,
        AgentInterface,
        AgentCapabilities,
        AgentSkill,
        SecurityScheme,
        OAuthFlows,
        SendMessageParams,
        SendMessageConfiguration,
        GetTaskParams,
        CancelTaskParams,
        SubscribeParams,
        GetPushConfigParams,
        ListPushConfigsParams,
        DeletePushConfigParams,
        ListTasksParams,
        ListTasksResult,
        ExtendedCardParams,
        JsonRpcRequest,
        JsonRpcResponse,
        JsonRpcError,
    }
}

impl ObjectKind {
    /// The name `migrate --kind` takes (the kebab-case of the variant, as serialized).
    pub fn key(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(key)) => key,
            _ => format!("{self:?}"),
        }
    }

    /// The kind [`ObjectKind::key`] names.
    pub fn from_key(key: &str) -> Option<ObjectKind> {
        ObjectKind::ALL
            .iter()
            .copied()
            .find(|kind| kind.key() == key)
    }

    /// A few words for people.
    pub fn label(self) -> &'static str {
        use ObjectKind::*;
        match self {
            Task => "Task",
            TaskStatus => "TaskStatus",
            Message => "Message",
            Part => "Part",
            Artifact => "Artifact",
            StatusUpdateEvent => "TaskStatusUpdateEvent",
            ArtifactUpdateEvent => "TaskArtifactUpdateEvent",
            StreamResponse => "StreamResponse wrapper",
            PushNotificationConfig => "PushNotificationConfig",
            TaskPushNotificationConfig => "TaskPushNotificationConfig",
            AuthenticationInfo => "push AuthenticationInfo",
            PushConfigList => "push-config list",
            AgentCard => "AgentCard",
            AgentInterface => "AgentInterface",
            AgentCapabilities => "AgentCapabilities",
            AgentSkill => "AgentSkill",
            SecurityScheme => "SecurityScheme",
            OAuthFlows => "OAuthFlows",
            SendMessageParams => "SendMessage params",
            SendMessageConfiguration => "SendMessage configuration",
            GetTaskParams => "GetTask params",
            CancelTaskParams => "CancelTask params",
            SubscribeParams => "SubscribeToTask params",
            GetPushConfigParams => "GetTaskPushNotificationConfig params",
            ListPushConfigsParams => "ListTaskPushNotificationConfigs params",
            DeletePushConfigParams => "DeleteTaskPushNotificationConfig params",
            ListTasksParams => "ListTasks params",
            ListTasksResult => "ListTasks result",
            ExtendedCardParams => "GetExtendedAgentCard params",
            JsonRpcRequest => "JSON-RPC request",
            JsonRpcResponse => "JSON-RPC response",
            JsonRpcError => "JSON-RPC error",
        }
    }
}

/// One JSON-RPC method in both versions (spec section 4.26).
#[derive(Debug, Serialize)]
pub struct MethodRow {
    pub v03: &'static str,
    pub v10: &'static str,
    /// The kind of `params`.
    pub params: ObjectKind,
    /// False for `tasks/list`, which v0.3.0 JSON-RPC did not have (only the DRAFT did).
    pub in_v03: bool,
}

pub static METHODS: &[MethodRow] = &[
    MethodRow {
        v03: "message/send",
        v10: "SendMessage",
        params: ObjectKind::SendMessageParams,
        in_v03: true,
    },
    MethodRow {
        v03: "message/stream",
        v10: "SendStreamingMessage",
        params: ObjectKind::SendMessageParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/get",
        v10: "GetTask",
        params: ObjectKind::GetTaskParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/list",
        v10: "ListTasks",
        params: ObjectKind::ListTasksParams,
        in_v03: false,
    },
    MethodRow {
        v03: "tasks/cancel",
        v10: "CancelTask",
        params: ObjectKind::CancelTaskParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/resubscribe",
        v10: "SubscribeToTask",
        params: ObjectKind::SubscribeParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/pushNotificationConfig/set",
        v10: "CreateTaskPushNotificationConfig",
        params: ObjectKind::TaskPushNotificationConfig,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/pushNotificationConfig/get",
        v10: "GetTaskPushNotificationConfig",
        params: ObjectKind::GetPushConfigParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/pushNotificationConfig/list",
        v10: "ListTaskPushNotificationConfigs",
        params: ObjectKind::ListPushConfigsParams,
        in_v03: true,
    },
    MethodRow {
        v03: "tasks/pushNotificationConfig/delete",
        v10: "DeleteTaskPushNotificationConfig",
        params: ObjectKind::DeletePushConfigParams,
        in_v03: true,
    },
    MethodRow {
        v03: "agent/getAuthenticatedExtendedCard",
        v10: "GetExtendedAgentCard",
        params: ObjectKind::ExtendedCardParams,
        in_v03: true,
    },
];

/// The row for a method name in either version.
pub(crate) fn method_row(name: &str) -> Option<&'static MethodRow> {
    METHODS
        .iter()
        .find(|row| row.v03 == name || row.v10 == name)
}

/// The v0.3 JSON-RPC task states and their v1.0 names (spec section 4.3).
pub(crate) static TASK_STATES: &[(&str, &str)] = &[
    ("submitted", "TASK_STATE_SUBMITTED"),
    ("working", "TASK_STATE_WORKING"),
    ("input-required", "TASK_STATE_INPUT_REQUIRED"),
    ("completed", "TASK_STATE_COMPLETED"),
    ("canceled", "TASK_STATE_CANCELED"),
    ("failed", "TASK_STATE_FAILED"),
    ("rejected", "TASK_STATE_REJECTED"),
    ("auth-required", "TASK_STATE_AUTH_REQUIRED"),
    ("unknown", "TASK_STATE_UNSPECIFIED"),
];

/// Where task states live: (object, member).
pub(crate) static STATE_MEMBERS: &[(ObjectKind, &str)] = &[
    (ObjectKind::TaskStatus, "state"),
    (ObjectKind::ListTasksParams, "status"),
];

/// Where roles live: (object, member).
pub(crate) static ROLE_MEMBERS: &[(ObjectKind, &str)] = &[(ObjectKind::Message, "role")];

/// The v0.3 REST/gRPC spelling that differs from v1.0 (double L).
pub(crate) const REST_CANCELLED: &str = "TASK_STATE_CANCELLED";

/// v0.3 roles and their v1.0 names (spec section 4.5).
pub(crate) static ROLES: &[(&str, &str)] = &[("user", "ROLE_USER"), ("agent", "ROLE_AGENT")];

/// The v1.0 stream / send-result wrapper members and the kind each one holds.
pub(crate) static WRAPPER_MEMBERS: &[(&str, ObjectKind)] = &[
    ("task", ObjectKind::Task),
    ("message", ObjectKind::Message),
    ("statusUpdate", ObjectKind::StatusUpdateEvent),
    ("artifactUpdate", ObjectKind::ArtifactUpdateEvent),
];

/// v0.3 `SecurityScheme.type` values and the v1.0 wrapper members (spec section 4.19).
pub(crate) static SECURITY_SCHEME_MEMBERS: &[(&str, &str)] = &[
    ("apiKey", "apiKeySecurityScheme"),
    ("http", "httpAuthSecurityScheme"),
    ("oauth2", "oauth2SecurityScheme"),
    ("openIdConnect", "openIdConnectSecurityScheme"),
    ("mutualTLS", "mtlsSecurityScheme"),
];

/// OAuth flow members, in the order v0.3 listed them, then v1.0's `deviceCode`.
pub(crate) static OAUTH_FLOWS: &[&str] = &[
    "authorizationCode",
    "clientCredentials",
    "implicit",
    "password",
    "deviceCode",
];

/// Terminal v1.0 states (P10 L187-209).
pub(crate) static TERMINAL_STATES: &[&str] = &[
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_REJECTED",
];

/// Interrupted v1.0 states (P10 L155-160).
pub(crate) static INTERRUPTED_STATES: &[&str] =
    &["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"];

/// JSON-RPC error codes and their `google.rpc.ErrorInfo.reason` (spec section 4.27).
pub(crate) static ERROR_REASONS: &[(i64, &str)] = &[
    (-32600, "INVALID_REQUEST"),
    (-32601, "METHOD_NOT_FOUND"),
    (-32602, "INVALID_PARAMS"),
    (-32603, "INTERNAL_ERROR"),
    (-32001, "TASK_NOT_FOUND"),
    (-32002, "TASK_NOT_CANCELABLE"),
    (-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED"),
    (-32004, "UNSUPPORTED_OPERATION"),
    (-32005, "CONTENT_TYPE_NOT_SUPPORTED"),
    (-32006, "INVALID_AGENT_RESPONSE"),
    (-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED"),
    (-32008, "EXTENSION_SUPPORT_REQUIRED"),
    (-32009, "VERSION_NOT_SUPPORTED"),
];

/// The `@type` of the ErrorInfo entries in a v1.0 `error.data`.
pub(crate) const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";

/// The ErrorInfo `domain` for A2A errors.
pub(crate) const ERROR_DOMAIN: &str = "a2a-protocol.org";
