//! The document a packet is compared by: a raw packet's conversion in the chosen mode (its
//! canonical payload, or its rejection), any other packet as it is; in both, the fields a
//! run stamps on its events (event id, time, run id, content hash, sequence number) are taken
//! out, so that two runs of the same scenario compare equal. Those facts go to the header.

use crate::a2a::{convert, Conversion, ConvertOptions};
use crate::corpus::{converted_kind, PacketKind};
use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};

/// An event's members that differ from run to run by construction.
pub const RUN_SCOPED: [&str; 5] = ["id", "time", "assayrunid", "assaycontenthash", "assayseq"];

/// A packet's compared form.
pub struct Document {
    pub value: Value,
    /// For a raw packet, the packet itself (its identity is read there); `None` otherwise.
    pub stable: Option<Value>,
}

/// The compared document of a packet of `kind`; `parsed` is its tree when it is JSON.
pub(crate) fn document_of(
    kind: PacketKind,
    bytes: &[u8],
    parsed: Option<Value>,
    options: &ConvertOptions,
) -> Document {
    if converted_kind(kind) {
        return Document {
            value: conversion_document(&convert(bytes, options)),
            stable: parsed,
        };
    }
    let mut value = parsed.unwrap_or(Value::Null);
    strip_run_scoped(&mut value);
    Document {
        value,
        stable: None,
    }
}

/// A raw packet's compared document from its conversion: its payload, or its rejection.
fn conversion_document(conversion: &Conversion) -> Value {
    match conversion.converted() {
        Some(converted) => compared_payload(converted),
        None => rejection_document(conversion),
    }
}

/// A rejected conversion's compared document (`Null` when it was not rejected).
fn rejection_document(conversion: &Conversion) -> Value {
    match conversion.error() {
        Some(error) => json!({"rejected": {
            "kind": error.kind.name(),
            "rule": error.rule,
            "message": error.message,
        }}),
        None => Value::Null,
    }
}

/// A converted packet's payload as compared: its tree, or, when its `attributes` would take
/// that tree past `json::tree_cap`, the payload with its attributes compared by their digest
/// (a million small objects in them made a changed pair 2.1 GB of trees).
fn compared_payload(converted: &crate::a2a::Converted) -> Value {
    // Built without the event's tree: the attributes' tree is parsed once, from their
    // normalized text, and only within the cap.
    let mut payload = converted.payload_without_attributes();
    let Some(attributes) = converted.attributes() else {
        return payload;
    };
    let text = attributes.normalized_text().as_bytes();
    let compared = crate::json::tree_within_cap(text).unwrap_or_else(|| {
        Value::String(format!(
            "sha256:{} ({} bytes normalized, compared by digest: their tree would pass the memory cap)",
            crate::json::digest_bytes(text).to_hex(),
            text.len()
        ))
    });
    if let Some(object) = payload.as_object_mut() {
        object.insert("attributes".into(), compared);
    }
    payload
}

/// Takes the run-scoped members out of an event, or of each event of a batch.
fn strip_run_scoped(value: &mut Value) {
    if let Some(events) = value.get_mut("events").and_then(Value::as_array_mut) {
        for event in events {
            strip_run_scoped(event);
        }
        return;
    }
    if let Some(object) = value.as_object_mut() {
        if is_event(object) {
            for key in RUN_SCOPED {
                object.remove(key);
            }
        }
    }
}

fn is_event(object: &Map<String, Value>) -> bool {
    object.contains_key("specversion") || object.contains_key("assayrunid")
}

/// Run-scoped facts of one packet, for the header.
#[derive(Clone, Debug, Default)]
pub struct RunFacts {
    pub run_id: Option<String>,
    /// Its time, when it carries one.
    pub time: Option<Time>,
}

/// A packet's time: an instant when it is an RFC 3339 date-time, else unreadable (text such
/// as `yesterday`, a date without an offset, a number), which the header counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Time {
    Instant(DateTime<Utc>),
    NotRfc3339,
}

impl Time {
    fn of(value: &Value) -> Time {
        value.as_str().map_or(Time::NotRfc3339, Time::of_text)
    }

    pub fn of_text(text: &str) -> Time {
        DateTime::parse_from_rfc3339(text)
            .map_or(Time::NotRfc3339, |time| Time::Instant(time.to_utc()))
    }
}

