//! Phase D, parts: the v0.3 `kind`-discriminated parts with a nested `file` object become the
//! v1.0 unified Part (`text` | `url` | `raw` | `data`, plus `mediaType` and `filename`).

use crate::json::JsonPath;
use crate::migrate::base64::{self, Base64};
use crate::migrate::edit::{remove, rename};
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::{each, StepCtx};
use serde_json::{Map, Value};

fn kind_is(obj: &Map<String, Value>, expected: &str) -> bool {
    obj.get("kind").and_then(Value::as_str) == Some(expected)
}

fn file_has(obj: &Map<String, Value>, key: &str) -> bool {
    obj.get("file")
        .and_then(Value::as_object)
        .is_some_and(|file| file.contains_key(key))
}

fn drop_part_kind(ctx: &mut StepCtx<'_>, obj: &mut Map<String, Value>, at: &JsonPath, kind: &str) {
    if kind_is(obj, kind) {
        remove(ctx, obj, at, "kind");
    }
}

/// Lifts `file.{content, mimeType, name}` to `{target, mediaType, filename}`. Members v1.0
/// has no place for stay in `file` and are named, never dropped.
fn flatten_file(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    content: &str,
    target: &str,
) {
    let Some(Value::Object(file)) = obj.remove("file") else {
        return;
    };
    let file_at = at.key("file");
    let mut leftover = Map::new();
    for (key, value) in file {
        let lifted = match key.as_str() {
            "mimeType" => Some("mediaType"),
            "name" => Some("filename"),
            other if other == content => Some(target),
            _ => None,
        };
        let Some(lifted) = lifted else {
            leftover.insert(key, value);
            continue;
        };
        if let Some(existing) = obj.get(lifted) {
            ctx.warn(
                &file_at.key(&key),
                format!(
                    "`{lifted}` is already set to {}; dropped `file.{key}` = {}",
                    shown(existing),
                    shown(&value)
                ),
            );
            ctx.changed(Some(file_at.key(&key)), None);
            continue;
        }
        ctx.changed(Some(file_at.key(&key)), Some(at.key(lifted)));
        obj.insert(lifted.to_owned(), value);
    }
    if !leftover.is_empty() {
        let names: Vec<&str> = leftover.keys().map(String::as_str).collect();
        ctx.warn(
            &file_at,
            format!(
                "left in `file` (no v1.0 Part field): {}",
                crate::json::safe_text(&names.join(", "))
            ),
        );
        obj.insert("file".into(), Value::Object(leftover));
    }
    drop_part_kind(ctx, obj, at, "file");
}

pub fn part_text(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if !kind_is(obj, "text") {
            return;
        }
        if obj.get("text").is_some_and(Value::is_string) {
            remove(ctx, obj, at, "kind");
        } else {
            ctx.error(
                at,
                "`kind` is \"text\" but there is no string `text`; left as it was",
            );
        }
    });
}

pub fn part_file_uri(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if file_has(obj, "uri") {
            flatten_file(ctx, obj, at, "uri", "url");
        }
    });
}

pub fn part_file_data(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        let misused = file_has(obj, "data") && !file_has(obj, "bytes") && !file_has(obj, "uri");
        if !misused {
            return;
        }
        let file_at = at.key("file");
        if ctx.choose() == "bytes" {
            if let Some(Value::Object(file)) = obj.get_mut("file") {
                rename(ctx, file, &file_at, "data", "bytes");
            }
            ctx.warn(
                &file_at.key("data"),
                "`file.data` (not a v0.3 field) read as `file.bytes`, as chosen",
            );
        } else {
            ctx.error(
                &file_at.key("data"),
                "`file.data` is not a v0.3 field (a slip in the v0.3 examples); part left as \
                 it was; --choice file-data=bytes reads it as base64 bytes",
            );
        }
    });
}

