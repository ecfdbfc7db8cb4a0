//! What a conversion returns: the emitted batch, or an error as data; plus the facts the
//! freeze explanation needs (typed presence before substitution, substitutions made).

use super::convert::{discovery_object, handoff_object};
use super::{CanonicalType, Mode, TypedFields};
use crate::json::{digest_value, Digest};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::OnceLock;

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

/// A rejected packet: the error kind, the exact message, and the id of the conversion-table
/// row that rejected it (see `freeze::CONVERSION_TABLE`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConversionError {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip)]
    pub rule: &'static str,
}

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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RawPayloadRef {
    pub sha256: String,
    pub size_bytes: usize,
    pub media_type: &'static str,
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

    pub fn to_json(&self) -> Value {
        let notes: Vec<&str> = self.substitutions.iter().map(|sub| sub.note()).collect();
        json!({
            "lossiness_level": self.level(),
            "raw_payload_ref": self.raw_payload_ref,
            "notes": notes,
        })
    }
}

/// A converted packet: the canonical event (whose `data` is the payload) and its lossiness.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    pub canonical_type: CanonicalType,
    pub(super) event: Value,
    pub lossiness: Lossiness,
}

impl Converted {
    /// The CloudEvents envelope; its `data` is the payload.
    pub fn event(&self) -> &Value {
        &self.event
    }

    /// The event `subject` (the primary id).
    pub fn subject(&self) -> &str {
        self.event["subject"].as_str().unwrap_or("")
    }

    pub fn payload(&self) -> &Value {
        &self.event["data"]
    }

    pub fn handoff(&self) -> &Value {
        &self.event["data"]["handoff"]
    }

    pub fn discovery(&self) -> &Value {
        &self.event["data"]["discovery"]
    }

    pub fn batch(&self) -> Value {
        json!({"events": [self.event], "lossiness": self.lossiness.to_json()})
    }

    pub fn payload_digest(&self) -> Digest {
        digest_value(self.payload())
    }

    /// The handoff digest. The converter only builds the handoff from three booleans, so the
    /// eight possible digests are computed once, from the same builder, and looked up.
    pub fn handoff_digest(&self) -> Digest {
        static DIGESTS: OnceLock<[Digest; 8]> = OnceLock::new();
        let digests = DIGESTS.get_or_init(|| {
            std::array::from_fn(|bits| {
                digest_value(&handoff_object(bits & 4 != 0, bits & 2 != 0, bits & 1 != 0))
            })
        });
        let handoff = self.handoff();
        let flag = |key: &str| handoff.get(key).and_then(Value::as_bool);
        match (
            flag("visible"),
            flag("task_ref_visible"),
            flag("message_ref_visible"),
        ) {
            (Some(visible), Some(task_ref), Some(message_ref)) => {
                digests[usize::from(visible) << 2
                    | usize::from(task_ref) << 1
                    | usize::from(message_ref)]
            }
            _ => digest_value(handoff),
        }
    }

    /// The discovery digest, looked up the same way (four possible objects).
    pub fn discovery_digest(&self) -> Digest {
        static DIGESTS: OnceLock<[Digest; 4]> = OnceLock::new();
        let digests = DIGESTS.get_or_init(|| {
            std::array::from_fn(|bits| {
                digest_value(&discovery_object(bits & 2 != 0, bits & 1 != 0))
            })
        });
        let discovery = self.discovery();
        let flag = |key: &str| discovery.get(key).and_then(Value::as_bool);
        match (
            flag("agent_card_visible"),
            flag("extended_card_access_visible"),
        ) {
            (Some(agent_card), Some(extended)) => {
                digests[usize::from(agent_card) << 1 | usize::from(extended)]
            }
            _ => digest_value(discovery),
        }
    }
}

/// The full result of converting one packet in one mode.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub mode: Mode,
    /// The parsed packet, when it was JSON (kept for explanations and evidence paths).
    pub packet: Option<Value>,
    /// Typed fields as read before any substitution (absent when the packet did not get that far).
    pub fields: Option<TypedFields>,
    pub result: Result<Converted, ConversionError>,
}

impl Conversion {
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
    fn memoized_digests_equal_computed_digests() {
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
