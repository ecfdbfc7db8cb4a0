//! Phase C: request params (send configuration, history length, request metadata, push-config
//! ids and shapes, push authentication) and the pre-release `tasks/list` shapes.

use crate::migrate::edit::{drop_member, insert, remove, rename};
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::{each, StepCtx};
use crate::migrate::timestamp;
use serde_json::{Map, Value};

pub fn blocking_to_return_immediately(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::SendMessageConfiguration,
        |obj, at, ctx| {
            match obj.get("blocking") {
                None => {}
                Some(Value::Bool(blocking)) => {
                    let blocking = *blocking;
                    remove(ctx, obj, at, "blocking");
                    // v1.0's default (false) already means "wait", so `blocking: true` needs no field.
                    if !blocking {
                        insert(ctx, obj, at, "returnImmediately", Value::Bool(true));
                    }
                }
                Some(other) => ctx.error(
                    &at.key("blocking"),
                    format!(
                        "`blocking` must be a boolean, found {}; left as it was",
                        shown(other)
                    ),
                ),
            }
        },
    );
}

pub fn push_config_rename(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::SendMessageConfiguration,
        |obj, at, ctx| {
            for old in ["pushNotificationConfig", "pushNotification"] {
                rename(ctx, obj, at, old, "taskPushNotificationConfig");
            }
        },
    );
}

const HISTORY_HOLDERS: &[ObjectKind] = &[
    ObjectKind::SendMessageConfiguration,
    ObjectKind::GetTaskParams,
    ObjectKind::ListTasksParams,
];

pub fn history_length_zero(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in HISTORY_HOLDERS {
        each(doc, ctx, *kind, |obj, at, ctx| {
            if obj.get("historyLength").and_then(Value::as_i64) != Some(0) {
                return;
            }
            if ctx.choose() == "keep" {
                ctx.warn(
                    &at.key("historyLength"),
                    "kept `historyLength: 0`: in v1.0 it asks for no history at all, while \
                     v0.3 SDKs read it as no limit",
                );
            } else {
                remove(ctx, obj, at, "historyLength");
                ctx.warn(
                    &at.key("historyLength"),
                    "dropped `historyLength: 0` (v0.3 SDKs read it as no limit; in v1.0 \
                     \"no limit\" is the absent field)",
                );
            }
        });
    }
}

const METADATA_DROPPED: &[ObjectKind] = &[
    ObjectKind::GetTaskParams,
    ObjectKind::SubscribeParams,
    ObjectKind::GetPushConfigParams,
    ObjectKind::ListPushConfigsParams,
    ObjectKind::DeletePushConfigParams,
    ObjectKind::ListTasksParams,
];

pub fn drop_request_metadata(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    drop_member(
        doc,
        ctx,
        METADATA_DROPPED,
        "metadata",
        "the v1.0 request has no such field",
    );
}

fn rename_task_id(ctx: &mut StepCtx<'_>, obj: &mut Map<String, Value>, at: &crate::json::JsonPath) {
    // Once `taskId` is there, `id` is already the v1.0 config id.
    if !obj.contains_key("taskId") {
        rename(ctx, obj, at, "id", "taskId");
    }
}

pub fn push_config_params_ids(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [
        ObjectKind::GetPushConfigParams,
        ObjectKind::DeletePushConfigParams,
    ] {
        each(doc, ctx, kind, |obj, at, ctx| {
            rename_task_id(ctx, obj, at);
            rename(ctx, obj, at, "pushNotificationConfigId", "id");
            if obj.contains_key("id") {
                return;
            }
            let chosen = ctx.choose();
            if chosen == "leave-empty" {
                ctx.error(
                    &at.key("id"),
                    "v1.0 requires the config `id`, and the v0.3 request had none; pass \
                     --choice push-config-id=ID",
                );
            } else {
                insert(ctx, obj, at, "id", Value::String(chosen));
            }
        });
    }
    each(
        doc,
        ctx,
        ObjectKind::ListPushConfigsParams,
        |obj, at, ctx| {
            rename_task_id(ctx, obj, at);
        },
    );
}

