//! Reverse phase D, outside parts: states, roles, `kind`, and the reconstructed `final`.

use crate::migrate::edit::{insert, map_enum};
use crate::migrate::model::{
    ObjectKind, INTERRUPTED_STATES, REST_CANCELLED, ROLES, ROLE_MEMBERS, STATE_MEMBERS,
    TASK_STATES, TERMINAL_STATES,
};
use crate::migrate::step::{each, StepCtx};
use serde_json::Value;

fn v03_state(state: &str) -> Option<&'static str> {
    TASK_STATES
        .iter()
        .find(|(v03, v10)| *v03 == state || *v10 == state)
        .map(|(v03, _)| *v03)
        .or((state == REST_CANCELLED).then_some("canceled"))
}

pub fn taskstate_enum(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    map_enum(doc, ctx, STATE_MEMBERS, v03_state, "has no v0.3 task state");
}

fn v03_role(role: &str) -> Option<&'static str> {
    ROLES
        .iter()
        .find(|(v03, v10)| *v03 == role || *v10 == role)
        .map(|(v03, _)| *v03)
}

pub fn role_enum(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    map_enum(doc, ctx, ROLE_MEMBERS, v03_role, "has no v0.3 role");
}

fn add_kind(doc: &mut Value, ctx: &mut StepCtx<'_>, kind: ObjectKind, value: &str) {
    each(doc, ctx, kind, |obj, at, ctx| {
        if !obj.contains_key("kind") {
            insert(ctx, obj, at, "kind", Value::String(value.to_owned()));
        }
    });
}

pub fn add_kind_task_message(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    add_kind(doc, ctx, ObjectKind::Task, "task");
    add_kind(doc, ctx, ObjectKind::Message, "message");
}

/// True when the state (either spelling) ends a v0.3 stream under the chosen rule.
fn is_final(state: &str, with_interrupted: bool) -> bool {
    let v10 = TASK_STATES
        .iter()
        .find(|(v03, v10)| *v03 == state || *v10 == state)
        .map_or(state, |(_, v10)| *v10);
    TERMINAL_STATES.contains(&v10) || (with_interrupted && INTERRUPTED_STATES.contains(&v10))
}

