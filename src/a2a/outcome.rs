//! What a conversion returns: the emitted batch, or an error as data; plus the facts the
//! freeze explanation needs (typed presence before substitution, substitutions made).

use super::packet::Packet;
use super::payload::Payload;
use super::{CanonicalType, Mode, TypedFields, UnmappedKeys};
use crate::json::{digest_bytes, Digest};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    Measurement,
    UnsupportedProtocolVersion,
    StrictLossinessViolation,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Measurement => "measurement",
            ErrorKind::UnsupportedProtocolVersion => "unsupported_protocol_version",
            ErrorKind::StrictLossinessViolation => "strict_lossiness_violation",
        }
    }

    pub fn parse(text: &str) -> Option<ErrorKind> {
        [
            ErrorKind::Measurement,
            ErrorKind::UnsupportedProtocolVersion,
            ErrorKind::StrictLossinessViolation,
        ]
        .into_iter()
        .find(|kind| kind.name() == text)
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A rejected packet: the error kind, the exact message, and the id of the conversion-table
/// row that rejected it (see `freeze::CONVERSION_TABLE`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConversionError {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip)]
    pub rule: &'static str,
}

/// `kind: message [rule]`, as `explain` shows a rejection (the message terminal-safe).
impl std::fmt::Display for ConversionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}   [{}]",
            self.kind,
            crate::json::safe_text(&self.message),
            self.rule
        )
    }
}

impl std::error::Error for ConversionError {}

/// A lenient-mode substitution, in note order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Substitution {
    AgentId,
    GenericMessageEvent,
    TaskId,
    ArtifactId,
    MessageId,
}

impl Substitution {
    pub fn note(self) -> &'static str {
        match self {
            Substitution::AgentId => "missing agent.id -> substituted unknown-agent",
            Substitution::GenericMessageEvent => {
                "unsupported event_type -> emitted generic A2A message event"
            }
            Substitution::TaskId => "missing task.id -> substituted unknown-task",
            Substitution::ArtifactId => "missing artifact.id -> substituted unknown-artifact",
            Substitution::MessageId => "missing message.id -> substituted unknown-message",
        }
    }

    /// The conversion-table row that describes this substitution.
    pub fn rule(self) -> &'static str {
        match self {
            Substitution::AgentId => "L1",
            Substitution::GenericMessageEvent => "L2",
            Substitution::TaskId => "L3",
            Substitution::ArtifactId => "L4",
            Substitution::MessageId => "L5",
        }
    }
}

/// The raw packet's reference (the batch's `lossiness.raw_payload_ref`). Its SHA-256 is taken
/// on first read: `check` keeps only the payload's digests and never reads it, and hashing
/// every packet's bytes for it was a twentieth of `check`'s CPU on the realistic mix. The
/// bytes are the conversion's own (shared with its `Conversion::packet`), not a copy.
#[derive(Clone)]
pub struct RawPayloadRef {
    bytes: Arc<[u8]>,
    sha256: OnceLock<String>,
    pub size_bytes: usize,
    pub media_type: &'static str,
}

impl RawPayloadRef {
    /// The reference of the packet `bytes`.
    pub fn of(bytes: Arc<[u8]>) -> RawPayloadRef {
        RawPayloadRef {
            size_bytes: bytes.len(),
            bytes,
            sha256: OnceLock::new(),
            media_type: super::event::MEDIA_TYPE,
        }
    }

    /// SHA-256 of the raw bytes, lowercase hex.
    pub fn sha256(&self) -> &str {
        self.sha256
            .get_or_init(|| digest_bytes(&self.bytes).to_hex())
    }
}

/// Equal when made from equal bytes (whether the digest was taken yet does not count).
impl PartialEq for RawPayloadRef {
    fn eq(&self, other: &RawPayloadRef) -> bool {
        self.bytes == other.bytes && self.media_type == other.media_type
    }
}

impl Eq for RawPayloadRef {}

/// As the derived form printed it when the digest was a field.
impl std::fmt::Debug for RawPayloadRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawPayloadRef")
            .field("sha256", &self.sha256())
            .field("size_bytes", &self.size_bytes)
            .field("media_type", &self.media_type)
            .finish()
    }
}

impl Serialize for RawPayloadRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut reference = serializer.serialize_struct("RawPayloadRef", 3)?;
        reference.serialize_field("sha256", self.sha256())?;
        reference.serialize_field("size_bytes", &self.size_bytes)?;
        reference.serialize_field("media_type", self.media_type)?;
        reference.end()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lossiness {
    pub unmapped_fields_count: usize,
    pub raw_payload_ref: RawPayloadRef,
    pub substitutions: Vec<Substitution>,
}