/// The run id and time a packet carries (an event's `time`, a batch's first event's, a raw
/// packet's `timestamp`).
pub(crate) fn run_facts(value: &Value) -> RunFacts {
    if let Some(first) = value
        .get("events")
        .and_then(Value::as_array)
        .and_then(|events| events.first())
    {
        return run_facts(first);
    }
    RunFacts {
        run_id: value
            .get("assayrunid")
            .and_then(Value::as_str)
            .map(str::to_owned),
        time: value
            .get("time")
            .or_else(|| value.get("timestamp"))
            .map(Time::of),
    }
}

/// The payload inside a compared document: an event's `data`, a batch's first event's, or
/// the document itself.
pub fn payload_of(document: &Value) -> &Value {
    if let Some(first) = document
        .get("events")
        .and_then(Value::as_array)
        .and_then(|events| events.first())
    {
        return payload_of(first);
    }
    match document.get("data") {
        Some(data) if data.is_object() => data,
        _ => document,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_lose_their_run_scoped_members() {
        let event = json!({"specversion":"1.0","id":"r:0","time":"t","assayrunid":"r",
            "assaycontenthash":"h","assayseq":3,"type":"x","data":{"id":"kept"}});
        let document = document_of(
            PacketKind::EvidenceEvent,
            b"",
            Some(event),
            &ConvertOptions::default(),
        );
        assert_eq!(
            document.value,
            json!({"specversion":"1.0","type":"x","data":{"id":"kept"}})
        );
        let facts = run_facts(&json!({"events":[{"assayrunid":"r","time":"t"}]}));
        assert_eq!(
            (facts.run_id.as_deref(), facts.time),
            (Some("r"), Some(Time::NotRfc3339))
        );
    }

    #[test]
    fn a_time_is_an_instant_only_when_it_is_rfc_3339() {
        let time = |value: Value| run_facts(&json!({ "timestamp": value })).time;
        let instant = |text: &str| {
            Some(Time::Instant(
                DateTime::parse_from_rfc3339(text).unwrap().to_utc(),
            ))
        };
        // The offset is part of the instant: 12:05+02:00 is 10:05 UTC.
        assert_eq!(
            time(json!("2026-02-27T12:05:00+02:00")),
            instant("2026-02-27T10:05:00Z")
        );
        for unreadable in [
            json!("yesterday"),
            json!(1_700_000_000),
            json!("2026-02-27 10:05:00"),
            json!(null),
        ] {
            assert_eq!(
                time(unreadable.clone()),
                Some(Time::NotRfc3339),
                "{unreadable}"
            );
        }
        assert_eq!(run_facts(&json!({"id": "x"})).time, None);
        // An event's own `time` comes before a `timestamp` in its data.
        assert_eq!(
            run_facts(&json!({"time": "2026-01-01T00:00:00Z", "timestamp": "no"})).time,
            instant("2026-01-01T00:00:00Z")
        );
    }

    #[test]
    fn attributes_past_the_tree_cap_are_compared_by_digest() {
        let packet = |objects: usize| {
            let attributes = vec![r#"{"a":1}"#; objects].join(",");
            format!(
                r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},"task":{{"id":"t","kind":"delegation"}},"attributes":[{attributes}]}}"#
            )
        };
        let options = ConvertOptions::default();
        let small = document_of(PacketKind::RawA2a, packet(2).as_bytes(), None, &options);
        assert_eq!(small.value["attributes"], json!([{"a": 1}, {"a": 1}]));
        // Within the cap it is the payload itself, as the event carries it.
        let converted = convert(packet(2).as_bytes(), &options);
        assert_eq!(&small.value, converted.converted().unwrap().payload());
        // 50k objects: 400 kB of text, about 40 MB as a tree against a cap of 33.
        let big = document_of(
            PacketKind::RawA2a,
            packet(50_000).as_bytes(),
            None,
            &options,
        );
        let shown = big.value["attributes"].as_str().unwrap();
        assert!(
            shown.starts_with("sha256:") && shown.ends_with("would pass the memory cap)"),
            "{shown}"
        );
        assert_eq!(big.value["handoff"], small.value["handoff"]);
        assert_eq!(big.value["agent"], small.value["agent"]);
    }

    #[test]
    fn raw_packets_compare_by_their_conversion() {
        let raw = br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;
        let document = document_of(
            PacketKind::RawA2a,
            raw,
            serde_json::from_slice(raw).ok(),
            &ConvertOptions::default(),
        );
        assert_eq!(document.value["handoff"]["visible"], json!(true));
        assert!(document.stable.is_some());
        let rejected = document_of(PacketKind::NotJson, b"{", None, &ConvertOptions::default());
        assert_eq!(rejected.value["rejected"]["rule"], json!("C3"));
    }
}
