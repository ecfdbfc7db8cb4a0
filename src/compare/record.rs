//! What a comparison keeps of one packet: a few dozen bytes (where to read it again, its kind
//! and named handoff state, three keys and its type's index), so that a million packets a side
//! fit. Everything else is derived again from the packet's bytes for the pairs that changed.

use super::document::{document_of, run_facts, RunFacts};
use crate::a2a::Mode;
use crate::corpus::{summarize_keeping, EvaluateOptions, ModeResult, PacketKind, RawPacket};
use crate::freeze::HandoffState;
use serde_json::Value;
use std::hash::{Hash, Hasher};

/// One packet of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Index of its file in the side's file list.
    pub file: u32,
    /// NDJSON line (from 1) or bundle event SEQ; `u32::MAX` for a whole-file packet.
    pub line: u32,
    /// Where to read it again (see `corpus::reread_packet`).
    pub offset: u64,
    pub kind: PacketKind,
    pub state: Option<HandoffState>,
    /// The identity, then the content: equal when the packet is the same in both runs.
    pub full: u64,
    /// What stays stable across runs: type, subject, task/message/artifact ids.
    pub identity: u64,
    /// Type and subject alone: pairs a packet whose ids changed with its counterpart (half
    /// a hash: it only proposes pairs, and a record stays 40 bytes).
    pub loose: u32,
    /// Its type, as an index into the comparison's type table (see `side::TypeTable`): what
    /// is left in a gap pairs by position when the types are the same. [`NO_TYPE`] pairs with
    /// nothing.
    pub event_type: u16,
}

/// The type index of a packet whose type did not fit the table: it pairs with nothing.
pub const NO_TYPE: u16 = u16::MAX;

/// No line: the packet is its whole file.
pub const WHOLE_FILE: u32 = u32::MAX;

/// A packet read into its record, with the run-scoped facts the header reports.
pub struct Scanned {
    pub kind: PacketKind,
    pub state: Option<HandoffState>,
    pub full: u64,
    pub identity: u64,
    pub loose: u32,
    /// A hash of its type (the event's `type`, else its kind's tag).
    pub event_type: u64,
    pub facts: RunFacts,
}

/// Reads one packet: its kind and state from the one classifier and the packet summary
/// `check` uses (in `mode` only), its keys from the compared document.
pub fn scan(packet: &RawPacket, mode: Mode, options: &EvaluateOptions) -> Scanned {
    let (summary, value) = summarize_keeping(packet, options, &mut None);
    let kind = summary.kind;
    // Raw packets come back without their tree (summaries are built from typed fields); one
    // whose tree would pass the cap is compared without it (its identity from its kind).
    let value = value.or_else(|| crate::json::tree_within_cap(&packet.bytes));
    let facts = value.as_ref().map(run_facts).unwrap_or_default();
    let state = summary.state(mode);
    // A converted raw packet's compared document is its payload, whose digest the summary
    // holds: the packet is not converted a second time (a rejection is, for its message).
    if let Some(ModeResult::Converted { digests, .. }) = summary.mode(mode).map(|m| m.result) {
        let keys = Keys::of(kind, &Value::Null, value.as_ref());
        return Scanned {
            kind,
            state,
            full: keys.full_of(&digests.payload),
            identity: keys.identity,
            loose: keys.loose,
            event_type: keys.event_type,
            facts,
        };
    }
    let document = document_of(
        kind,
        &packet.bytes,
        value,
        &options.conversion.with_mode(mode),
    );
    let keys = Keys::of(kind, &document.value, document.stable.as_ref());
    Scanned {
        kind,
        state,
        full: keys.full_of(&crate::json::digest_value(&document.value)),
        identity: keys.identity,
        loose: keys.loose,
        event_type: keys.event_type,
        facts,
    }
}

struct Keys {
    identity: u64,
    loose: u32,
    event_type: u64,
}

fn hash_of(parts: &[Option<&str>]) -> u64 {
    // Fixed keys: both sides are hashed alike within one process.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut hasher);
    hasher.finish()
}