pub fn status_event_add_final(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    each(doc, ctx, ObjectKind::StatusUpdateEvent, |obj, at, ctx| {
        if !obj.contains_key("final") {
            let with_interrupted = ctx.choose() == "terminal-or-interrupted";
            let state = obj
                .get("status")
                .and_then(|status| status.get("state"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let value = is_final(state, with_interrupted);
            insert(ctx, obj, at, "final", Value::Bool(value));
            ctx.warn(
                &at.key("final"),
                format!(
                    "reconstructed `final` = {value} from the state (v1.0 has no `final`; the \
                     end of the stream said it)"
                ),
            );
        }
    });
    add_kind(doc, ctx, ObjectKind::StatusUpdateEvent, "status-update");
}

pub fn artifact_event_add_kind(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    add_kind(doc, ctx, ObjectKind::ArtifactUpdateEvent, "artifact-update");
}

/// A member v0.3 requires, and the value that reads as its omission.
type RequiredMember = (&'static str, fn() -> Value);

/// The members v0.3 requires that v1.0 leaves out when they are empty (ProtoJSON omits
/// `""`, `[]`, `{}` and the zero enum), by kind, parents before children so a restored
/// parent's own required members are restored too: each with the value v0.3's schema reads
/// the same as the omission (`""`, `[]`, `{}`, state `"unknown"`). A v1.0 role that is
/// absent (unspecified) has no v0.3 value and is left to the check.
const REQUIRED_DEFAULTS: &[(ObjectKind, &[RequiredMember])] = &[
    (
        ObjectKind::Task,
        &[
            ("id", empty_text),
            ("contextId", empty_text),
            ("status", empty_object),
        ],
    ),
    (
        ObjectKind::StatusUpdateEvent,
        &[
            ("taskId", empty_text),
            ("contextId", empty_text),
            ("status", empty_object),
        ],
    ),
    (
        ObjectKind::ArtifactUpdateEvent,
        &[
            ("taskId", empty_text),
            ("contextId", empty_text),
            ("artifact", empty_object),
        ],
    ),
    (
        ObjectKind::TaskPushNotificationConfig,
        &[
            ("taskId", empty_text),
            ("pushNotificationConfig", empty_object),
        ],
    ),
    (ObjectKind::TaskStatus, &[("state", unknown_state)]),
    (
        ObjectKind::Message,
        &[("messageId", empty_text), ("parts", empty_list)],
    ),
    (
        ObjectKind::Artifact,
        &[("artifactId", empty_text), ("parts", empty_list)],
    ),
    (ObjectKind::PushNotificationConfig, &[("url", empty_text)]),
    (ObjectKind::AuthenticationInfo, &[("schemes", empty_list)]),
    (
        ObjectKind::AgentCard,
        &[
            ("name", empty_text),
            ("description", empty_text),
            ("version", empty_text),
            ("capabilities", empty_object),
            ("defaultInputModes", empty_list),
            ("defaultOutputModes", empty_list),
            ("skills", empty_list),
        ],
    ),
    (
        ObjectKind::AgentSkill,
        &[
            ("id", empty_text),
            ("name", empty_text),
            ("description", empty_text),
            ("tags", empty_list),
        ],
    ),
    // Request params: the task id ProtoJSON left out as "" (`GetTask {}`), and the config
    // id of a delete (v0.3 requires both).
    (ObjectKind::GetTaskParams, &[("id", empty_text)]),
    (ObjectKind::CancelTaskParams, &[("id", empty_text)]),
    (ObjectKind::SubscribeParams, &[("id", empty_text)]),
    (ObjectKind::GetPushConfigParams, &[("id", empty_text)]),
    (ObjectKind::ListPushConfigsParams, &[("id", empty_text)]),
    (
        ObjectKind::DeletePushConfigParams,
        &[("id", empty_text), ("pushNotificationConfigId", empty_text)],
    ),
];

/// Members v0.3 requires inside objects the walk does not name (a card's provider and
/// signatures, a security scheme's own members, still in their v1.0 wrapper here): (kind,
/// member holding the object or a list of them, required members).
type NestedRequired = (ObjectKind, &'static str, &'static [RequiredMember]);

const NESTED_REQUIRED: &[NestedRequired] = &[
    (
        ObjectKind::AgentCard,
        "provider",
        &[("organization", empty_text), ("url", empty_text)],
    ),
    (
        ObjectKind::AgentCard,
        "signatures",
        &[("protected", empty_text), ("signature", empty_text)],
    ),
    (
        ObjectKind::SecurityScheme,
        "apiKeySecurityScheme",
        &[("name", empty_text)],
    ),
    (
        ObjectKind::SecurityScheme,
        "httpAuthSecurityScheme",
        &[("scheme", empty_text)],
    ),
    (
        ObjectKind::SecurityScheme,
        "openIdConnectSecurityScheme",
        &[("openIdConnectUrl", empty_text)],
    ),
    (
        ObjectKind::SecurityScheme,
        "oauth2SecurityScheme",
        &[("flows", empty_object)],
    ),
    (
        ObjectKind::OAuthFlows,
        "authorizationCode",
        &[
            ("authorizationUrl", empty_text),
            ("tokenUrl", empty_text),
            ("scopes", empty_object),
        ],
    ),
    (
        ObjectKind::OAuthFlows,
        "clientCredentials",
        &[("tokenUrl", empty_text), ("scopes", empty_object)],
    ),
    (
        ObjectKind::OAuthFlows,
        "implicit",
        &[("authorizationUrl", empty_text), ("scopes", empty_object)],
    ),
    (
        ObjectKind::OAuthFlows,
        "password",
        &[("tokenUrl", empty_text), ("scopes", empty_object)],
    ),
];

fn empty_text() -> Value {
    Value::String(String::new())
}

fn empty_list() -> Value {
    Value::Array(Vec::new())
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

fn unknown_state() -> Value {
    Value::String("unknown".into())
}

pub fn restore_required(doc: &mut Value, ctx: &mut StepCtx<'_>) {
    for (kind, members) in REQUIRED_DEFAULTS {
        each(doc, ctx, *kind, |obj, at, ctx| {
            restore(ctx, obj, at, members)
        });
    }
    for (kind, member, members) in NESTED_REQUIRED {
        each(doc, ctx, *kind, |obj, at, ctx| {
            let inner_at = at.key(member);
            match obj.get_mut(*member) {
                Some(Value::Object(inner)) => restore(ctx, inner, &inner_at, members),
                Some(Value::Array(items)) => {
                    for (index, item) in items.iter_mut().enumerate() {
                        if let Some(inner) = item.as_object_mut() {
                            restore(ctx, inner, &inner_at.index(index), members);
                        }
                    }
                }
                _ => {}
            }
        });
    }
}

fn restore(
    ctx: &mut StepCtx<'_>,
    obj: &mut serde_json::Map<String, Value>,
    at: &crate::json::JsonPath,
    members: &[RequiredMember],
) {
    for (key, default) in members.iter() {
        if obj.contains_key(*key) {
            continue;
        }
        let value = default();
        ctx.note(
            &at.key(key),
            format!("v1.0 left `{key}` out (empty); v0.3 requires it: restored as {value}"),
        );
        insert(ctx, obj, at, key, value);
    }
}
