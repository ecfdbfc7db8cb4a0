//! The canonical payload (spec section 7) and its event (section 6), kept as the few facts
//! they follow from. Serializing a `Payload` writes its canonical bytes directly: members
//! are emitted in byte order of their keys, the order `serde_json::Map` would sort them
//! into, so digests need no intermediate `Value`; the `Value` form (for `event()` and
//! output) is built from the same `Serialize` impl, so the two cannot drift apart.

use super::event::{event_time, EVENT_SOURCE, MEDIA_TYPE};
use super::flags::{DiscoveryFlags, HandoffFlags};
use super::{CanonicalType, Substitution, TypedFields};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

pub const ADAPTER_ID: &str = "assay-adapter-a2a";

/// Everything the payload and the event are built from.
#[derive(Clone, Debug, PartialEq)]
pub struct Payload {
    /// Typed fields before substitution (shared with `Conversion::fields`).
    pub fields: Arc<TypedFields>,
    pub canonical_type: CanonicalType,
    pub adapter_version: Cow<'static, str>,
    pub protocol_version: String,
    /// The raw `attributes`; normalized when written.
    pub attributes: Option<Value>,
    pub discovery: DiscoveryFlags,
    pub unmapped_fields_count: usize,
}

/// The lenient substitutions (spec section 5) for the typed fields and the mapped event
/// type, in note order, with the event type actually emitted.
pub fn substitutions(
    fields: &TypedFields,
    mapped_type: Option<CanonicalType>,
) -> (CanonicalType, Vec<Substitution>) {
    let canonical_type = mapped_type.unwrap_or(CanonicalType::Message);
    let substituted = [
        (Substitution::AgentId, fields.agent_id.is_none()),
        (Substitution::GenericMessageEvent, mapped_type.is_none()),
        (
            Substitution::TaskId,
            canonical_type.is_task_event() && fields.task_id.is_none(),
        ),
        (
            Substitution::ArtifactId,
            canonical_type == CanonicalType::ArtifactShared && fields.artifact_id.is_none(),
        ),
        (
            Substitution::MessageId,
            canonical_type == CanonicalType::Message && fields.message_id.is_none(),
        ),
    ];
    let made = substituted
        .into_iter()
        .filter(|(_, made)| *made)
        .map(|(substitution, _)| substitution)
        .collect();
    (canonical_type, made)
}

/// The typed id, or the substitute when the event type requires an id.
fn id_or<'a>(
    typed: &'a Option<String>,
    required: bool,
    substitute: &'static str,
) -> Option<&'a str> {
    typed.as_deref().or_else(|| required.then_some(substitute))
}

impl Payload {
    pub fn agent_id(&self) -> &str {
        self.fields.agent_id.as_deref().unwrap_or("unknown-agent")
    }

    /// A typed task id is carried on every event type; only task events substitute one.
    pub fn task_id(&self) -> Option<&str> {
        id_or(
            &self.fields.task_id,
            self.canonical_type.is_task_event(),
            "unknown-task",
        )
    }

    pub fn artifact_id(&self) -> Option<&str> {
        id_or(
            &self.fields.artifact_id,
            self.canonical_type == CanonicalType::ArtifactShared,
            "unknown-artifact",
        )
    }

    pub fn message_id(&self) -> Option<&str> {
        id_or(
            &self.fields.message_id,
            self.canonical_type == CanonicalType::Message,
            "unknown-message",
        )
    }

    /// The event's subject: the id the event type is about, else the agent id.
    pub fn primary_id(&self) -> &str {
        match self.canonical_type {
            CanonicalType::TaskRequested | CanonicalType::TaskUpdated => self.task_id(),
            CanonicalType::ArtifactShared => self.artifact_id(),
            CanonicalType::Message => self.message_id(),
            CanonicalType::AgentCapabilities => None,
        }
        .unwrap_or_else(|| self.agent_id())
    }

    pub fn handoff(&self) -> HandoffFlags {
        HandoffFlags::of(self.canonical_type, &self.fields)
    }

    /// The canonical bytes of the payload.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(1024);
        // Writing into a `Vec` cannot fail: there is no I/O and every key is a string.
        if serde_json::to_writer(&mut out, self).is_err() {
            out.clear();
        }
        out
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The CloudEvents envelope with this payload as `data`.
    pub fn event(&self) -> Value {
        let primary_id = self.primary_id();
        let run_id = format!("a2a:{primary_id}");
        let text = |value: &str| Value::String(value.to_owned());
        let mut event = Map::new();
        event.insert("specversion".into(), text("1.0"));
        event.insert("type".into(), text(self.canonical_type.name()));
        event.insert("source".into(), text(EVENT_SOURCE));
        event.insert("id".into(), Value::String(format!("{run_id}:0")));
        event.insert(
            "time".into(),
            Value::String(event_time(self.fields.timestamp.as_deref())),
        );
        event.insert("datacontenttype".into(), text(MEDIA_TYPE));
        event.insert("subject".into(), text(primary_id));
        event.insert("assayrunid".into(), Value::String(run_id));
        event.insert("assayseq".into(), Value::from(0));
        event.insert("data".into(), self.to_value());
        Value::Object(event)
    }
}

/// A member value of the small objects `agent`, `task`, `artifact`, `message`.
enum Member<'a> {
    Text(&'a str),
    List(&'a [String]),
}

impl Serialize for Member<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Member::Text(text) => serializer.serialize_str(text),
            Member::List(items) => serializer.collect_seq(items.iter()),
        }
    }
}

