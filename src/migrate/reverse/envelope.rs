//! Reverse phase B: method names, result wrappers, the webhook body, errors.

use crate::json::JsonPath;
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::shape::wrapper_member;
use crate::migrate::step::{each, StepCtx};
use serde_json::{Map, Value};

pub fn method_rename(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for (at, row) in crate::migrate::forward::envelope::rename_methods(doc, ctx, false) {
        if !row.in_v03 {
            ctx.warn(
                &at,
                "ListTasks has no v0.3.0 JSON-RPC method; renamed to the draft `tasks/list`, \
                 which v0.3 servers may not know",
            );
        }
    }
}

/// Replaces `{member: inner}` at `key` with `inner`, when the wrapper member is one of
/// `members`.
fn unwrap_at(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    key: &str,
    members: &[&str],
) -> Option<&'static str> {
    let (member, _) = obj
        .get(key)
        .and_then(Value::as_object)
        .and_then(wrapper_member)?;
    if !members.contains(&member) {
        return None;
    }
    let mut inner = obj
        .get_mut(key)
        .and_then(Value::as_object_mut)
        .and_then(|wrapper| wrapper.remove(member))?;
    discriminate(&mut inner, member);
    obj.insert(key.to_owned(), inner);
    ctx.changed(Some(at.key(key).key(member)), Some(at.key(key)));
    Some(member)
}

/// Writes the v0.3 `kind` of an unwrapped object: the wrapper member was the only thing
/// that said what it is, and an object whose empty members ProtoJSON left out (a Message
/// without parts, a Task without id) has no shape that says it again. v0.3 requires
/// `kind` on all four, so the later add-kind steps find it done.
fn discriminate(inner: &mut Value, member: &str) {
    let kind = match member {
        "task" => "task",
        "message" => "message",
        "statusUpdate" => "status-update",
        "artifactUpdate" => "artifact-update",
        _ => return,
    };
    if let Some(obj) = inner.as_object_mut() {
        obj.entry("kind")
            .or_insert_with(|| Value::String(kind.to_owned()));
    }
}

pub fn send_result_unwrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcResponse, |obj, at, ctx| {
        unwrap_at(ctx, obj, at, "result", &["task", "message"]);
    });
}

pub fn stream_result_unwrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcResponse, |obj, at, ctx| {
        unwrap_at(ctx, obj, at, "result", &["statusUpdate", "artifactUpdate"]);
    });
}

pub fn webhook_body_unwrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    let Some((member, _)) = doc.as_object().and_then(wrapper_member) else {
        return;
    };
    let inner = doc
        .as_object_mut()
        .and_then(|wrapper| wrapper.remove(member));
    if let Some(mut inner) = inner {
        discriminate(&mut inner, member);
        *doc = inner;
        ctx.changed(Some(JsonPath::root().key(member)), Some(JsonPath::root()));
        if member != "task" {
            ctx.note(
                &JsonPath::root(),
                format!(
                    "unwrapped `{member}`: fine as a v0.3 stream event, but a v0.3 \
                     push-notification body could only be a Task"
                ),
            );
        }
    }
}

pub fn list_push_configs_result_unwrap(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcResponse, |obj, at, ctx| {
        let result_at = at.key("result");
        let Some(Value::Object(result)) = obj.get_mut("result") else {
            return;
        };
        if result.is_empty() {
            // ProtoJSON left the empty `configs` out; v0.3's result is the bare array.
            obj.insert("result".into(), Value::Array(Vec::new()));
            ctx.note(
                &result_at,
                "an empty result read as the list-configs result with no configs (ProtoJSON \
                 leaves `configs: []` out): written as []",
            );
            ctx.changed(Some(result_at.clone()), Some(result_at));
            return;
        }
        let Some(configs) = result.remove("configs") else {
            return;
        };
        for (key, value) in result.iter() {
            let lost = !(value.is_null() || value.as_str() == Some(""));
            if lost {
                ctx.warn(
                    &result_at.key(key),
                    format!(
                        "dropped `{key}` = {}: the v0.3 result is a bare array (no paging)",
                        shown(value)
                    ),
                );
            }
            ctx.changed(Some(result_at.key(key)), None);
        }
        obj.insert("result".into(), configs);
        ctx.changed(Some(result_at.key("configs")), Some(result_at));
    });
}

pub fn error_rename_32007(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::JsonRpcError, |obj, at, ctx| {
        if obj.get("code").and_then(Value::as_i64) == Some(-32007) {
            ctx.note(
                &at.key("code"),
                "code -32007 stays; v0.3 calls it AuthenticatedExtendedCardNotConfiguredError",
            );
        }
    });
}
