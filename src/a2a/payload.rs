//! The canonical payload (spec section 7) and its event (section 6), kept as the few facts
//! they follow from. The payload is described once, as a tree whose members are listed in
//! byte order of their keys (the order `serde_json::Map` sorts them into); that tree is
//! rendered either straight to canonical bytes, for digests, with no intermediate `Value`,
//! or to the `Value` that `event()` and the output carry.

use super::attributes::Attributes;
use super::event::{event_time, insert_producer_envelope, EVENT_SOURCE, MEDIA_TYPE};
use super::flags::{DiscoveryFlags, HandoffFlags};
use super::{CanonicalType, Substitution, TypedFields};
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
    /// The packet's `attributes`, normalized.
    pub attributes: Option<Attributes>,
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
        self.fields.handoff_flags(self.canonical_type)
    }

    /// The canonical bytes of the payload.
    pub fn canonical_bytes(&self) -> Vec<u8> {
        self.with_tree(|tree| {
            let mut out = Vec::with_capacity(1024);
            write_node(tree, &mut out);
            out
        })
    }

    pub fn to_value(&self) -> Value {
        self.with_tree(node_value)
    }

    /// The payload as a tree without its `attributes` member (they may be any size).
    pub(crate) fn to_value_without_attributes(&self) -> Value {
        Payload {
            fields: Arc::clone(&self.fields),
            canonical_type: self.canonical_type,
            adapter_version: self.adapter_version.clone(),
            protocol_version: self.protocol_version.clone(),
            attributes: None,
            discovery: self.discovery,
            unmapped_fields_count: self.unmapped_fields_count,
        }
        .to_value()
    }

    /// The payload as a tree of members in byte order of their keys (absent ones `None`),
    /// borrowing its leaves; both renderings above walk this one description.
    fn with_tree<R>(&self, render: impl FnOnce(&Node<'_>) -> R) -> R {
        let fields = &*self.fields;
        let agent = [
            (
                "capabilities",
                fields.agent_capabilities.as_deref().map(Node::TextList),
            ),
            ("id", Some(Node::Text(self.agent_id()))),
            ("name", text(&fields.agent_name)),
            ("role", text(&fields.agent_role)),
        ];
        let artifact = self.artifact_id().map(|id| {
            [
                ("id", Some(Node::Text(id))),
                ("media_type", text(&fields.artifact_media_type)),
                ("name", text(&fields.artifact_name)),
            ]
        });
        let message = self.message_id().map(|id| {
            [
                ("id", Some(Node::Text(id))),
                ("role", text(&fields.message_role)),
            ]
        });
        let task = self.task_id().map(|id| {
            [
                ("id", Some(Node::Text(id))),
                ("kind", text(&fields.task_kind)),
                ("status", text(&fields.task_status)),
            ]
        });
        let (handoff, discovery) = (self.handoff(), self.discovery);
        let top = [
            ("adapter_id", Some(Node::Text(ADAPTER_ID))),
            ("adapter_version", Some(Node::Text(&self.adapter_version))),
            ("agent", Some(Node::Object(&agent))),
            (
                "artifact",
                artifact.as_ref().map(|members| Node::Object(members)),
            ),
            ("attributes", self.attributes.as_ref().map(Node::Attributes)),
            (
                "discovery",
                Some(Node::Fixed(discovery.object(), discovery.canonical_bytes())),
            ),
            (
                "handoff",
                Some(Node::Fixed(handoff.object(), handoff.canonical_bytes())),
            ),
            (
                "message",
                message.as_ref().map(|members| Node::Object(members)),
            ),
            ("protocol", Some(Node::Text("a2a"))),
            ("protocol_name", Some(Node::Text("a2a"))),
            ("protocol_version", Some(Node::Text(&self.protocol_version))),
            ("task", task.as_ref().map(|members| Node::Object(members))),
            (
                "unmapped_fields_count",
                Some(Node::Count(self.unmapped_fields_count)),
            ),
            ("upstream_event_type", text(&fields.event_type)),
        ];
        render(&Node::Object(&top))
    }

    /// The event's canonical bytes (keys in byte order, as `canonical_bytes(&self.event())`
    /// gives them) with `data` the payload's canonical bytes, written straight from the
    /// facts: no `Value` tree. `Converted::write_batch` uses it; the tests hold it equal to
    /// the `Value` path.
    pub(crate) fn write_event(&self, data: &[u8], out: &mut Vec<u8>) {
        let primary_id = self.primary_id();
        out.extend_from_slice(br#"{"assaycontenthash":null,"assaygit":"unknown","assaypii":false,"assayproducer":"assay","assayproducerversion":"#);
        write_text(&self.adapter_version, out);
        out.extend_from_slice(br#","assayrunid":"#);
        write_run_id(primary_id, None, out);
        out.extend_from_slice(br#","assaysecrets":false,"assayseq":0,"data":"#);
        out.extend_from_slice(data);
        out.extend_from_slice(br#","datacontenttype":"application/json","id":"#);
        write_run_id(primary_id, Some(":0"), out);
        out.extend_from_slice(br#","source":"#);
        write_text(EVENT_SOURCE, out);
        out.extend_from_slice(br#","specversion":"1.0","subject":"#);
        write_text(primary_id, out);
        out.extend_from_slice(br#","time":"#);
        write_text(&event_time(self.fields.timestamp.as_deref()), out);
        out.extend_from_slice(br#","type":"#);
        write_text(self.canonical_type.name(), out);
        out.push(b'}');
    }

    /// The CloudEvents envelope with this payload as `data`.
    pub fn event(&self) -> Value {
        let mut event = self.envelope();
        event.insert("data".into(), self.to_value());
        Value::Object(event)
    }

    /// The event's members but `data` (the payload): what a view shows beside the payload,
    /// without building the payload's tree.
    pub fn envelope(&self) -> Map<String, Value> {
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
        insert_producer_envelope(&mut event, &self.adapter_version);
        event
    }
}

/// A node of the payload tree.
enum Node<'a> {
    Text(&'a str),
    Count(usize),
    TextList(&'a [String]),
    /// Members in byte order of their keys; `None` members are left out.
    Object(&'a [(&'static str, Option<Node<'a>>)]),
    /// A handoff or discovery object, with its canonical bytes.
    Fixed(&'static Value, &'static [u8]),
    /// Normalized attributes.
    Attributes(&'a Attributes),
}

/// Canonical bytes, exactly as `serde_json` writes the equivalent `Value` (see the module
/// comment); strings that need no escaping are copied as they are.
fn write_node(node: &Node<'_>, out: &mut Vec<u8>) {
    match node {
        Node::Text(text) => write_text(text, out),
        // `Display` of an integer is the digits `serde_json` writes.
        Node::Count(count) => out.extend_from_slice(count.to_string().as_bytes()),
        Node::TextList(items) => {
            out.push(b'[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_text(item, out);
            }
            out.push(b']');
        }
        Node::Object(members) => {
            debug_assert!(members.windows(2).all(|pair| pair[0].0 < pair[1].0));
            out.push(b'{');
            let mut first = true;
            for (key, value) in members.iter() {
                if let Some(value) = value {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    write_text(key, out);
                    out.push(b':');
                    write_node(value, out);
                }
            }
            out.push(b'}');
        }
        Node::Fixed(_, bytes) => out.extend_from_slice(bytes),
        Node::Attributes(attributes) => {
            out.extend_from_slice(attributes.normalized_text().as_bytes())
        }
    }
}

/// A JSON string, as `serde_json` writes it.
fn write_text(text: &str, out: &mut Vec<u8>) {
    crate::json::write_json_string(text, out);
}

/// `"a2a:{primary_id}{suffix}"` as a JSON string.
fn write_run_id(primary_id: &str, suffix: Option<&str>, out: &mut Vec<u8>) {
    let mut id = String::with_capacity(primary_id.len() + 6);
    id.push_str("a2a:");
    id.push_str(primary_id);
    id.push_str(suffix.unwrap_or(""));
    write_text(&id, out);
}

/// A string as `serde_json` writes it (see `write_text`), for the other writers of this module.
pub(super) fn write_json_text(text: &str, out: &mut Vec<u8>) {
    write_text(text, out);
}

fn text(value: &Option<String>) -> Option<Node<'_>> {
    value.as_deref().map(Node::Text)
}

fn node_value(node: &Node<'_>) -> Value {
    match node {
        Node::Text(text) => Value::String((*text).to_owned()),
        Node::Count(count) => Value::from(*count),
        Node::TextList(items) => items
            .iter()
            .map(|item| Value::String(item.clone()))
            .collect(),
        Node::Object(members) => Value::Object(
            members
                .iter()
                .filter_map(|(key, value)| {
                    value
                        .as_ref()
                        .map(|value| ((*key).to_owned(), node_value(value)))
                })
                .collect(),
        ),
        Node::Fixed(value, _) => (*value).clone(),
        Node::Attributes(attributes) => attributes.to_value(),
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
                unmapped_keys: crate::a2a::UnmappedKeys::of(vec!["extra"]),
            }),
            canonical_type,
            adapter_version: Cow::Borrowed("3.4.0"),
            protocol_version: "0.2".into(),
            attributes: Some(Attributes::of_value(
                &json!({"z": ["b", "a"], "a": [2, 1, {"y": 1, "x": ["d", "c"]}]}),
            )),
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
