//! Classifying a packet by shape, with the reason, so that every face can say what it thinks
//! a file is before it says anything about it.

use crate::freeze::{detect_canonical, CanonicalShape};
use crate::json::{JsonType, RootReading};
use crate::migrate::Version;
use crate::packet::PacketKind;
use crate::profiles::ProfileKind;
use serde::Serialize;
use serde_json::Value;

/// The file name of a directory's golden manifest.
pub const GOLDEN_MANIFEST_NAME: &str = crate::golden::MANIFEST_FILE_NAME;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Classification {
    pub kind: PacketKind,
    pub reason: String,
}

impl Classification {
    fn new(kind: PacketKind, reason: impl Into<String>) -> Classification {
        Classification {
            kind,
            reason: reason.into(),
        }
    }
}

/// Classifies a whole evidence bundle from its verification report: always kind `bundle`,
/// the reason says upstream's verdict.
pub fn classify_bundle(report: &crate::bundle::BundleReport) -> Classification {
    let events = report.event_packets;
    let reason = match &report.verdict {
        Ok(facts) => format!(
            "assay evidence bundle (.tar.gz): upstream's verifier accepts it, {} event(s), run root {}",
            facts.event_count,
            crate::json::safe_text(&facts.run_root)
        ),
        Err(error) => format!(
            "assay evidence bundle (.tar.gz): fails upstream's verification: {} {} ({} readable event line(s))",
            error.class().as_str(),
            error.code.as_str(),
            events
        ),
    };
    Classification::new(PacketKind::Bundle, reason)
}

/// The reading `--as KIND` forces on every packet of this process (set once by the CLI).
static FORCED_READING: std::sync::OnceLock<PacketKind> = std::sync::OnceLock::new();

/// Forces every later classification of this process to `kind` (`--as KIND`). Bundles stay
/// bundles and bytes that are not JSON stay `not-json`: nothing else can be read from them.
pub fn force_reading(kind: PacketKind) {
    let _ = FORCED_READING.set(kind);
}

/// The reading `--as` forced, if any.
pub fn forced_reading() -> Option<PacketKind> {
    FORCED_READING.get().copied()
}

/// The kinds `--as` accepts: every kind a parsed JSON value can be read as.
pub fn forceable(kind: PacketKind) -> bool {
    !matches!(kind, PacketKind::Bundle | PacketKind::NotJson)
}

/// What the classifier reads of a packet: its tree, or only the type of a root that is not
/// an object. Nothing but an object carries another kind's evidence, so an array or a scalar
/// is classified without its tree (`json::read_root` reads it in constant memory: a tree of a
/// million small objects costs 50 times the text).
#[derive(Clone, Copy, Debug)]
pub enum Root<'a> {
    Tree(&'a Value),
    Other(JsonType),
    /// An object whose tree would pass `json::tree_cap` (`cap` bytes): no evidence is read
    /// from it, so it is the adapter's input, and the reason says why.
    ObjectOverCap {
        cap: usize,
    },
}

