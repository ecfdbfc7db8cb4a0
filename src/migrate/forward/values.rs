//! Phase D, outside parts: task states, roles, timestamps, and the `kind` / `final` members
//! of Tasks, Messages and stream events.

use crate::json::safe_text;
use crate::migrate::edit::{map_enum, remove};
use crate::migrate::model::shown;
use crate::migrate::model::{
    ObjectKind, REST_CANCELLED, ROLES, ROLE_MEMBERS, STATE_MEMBERS, TASK_STATES,
};
use crate::migrate::step::{each, StepCtx};
use crate::migrate::timestamp::{self, Normalised};
use serde_json::Value;

fn v10_state(state: &str) -> Option<&'static str> {
    if state == REST_CANCELLED {
        return Some("TASK_STATE_CANCELED");
    }
    TASK_STATES
        .iter()
        .find(|(v03, v10)| *v03 == state || *v10 == state)
        .map(|(_, v10)| *v10)
}

pub fn taskstate_enum(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    map_enum(
        doc,
        ctx,
        STATE_MEMBERS,
        v10_state,
        "is not a v0.3 or v1.0 task state",
    );
}

fn v10_role(role: &str) -> Option<&'static str> {
    ROLES
        .iter()
        .find(|(v03, v10)| *v03 == role || *v10 == role)
        .map(|(_, v10)| *v10)
        .or((role == "ROLE_UNSPECIFIED").then_some("ROLE_UNSPECIFIED"))
}

pub fn role_enum(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    map_enum(
        doc,
        ctx,
        ROLE_MEMBERS,
        v10_role,
        "is not a v0.3 or v1.0 role",
    );
}

pub fn timestamp_utc_z(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for (kind, key) in [
        (ObjectKind::TaskStatus, "timestamp"),
        (ObjectKind::ListTasksParams, "statusTimestampAfter"),
    ] {
        each(doc, ctx, kind, |obj, at, ctx| {
            let path = at.key(key);
            let Some(value) = obj.get(key) else {
                return;
            };
            let Some(text) = value.as_str() else {
                ctx.error(
                    &path,
                    format!("a timestamp must be a string, found {}", shown(value)),
                );
                return;
            };
            let text = text.to_owned();
            // Only a naive value needs the zone choice; read it lazily so it is not recorded
            // for values that carry their own zone.
            let naive_offset = if looks_naive(&text) {
                timestamp::parse_offset(&ctx.choose()).unwrap_or(0)
            } else {
                0
            };
            let new = match timestamp::normalise(&text, naive_offset) {
                Ok(Normalised::Unchanged) => return,
                Ok(Normalised::AssumedZone { value }) => {
                    ctx.warn(
                        &path,
                        format!(
                            "{} had no zone; read in the assumed zone and written as {}",
                            safe_text(&text),
                            safe_text(&value)
                        ),
                    );
                    value
                }
                Ok(Normalised::Converted { value, offset }) => {
                    ctx.warn(
                        &path,
                        format!(
                            "{} converted to UTC {}; the original offset {} is lost",
                            safe_text(&text),
                            safe_text(&value),
                            offset
                        ),
                    );
                    value
                }
                Ok(Normalised::Reformatted { value }) => value,
                Err(why) => {
                    ctx.error(
                        &path,
                        format!("{}: {why}; left as it was", safe_text(&text)),
                    );
                    return;
                }
            };
            obj.insert(key.to_owned(), Value::String(new));
            ctx.changed(Some(path.clone()), Some(path));
        });
    }
}

/// A date-time without `Z` or a numeric offset after the time.
fn looks_naive(text: &str) -> bool {
    let time = text.get(11..).unwrap_or("");
    !(time.ends_with('Z') || time.ends_with('z') || time.contains('+') || time.contains('-'))
}

fn drop_kind(doc: &mut Value, ctx: &mut StepCtx<'_>, kind: ObjectKind, expected: &str) {
    each(doc, ctx, kind, |obj, at, ctx| {
        match obj.get("kind").and_then(Value::as_str) {
            Some(found) if found == expected => {
                remove(ctx, obj, at, "kind");
            }
            Some(found) => ctx.error(
                &at.key("kind"),
                format!(
                    "`kind` {} does not match the {} found here; left as it was",
                    shown(&Value::String(found.to_owned())),
                    kind.label()
                ),
            ),
            None => {}
        }
    });
}

pub fn drop_kind_task_message(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    drop_kind(doc, ctx, ObjectKind::Task, "task");
    drop_kind(doc, ctx, ObjectKind::Message, "message");
}

pub fn status_event_drop_final(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::StatusUpdateEvent, |obj, at, ctx| {
        if let Some(dropped) = remove(ctx, obj, at, "final") {
            ctx.warn(
                &at.key("final"),
                format!(
                    "dropped `final` = {}: v1.0 signals the end by closing the stream",
                    shown(&dropped)
                ),
            );
        }
    });
    drop_kind(doc, ctx, ObjectKind::StatusUpdateEvent, "status-update");
}

pub fn artifact_event_drop_kind(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    drop_kind(doc, ctx, ObjectKind::ArtifactUpdateEvent, "artifact-update");
}
