//! Small edits every step is made of. Each records the paths it changed in the step context,
//! so the trace shows them; the callers warn where an edit loses information.

use super::model::{shown, ObjectKind};
use super::step::{each, StepCtx};
use crate::json::JsonPath;
use serde_json::{Map, Value};

/// Moves `from` to `to` inside one object. When `to` is already there (a mixed input), the
/// existing value is kept and the dropped one is named in a warning.
pub fn rename(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    from: &str,
    to: &str,
) -> bool {
    let Some(value) = obj.remove(from) else {
        return false;
    };
    if let Some(existing) = obj.get(to) {
        ctx.warn(
            &at.key(from),
            format!(
                "both `{from}` and `{to}` are present; kept `{to}` = {}, dropped `{from}` = {}",
                shown(existing),
                shown(&value)
            ),
        );
        ctx.changed(Some(at.key(from)), None);
        return true;
    }
    obj.insert(to.to_owned(), value);
    ctx.changed(Some(at.key(from)), Some(at.key(to)));
    true
}

/// Removes `key`, recording the change; the caller warns when the loss matters.
pub fn remove(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    key: &str,
) -> Option<Value> {
    let value = obj.remove(key)?;
    ctx.changed(Some(at.key(key)), None);
    Some(value)
}

/// Sets `key`, recording it as added or rewritten.
pub fn insert(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    key: &str,
    value: Value,
) {
    let before = obj.contains_key(key).then(|| at.key(key));
    obj.insert(key.to_owned(), value);
    ctx.changed(before, Some(at.key(key)));
}

/// Rewrites a string member through `map` (enum spellings); returns the old value when it
/// changed, `Err(old)` when `map` does not know the value.
pub(crate) fn map_string(
    ctx: &mut StepCtx<'_>,
    obj: &mut Map<String, Value>,
    at: &JsonPath,
    key: &str,
    map: impl Fn(&str) -> Option<&'static str>,
) -> Result<Option<String>, String> {
    let Some(old) = obj.get(key).and_then(Value::as_str).map(str::to_owned) else {
        return Ok(None);
    };
    let Some(new) = map(&old) else {
        return Err(old);
    };
    if new == old {
        return Ok(None);
    }
    obj.insert(key.to_owned(), Value::String(new.to_owned()));
    ctx.changed(Some(at.key(key)), Some(at.key(key)));
    Ok(Some(old))
}

/// Rewrites the string member `key` of every object of each listed kind through `map`. A
/// value `map` does not know is reported as an error (`... {unknown}; left as it was`).
pub(crate) fn map_enum(
    doc: &mut Value,
    ctx: &mut StepCtx<'_>,
    places: &[(ObjectKind, &str)],
    map: fn(&str) -> Option<&'static str>,
    unknown: &str,
) {
    for (kind, key) in places {
        each(doc, ctx, *kind, |obj, at, ctx| {
            if let Err(value) = map_string(ctx, obj, at, key, map) {
                ctx.error(
                    &at.key(key),
                    format!("{} {unknown}; left as it was", shown(&Value::String(value))),
                );
            }
        });
    }
}

/// Removes `key` from every object of each listed kind; a removed value that held anything
/// (not null, "", {} or []) is named in a warning ending with `why`.
pub(crate) fn drop_member(
    doc: &mut Value,
    ctx: &mut StepCtx<'_>,
    kinds: &[ObjectKind],
    key: &str,
    why: &str,
) {
    for kind in kinds {
        each(doc, ctx, *kind, |obj, at, ctx| {
            if let Some(dropped) = remove(ctx, obj, at, key) {
                if !is_empty(&dropped) {
                    ctx.warn(
                        &at.key(key),
                        format!("dropped `{key}` = {}: {why}", shown(&dropped)),
                    );
                }
            }
        });
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}
