//! Phase B: the JSON-RPC envelope (methods, result wrappers, errors) and the webhook body.

use crate::json::JsonPath;
use crate::migrate::edit::{insert, map_string, remove};
use crate::migrate::model::shown;
use crate::migrate::model::{
    method_row, MethodRow, ObjectKind, ERROR_DOMAIN, ERROR_INFO_TYPE, ERROR_REASONS,
};
use crate::migrate::shape::{classify_object, wrapper_member};
use crate::migrate::step::{each, StepCtx};
use serde_json::{json, Map, Value};

/// Renames every request's method to its name in the other version; returns where a method
/// was renamed, with its row.
pub(crate) fn rename_methods(
    doc: &mut Value,
    ctx: &mut StepCtx<'_>,
    to_v10: bool,
) -> Vec<(JsonPath, &'static MethodRow)> {
    let mut renamed = Vec::new();
    each(doc, ctx, ObjectKind::JsonRpcRequest, |obj, at, ctx| {
        let result = map_string(ctx, obj, at, "method", |method| {
            method_row(method)
                .filter(|row| {
                    if to_v10 {
                        row.v03 == method
                    } else {
                        row.v10 == method
                    }
                })
                .map(|row| if to_v10 { row.v10 } else { row.v03 })
        });
        if let Some(row) = result.ok().flatten().as_deref().and_then(method_row) {
            renamed.push((at.key("method"), row));
        }
    });
    renamed
}

pub fn method_rename(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for (at, row) in rename_methods(doc, ctx, true) {
        if !row.in_v03 {
            ctx.note(
                &at,
                "`tasks/list` was not a v0.3.0 JSON-RPC method (only a draft); v1.0 `ListTasks` is new",
            );
        }
    }
}

/// Moves `result` into `{member: result}`.
fn wrap_result(ctx: &mut StepCtx<'_>, obj: &mut Map<String, Value>, at: &JsonPath, member: &str) {
    if let Some(result) = obj.remove("result") {
        obj.insert("result".into(), json!({ member: result }));
        ctx.changed(Some(at.key("result")), Some(at.key("result").key(member)));
    }
}

fn bare_result_kind(obj: &Map<String, Value>) -> Option<ObjectKind> {
    let result = obj.get("result")?.as_object()?;
    if wrapper_member(result).is_some() {
        return None;
    }
    classify_object(result)
}

pub fn send_result_wrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::JsonRpcResponse,
        |obj, at, ctx| match bare_result_kind(obj) {
            Some(ObjectKind::Message) => wrap_result(ctx, obj, at, "message"),
            Some(ObjectKind::Task) => {
                if ctx.choose() == "send" {
                    wrap_result(ctx, obj, at, "task");
                } else {
                    ctx.note(
                        &at.key("result"),
                        "left bare: GetTask and CancelTask return the Task unwrapped",
                    );
                }
            }
            _ => {}
        },
    );
}

pub fn stream_result_wrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::JsonRpcResponse,
        |obj, at, ctx| match bare_result_kind(obj) {
            Some(ObjectKind::StatusUpdateEvent) => wrap_result(ctx, obj, at, "statusUpdate"),
            Some(ObjectKind::ArtifactUpdateEvent) => wrap_result(ctx, obj, at, "artifactUpdate"),
            _ => {}
        },
    );
}

pub fn webhook_body_wrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    if ctx.detection.object != ObjectKind::Task {
        return;
    }
    let bare_task = doc
        .as_object()
        .is_some_and(|obj| wrapper_member(obj).is_none());
    if !bare_task {
        return;
    }
    if ctx.choose() == "webhook" {
        let task = doc.take();
        *doc = json!({ "task": task });
        ctx.changed(Some(JsonPath::root()), Some(JsonPath::keys(&["task"])));
    } else {
        ctx.note(
            &JsonPath::root(),
            "migrated as a Task object; a v1.0 push-notification body would be `{\"task\": ...}`",
        );
    }
}