/// Checks `raw` and brings valid text to standard padded base64. `repair` drops characters
/// outside the alphabet (naming how many); otherwise invalid text is reported and kept.
fn check_raw(ctx: &mut StepCtx<'_>, obj: &mut Map<String, Value>, at: &JsonPath, repair: bool) {
    let raw_at = at.key("raw");
    let Some(text) = obj.get("raw").and_then(Value::as_str).map(str::to_owned) else {
        return;
    };
    match base64::check(&text) {
        Base64::Standard => {}
        Base64::Normalised(standard) => {
            obj.insert("raw".into(), Value::String(standard));
            ctx.changed(Some(raw_at.clone()), Some(raw_at.clone()));
            ctx.note(
                &raw_at,
                "URL-safe or unpadded base64 rewritten as standard padded base64",
            );
        }
        Base64::Invalid { bad, first } if repair => {
            let (repaired, dropped) = base64::repair(&text);
            obj.insert("raw".into(), Value::String(repaired));
            ctx.changed(Some(raw_at.clone()), Some(raw_at.clone()));
            ctx.warn(
                &raw_at,
                format!(
                    "invalid base64 repaired as chosen: {dropped} character(s) dropped ({bad} outside \
                     the alphabet, the first at position {first}); the bytes may differ from the \
                     original"
                ),
            );
        }
        Base64::Invalid { bad, first } => ctx.error(
            &raw_at,
            format!(
                "not valid base64 ({bad} character(s) outside the alphabet, the first at position \
                 {first}, or a bad length); kept as it was; --choice invalid-base64=repair drops \
                 the offending characters"
            ),
        ),
    }
}

pub fn part_file_bytes(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if !file_has(obj, "bytes") {
            return;
        }
        flatten_file(ctx, obj, at, "bytes", "raw");
        let valid = obj
            .get("raw")
            .and_then(Value::as_str)
            .is_some_and(|text| !matches!(base64::check(text), Base64::Invalid { .. }));
        let repair = !valid && ctx.choose() == "repair";
        check_raw(ctx, obj, at, repair);
    });
}

pub fn part_data(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if kind_is(obj, "data") {
            if obj.contains_key("data") {
                remove(ctx, obj, at, "kind");
            } else {
                ctx.error(
                    at,
                    "`kind` is \"data\" but there is no `data`; left as it was",
                );
            }
        }
        unwrap_compat(ctx, obj, at);
    });
}

/// The v1.0 -> v0.3 converters wrap non-object data as `{"value": ...}` with
/// `metadata.data_part_compat: true`; migrating forward unwraps it again (spec section 8.10).
fn unwrap_compat(ctx: &mut StepCtx<'_>, obj: &mut Map<String, Value>, at: &JsonPath) {
    let marked = obj
        .get("metadata")
        .and_then(|metadata| metadata.get("data_part_compat"))
        == Some(&Value::Bool(true));
    let wrapped = obj
        .get("data")
        .and_then(Value::as_object)
        .is_some_and(|data| data.len() == 1 && data.contains_key("value"));
    if !(marked && wrapped) {
        return;
    }
    if let Some(Value::Object(mut data)) = obj.remove("data") {
        if let Some(value) = data.remove("value") {
            obj.insert("data".into(), value);
        }
    }
    ctx.changed(Some(at.key("data").key("value")), Some(at.key("data")));
    let metadata_at = at.key("metadata");
    if let Some(Value::Object(metadata)) = obj.get_mut("metadata") {
        remove(ctx, metadata, &metadata_at, "data_part_compat");
        if metadata.is_empty() {
            remove(ctx, obj, at, "metadata");
        }
    }
}

pub fn part_rest_dialect(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Message, |obj, at, ctx| {
        rename(ctx, obj, at, "content", "parts");
    });
    let rest = ctx.detection.dialect == crate::migrate::model::Dialect::Rest;
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if file_has(obj, "fileWithUri") {
            flatten_file(ctx, obj, at, "fileWithUri", "url");
        } else if file_has(obj, "fileWithBytes") {
            flatten_file(ctx, obj, at, "fileWithBytes", "raw");
            check_raw(ctx, obj, at, false);
        }
        // `{"data": {"data": {...}}}` is a REST DataPart only in the REST dialect; elsewhere
        // it may be v1.0 data whose value happens to hold a `data` member.
        let nested = obj
            .get("data")
            .and_then(Value::as_object)
            .is_some_and(|data| data.len() == 1 && data.contains_key("data"));
        if rest && nested {
            if let Some(Value::Object(mut outer)) = obj.remove("data") {
                if let Some(inner) = outer.remove("data") {
                    obj.insert("data".into(), inner);
                }
            }
            ctx.changed(Some(at.key("data").key("data")), Some(at.key("data")));
        }
    });
}

pub fn rest_send_request_message(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::SendMessageParams, |obj, at, ctx| {
        rename(ctx, obj, at, "request", "message");
    });
}
