//! The members each object kind has in each version: what a strict ProtoJSON parser of
//! v1.0 accepts (`specification/a2a.proto` v1.0.0, JSON names), and what v0.3 knew
//! (`specification/json/a2a.json` v0.3.0, plus the v0.3 HTTP+JSON names the forward steps
//! rewrite). A member in neither list is unknown to both versions (a v0.2-style
//! `"type": "text"` on a Part): the forward migration drops it, as the SDK's converters do,
//! and the v1.0 check fails on any member v1.0 does not list.

use super::model::ObjectKind;

/// The v1.0 JSON members of `kind`, or `None` for kinds whose members are not listed.
pub(crate) fn v10_members(kind: ObjectKind) -> Option<&'static [&'static str]> {
    use ObjectKind as K;
    const PUSH_CONFIG: &[&str] = &["tenant", "id", "taskId", "url", "token", "authentication"];
    Some(match kind {
        K::Task => &[
            "id",
            "contextId",
            "status",
            "artifacts",
            "history",
            "metadata",
        ],
        K::TaskStatus => &["state", "message", "timestamp"],
        K::Message => &[
            "messageId",
            "contextId",
            "taskId",
            "role",
            "parts",
            "metadata",
            "extensions",
            "referenceTaskIds",
        ],
        K::Part => &[
            "text",
            "raw",
            "url",
            "data",
            "metadata",
            "filename",
            "mediaType",
        ],
        K::Artifact => &[
            "artifactId",
            "name",
            "description",
            "parts",
            "metadata",
            "extensions",
        ],
        K::StatusUpdateEvent => &["taskId", "contextId", "status", "metadata"],
        K::ArtifactUpdateEvent => &[
            "taskId",
            "contextId",
            "artifact",
            "append",
            "lastChunk",
            "metadata",
        ],
        K::StreamResponse => &["task", "message", "statusUpdate", "artifactUpdate"],
        K::PushNotificationConfig | K::TaskPushNotificationConfig => PUSH_CONFIG,
        K::AuthenticationInfo => &["scheme", "credentials"],
        K::PushConfigList => &["configs", "nextPageToken"],
        K::AgentCard => &[
            "name",
            "description",
            "supportedInterfaces",
            "provider",
            "version",
            "documentationUrl",
            "capabilities",
            "securitySchemes",
            "securityRequirements",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
            "signatures",
            "iconUrl",
        ],
        K::AgentInterface => &["url", "protocolBinding", "tenant", "protocolVersion"],
        K::AgentCapabilities => &[
            "streaming",
            "pushNotifications",
            "extensions",
            "extendedAgentCard",
        ],
        K::AgentSkill => &[
            "id",
            "name",
            "description",
            "tags",
            "examples",
            "inputModes",
            "outputModes",
            "securityRequirements",
        ],
        K::SecurityScheme => &[
            "apiKeySecurityScheme",
            "httpAuthSecurityScheme",
            "oauth2SecurityScheme",
            "openIdConnectSecurityScheme",
            "mtlsSecurityScheme",
        ],
        K::OAuthFlows => &[
            "authorizationCode",
            "clientCredentials",
            "implicit",
            "password",
            "deviceCode",
        ],
        K::SendMessageParams => &["tenant", "message", "configuration", "metadata"],
        K::SendMessageConfiguration => &[
            "acceptedOutputModes",
            "taskPushNotificationConfig",
            "historyLength",
            "returnImmediately",
        ],
        K::GetTaskParams => &["tenant", "id", "historyLength"],
        K::CancelTaskParams => &["tenant", "id", "metadata"],
        K::SubscribeParams => &["tenant", "id"],
        K::GetPushConfigParams | K::DeletePushConfigParams => &["tenant", "taskId", "id"],
        K::ListPushConfigsParams => &["tenant", "taskId", "pageSize", "pageToken"],
        K::ListTasksParams => &[
            "tenant",
            "contextId",
            "status",
            "pageSize",
            "pageToken",
            "historyLength",
            "statusTimestampAfter",
            "includeArtifacts",
        ],
        K::ListTasksResult => &["tasks", "nextPageToken", "pageSize", "totalSize"],
        K::ExtendedCardParams => &["tenant"],
        K::JsonRpcRequest => &["jsonrpc", "id", "method", "params"],
        K::JsonRpcResponse => &["jsonrpc", "id", "result", "error"],
        K::JsonRpcError => &["code", "message", "data"],
    })
}