impl<'a> Root<'a> {
    /// The classifier's view of a reading (`json::read_root`'s answer).
    pub fn of(reading: &'a RootReading) -> Root<'a> {
        match reading {
            RootReading::Object(value) => Root::Tree(value),
            RootReading::Other(json_type) => Root::Other(*json_type),
            RootReading::ObjectOverCap { cap } => Root::ObjectOverCap { cap: *cap },
        }
    }
}

/// Classifies a packet from its parse (`Err` holds the parser's message) and file name, with
/// the reading `--as` forced, if any.
pub fn classify(parsed: Result<&Value, &str>, file_name: Option<&str>) -> Classification {
    classify_root(parsed.map(Root::Tree), file_name)
}

/// [`classify`] from what the classifier reads: a tree, or the type of a root that is not
/// an object.
pub fn classify_root(root: Result<Root<'_>, &str>, file_name: Option<&str>) -> Classification {
    classify_as(root, file_name, forced_reading())
}

/// [`classify_root`] with the forced reading given.
pub fn classify_as(
    root: Result<Root<'_>, &str>,
    file_name: Option<&str>,
    forced: Option<PacketKind>,
) -> Classification {
    let root = match root {
        Ok(root) => root,
        Err(message) => {
            return Classification::new(
                PacketKind::NotJson,
                format!(
                    "not JSON: {message}; the adapter's input all the same (it rejects it: C3)"
                ),
            )
        }
    };
    let read = classify_value(root, file_name);
    match forced {
        Some(kind) if forceable(kind) && kind != read.kind => Classification::new(
            kind,
            format!(
                "read as {} because --as {} asks for it (by its own evidence: {}: {})",
                kind.name(),
                kind.tag(),
                read.kind.tag(),
                read.reason
            ),
        ),
        _ => read,
    }
}

/// The reading of a parsed value: another kind only on that kind's positive evidence (see
/// [`KIND_TABLE`]), the adapter's input otherwise.
fn classify_value(root: Root<'_>, file_name: Option<&str>) -> Classification {
    let tree = match root {
        Root::Tree(value) => Some(value),
        Root::Other(_) | Root::ObjectOverCap { .. } => None,
    };
    if let Some(reason) = golden_manifest(tree, file_name) {
        return Classification::new(PacketKind::GoldenManifest, reason);
    }
    if let Some(reason) = attestation_envelope(tree, file_name) {
        return Classification::new(PacketKind::Attestation, reason);
    }
    let Some((value, object)) = tree.and_then(|value| Some((value, value.as_object()?))) else {
        let json_type = match root {
            Root::Tree(value) => JsonType::of(value),
            Root::Other(json_type) => json_type,
            Root::ObjectOverCap { cap } => {
                return Classification::new(
                    PacketKind::RawA2a,
                    format!(
                        "{}; no other kind's evidence was read, so the adapter's input",
                        crate::json::over_tree_cap(JsonType::Object, cap)
                    ),
                )
            }
        };
        return Classification::new(
            PacketKind::RawA2a,
            format!(
                "the JSON root is {}: no other kind's evidence, so the adapter's input",
                json_type.with_article()
            ),
        );
    };
    if let Some((shape, reason)) = detect_canonical(value) {
        let kind = match shape {
            CanonicalShape::Payload => PacketKind::CanonicalPayload,
            CanonicalShape::Event => PacketKind::EvidenceEvent,
            CanonicalShape::Batch => PacketKind::AdapterBatch,
        };
        return Classification::new(kind, reason);
    }
    if object.get("protocol").and_then(Value::as_str) == Some("a2a") {
        return Classification::new(PacketKind::RawA2a, PROTOCOL_A2A);
    }
    if let Some(classification) = other_formats(value, file_name) {
        return classification;
    }
    if let Some(reason) = foreign_json(object) {
        return Classification::new(PacketKind::Unknown, reason);
    }
    let reason = if object.contains_key("event_type") {
        "top-level `event_type` and no other kind's evidence: the adapter's input".to_owned()
    } else {
        let mut keys: Vec<&str> = object.keys().map(String::as_str).take(6).collect();
        if object.len() > 6 {
            keys.push("...");
        }
        format!(
            "no other kind's evidence (keys: {}): the adapter's input",
            crate::json::safe_text(&keys.join(", "))
        )
    };
    Classification::new(PacketKind::RawA2a, reason)
}

/// Why an object whose `protocol` is "a2a" (and that is no other kind) is the adapter's input.
const PROTOCOL_A2A: &str = "top-level `protocol` is \"a2a\": the adapter's input";

/// The classification of a packet whose conversion got past `protocol: "a2a"` (it read its
/// typed fields, or refused its version), from its unmapped top-level keys alone, without its
/// tree: when none of them is another kind's evidence (a golden manifest's `format`, an
/// attestation envelope's DSSE members, canonical output's markers), its name is not one
/// those kinds are known by and no reading is forced, nothing but `protocol` can decide, and
/// it is what [`classify`] concludes of the tree. `None`: the tree decides.
pub fn classify_converted(
    unmapped_keys: &crate::a2a::UnmappedKeys,
    file_name: Option<&str>,
) -> Option<Classification> {
    let unforced = matches!(forced_reading(), None | Some(PacketKind::RawA2a));
    let other_evidence = std::iter::once("format")
        .chain(DSSE_MEMBERS)
        .chain(crate::freeze::CANONICAL_MARKERS)
        .any(|key| unmapped_keys.contains(key));
    let named_as_another_kind = file_name.is_some_and(|name| {
        name == GOLDEN_MANIFEST_NAME
            || name == crate::golden::PENDING_FILE_NAME
            || named_as_envelope(name)
    });
    (unforced && !other_evidence && !named_as_another_kind)
        .then(|| Classification::new(PacketKind::RawA2a, PROTOCOL_A2A))
}

/// The members that make an object a DSSE envelope (each of its type: see
/// `attestation_envelope`).
const DSSE_MEMBERS: [&str; 3] = ["payloadType", "payload", "signatures"];

/// Whether a file's name is one `verify` and `check --key` look for an envelope under.
fn named_as_envelope(name: &str) -> bool {
    use crate::bundle::attest::ENVELOPE_SUFFIX;
    name.len() > ENVELOPE_SUFFIX.len() && name.ends_with(ENVELOPE_SUFFIX)
}

/// A golden manifest's evidence: its `format` member, or the name `check` reads a
/// directory's manifest under.
fn golden_manifest(value: Option<&Value>, file_name: Option<&str>) -> Option<String> {
    let format = value
        .and_then(|value| value.get("format"))
        .and_then(Value::as_str);
    if let Some(format) = format.filter(|format| crate::golden::MANIFEST_FORMATS.contains(format)) {
        return Some(format!("`format` is \"{format}\""));
    }
    match file_name {
        Some(GOLDEN_MANIFEST_NAME) => Some(format!(
            "file named {GOLDEN_MANIFEST_NAME} (where `check` reads a directory's manifest)"
        )),
        Some(crate::golden::PENDING_FILE_NAME) => Some(format!(
            "file named {} (the pending goldens `check --write-pending` writes)",
            crate::golden::PENDING_FILE_NAME
        )),
        _ => None,
    }
}

/// An attestation envelope's evidence: DSSE's three members, or the name `verify` and
/// `check --key` look for beside a bundle. Never the adapter's input: a raw packet with
/// `payloadType`, `payload` and `signatures` would be no A2A packet at all.
fn attestation_envelope(value: Option<&Value>, file_name: Option<&str>) -> Option<String> {
    use crate::bundle::attest::ENVELOPE_SUFFIX;
    let object = value.and_then(Value::as_object);
    let member = |key: &str| object.and_then(|object| object.get(key));
    let [payload_type, payload, signatures] = DSSE_MEMBERS;
    if member(payload_type).is_some_and(Value::is_string)
        && member(payload).is_some_and(Value::is_string)
        && member(signatures).is_some_and(Value::is_array)
    {
        return Some(
            "a DSSE envelope (`payloadType`, `payload`, `signatures`): an attestation, judged \
             with its bundle against trusted keys"
                .to_owned(),
        );
    }
    file_name.filter(|name| named_as_envelope(name)).map(|_| {
        format!(
            "file named NAME{ENVELOPE_SUFFIX} (where `verify` and `check --key` look for \
                 a bundle's attestation)"
        )
    })
}

/// JSON no one would hand the adapter in any directory: another protocol's JSON-RPC message,
/// or a JSON Schema. (A2A's own JSON-RPC messages were claimed before this is asked.)
fn foreign_json(object: &serde_json::Map<String, Value>) -> Option<String> {
    if object.get("jsonrpc").and_then(Value::as_str) == Some("2.0") {
        return Some(
            "a JSON-RPC 2.0 message with no A2A method, result or error: another protocol's \
             message, not the adapter's input"
                .to_owned(),
        );
    }
    object
        .contains_key("$schema")
        .then(|| "a JSON Schema document (`$schema`), not the adapter's input".to_owned())
}

/// The other formats, recognised by their own detectors: master/sub, ContextCore and UAIX
/// handoffs, then A2A protocol objects. They run after canonical adapter output and
/// `protocol: "a2a"` packets are recognised.
fn other_formats(value: &Value, file_name: Option<&str>) -> Option<Classification> {
    if let Some(detection) = crate::profiles::detect(value) {
        let kind = match detection.kind {
            ProfileKind::Ahc => PacketKind::MasterSub,
            ProfileKind::CcMsg | ProfileKind::CcContract | ProfileKind::CcStore => {
                PacketKind::ContextCore
            }
            ProfileKind::Uaix => PacketKind::Uaix,
        };
        return Some(Classification::new(kind, detection.reason));
    }
    // The one detection every face asks, with the hint the file's name gives (a migration's
    // expected output): `explain`, `migrate` and the inspector hand it the same.
    let hints = crate::migrate::Hints::from_file_name(file_name);
    let detection = crate::migrate::detect_with(value, &hints).ok()?;
    let reason = format!("{}: {}", detection.summary(), detection.reasons.join("; "));
    Some(Classification::new(
        kind_of_version(detection.version),
        reason,
    ))
}

fn kind_of_version(version: Version) -> PacketKind {
    match version {
        Version::V0_3 => PacketKind::A2aV03,
        Version::V1_0 | Version::V1_0Rc => PacketKind::A2aV10,
        Version::Indeterminate => PacketKind::A2a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind_of(value: Value) -> PacketKind {
        classify(Ok(&value), None).kind
    }

    #[test]
    fn shapes() {
        assert_eq!(
            kind_of(json!({"protocol": "a2a", "event_type": "task.requested"})),
            PacketKind::RawA2a
        );
        assert_eq!(
            kind_of(json!({"protocol": "mcp", "event_type": "x"})),
            PacketKind::RawA2a
        );
        assert_eq!(
            kind_of(json!({"adapter_id": "assay-adapter-a2a"})),
            PacketKind::CanonicalPayload
        );
        assert_eq!(
            kind_of(json!({"upstream_event_type": "task.updated", "agent": {}})),
            PacketKind::CanonicalPayload
        );
        assert_eq!(
            kind_of(json!({"specversion": "1.0", "type": "assay.adapter.a2a.message", "data": {}})),
            PacketKind::EvidenceEvent
        );
        assert_eq!(
            kind_of(json!({"events": [], "lossiness": {}})),
            PacketKind::AdapterBatch
        );
        assert_eq!(
            kind_of(json!({"events": [{"specversion": "1.0"}]})),
            PacketKind::AdapterBatch
        );
        assert_eq!(
            classify(Err("expected value"), None).kind,
            PacketKind::NotJson
        );
        assert_eq!(
            classify(Ok(&json!({})), Some("goldens.json")).kind,
            PacketKind::GoldenManifest
        );
        assert_eq!(
            kind_of(json!({"format": "handoff-inspector goldens v1", "packets": {}})),
            PacketKind::GoldenManifest
        );
        for kind in PacketKind::ALL {
            assert_eq!(PacketKind::from_tag(kind.tag()), Some(kind));
        }
    }

    /// What the adapter is handed is the adapter's input unless another kind's own evidence
    /// is there: arrays, scalars, objects of no kind and objects with only some of another
    /// kind's members (a bundle's `events`, CloudEvents' `specversion`, a payload's counts)
    /// are all the adapter's input, and the reason says so.
    #[test]
    fn the_adapters_input_is_the_default_reading() {
        let raw = [
            json!([1]),
            json!([{"protocol": "a2a", "version": "0.2"}]),
            json!("a string"),
            json!(7),
            json!(null),
            json!({}),
            json!({"hello": 1}),
            json!({"protocol": "acp", "version": "0.2", "event_type": "task.requested"}),
            json!({"protocol": 5, "agent": {"id": "a"}}),
            // `agent` + `handoff` without `event_type`: members a raw packet can carry.
            json!({"protocol": "a2a", "version": "0.2", "agent": {"id": "a"}, "handoff": {"visible": true, "route_kind": "x"}}),
            json!({"agent": {"id": "a"}, "handoff": {}, "discovery": 1}),
            json!({"events": [], "protocol": "a2a"}),
            json!({"events": [1, 2]}),
            json!({"specversion": "1.0"}),
            json!({"unmapped_fields_count": 3, "version": "0.2"}),
        ];
        for value in raw {
            let classification = kind_and_reason(&value);
            assert_eq!(classification.kind, PacketKind::RawA2a, "{value}");
            assert!(
                classification.reason.contains("the adapter's input"),
                "{value}"
            );
        }
    }

    fn kind_and_reason(value: &Value) -> Classification {
        classify_as(Ok(Root::Tree(value)), None, None)
    }

    /// One verdict: a root that is not an object, classified from its type alone (as `ls`,
    /// `check` and the inspector read it, without a tree), gets what its tree would get.
    #[test]
    fn a_root_read_without_its_tree_is_classified_as_its_tree_would_be() {
        for text in ["[1,{\"a\":1}]", "[]", "\"s\"", "7", "null", "true"] {
            let value: Value = serde_json::from_str(text).unwrap();
            let reading = crate::json::read_root(text.as_bytes()).unwrap();
            assert!(reading.tree().is_none(), "{text}");
            for name in [None, Some("goldens.json"), Some("x.v03.jsonrpc.v10.json")] {
                for forced in [
                    None,
                    Some(PacketKind::EvidenceEvent),
                    Some(PacketKind::RawA2a),
                ] {
                    assert_eq!(
                        classify_as(Ok(Root::of(&reading)), name, forced),
                        classify_as(Ok(Root::Tree(&value)), name, forced),
                        "{text} {name:?} {forced:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn unknown_is_json_no_one_would_hand_the_adapter() {
        for value in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": []}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"balance": 3}}),
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}),
        ] {
            assert_eq!(kind_and_reason(&value).kind, PacketKind::Unknown, "{value}");
        }
        // An A2A JSON-RPC message is A2A, not unknown.
        let a2a = json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"kind": "message", "role": "user", "messageId": "m", "parts": []}}});
        assert!(kind_and_reason(&a2a).kind.is_a2a_object());
    }

    #[test]
    fn a_forced_reading_wins_except_over_bytes_that_are_not_json() {
        let raw = json!({"protocol": "a2a", "event_type": "task.requested"});
        let forced = classify_as(
            Ok(Root::Tree(&raw)),
            None,
            Some(PacketKind::CanonicalPayload),
        );
        assert_eq!(forced.kind, PacketKind::CanonicalPayload);
        assert!(forced.reason.contains("--as payload"), "{}", forced.reason);
        assert!(
            forced.reason.contains("raw: top-level `protocol`"),
            "{}",
            forced.reason
        );
        let same = classify_as(Ok(Root::Tree(&raw)), None, Some(PacketKind::RawA2a));
        assert_eq!(same, classify_as(Ok(Root::Tree(&raw)), None, None));
        let bytes = classify_as(Err("expected value"), None, Some(PacketKind::EvidenceEvent));
        assert_eq!(bytes.kind, PacketKind::NotJson);
    }

    #[test]
    fn indeterminate_a2a_objects_get_their_own_kind_unless_named_as_an_expected_output() {
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}});
        assert_eq!(kind_of(error.clone()), PacketKind::A2a);
        let named = |name: &str| classify(Ok(&error), Some(name)).kind;
        assert_eq!(named("error.v03.jsonrpc.json"), PacketKind::A2a);
        assert_eq!(named("error.v03.jsonrpc.v10.json"), PacketKind::A2aV10);
        assert_eq!(named("error.v10.v03.json"), PacketKind::A2aV03);
        let part = json!({"text": "hi", "metadata": {}});
        assert_eq!(kind_of(part.clone()), PacketKind::RawA2a);
        assert_eq!(
            classify(Ok(&part), Some("part-text.v03.jsonrpc.v10.json")).kind,
            PacketKind::A2aV10
        );
        assert_eq!(
            crate::migrate::hints::expected_output_version("task.v10.json"),
            None
        );
        assert_eq!(
            crate::migrate::hints::expected_output_version("task.v03.rest.json"),
            None
        );
    }

    #[test]
    fn a_packet_classified_from_its_typed_fields_is_classified_as_its_tree_is() {
        let mut packets: Vec<(Vec<u8>, Option<&str>)> = [
            &br#"{"protocol":"a2a","version":"0.2","event_type":"x","agent":{"id":"a"},"extra":1}"#
                [..],
            br#"{"protocol":"a2a","version":"0.2","adapter_id":"assay-adapter-a2a"}"#,
            br#"{"protocol":"a2a","version":"0.2","format":"handoff-inspector-goldens/1"}"#,
            br#"{"protocol":"a2a","version":"0.2","specversion":"1.0","data":{}}"#,
            br#"{"protocol":"a2a","version":"0.2","events":[]}"#,
            br#"{"protocol":"a2a","version":"0.2","payloadType":"t","payload":"p","signatures":[]}"#,
            // Refused for their version (C7, C6): classified from the keys handed back.
            br#"{"protocol":"a2a","version":"9.9","event_type":"x","extra":1}"#,
            br#"{"protocol":"a2a","event_type":"x","adapter_id":"assay-adapter-a2a"}"#,
            br#"{"protocol":"a2a","version":"v0.2","payloadType":"t","payload":"p","signatures":[]}"#,
        ]
        .iter()
        .map(|packet| (packet.to_vec(), None))
        .collect();
        for name in [
            GOLDEN_MANIFEST_NAME,
            crate::golden::PENDING_FILE_NAME,
            "bundle.tar.gz.dsse.json",
        ] {
            packets.push((packets[0].0.clone(), Some(name)));
            packets.push((packets[6].0.clone(), Some(name)));
        }
        packets.extend(
            crate::json::test_fixtures::a2a_fixture_texts()
                .into_iter()
                .map(|text| (text, None)),
        );
        let (mut by_fields, mut by_tree) = (0, 0);
        for (bytes, file_name) in packets {
            let conversion = crate::a2a::convert(&bytes, &crate::a2a::ConvertOptions::default());
            let Some(keys) = conversion.a2a_unmapped_keys() else {
                continue;
            };
            let tree: Value = serde_json::from_slice(&bytes).unwrap();
            match classify_converted(keys, file_name) {
                Some(read) => {
                    assert_eq!(read, classify(Ok(&tree), file_name), "{tree}");
                    by_fields += 1;
                }
                None => by_tree += 1,
            }
        }
        assert!(by_fields > 10 && by_tree >= 5, "{by_fields} {by_tree}");
        let refused = crate::a2a::convert(
            br#"{"protocol":"a2a","version":"9.9","extra":1}"#,
            &crate::a2a::ConvertOptions::default(),
        );
        assert_eq!(refused.error().map(|error| error.rule), Some("C7"));
        let keys = refused.a2a_unmapped_keys().expect("handed back with C7");
        assert_eq!(keys.iter().collect::<Vec<_>>(), ["extra"]);
        assert!(classify_converted(keys, None).is_some());
    }
}
