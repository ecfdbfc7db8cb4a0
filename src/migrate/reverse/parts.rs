//! Reverse phase D, parts: the unified v1.0 Part back to `kind`-discriminated v0.3 parts.

use crate::json::JsonPath;
use crate::migrate::edit::insert;
use crate::migrate::model::shown;
use crate::migrate::model::ObjectKind;
use crate::migrate::step::{each, StepCtx};
use serde_json::{json, Map, Value};

/// v0.3 text and data parts have no `mediaType` or `filename`; name what is dropped.
fn drop_file_only_members(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    what: &str,
) {
    for key in ["mediaType", "filename"] {
        if let Some(value) = obj.remove(key) {
            ctx.changed(Some(at.key(key)), None);
            ctx.warn(
                &at.key(key),
                format!(
                    "dropped `{key}` = {}: a v0.3 {what} part has no such field",
                    shown(&value)
                ),
            );
        }
    }
}

pub fn part_text(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if obj.contains_key("kind") || !obj.get("text").is_some_and(Value::is_string) {
            return;
        }
        insert(ctx, obj, at, "kind", json!("text"));
        drop_file_only_members(ctx, obj, at, "text");
    });
}

/// `{member, mediaType, filename}` -> `{kind: "file", file: {content, mimeType, name}}`.
fn nest_file(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    member: &str,
    content: &str,
) {
    if obj.contains_key("kind") || !obj.contains_key(member) {
        return;
    }
    let file_at = at.key("file");
    let mut file = Map::new();
    for (from, to) in [
        (member, content),
        ("mediaType", "mimeType"),
        ("filename", "name"),
    ] {
        if let Some(value) = obj.remove(from) {
            ctx.changed(Some(at.key(from)), Some(file_at.key(to)));
            file.insert(to.to_owned(), value);
        }
    }
    obj.insert("file".into(), Value::Object(file));
    insert(ctx, obj, at, "kind", json!("file"));
}

pub fn part_file_url(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        nest_file(ctx, obj, at, "url", "uri")
    });
}

pub fn part_file_raw(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        nest_file(ctx, obj, at, "raw", "bytes")
    });
}

pub fn part_data(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::Part, |obj, at, ctx| {
        if obj.contains_key("kind") || !obj.contains_key("data") {
            return;
        }
        if !obj.get("data").is_some_and(Value::is_object) {
            // v0.3 data must be an object: wrap as a2a-go and a2a-python do, with the marker
            // that lets a forward migration unwrap it again.
            let data = obj.remove("data").unwrap_or(Value::Null);
            obj.insert("data".into(), json!({ "value": data }));
            ctx.changed(Some(at.key("data")), Some(at.key("data").key("value")));
            let metadata_at = at.key("metadata");
            match obj.entry("metadata").or_insert_with(|| json!({})) {
                Value::Object(metadata) => {
                    metadata.insert("data_part_compat".into(), Value::Bool(true));
                    ctx.changed(None, Some(metadata_at.key("data_part_compat")));
                }
                other => ctx.error(
                    &metadata_at,
                    format!("`metadata` is not an object ({}); the data_part_compat marker could not be added", shown(other)),
                ),
            }
            ctx.note(
                &at.key("data"),
                "non-object data wrapped as {\"value\": ...} with metadata.data_part_compat = true",
            );
        }
        insert(ctx, obj, at, "kind", json!("data"));
        drop_file_only_members(ctx, obj, at, "data");
    });
}
