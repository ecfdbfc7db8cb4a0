//! Reverse phase C: tenant, send configuration, push-config params and shapes, ListTasks.

use crate::migrate::edit::{drop_member, remove, rename};
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::{each, StepCtx};
use serde_json::{Map, Value};

const TENANT_HOLDERS: &[ObjectKind] = &[
    ObjectKind::SendMessageParams,
    ObjectKind::GetTaskParams,
    ObjectKind::CancelTaskParams,
    ObjectKind::SubscribeParams,
    ObjectKind::GetPushConfigParams,
    ObjectKind::ListPushConfigsParams,
    ObjectKind::DeletePushConfigParams,
    ObjectKind::ListTasksParams,
    ObjectKind::ExtendedCardParams,
    ObjectKind::TaskPushNotificationConfig,
    ObjectKind::PushNotificationConfig,
    ObjectKind::AgentInterface,
];

pub fn drop_tenant(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    drop_member(doc, ctx, TENANT_HOLDERS, "tenant", "v0.3 has no tenant");
}

pub fn return_immediately_to_blocking(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::SendMessageConfiguration,
        |obj, at, ctx| match obj.get("returnImmediately") {
            None => {
                if !obj.contains_key("blocking") {
                    obj.insert("blocking".into(), Value::Bool(true));
                    ctx.changed(None, Some(at.key("blocking")));
                    ctx.note(
                        &at.key("blocking"),
                        "v1.0 without `returnImmediately` waits for the task; v0.3 defines no default, so `blocking: true` is written",
                    );
                }
            }
            Some(Value::Bool(value)) => {
                let blocking = !*value;
                obj.remove("returnImmediately");
                obj.insert("blocking".into(), Value::Bool(blocking));
                ctx.changed(Some(at.key("returnImmediately")), Some(at.key("blocking")));
            }
            Some(other) => ctx.error(
                &at.key("returnImmediately"),
                format!("must be a boolean, found {}; left as it was", shown(other)),
            ),
        },
    );
}

pub fn push_config_rename(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::SendMessageConfiguration,
        |obj, at, ctx| {
            if !rename(
                ctx,
                obj,
                at,
                "taskPushNotificationConfig",
                "pushNotificationConfig",
            ) {
                return;
            }
            let inner_at = at.key("pushNotificationConfig");
            if let Some(Value::Object(inner)) = obj.get_mut("pushNotificationConfig") {
                if let Some(task_id) = remove(ctx, inner, &inner_at, "taskId") {
                    if task_id.as_str() != Some("") {
                        ctx.warn(
                            &inner_at.key("taskId"),
                            format!(
                                "dropped `taskId` = {}: a v0.3 PushNotificationConfig has none",
                                shown(&task_id)
                            ),
                        );
                    }
                }
            }
        },
    );
}

pub fn history_length_zero(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [
        ObjectKind::SendMessageConfiguration,
        ObjectKind::GetTaskParams,
    ] {
        each(doc, ctx, kind, |obj, at, ctx| {
            if obj.get("historyLength").and_then(Value::as_i64) == Some(0) {
                ctx.warn(
                    &at.key("historyLength"),
                    "`historyLength: 0` asks for no history in v1.0, but v0.3 servers (a2a-python) \
                     read it as no limit; v0.3 cannot ask for none",
                );
            }
        });
    }
}

pub fn push_config_params_ids(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [
        ObjectKind::GetPushConfigParams,
        ObjectKind::DeletePushConfigParams,
    ] {
        each(doc, ctx, kind, |obj, at, ctx| {
            // Already in the v0.3 shape (the config id has its own member).
            if obj.contains_key("pushNotificationConfigId") {
                return;
            }
            if !obj.contains_key("taskId") && !obj.contains_key("id") {
                return;
            }
            // The config id keeps its own member even when ProtoJSON left an empty task
            // id out: `id` is then the task id, restored as "".
            rename(ctx, obj, at, "id", "pushNotificationConfigId");
            if obj.contains_key("taskId") {
                rename(ctx, obj, at, "taskId", "id");
            } else {
                ctx.note(
                    &at.key("id"),
                    "v1.0 left the task id out (empty); v0.3 requires `id`: restored as \"\"",
                );
                crate::migrate::edit::insert(ctx, obj, at, "id", Value::String(String::new()));
            }
        });
    }
    each(
        doc,
        ctx,
        ObjectKind::ListPushConfigsParams,
        |obj, at, ctx| {
            if !obj.contains_key("taskId") {
                return;
            }
            rename(ctx, obj, at, "taskId", "id");
            for key in ["pageSize", "pageToken"] {
                if let Some(dropped) = remove(ctx, obj, at, key) {
                    ctx.warn(
                        &at.key(key),
                        format!(
                            "dropped `{key}` = {}: v0.3 lists every config at once",
                            shown(&dropped)
                        ),
                    );
                }
            }
        },
    );
}

const CONFIG_MEMBERS: &[&str] = &["id", "url", "token", "authentication"];

pub fn task_push_config_nest(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::TaskPushNotificationConfig,
        |obj, at, ctx| {
            if obj.contains_key("pushNotificationConfig") || !obj.contains_key("url") {
                return;
            }
            let inner_at = at.key("pushNotificationConfig");
            let mut inner = Map::new();
            for key in CONFIG_MEMBERS {
                if let Some(value) = obj.remove(*key) {
                    ctx.changed(Some(at.key(key)), Some(inner_at.key(key)));
                    inner.insert((*key).to_owned(), value);
                }
            }
            obj.insert("pushNotificationConfig".into(), Value::Object(inner));
        },
    );
}

pub fn push_auth_scheme_to_schemes(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AuthenticationInfo, |obj, at, ctx| {
        if obj.contains_key("schemes") {
            return;
        }
        if let Some(scheme) = obj.remove("scheme") {
            obj.insert("schemes".into(), Value::Array(vec![scheme]));
            ctx.changed(Some(at.key("scheme")), Some(at.key("schemes").index(0)));
        }
    });
}

pub fn list_tasks(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::ListTasksParams, |_, at, ctx| {
        ctx.warn(
            at,
            "ListTasks has no v0.3.0 JSON-RPC equivalent (only a draft `tasks/list`); v0.3 \
             servers may not answer it",
        );
    });
}
