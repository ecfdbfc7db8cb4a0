//! What a comparison keeps of one packet: a few dozen bytes (where to read it again, its kind
//! and named handoff state, three keys and its type's index), so that a million packets a side
//! fit. Everything else is derived again from the packet's bytes for the pairs that changed.

use super::document::{document_of, run_facts, RunFacts, Time};
use crate::a2a::{convert, Mode};
use crate::corpus::{
    converted_kind, summarize_converting, EvaluateOptions, ModeResult, PacketKind, PacketSummary,
    RawPacket,
};
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
    /// is left in a gap pairs by position when the types are the same. `NO_TYPE` pairs with
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
    let (summary, value, conversion) = summarize_converting(packet, options, &mut None);
    let kind = summary.kind;
    // A raw packet read by its conversion: its ids from the typed fields the converter read,
    // a rejection's document from the rejection. Neither parsed nor converted again (that
    // was two thirds of the cost of reading a side).
    if let Some(scanned) = conversion
        .as_ref()
        .and_then(|conversion| scan_conversion(kind, &summary, mode, conversion, &packet.bytes))
    {
        return scanned;
    }
    scan_reading(packet, &summary, value, conversion.as_ref(), mode, options)
}

/// A packet's record read from its tree: the summary's value, else the tree of the packet's
/// conversion (converted here when the caller holds none).
fn scan_reading(
    packet: &RawPacket,
    summary: &PacketSummary,
    value: Option<Value>,
    conversion: Option<&crate::a2a::Conversion>,
    mode: Mode,
    options: &EvaluateOptions,
) -> Scanned {
    let kind = summary.kind;
    let state = summary.state(mode);
    if !converted_kind(kind) {
        // Any other packet is compared as it is: its own tree, run-scoped members taken out.
        let value = value.or_else(|| crate::json::tree_within_cap(&packet.bytes));
        let facts = value.as_ref().map(run_facts).unwrap_or_default();
        let document = document_of(
            kind,
            &packet.bytes,
            value,
            &options.conversion.with_mode(mode),
        );
        let keys = Keys::of(kind, &document.value, document.stable.as_ref());
        return Scanned {
            kind,
            state,
            full: keys.full_of(&crate::json::digest_value(&document.value)),
            identity: keys.identity,
            loose: keys.loose,
            event_type: keys.event_type,
            facts,
        };
    }
    let converted_here;
    let conversion = match conversion {
        Some(conversion) => conversion,
        None => {
            converted_here = convert(&packet.bytes, &options.conversion.with_mode(mode));
            &converted_here
        }
    };
    // Raw packets come back without their tree (summaries are built from typed fields): the
    // conversion's tree is read, which classifying a rejected packet already built, not the
    // packet parsed once more (a fifth of the mix). One whose tree would pass the cap is
    // compared without it (its identity from its kind).
    let tree = value.as_ref().or_else(|| conversion.packet.as_ref());
    let keys = Keys::of(kind, &Value::Null, tree);
    // A converted raw packet's compared document is its payload, whose digest the summary
    // holds; a rejection's is the rejection.
    let full = match summary.mode(mode).map(|m| m.result) {
        Some(ModeResult::Converted { digests, .. }) => keys.full_of(&digests.payload),
        _ => keys.full_of_rejection(conversion),
    };
    Scanned {
        kind,
        state,
        full,
        identity: keys.identity,
        loose: keys.loose,
        event_type: keys.event_type,
        facts: tree.map(run_facts).unwrap_or_default(),
    }
}

