//! A case for every step of the v1.0 -> v0.3 table.

use super::{card, card10, case, message, message10, response, rpc, speaks, task03, Case};
use serde_json::json;

pub(super) fn reverse_cases() -> Vec<Case> {
    vec![
        case(
            "to03-jsonrpc-method",
            rpc("GetTask", json!({"id": "t"})),
            rpc("tasks/get", json!({"id": "t"})),
        ),
        case(
            "to03-send-result-unwrap",
            response(json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}})),
            response(json!({"statusUpdate": {"taskId": "t", "status": {}}})),
        ),
        case(
            "to03-stream-result-unwrap",
            response(json!({"statusUpdate": {"taskId": "t", "status": {}}})),
            response(json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}})),
        ),
        case(
            "to03-webhook-body-unwrap",
            json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}}),
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}),
        ),
        case(
            "to03-list-push-configs-result-unwrap",
            response(
                json!({"configs": [{"taskId": "t", "url": "https://h.example"}], "nextPageToken": "p2"}),
            ),
            response(
                json!([{"taskId": "t", "pushNotificationConfig": {"url": "https://h.example"}}]),
            ),
        ),
        speaks(
            "to03-error-rename-32007",
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32007, "message": "no card"}}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32002, "message": "not cancelable"}}),
        ),
        case(
            "to03-drop-tenant",
            rpc("GetTask", json!({"id": "t", "tenant": "acme"})),
            rpc("GetTask", json!({"id": "t"})),
        ),
        case(
            "to03-send-config-blocking",
            rpc(
                "SendMessage",
                json!({"message": message10(json!([])), "configuration": {"returnImmediately": true}}),
            ),
            rpc("SendMessage", json!({"message": message10(json!([]))})),
        ),
        case(
            "to03-send-config-blocking",
            rpc(
                "SendMessage",
                json!({"message": message10(json!([])), "configuration": {}}),
            ),
            rpc(
                "SendMessage",
                json!({"message": message10(json!([])), "configuration": {"blocking": false}}),
            ),
        ),
        case(
            "to03-send-config-push-rename",
            rpc(
                "SendMessage",
                json!({"message": message10(json!([])), "configuration": {"taskPushNotificationConfig": {"url": "https://h.example"}}}),
            ),
            rpc(
                "SendMessage",
                json!({"message": message10(json!([])), "configuration": {}}),
            ),
        ),
        speaks(
            "to03-history-length-zero",
            rpc("GetTask", json!({"id": "t", "historyLength": 0})),
            rpc("GetTask", json!({"id": "t", "historyLength": 2})),
        ),
        case(
            "to03-push-config-params-ids",
            rpc(
                "DeleteTaskPushNotificationConfig",
                json!({"taskId": "t", "id": "c"}),
            ),
            rpc(
                "tasks/pushNotificationConfig/delete",
                json!({"id": "t", "pushNotificationConfigId": "c"}),
            ),
        ),
        case(
            "to03-task-push-config-nest",
            json!({"taskId": "t", "id": "c", "url": "https://h.example"}),
            json!({"taskId": "t", "pushNotificationConfig": {"url": "https://h.example"}}),
        ),
        case(
            "to03-push-auth-scheme-to-schemes",
            json!({"url": "https://h.example", "authentication": {"scheme": "Bearer"}}),
            json!({"url": "https://h.example", "authentication": {"schemes": ["Bearer"]}}),
        ),
        speaks(
            "to03-list-tasks",
            rpc("ListTasks", json!({"pageSize": 5})),
            rpc("GetTask", json!({"id": "t"})),
        ),
        case(
            "to03-taskstate-enum",
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}),
            task03(json!({})),
        ),
        case("to03-role-enum", message10(json!([])), message(json!([]))),
        case(
            "to03-timestamp-utc-z",
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2025-01-01T10:00:00.000+02:00"}}),
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2025-01-01T08:00:00Z"}}),
        ),
        case(
            "to03-part-text",
            json!({"text": "x", "mediaType": "text/plain"}),
            json!({"kind": "text", "text": "x"}),
        ),
        case(
            "to03-part-file-url",
            json!({"url": "https://f.example/a", "mediaType": "a/b"}),
            json!({"raw": "aGk=", "mediaType": "a/b"}),
        ),
        case(
            "to03-part-file-raw",
            json!({"raw": "aGk=", "mediaType": "a/b"}),
            json!({"url": "https://f.example/a", "mediaType": "a/b"}),
        ),
        case(
            "to03-part-data",
            message10(json!([{"data": 3}])),
            message10(json!([{"text": "x"}])),
        ),
        case(
            "to03-add-kind-task-message",
            json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}}),
            task03(json!({})),
        ),
        case(
            "to03-status-event-add-final",
            json!({"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}),
            json!({"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "completed"}, "final": true}),
        ),
        case(
            "to03-artifact-event-add-kind",
            json!({"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}),
            json!({"kind": "artifact-update", "taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": []}}),
        ),
        case(
            "to03-proto-field-names",
            json!({"task_id": "t", "url": "https://h/hook", "metadata": {"task_id": "x"}}),
            json!({"taskId": "t", "url": "https://h/hook", "metadata": {"task_id": "x"}}),
        ),
        case(
            "to03-restore-required",
            json!({"id": "t", "contextId": "c", "status": {}}),
            json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "unknown"}}),
        ),
        case(
            "to03-card-v10-only",
            card10(json!({"supportedInterfaces": [
                {"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                {"url": "https://a.example/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})),
            card10(json!({})),
        ),
        speaks(
            "to03-card-v10-only",
            card10(json!({"supportedInterfaces": [
                {"url": "https://a.example/v1", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})),
            card10(json!({"supportedInterfaces": [
                {"url": "https://a.example/v1", "protocolBinding": "JSONRPC"}]})),
        ),
        case(
            "to03-card-protocol-version",
            card10(json!({})),
            card(json!({})),
        ),
        case(
            "to03-card-interfaces-split",
            card10(json!({})),
            card(json!({})),
        ),
        case(
            "to03-card-extended-card-capability",
            card10(json!({"capabilities": {"extendedAgentCard": true}})),
            card10(json!({})),
        ),
        case(
            "to03-card-security-requirements",
            card10(json!({"securityRequirements": [{"schemes": {"k": {}}}]})),
            card10(json!({})),
        ),
        case(
            "to03-security-scheme-member-to-type",
            card10(
                json!({"securitySchemes": {"k": {"apiKeySecurityScheme": {"location": "header", "name": "K"}}}}),
            ),
            card(
                json!({"securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "K"}}}),
            ),
        ),
        case(
            "to03-oauth-v1-only-fields",
            card10(
                json!({"securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {
                "authorizationUrl": "https://a.example", "tokenUrl": "https://t.example", "scopes": {}, "pkceRequired": true}}}}}}),
            ),
            card10(
                json!({"securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {
                "tokenUrl": "https://t.example", "scopes": {}}}}}}}),
            ),
        ),
        case(
            "to03-card-signatures-invalidated",
            card10(json!({"signatures": [{"protected": "p", "signature": "s"}]})),
            card10(json!({})),
        ),
        speaks(
            "to03-headers",
            rpc("GetTask", json!({"id": "t"})),
            card10(json!({})),
        ),
    ]
}
