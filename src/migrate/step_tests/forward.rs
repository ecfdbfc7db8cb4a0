//! A case for every step of the v0.3 -> v1.0 table.

use super::{card, card10, case, message, message10, response, rpc, speaks, task03, Case};
use serde_json::json;

pub(super) fn forward_cases() -> Vec<Case> {
    let push03 = json!({"url": "https://h.example", "authentication": {"schemes": ["Bearer"]}});
    vec![
        case(
            "proto-field-names",
            json!({"message_id": "m", "role": "ROLE_USER", "content": [{"text": "x"}]}),
            json!({"messageId": "m", "role": "ROLE_USER", "content": [{"text": "x"}]}),
        ),
        case(
            "jsonrpc-method-rename",
            rpc("tasks/get", json!({"id": "t"})),
            rpc("GetTask", json!({"id": "t"})),
        ),
        case(
            "send-result-wrap",
            response(task03(json!({}))),
            response(json!({"task": {"id": "t", "status": {"state": "working"}}})),
        ),
        case(
            "stream-result-wrap",
            response(
                json!({"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": false}),
            ),
            response(task03(json!({}))),
        ),
        speaks(
            "webhook-body-wrap",
            task03(json!({})),
            message(json!([{"kind": "text", "text": "x"}])),
        ),
        case(
            "list-push-configs-result-wrap",
            response(
                json!([{"taskId": "t", "pushNotificationConfig": {"url": "https://h.example"}}]),
            ),
            response(json!({"configs": []})),
        ),
        speaks(
            "error-rename-32007",
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32007, "message": "no card"}}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no task"}}),
        ),
        case(
            "error-data-to-errorinfo",
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no task", "data": {"taskId": "t"}}}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no task", "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo"}]}}),
        ),
        case(
            "rest-send-request-message",
            json!({"request": {"messageId": "m", "role": "ROLE_USER", "content": [{"text": "x"}]}}),
            json!({"message": {"messageId": "m", "role": "ROLE_USER", "content": [{"text": "x"}]}}),
        ),
        case(
            "send-config-blocking-to-returnImmediately",
            rpc(
                "message/send",
                json!({"message": message(json!([])), "configuration": {"blocking": false}}),
            ),
            rpc(
                "message/send",
                json!({"message": message(json!([])), "configuration": {"returnImmediately": true}}),
            ),
        ),
        case(
            "send-config-push-rename",
            rpc(
                "message/send",
                json!({"message": message(json!([])), "configuration": {"pushNotificationConfig": push03}}),
            ),
            rpc(
                "message/send",
                json!({"message": message(json!([])), "configuration": {}}),
            ),
        ),
        case(
            "history-length-zero",
            rpc("tasks/get", json!({"id": "t", "historyLength": 0})),
            rpc("tasks/get", json!({"id": "t", "historyLength": 3})),
        ),
        case(
            "drop-request-metadata",
            rpc("tasks/get", json!({"id": "t", "metadata": {"a": 1}})),
            rpc("tasks/cancel", json!({"id": "t", "metadata": {"a": 1}})),
        ),
        case(
            "push-config-params-ids",
            rpc(
                "tasks/pushNotificationConfig/get",
                json!({"id": "t", "pushNotificationConfigId": "c"}),
            ),
            rpc(
                "GetTaskPushNotificationConfig",
                json!({"taskId": "t", "id": "c"}),
            ),
        ),
        case(
            "task-push-config-flatten",
            json!({"taskId": "t", "pushNotificationConfig": push03}),
            json!({"taskId": "t", "url": "https://h.example"}),
        ),
        case(
            "push-auth-schemes-to-scheme",
            json!({"taskId": "t", "url": "https://h.example", "authentication": {"schemes": ["Bearer"]}}),
            json!({"taskId": "t", "url": "https://h.example", "authentication": {"scheme": "Bearer"}}),
        ),
        case(
            "list-tasks-draft-params",
            rpc(
                "tasks/list",
                json!({"page_size": 5, "lastUpdatedAfter": 1700000000000_i64}),
            ),
            rpc("ListTasks", json!({"pageSize": 5})),
        ),
        case(
            "taskstate-enum",
            task03(json!({})),
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}),
        ),
        case("role-enum", message(json!([])), message10(json!([]))),
        case(
            "timestamp-utc-z",
            task03(json!({"status": {"state": "working", "timestamp": "2025-01-01T10:00:00"}})),
            task03(json!({"status": {"state": "working", "timestamp": "2025-01-01T10:00:00Z"}})),
        ),
        case(
            "part-text",
            json!({"kind": "text", "text": "x", "metadata": {}}),
            json!({"text": "x", "mediaType": "text/plain"}),
        ),
        case(
            "part-file-uri",
            json!({"kind": "file", "file": {"uri": "https://f.example/a", "mimeType": "a/b"}}),
            json!({"kind": "file", "file": {"bytes": "aGk="}}),
        ),
        speaks(
            "part-file-data",
            message(json!([{"kind": "file", "file": {"data": "aGk="}}])),
            message(json!([{"kind": "file", "file": {"bytes": "aGk="}}])),
        ),
        case(
            "part-file-bytes",
            json!({"kind": "file", "file": {"bytes": "aGk=", "name": "h"}}),
            json!({"kind": "file", "file": {"uri": "https://f.example/a"}}),
        ),
        case(
            "part-data",
            json!({"kind": "data", "data": {"a": 1}}),
            json!({"raw": "aGk=", "mediaType": "a/b"}),
        ),
        case(
            "part-rest-dialect",
            json!({"messageId": "m", "role": "ROLE_USER", "content": [{"file": {"fileWithUri": "https://f.example/a"}}]}),
            message10(json!([{"text": "x"}])),
        ),
        case(
            "drop-kind-task-message",
            task03(json!({})),
            json!({"id": "t", "status": {"state": "working"}}),
        ),
        case(
            "status-event-drop-final",
            json!({"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": false}),
            json!({"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}),
        ),
        case(
            "artifact-event-drop-kind",
            json!({"kind": "artifact-update", "taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": []}}),
            json!({"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": []}}),
        ),
        case(
            "card-interfaces-merge",
            card(
                json!({"additionalInterfaces": [{"url": "https://a.example/g", "transport": "GRPC"}]}),
            ),
            card10(json!({})),
        ),
        case(
            "card-protocol-version-into-interfaces",
            json!({"protocolVersion": "0.3.0", "name": "A", "skills": [], "supportedInterfaces": [{"url": "u", "protocolBinding": "JSONRPC"}]}),
            card10(json!({})),
        ),
        case(
            "card-extended-card-capability",
            card(json!({"supportsAuthenticatedExtendedCard": true})),
            card(json!({})),
        ),
        case(
            "card-drop-state-transition-history",
            card(json!({"capabilities": {"stateTransitionHistory": true}})),
            card(json!({})),
        ),
        case(
            "card-security-requirements",
            card(json!({"security": [{"k": []}]})),
            card10(json!({"securityRequirements": [{"schemes": {"k": {}}}]})),
        ),
        case(
            "security-scheme-type-to-member",
            card(
                json!({"securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "K"}}}),
            ),
            card10(
                json!({"securitySchemes": {"k": {"apiKeySecurityScheme": {"location": "header", "name": "K"}}}}),
            ),
        ),
        case(
            "oauth-flows-single",
            card(
                json!({"securitySchemes": {"o": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "https://t.example", "scopes": {}},
                "password": {"tokenUrl": "https://t.example", "scopes": {}}}}}}),
            ),
            card(
                json!({"securitySchemes": {"o": {"type": "oauth2", "flows": {
                "clientCredentials": {"tokenUrl": "https://t.example", "scopes": {}}}}}}),
            ),
        ),
        speaks(
            "oauth-deprecated-flow-advice",
            card(
                json!({"securitySchemes": {"o": {"type": "oauth2", "flows": {"password": {"tokenUrl": "https://t.example", "scopes": {}}}}}}),
            ),
            card(
                json!({"securitySchemes": {"o": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://t.example", "scopes": {}}}}}}),
            ),
        ),
        case(
            "card-signatures-invalidated",
            card(json!({"signatures": [{"protected": "p", "signature": "s"}]})),
            card(json!({"signatures": []})),
        ),
        case(
            "drop-unknown-members",
            message(json!([{"kind": "text", "type": "text", "text": "x"}])),
            message(json!([{"kind": "text", "text": "x"}])),
        ),
        speaks(
            "http-path-drop-v1",
            json!({"messageId": "m", "role": "ROLE_USER", "content": []}),
            message(json!([])),
        ),
        speaks(
            "headers",
            rpc("tasks/get", json!({"id": "t"})),
            task03(json!({})),
        ),
        speaks(
            "content-type",
            json!({"messageId": "m", "role": "ROLE_USER", "content": []}),
            message(json!([])),
        ),
    ]
}