/// `tasks/T/pushNotificationConfigs/C` -> (T, C, what follows C), read as the SDK's REST
/// reader reads it (`TASK_PUSH_CONFIG_NAME_MATCH.match`: `tasks/([^/]+)/pushNotificationConfigs/([^/]+)`
/// at the start of the name): T and C non-empty and without `/`; anything after C is not
/// read. `None` where that pattern does not match, where the SDK raises.
fn parse_config_name(name: &str) -> Option<(&str, &str, &str)> {
    let rest = name.strip_prefix("tasks/")?;
    let (task, rest) = rest.split_at(rest.find('/')?);
    let rest = rest.strip_prefix("/pushNotificationConfigs/")?;
    let (config, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    (!task.is_empty() && !config.is_empty()).then_some((task, config, tail))
}

pub fn task_push_config_flatten(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(
        doc,
        ctx,
        ObjectKind::TaskPushNotificationConfig,
        |obj, at, ctx| {
            if let Some(name) = obj.get("name").and_then(Value::as_str).map(str::to_owned) {
                match parse_config_name(&name) {
                Some((task, config, tail)) => {
                    if !tail.is_empty() {
                        ctx.warn(
                            &at.key("name"),
                            format!(
                                "`{}` after the config id is not read (as the SDK's REST reader does not read it)",
                                tail
                            ),
                        );
                    }
                    remove(ctx, obj, at, "name");
                    for (key, value) in [("taskId", task), ("id", config)] {
                        if !obj.contains_key(key) {
                            insert(ctx, obj, at, key, Value::String(value.to_owned()));
                        }
                    }
                }
                None => ctx.error(
                    &at.key("name"),
                    "`name` does not start `tasks/{task}/pushNotificationConfigs/{config}` with a \
                     task and a config id (the SDK's REST reader raises on it); left as it was",
                ),
            }
            }
            rename(ctx, obj, at, "configId", "id");
            let Some(Value::Object(inner)) = obj.remove("pushNotificationConfig") else {
                return;
            };
            let inner_at = at.key("pushNotificationConfig");
            for (key, value) in inner {
                if let Some(existing) = obj.get(&key) {
                    if *existing != value {
                        ctx.warn(
                        &inner_at.key(&key),
                        format!(
                            "`{key}` is set at both levels; kept the outer {}, dropped the inner {}",
                            shown(existing),
                            shown(&value)
                        ),
                    );
                    }
                    ctx.changed(Some(inner_at.key(&key)), None);
                    continue;
                }
                ctx.changed(Some(inner_at.key(&key)), Some(at.key(&key)));
                obj.insert(key, value);
            }
        },
    );
}

pub fn push_auth_schemes_to_scheme(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::AuthenticationInfo, |obj, at, ctx| {
        let schemes_at = at.key("schemes");
        let Some(schemes) = obj.get("schemes") else {
            return;
        };
        let Some(names) = schemes.as_array().and_then(|items| {
            items
                .iter()
                .map(Value::as_str)
                .collect::<Option<Vec<&str>>>()
        }) else {
            ctx.error(
                &schemes_at,
                "`schemes` must be a list of strings; left as it was",
            );
            return;
        };
        let names: Vec<String> = names.into_iter().map(str::to_owned).collect();
        let kept = match names.as_slice() {
            [] => None,
            [only] => Some(only.clone()),
            [first, ..] => {
                let chosen = ctx.choose();
                let kept = if chosen == "first" {
                    first.clone()
                } else if names.contains(&chosen) {
                    chosen
                } else {
                    ctx.warn(
                        &schemes_at,
                        format!(
                            "--choice push-auth-scheme={} is not in the list; kept the first",
                            crate::json::safe_text(&chosen)
                        ),
                    );
                    first.clone()
                };
                let dropped: Vec<&str> = names
                    .iter()
                    .filter(|name| **name != kept)
                    .map(String::as_str)
                    .collect();
                ctx.warn(
                    &schemes_at,
                    format!(
                        "v1.0 holds one scheme: kept {}, dropped {}",
                        crate::json::safe_text(&kept),
                        crate::json::safe_text(&dropped.join(", "))
                    ),
                );
                Some(kept)
            }
        };
        remove(ctx, obj, at, "schemes");
        match kept {
            Some(kept) if !obj.contains_key("scheme") => {
                obj.insert("scheme".into(), Value::String(kept));
                ctx.changed(Some(schemes_at.index(0)), Some(at.key("scheme")));
            }
            Some(_) => ctx.warn(&schemes_at, "`scheme` was already set; kept it"),
            None => ctx.error(
                &schemes_at,
                "the v0.3 `schemes` list was empty; v1.0 requires `scheme`",
            ),
        }
    });
}

/// a2a-go 0.3 snake_case members and their v1.0 names.
const SNAKE_TO_CAMEL: &[(&str, &str)] = &[
    ("context_id", "contextId"),
    ("page_size", "pageSize"),
    ("page_token", "pageToken"),
    ("history_length", "historyLength"),
    ("include_artifacts", "includeArtifacts"),
    ("last_updated_after", "statusTimestampAfter"),
    ("total_size", "totalSize"),
    ("next_page_token", "nextPageToken"),
];

pub fn list_tasks_draft(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for kind in [ObjectKind::ListTasksParams, ObjectKind::ListTasksResult] {
        each(doc, ctx, kind, |obj, at, ctx| {
            for (snake, camel) in SNAKE_TO_CAMEL {
                rename(ctx, obj, at, snake, camel);
            }
            let Some(after) = obj.get("lastUpdatedAfter").cloned() else {
                return;
            };
            let converted = after.as_i64().and_then(timestamp::from_epoch_millis);
            match converted {
                Some(text) => {
                    remove(ctx, obj, at, "lastUpdatedAfter");
                    obj.insert("statusTimestampAfter".into(), Value::String(text));
                    ctx.changed(
                        Some(at.key("lastUpdatedAfter")),
                        Some(at.key("statusTimestampAfter")),
                    );
                }
                None => ctx.error(
                    &at.key("lastUpdatedAfter"),
                    format!(
                        "`lastUpdatedAfter` must be epoch milliseconds, found {}; left as it was",
                        shown(&after)
                    ),
                ),
            }
        });
    }
}
