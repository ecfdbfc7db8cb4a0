//! Every step, run on its own: it applies where it should, leaves other input alone, and
//! applying it twice is the same as applying it once. The last test makes sure no step of
//! either table is without a case.

use super::choices::Choices;
use super::detect::detect_explained;
use super::step::StepCtx;
use super::{step_by_id, Direction, Judgement, Migration, FORWARD_STEPS, REVERSE_STEPS};
use crate::json::digest_value;
use serde_json::{json, Value};

struct Case {
    id: &'static str,
    applies: Value,
    /// False when the step only speaks (advice, or a choice whose default changes nothing).
    changes: bool,
    not: Value,
}

fn case(id: &'static str, applies: Value, not: Value) -> Case {
    Case {
        id,
        applies,
        changes: true,
        not,
    }
}

fn speaks(id: &'static str, applies: Value, not: Value) -> Case {
    Case {
        id,
        applies,
        changes: false,
        not,
    }
}

fn rpc(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
}

fn response(result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": result})
}

fn card(extra: Value) -> Value {
    let mut card = json!({"protocolVersion": "0.3.0", "name": "A", "description": "d",
        "url": "https://a.example/rpc", "version": "1", "capabilities": {},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []});
    if let (Some(card), Some(extra)) = (card.as_object_mut(), extra.as_object()) {
        card.extend(extra.clone());
    }
    card
}