impl Keys {
    /// `stable` is the identity document (the raw packet for raw packets, where the compared
    /// document is its conversion); otherwise the compared document itself.
    fn of(kind: PacketKind, document: &Value, stable: Option<&Value>) -> Keys {
        let source = stable.unwrap_or(document);
        let ids = identity_fields(source);
        let type_ = ids.type_.or(Some(kind.tag()));
        Keys {
            identity: hash_of(&[
                type_,
                ids.subject,
                ids.task,
                ids.message,
                ids.artifact,
                ids.object,
            ]),
            loose: hash_of(&[type_, ids.subject]) as u32,
            event_type: hash_of(&[type_]),
        }
    }

    /// The identity and the compared document's digest, in one key.
    fn full_of(&self, digest: &crate::json::Digest) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.identity.hash(&mut hasher);
        digest.0.hash(&mut hasher);
        hasher.finish()
    }
}

/// The fields a packet's identity is made of, wherever its kind keeps them.
#[derive(Default)]
struct IdentityFields<'a> {
    type_: Option<&'a str>,
    subject: Option<&'a str>,
    task: Option<&'a str>,
    message: Option<&'a str>,
    artifact: Option<&'a str>,
    /// An A2A object's or a profile record's own `id` (never an event's: that is run-scoped).
    object: Option<&'a str>,
}

fn text<'a>(value: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter()
        .try_fold(value, |value, key| value.get(key))
        .and_then(Value::as_str)
}

fn identity_fields(value: &Value) -> IdentityFields<'_> {
    // An event carries its payload in `data`; a batch its first event.
    if let Some(event) = value
        .get("events")
        .and_then(Value::as_array)
        .and_then(|events| events.first())
    {
        return identity_fields(event);
    }
    if value.get("specversion").is_some() {
        let data = value.get("data").unwrap_or(&Value::Null);
        return IdentityFields {
            type_: text(value, &["type"]),
            subject: text(value, &["subject"]),
            ..payload_ids(data)
        };
    }
    let mut ids = payload_ids(value);
    ids.type_ = text(value, &["event_type"])
        .or_else(|| text(value, &["upstream_event_type"]))
        .or_else(|| text(value, &["kind"]))
        .or_else(|| text(value, &["type"]));
    if value.get("upstream_event_type").is_none() && value.get("event_type").is_none() {
        ids.object = text(value, &["id"]);
    }
    ids
}

fn payload_ids(value: &Value) -> IdentityFields<'_> {
    IdentityFields {
        task: text(value, &["task", "id"]),
        message: text(value, &["message", "id"]),
        artifact: text(value, &["artifact", "id"]),
        ..IdentityFields::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(value: Value) -> Keys {
        Keys::of(PacketKind::EvidenceEvent, &value, None)
    }

    #[test]
    fn run_scoped_fields_are_not_identity() {
        let one = json!({"specversion":"1.0","type":"t","subject":"s","id":"run-1:0",
            "data":{"task":{"id":"x"}}});
        let two = json!({"specversion":"1.0","type":"t","subject":"s","id":"run-2:7",
            "data":{"task":{"id":"x"}}});
        assert_eq!(keys(one.clone()).identity, keys(two).identity);
        let other = json!({"specversion":"1.0","type":"t","subject":"s","id":"run-1:0",
            "data":{"task":{"id":"y"}}});
        assert_ne!(keys(one.clone()).identity, keys(other.clone()).identity);
        assert_eq!(keys(one.clone()).loose, keys(other.clone()).loose);
        let renamed = json!({"specversion":"1.0","type":"t","subject":"z","id":"run-1:0",
            "data":{}});
        assert_ne!(keys(one.clone()).loose, keys(renamed.clone()).loose);
        assert_eq!(keys(one.clone()).event_type, keys(renamed).event_type);
        let other_type = json!({"specversion":"1.0","type":"u","subject":"s","id":"run-1:0",
            "data":{"task":{"id":"x"}}});
        assert_ne!(keys(one).event_type, keys(other_type).event_type);
    }

    #[test]
    fn a_record_stays_small() {
        // Two sides of a million packets each hold 80 MB of records.
        assert_eq!(std::mem::size_of::<Record>(), 40);
    }
}