/// The v0.3 members of `kind` (JSON-RPC names, and the HTTP+JSON ones the forward steps
/// rewrite), or `None` for kinds whose members are not listed.
fn v03_members(kind: ObjectKind) -> Option<&'static [&'static str]> {
    use ObjectKind as K;
    Some(match kind {
        K::Task => &[
            "id",
            "contextId",
            "status",
            "artifacts",
            "history",
            "metadata",
            "kind",
        ],
        K::TaskStatus => &["state", "message", "timestamp", "update"],
        K::Message => &[
            "messageId",
            "contextId",
            "taskId",
            "role",
            "parts",
            "content",
            "metadata",
            "extensions",
            "referenceTaskIds",
            "kind",
        ],
        K::Part => &["kind", "text", "file", "data", "metadata"],
        K::Artifact => &[
            "artifactId",
            "name",
            "description",
            "parts",
            "metadata",
            "extensions",
        ],
        K::StatusUpdateEvent => &["taskId", "contextId", "status", "final", "metadata", "kind"],
        K::ArtifactUpdateEvent => &[
            "taskId",
            "contextId",
            "artifact",
            "append",
            "lastChunk",
            "metadata",
            "kind",
        ],
        K::StreamResponse => &["task", "msg", "message", "statusUpdate", "artifactUpdate"],
        K::PushNotificationConfig => &["id", "url", "token", "authentication"],
        K::TaskPushNotificationConfig => &["taskId", "pushNotificationConfig", "name"],
        K::AuthenticationInfo => &["schemes", "credentials"],
        K::PushConfigList => &["configs", "nextPageToken"],
        K::AgentCard => &[
            "protocolVersion",
            "name",
            "description",
            "url",
            "preferredTransport",
            "additionalInterfaces",
            "iconUrl",
            "provider",
            "version",
            "documentationUrl",
            "capabilities",
            "securitySchemes",
            "security",
            "defaultInputModes",
            "defaultOutputModes",
            "skills",
            "supportsAuthenticatedExtendedCard",
            "signatures",
        ],
        K::AgentInterface => &["url", "transport"],
        K::AgentCapabilities => &[
            "streaming",
            "pushNotifications",
            "stateTransitionHistory",
            "extensions",
        ],
        K::AgentSkill => &[
            "id",
            "name",
            "description",
            "tags",
            "examples",
            "inputModes",
            "outputModes",
            "security",
        ],
        K::SecurityScheme => &[
            "type",
            "description",
            "name",
            "in",
            "scheme",
            "bearerFormat",
            "flows",
            "openIdConnectUrl",
            "oauth2MetadataUrl",
        ],
        K::OAuthFlows => &[
            "authorizationCode",
            "clientCredentials",
            "implicit",
            "password",
        ],
        K::SendMessageParams => &["message", "request", "configuration", "metadata"],
        K::SendMessageConfiguration => &[
            "acceptedOutputModes",
            "historyLength",
            "pushNotificationConfig",
            "pushNotification",
            "blocking",
        ],
        K::GetTaskParams => &["id", "historyLength", "metadata", "name"],
        K::CancelTaskParams | K::SubscribeParams | K::ListPushConfigsParams => {
            &["id", "metadata", "name"]
        }
        K::GetPushConfigParams | K::DeletePushConfigParams => {
            &["id", "pushNotificationConfigId", "metadata", "name"]
        }
        K::ListTasksParams => &[
            "contextId",
            "status",
            "pageSize",
            "pageToken",
            "historyLength",
            "lastUpdatedAfter",
            "includeArtifacts",
            "metadata",
        ],
        K::ListTasksResult => &["tasks", "nextPageToken", "pageSize", "totalSize"],
        K::ExtendedCardParams => &[],
        K::JsonRpcRequest => &["jsonrpc", "id", "method", "params"],
        K::JsonRpcResponse => &["jsonrpc", "id", "result", "error"],
        K::JsonRpcError => &["code", "message", "data"],
    })
}

/// True when `member` of a `kind` object is known to neither version.
pub(crate) fn unknown_to_both(kind: ObjectKind, member: &str) -> bool {
    let listed = |members: Option<&[&str]>| members.is_none_or(|list| list.contains(&member));
    !listed(v10_members(kind)) && !listed(v03_members(kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_lists_its_members_in_both_versions() {
        for kind in ObjectKind::ALL {
            assert!(v10_members(kind).is_some(), "{kind:?}");
            assert!(v03_members(kind).is_some(), "{kind:?}");
        }
    }

    #[test]
    fn a_v02_part_type_is_unknown_to_both_and_kind_is_not() {
        assert!(unknown_to_both(ObjectKind::Part, "type"));
        assert!(!unknown_to_both(ObjectKind::Part, "kind"));
        assert!(!unknown_to_both(ObjectKind::Part, "mediaType"));
    }
}