pub fn list_push_configs_result_wrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcResponse, |obj, at, ctx| {
        if obj.get("result").is_some_and(Value::is_array) {
            if let Some(configs) = obj.remove("result") {
                obj.insert("result".into(), json!({ "configs": configs }));
                ctx.changed(
                    Some(at.key("result")),
                    Some(at.key("result").key("configs")),
                );
            }
        }
    });
}

fn error_code(obj: &Map<String, Value>) -> Option<i64> {
    obj.get("code").and_then(Value::as_i64)
}

pub fn error_rename_32007(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcError, |obj, at, ctx| {
        if error_code(obj) == Some(-32007) {
            ctx.note(
                &at.key("code"),
                "code -32007 stays; its name is now ExtendedAgentCardNotConfiguredError \
                 (was AuthenticatedExtendedCardNotConfiguredError)",
            );
        }
    });
}

fn already_error_info(data: &Value) -> bool {
    data.as_array().is_some_and(|items| {
        items
            .iter()
            .all(|item| item.get("@type").is_some_and(Value::is_string))
    })
}

/// `ErrorInfo.metadata` is map<string,string>: strings stay, anything else becomes its JSON
/// text, and each such key is named.
fn string_metadata(data: Value, at: &JsonPath, ctx: &mut StepCtx<'_>) -> Map<String, Value> {
    let entries: Vec<(String, Value)> = match data {
        Value::Object(map) => map.into_iter().collect(),
        other => vec![("data".to_owned(), other)],
    };
    let mut metadata = Map::new();
    for (key, value) in entries {
        let text = match value {
            Value::String(text) => text,
            other => {
                ctx.warn(
                    &at.key(&key),
                    format!(
                        "ErrorInfo metadata holds strings only: `{}` = {} became its JSON text",
                        crate::json::safe_text(&key),
                        shown(&other)
                    ),
                );
                serde_json::to_string(&other).unwrap_or_default()
            }
        };
        metadata.insert(key, Value::String(text));
    }
    metadata
}

/// A `google.rpc.ErrorInfo` naming an A2A error by its reason.
fn error_info(reason: &str) -> Map<String, Value> {
    let mut info = Map::new();
    info.insert("@type".into(), ERROR_INFO_TYPE.into());
    info.insert("reason".into(), reason.into());
    info.insert("domain".into(), ERROR_DOMAIN.into());
    info
}

pub fn error_data_to_errorinfo(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcError, |obj, at, ctx| {
        let reason = error_code(obj).and_then(|code| {
            ERROR_REASONS
                .iter()
                .find(|(known, _)| *known == code)
                .map(|(_, reason)| *reason)
        });
        let data = obj
            .get("data")
            .filter(|data| !data.as_array().is_some_and(Vec::is_empty));
        let Some(data) = data else {
            // `always`: the ErrorInfo that names the error even where v0.3 said no more
            // (no `data`, or an empty list).
            if let Some(reason) = reason {
                if ctx.choice_of(&crate::migrate::choice_defs::ERROR_DATA) == "always" {
                    ctx.choose();
                    insert(ctx, obj, at, "data", json!([error_info(reason)]));
                }
            }
            return;
        };
        if already_error_info(data) {
            return;
        }
        let data_at = at.key("data");
        let Some(reason) = reason else {
            ctx.warn(
                &data_at,
                "no ErrorInfo reason is defined for this code; `data` left as it was (v1.0 \
                 expects an array of google.rpc Any objects)",
            );
            return;
        };
        match ctx.choose().as_str() {
            "keep" => ctx.warn(
                &data_at,
                "kept as it was; v1.0 expects an array of google.rpc Any objects",
            ),
            "drop" => {
                if let Some(dropped) = remove(ctx, obj, at, "data") {
                    ctx.warn(&data_at, format!("dropped `data` = {}", shown(&dropped)));
                }
            }
            _ => {
                let data = obj.get("data").cloned().unwrap_or(Value::Null);
                let mut info = error_info(reason);
                if !data.is_null() {
                    let metadata = string_metadata(data, &data_at, ctx);
                    if !metadata.is_empty() {
                        info.insert("metadata".into(), Value::Object(metadata));
                    }
                }
                insert(ctx, obj, at, "data", json!([Value::Object(info)]));
            }
        }
    });
}