/// An object of the present members, given in byte order of their keys.
struct Members<'a, const N: usize>([(&'static str, Option<Member<'a>>); N]);

impl<const N: usize> Serialize for Members<'_, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in &self.0 {
            if let Some(value) = value {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}

fn text(value: &Option<String>) -> Option<Member<'_>> {
    value.as_deref().map(Member::Text)
}

/// Attributes normalized: object keys sorted at every level (the map already iterates in
/// byte order); an array whose items are all strings is sorted; other arrays keep their
/// order with items normalized.
struct Normalized<'a>(&'a Value);

impl Serialize for Normalized<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, item) in members {
                    map.serialize_entry(key, &Normalized(item))?;
                }
                map.end()
            }
            Value::Array(items) if items.iter().all(Value::is_string) => {
                let mut sorted: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                sorted.sort_unstable();
                serializer.collect_seq(sorted)
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Normalized)),
            scalar => scalar.serialize(serializer),
        }
    }
}

impl Serialize for Payload {
    /// Members in byte order of their keys; see the module comment.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = &*self.fields;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("adapter_id", ADAPTER_ID)?;
        map.serialize_entry("adapter_version", &*self.adapter_version)?;
        let capabilities = fields.agent_capabilities.as_deref().map(Member::List);
        map.serialize_entry(
            "agent",
            &Members([
                ("capabilities", capabilities),
                ("id", Some(Member::Text(self.agent_id()))),
                ("name", text(&fields.agent_name)),
                ("role", text(&fields.agent_role)),
            ]),
        )?;
        if let Some(id) = self.artifact_id() {
            map.serialize_entry(
                "artifact",
                &Members([
                    ("id", Some(Member::Text(id))),
                    ("media_type", text(&fields.artifact_media_type)),
                    ("name", text(&fields.artifact_name)),
                ]),
            )?;
        }
        if let Some(attributes) = &self.attributes {
            map.serialize_entry("attributes", &Normalized(attributes))?;
        }
        map.serialize_entry("discovery", self.discovery.object())?;
        map.serialize_entry("handoff", self.handoff().object())?;
        if let Some(id) = self.message_id() {
            map.serialize_entry(
                "message",
                &Members([
                    ("id", Some(Member::Text(id))),
                    ("role", text(&fields.message_role)),
                ]),
            )?;
        }
        map.serialize_entry("protocol", "a2a")?;
        map.serialize_entry("protocol_name", "a2a")?;
        map.serialize_entry("protocol_version", &self.protocol_version)?;
        if let Some(id) = self.task_id() {
            map.serialize_entry(
                "task",
                &Members([
                    ("id", Some(Member::Text(id))),
                    ("kind", text(&fields.task_kind)),
                    ("status", text(&fields.task_status)),
                ]),
            )?;
        }
        map.serialize_entry("unmapped_fields_count", &self.unmapped_fields_count)?;
        if let Some(event_type) = &fields.event_type {
            map.serialize_entry("upstream_event_type", event_type)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::canonical_bytes;
    use serde_json::json;

    fn full_payload(canonical_type: CanonicalType) -> Payload {
        let some = |text: &str| Some(text.to_owned());
        Payload {
            fields: Arc::new(TypedFields {
                event_type: some("task.requested"),
                timestamp: some("2026-02-27T11:05:00+01:00"),
                agent_id: some("agent://a"),
                agent_name: some("A"),
                agent_role: some("orchestrator"),
                agent_capabilities: Some(vec!["a".into(), "b".into()]),
                task_id: some("task-1"),
                task_status: some("requested"),
                task_kind: some("delegation"),
                artifact_id: some("artifact-1"),
                artifact_name: some("plan.md"),
                artifact_media_type: some("text/markdown"),
                message_id: some("msg-1"),
                message_role: some("assistant"),
                unmapped_keys: vec!["extra".into()],
            }),
            canonical_type,
            adapter_version: Cow::Borrowed("3.4.0"),
            protocol_version: "0.2".into(),
            attributes: Some(json!({"z": ["b", "a"], "a": [2, 1, {"y": 1, "x": ["d", "c"]}]})),
            discovery: DiscoveryFlags::of(None),
            unmapped_fields_count: 1,
        }
    }

    #[test]
    fn direct_bytes_are_the_canonical_bytes_of_the_value() {
        for kind in CanonicalType::ALL {
            let payload = full_payload(kind);
            let value = payload.to_value();
            assert_eq!(
                payload.canonical_bytes(),
                canonical_bytes(&value),
                "{kind:?}"
            );
            assert_eq!(
                value["attributes"],
                json!({"a": [2, 1, {"x": ["c", "d"], "y": 1}], "z": ["a", "b"]})
            );
        }
    }

    #[test]
    fn substitutes_only_where_the_event_type_requires_an_id() {
        let fields = TypedFields::default();
        let (kind, made) = substitutions(&fields, None);
        assert_eq!(kind, CanonicalType::Message);
        assert_eq!(
            made,
            vec![
                Substitution::AgentId,
                Substitution::GenericMessageEvent,
                Substitution::MessageId
            ]
        );
        let (_, made) = substitutions(&fields, Some(CanonicalType::ArtifactShared));
        assert_eq!(made, vec![Substitution::AgentId, Substitution::ArtifactId]);
    }
}