fn card10(extra: Value) -> Value {
    let mut card = json!({"name": "A", "description": "d", "version": "1", "capabilities": {},
        "supportedInterfaces": [{"url": "https://a.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []});
    if let (Some(card), Some(extra)) = (card.as_object_mut(), extra.as_object()) {
        card.extend(extra.clone());
    }
    card
}

fn task03(extra: Value) -> Value {
    let mut task =
        json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working"}});
    if let (Some(task), Some(extra)) = (task.as_object_mut(), extra.as_object()) {
        task.extend(extra.clone());
    }
    task
}

fn message(parts: Value) -> Value {
    json!({"kind": "message", "role": "user", "messageId": "m", "parts": parts})
}

fn message10(parts: Value) -> Value {
    json!({"role": "ROLE_USER", "messageId": "m", "parts": parts})
}

fn forward_cases() -> Vec<Case> {
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

fn reverse_cases() -> Vec<Case> {
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

/// Runs one step on `doc` (detected as a whole) and says whether it applied.
fn run_step(id: &str, doc: &Value) -> (Value, bool) {
    let step = step_by_id(id).unwrap_or_else(|| panic!("no step {id}"));
    let detection = detect_explained(doc).unwrap_or_else(|why| panic!("{id}: {why}: {doc}"));
    let choices = Choices::none();
    let mut out = doc.clone();
    let mut ctx = StepCtx::new(step, &detection, &choices);
    (step.apply)(&mut out, &mut ctx);
    let applied = ctx.applied();
    // Idempotent: the same step on its own output (with the original detection) changes nothing.
    let mut again = out.clone();
    let mut ctx = StepCtx::new(step, &detection, &choices);
    (step.apply)(&mut again, &mut ctx);
    assert_eq!(again, out, "{id} is not idempotent on {doc}");
    (out, applied)
}

fn check_cases(cases: Vec<Case>) {
    for case in cases {
        let (after, applied) = run_step(case.id, &case.applies);
        assert!(applied, "{} did not apply to {}", case.id, case.applies);
        if case.changes {
            assert_ne!(
                after, case.applies,
                "{} applied but changed nothing",
                case.id
            );
        } else {
            assert_eq!(after, case.applies, "{} must not edit", case.id);
        }
        let (after, applied) = run_step(case.id, &case.not);
        assert!(!applied, "{} applied to {}", case.id, case.not);
        assert_eq!(after, case.not, "{} changed {}", case.id, case.not);
    }
}

#[test]
fn forward_steps_apply_do_not_apply_and_are_idempotent() {
    check_cases(forward_cases());
}

#[test]
fn reverse_steps_apply_do_not_apply_and_are_idempotent() {
    check_cases(reverse_cases());
}

#[test]
fn every_step_has_a_case_and_ids_are_unique() {
    let covered: Vec<&str> = forward_cases()
        .iter()
        .chain(reverse_cases().iter())
        .map(|case| case.id)
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for step in FORWARD_STEPS.iter().chain(REVERSE_STEPS.iter()) {
        assert!(seen.insert(step.id), "duplicate step id {}", step.id);
        assert!(covered.contains(&step.id), "no case for {}", step.id);
        assert!(
            !step.why.is_empty() && !step.source.is_empty(),
            "{}",
            step.id
        );
        assert!(
            step.advisory || !step.changes.is_empty(),
            "{} declares no paths",
            step.id
        );
    }
}

#[test]
fn a_judgement_is_what_the_whole_migration_concludes() {
    // Every case document and every fixture, both directions: the judgement `check` keeps
    // (steps run in place, nothing recorded) agrees with the full migration.
    for doc in every_doc() {
        for direction in [Direction::Forward, Direction::Reverse] {
            let full = Migration::run(&doc, direction, &Choices::none());
            let judged = Judgement::of(doc.clone(), direction);
            match (full, judged) {
                (Ok(full), Ok(judged)) => {
                    assert_eq!(judged.findings, full.findings, "{doc}");
                    assert_eq!(judged.result_digest, digest_value(&full.result), "{doc}");
                    assert_eq!(judged.detection.conflicts, full.detection.conflicts);
                }
                (Err(_), Err(_)) => {}
                (full, judged) => panic!("{doc}: {:?} vs {:?}", full.is_ok(), judged.is_ok()),
            }
        }
    }
}

#[test]
fn step_texts_diff_as_the_step_diff_and_a_dropped_result_is_rebuilt() {
    // Every fixture both ways: the texts `step_texts` hands over diff to the hunks
    // `step_diff` gives, and `result_without` nothing equals the result `drop_result` forgot.
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
    let mut checked = 0;
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for direction in [Direction::Forward, Direction::Reverse] {
            let Ok(mut migration) = Migration::run(&doc, direction, &Choices::none()) else {
                continue;
            };
            for index in 0..=migration.steps.len() {
                let texts = migration.step_texts(index);
                assert_eq!(texts.is_some(), index < migration.steps.len(), "{path:?}");
                let hunks = texts
                    .map(|(old, new)| super::diff::text_hunks(&old, &new, 2))
                    .unwrap_or_default();
                assert_eq!(hunks, migration.step_diff(index, 2), "{path:?} {index}");
                checked += usize::from(!hunks.is_empty());
            }
            let result = migration.result.clone();
            migration.drop_result();
            assert_eq!(migration.result, Value::Null);
            assert_eq!(migration.result_without(&[]), result, "{path:?}");
        }
    }
    assert!(checked > 10, "only {checked} step diffs compared");
}

/// Every case document and every fixture of fixtures/migrate.
fn every_doc() -> Vec<Value> {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
    let mut docs: Vec<Value> = forward_cases()
        .into_iter()
        .chain(reverse_cases())
        .flat_map(|case| [case.applies, case.not])
        .collect();
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "json") {
            docs.push(serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap());
        }
    }
    docs
}

/// Everything a migration shows, replays included, as text to compare.
fn everything(migration: &Migration) -> String {
    let mut shown = format!(
        "{}\n{:?}\n{:?}\n",
        serde_json::to_string_pretty(&migration.report()).unwrap(),
        migration.steps,
        migration.input()
    );
    migration.each_step_diff(2, |run, lines| {
        shown.push_str(run.step.id);
        for line in lines {
            shown.push_str(&format!("{}{}\n", line.tag.sign(), line.text));
        }
    });
    for run in &migration.steps {
        shown.push_str(&migration.result_without(&[run.step.id]).to_string());
    }
    for index in 0..migration.steps.len() {
        shown.push_str(&format!("{:?}", migration.step_diff(index, 1)));
    }
    shown
}

#[test]
fn a_migration_of_a_tree_given_up_replays_from_its_text_as_one_of_a_shared_tree() {
    // A tree given up is kept as its canonical text, parsed for the replays; a shared tree is
    // kept as it is. Reports, step records, diffs and results with steps off all agree, and
    // the input given back is the input (floats, escapes and non-ASCII text included).
    let mut docs = every_doc();
    docs.push(json!({"kind": "message", "role": "user", "messageId": "m",
        "parts": [{"kind": "data", "data": {"f": 0.1, "g": -0.0, "h": 1e300, "i": -7,
            "j": 18446744073709551615u64, "k": 2.5e-308, "s": "é\u{1}\"\\\u{202e}"}}]}));
    let mut compared = 0;
    for doc in docs {
        for direction in [Direction::Forward, Direction::Reverse] {
            let shared = Migration::run(
                std::sync::Arc::new(doc.clone()),
                direction,
                &Choices::none(),
            );
            let owned = Migration::run(doc.clone(), direction, &Choices::none());
            match (shared, owned) {
                (Ok(shared), Ok(owned)) => {
                    assert_eq!(*owned.input(), doc);
                    // The replay ends with the result (as the input when already at target).
                    let replayed = owned.each_step_diff_then_result(2, |_, _| {});
                    assert_eq!(replayed, owned.result, "{doc}");
                    assert_eq!(everything(&owned), everything(&shared), "{doc}");
                    compared += 1;
                }
                (Err(_), Err(_)) => {}
                (shared, owned) => panic!("{doc}: {:?} vs {:?}", shared.is_ok(), owned.is_ok()),
            }
        }
    }
    assert!(compared > 50, "only {compared} migrations compared");
}

#[test]
fn the_report_written_straight_out_is_the_report_built_as_a_value() {
    for doc in every_doc() {
        for direction in [Direction::Forward, Direction::Reverse] {
            let Ok(migration) = Migration::run(&doc, direction, &Choices::none()) else {
                continue;
            };
            let mut written = Vec::new();
            super::write_report(&migration, &mut written).unwrap();
            let built = serde_json::to_string_pretty(&migration.report()).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), built, "{doc}");
        }
    }
}

#[test]
fn a_tree_too_deep_to_parse_again_is_kept_as_a_tree() {
    // serde_json refuses a 128th level; a tree built in code can be deeper than any parsed
    // one. The migration then keeps the tree (a copy) and its replays still work.
    let mut deep = json!("leaf");
    for _ in 0..130 {
        deep = json!([deep]);
    }
    let doc = json!({"kind": "message", "role": "user", "messageId": "m",
        "parts": [{"kind": "data", "data": {"deep": deep}}]});
    assert!(serde_json::from_str::<Value>(&doc.to_string()).is_err());
    let owned = Migration::run(doc.clone(), Direction::Forward, &Choices::none()).unwrap();
    assert_eq!(*owned.input(), doc);
    assert!(!owned.steps.is_empty());
    let shared = Migration::run(
        std::sync::Arc::new(doc),
        Direction::Forward,
        &Choices::none(),
    )
    .unwrap();
    assert_eq!(everything(&owned), everything(&shared));
}