/// A raw packet's record from the summary and the conversion that made it, when the typed
/// fields say all its identity and facts hold: an `event_type`, or none of the members the
/// identity reads without one (`kind`, `type`, `id`), no `time` or `assayrunid` member, and
/// a `timestamp` that is text or absent (a number is counted as not RFC 3339, which the
/// typed fields cannot tell).
/// `None`: the packet is read the long way.
fn scan_conversion(
    kind: PacketKind,
    summary: &PacketSummary,
    mode: Mode,
    conversion: &crate::a2a::Conversion,
    bytes: &[u8],
) -> Option<Scanned> {
    let fields = conversion.fields.as_deref()?;
    let unmapped = |key: &str| fields.unmapped_keys.contains(key);
    if ["time", "assayrunid", "specversion", "events"]
        .into_iter()
        .any(unmapped)
    {
        return None;
    }
    // Without a text `event_type` the identity reads these members, which are not typed.
    let event_type = fields.event_type.as_deref();
    if event_type.is_none()
        && ["upstream_event_type", "kind", "type", "id"]
            .into_iter()
            .any(unmapped)
    {
        return None;
    }
    if fields.timestamp.is_none() && contains(bytes, br#""timestamp""#) {
        return None;
    }
    let keys = Keys::of_fields(
        kind,
        IdentityFields {
            type_: event_type,
            task: fields.task_id.as_deref(),
            message: fields.message_id.as_deref(),
            artifact: fields.artifact_id.as_deref(),
            ..IdentityFields::default()
        },
    );
    let full = match summary.mode(mode).map(|m| m.result) {
        Some(ModeResult::Converted { digests, .. }) => keys.full_of(&digests.payload),
        _ => keys.full_of_rejection(conversion),
    };
    Some(Scanned {
        kind,
        state: summary.state(mode),
        full,
        identity: keys.identity,
        loose: keys.loose,
        event_type: keys.event_type,
        facts: RunFacts {
            run_id: None,
            time: fields.timestamp.as_deref().map(Time::of_text),
        },
    })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
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
        Keys::of_fields(kind, identity_fields(stable.unwrap_or(document)))
    }

    fn of_fields(kind: PacketKind, ids: IdentityFields<'_>) -> Keys {
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

    /// The identity and a rejection's document (its kind, rule and message), in one key:
    /// hashed as they are, not written as JSON and digested (equal documents, equal keys).
    fn full_of_rejection(&self, conversion: &crate::a2a::Conversion) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.identity.hash(&mut hasher);
        match conversion.error() {
            Some(error) => {
                ("rejected", error.kind.name(), &error.rule, &error.message).hash(&mut hasher)
            }
            None => "not rejected".hash(&mut hasher),
        }
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

    /// The typed fields and the conversion give the record the tree and a second
    /// conversion give: every fixture and the first 2,000 packets of the recorded mix, in
    /// both modes (converted, rejected, with and without each id and timestamp).
    #[test]
    fn a_record_from_the_conversion_is_the_record_from_the_tree() {
        use std::io::BufRead;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut packets: Vec<Vec<u8>> = std::fs::read_dir(root.join("fixtures/a2a"))
            .unwrap()
            .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
            .collect();
        let mix =
            std::fs::File::open(root.join("tests/data/oracle/a2a-mixed-20k.ndjson.gz")).unwrap();
        packets.extend(
            std::io::BufReader::new(flate2::read::GzDecoder::new(mix))
                .split(b'\n')
                .take(2_000)
                .map(Result::unwrap),
        );
        packets.push(br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":1700000000,"agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#.to_vec());
        let mut fast = 0;
        for mode in [Mode::Strict, Mode::Lenient] {
            let mut options = EvaluateOptions::default();
            options.modes = vec![mode];
            options.conversion = options.conversion.with_mode(mode);
            for bytes in &packets {
                let packet = RawPacket {
                    source: crate::corpus::Source::file(std::path::Path::new("p.json")),
                    offset: 0,
                    bytes: bytes.clone(),
                    bundle: None,
                    in_bundle: None,
                };
                let (summary, value, conversion) =
                    summarize_converting(&packet, &options, &mut None);
                // The long way: the tree, and the packet converted again; with the rejection
                // the summary's conversion holds, the same record.
                let slow = scan_reading(&packet, &summary, value, None, mode, &options);
                let (_, again, _) = summarize_converting(&packet, &options, &mut None);
                let held = scan_reading(
                    &packet,
                    &summary,
                    again,
                    conversion.as_ref(),
                    mode,
                    &options,
                );
                assert_eq!(
                    (held.full, held.identity, held.facts.time),
                    (slow.full, slow.identity, slow.facts.time)
                );
                let Some(quick) = conversion.as_ref().and_then(|conversion| {
                    scan_conversion(summary.kind, &summary, mode, conversion, &packet.bytes)
                }) else {
                    continue;
                };
                fast += 1;
                let text = String::from_utf8_lossy(bytes);
                assert_eq!(
                    (quick.full, quick.identity, quick.loose, quick.event_type),
                    (slow.full, slow.identity, slow.loose, slow.event_type),
                    "{mode:?} {text}"
                );
                assert_eq!((quick.kind, quick.state), (slow.kind, slow.state), "{text}");
                assert_eq!(quick.facts.time, slow.facts.time, "{text}");
                assert_eq!(quick.facts.run_id, slow.facts.run_id, "{text}");
            }
        }
        assert!(fast > 2_500, "only {fast} packets read by their conversion");
    }

    #[test]
    fn a_record_stays_small() {
        // Two sides of a million packets each hold 80 MB of records.
        assert_eq!(std::mem::size_of::<Record>(), 40);
    }
}