impl Lossiness {
    pub fn level(&self) -> &'static str {
        match self.unmapped_fields_count {
            0 => "none",
            1..=2 => "low",
            _ => "high",
        }
    }

    /// The report's canonical bytes (keys in byte order), as `canonical_bytes(&self.to_json())`.
    fn write_canonical(&self, out: &mut Vec<u8>) {
        use std::io::Write as _;
        out.extend_from_slice(br#"{"lossiness_level":""#);
        out.extend_from_slice(self.level().as_bytes());
        out.extend_from_slice(br#"","notes":["#);
        for (index, substitution) in self.substitutions.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            super::payload::write_json_text(substitution.note(), out);
        }
        out.extend_from_slice(br#"],"raw_payload_ref":{"media_type":"#);
        super::payload::write_json_text(self.raw_payload_ref.media_type, out);
        out.extend_from_slice(br#","sha256":"#);
        super::payload::write_json_text(self.raw_payload_ref.sha256(), out);
        let _ = write!(
            out,
            r#","size_bytes":{}}},"unmapped_fields_count":{}}}"#,
            self.raw_payload_ref.size_bytes, self.unmapped_fields_count
        );
    }

    pub fn to_json(&self) -> Value {
        let notes: Vec<&str> = self.substitutions.iter().map(|sub| sub.note()).collect();
        json!({
            "lossiness_level": self.level(),
            "unmapped_fields_count": self.unmapped_fields_count,
            "raw_payload_ref": self.raw_payload_ref,
            "notes": notes,
        })
    }
}

/// A converted packet: the canonical payload, its event and its lossiness. The event is a
/// `Value` built on first use: digests are computed from the payload's canonical bytes,
/// written directly, so converting and digesting never builds it.
#[derive(Clone, Debug)]
pub struct Converted {
    pub canonical_type: CanonicalType,
    pub lossiness: Lossiness,
    payload: Payload,
    event: OnceLock<Value>,
}

/// Equal when converted from equal facts (whether the event was built yet does not count).
impl PartialEq for Converted {
    fn eq(&self, other: &Converted) -> bool {
        self.canonical_type == other.canonical_type
            && self.lossiness == other.lossiness
            && self.payload == other.payload
    }
}

impl Converted {
    /// The packet's `attributes`, normalized as the payload carries them, without building
    /// the event.
    pub fn attributes(&self) -> Option<&super::Attributes> {
        self.payload.attributes.as_ref()
    }

    pub(super) fn new(payload: Payload, lossiness: Lossiness) -> Converted {
        Converted {
            canonical_type: payload.canonical_type,
            lossiness,
            payload,
            event: OnceLock::new(),
        }
    }

    /// The CloudEvents envelope; its `data` is the payload.
    pub fn event(&self) -> &Value {
        self.event.get_or_init(|| self.payload.event())
    }

    /// The event `subject` (the primary id).
    pub fn subject(&self) -> &str {
        self.payload.primary_id()
    }

    pub fn payload(&self) -> &Value {
        &self.event()["data"]
    }

    /// The payload as a tree without its `attributes` member, built without theirs.
    pub fn payload_without_attributes(&self) -> Value {
        self.payload.to_value_without_attributes()
    }

    /// The event without its `data`, built without the payload's tree.
    pub fn envelope(&self) -> Value {
        Value::Object(self.payload.envelope())
    }

    /// The payload's canonical bytes, written without building its tree.
    pub fn payload_bytes(&self) -> Vec<u8> {
        self.payload.canonical_bytes()
    }

    pub fn handoff(&self) -> &Value {
        self.payload.handoff().object()
    }

    pub fn discovery(&self) -> &Value {
        self.payload.discovery.object()
    }

    pub fn batch(&self) -> Value {
        json!({"events": [self.event()], "lossiness": self.lossiness.to_json()})
    }

    /// Writes the batch's canonical bytes (`canonical_bytes(&self.batch())`) straight from
    /// the conversion's facts, and returns the payload digest taken over the payload bytes
    /// written on the way: `convert` prints both without building or serializing a tree.
    pub fn write_batch(&self, out: &mut Vec<u8>) -> Digest {
        let data = self.payload.canonical_bytes();
        out.extend_from_slice(br#"{"events":["#);
        self.payload.write_event(&data, out);
        out.extend_from_slice(br#"],"lossiness":"#);
        self.lossiness.write_canonical(out);
        out.push(b'}');
        digest_bytes(&data)
    }

    /// SHA-256 of the payload's canonical bytes, written without building the payload.
    pub fn payload_digest(&self) -> Digest {
        digest_bytes(&self.payload.canonical_bytes())
    }

    /// The handoff digest: one of the eight possible objects, digested once.
    pub fn handoff_digest(&self) -> Digest {
        self.payload.handoff().digest()
    }

    /// The discovery digest: one of the four possible objects, digested once.
    pub fn discovery_digest(&self) -> Digest {
        self.payload.discovery.digest()
    }
}

/// The full result of converting one packet in one mode.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub mode: Mode,
    /// The raw packet, parsed on first use when it was JSON (for explanations and evidence
    /// paths); empty when rejected before it was read.
    pub packet: Packet,
    /// Typed fields as read before any substitution (absent when the packet did not get that far).
    pub fields: Option<Arc<TypedFields>>,
    pub result: Result<Converted, ConversionError>,
    /// `true` only when the conversion read the packet's text and saw every object in it
    /// with distinct keys (`RawPacket::keys_distinct`): then it has no repeated key to count.
    pub keys_distinct: bool,
    /// The unmapped top-level keys of an object whose `protocol` is "a2a" and whose version
    /// was refused (C6, C7), where `fields` are absent: what classifying it needs.
    pub refused_version_keys: Option<UnmappedKeys>,
}

impl Conversion {
    /// The unmapped top-level keys of a packet read as far as `protocol` "a2a" and its
    /// version: its typed fields', or those handed back with a refused version.
    pub fn a2a_unmapped_keys(&self) -> Option<&UnmappedKeys> {
        match self.fields.as_deref() {
            Some(fields) => Some(&fields.unmapped_keys),
            None => self.refused_version_keys.as_ref(),
        }
    }

    pub fn converted(&self) -> Option<&Converted> {
        self.result.as_ref().ok()
    }

    pub fn error(&self) -> Option<&ConversionError> {
        self.result.as_ref().err()
    }
}

#[cfg(test)]
mod tests {
    use crate::a2a::{convert, ConvertOptions, Mode};
    use crate::json::digest_value;

    #[test]
    fn the_written_batch_is_the_canonical_batch() {
        let packets = [
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"2026-02-27T11:05:00.250+01:00","agent":{"id":"a\u001b\"q"},"task":{"kind":"delegation"},"message":{"id":"m"},"attributes":{"z":[3,1.5e300,"x"],"a":{"b":null}}}"#,
            r#"{"protocol":"a2a","version":"0.2","event_type":"session.unknown","agent":{"id":"é\u202e"}}"#,
            r#"{"protocol":"a2a","version":"0.2","event_type":"artifact.shared","agent":{"id":"a"},"artifact":{"id":"r","name":"n"},"extra":1,"more":2,"again":3}"#,
        ];
        for packet in packets {
            let conversion = convert(
                packet.as_bytes(),
                &ConvertOptions::default().with_mode(Mode::Lenient),
            );
            let converted = conversion.converted().unwrap();
            let mut written = Vec::new();
            let digest = converted.write_batch(&mut written);
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(crate::json::canonical_bytes(&converted.batch())).unwrap()
            );
            assert_eq!(digest, converted.payload_digest());
        }
    }

    #[test]
    fn digests_equal_the_digests_of_the_built_event() {
        let packets = [
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"kind":"delegation"},"message":{"id":"m"},"attributes":{"assay_g4":{"agent_card":{"visible":true}}}}"#,
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"attributes":{"assay_g4":{"extended_card_access":{"visible":true}}}}"#,
            r#"{"protocol":"a2a","version":"0.2","event_type":"artifact.shared","agent":{"id":"a"}}"#,
        ];
        for packet in packets {
            let conversion = convert(
                packet.as_bytes(),
                &ConvertOptions::default().with_mode(Mode::Lenient),
            );
            let converted = conversion.converted().unwrap();
            assert_eq!(converted.handoff(), &converted.payload()["handoff"]);
            assert_eq!(converted.discovery(), &converted.payload()["discovery"]);
            assert_eq!(
                converted.payload_digest(),
                digest_value(converted.payload())
            );
            assert_eq!(
                converted.handoff_digest(),
                digest_value(converted.handoff())
            );
            assert_eq!(
                converted.discovery_digest(),
                digest_value(converted.discovery())
            );
        }
    }
}
