//! Classifying a packet by shape, with the reason, so that every face can say what it thinks
//! a file is before it says anything about it.

use crate::freeze::{detect_canonical, CanonicalShape};
use crate::migrate::Version;
use crate::profiles::ProfileKind;
use serde::Serialize;
use serde_json::Value;

/// The file name of a directory's golden manifest.
pub const GOLDEN_MANIFEST_NAME: &str = crate::golden::MANIFEST_FILE_NAME;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PacketKind {
    RawA2a,
    CanonicalPayload,
    EvidenceEvent,
    AdapterBatch,
    A2aV03,
    A2aV10,
    /// An A2A protocol object that reads the same in v0.3 and v1.0 (nothing tells them apart).
    A2a,
    MasterSub,
    ContextCore,
    Uaix,
    GoldenManifest,
    /// An assay evidence bundle (`.tar.gz`) as a whole; its events are packets of their own
    /// (`EvidenceEvent`, named `BUNDLE:SEQ`).
    Bundle,
    NotJson,
    Unknown,
}

impl PacketKind {
    pub const ALL: [PacketKind; 14] = [
        PacketKind::RawA2a,
        PacketKind::CanonicalPayload,
        PacketKind::EvidenceEvent,
        PacketKind::AdapterBatch,
        PacketKind::A2aV03,
        PacketKind::A2aV10,
        PacketKind::A2a,
        PacketKind::MasterSub,
        PacketKind::ContextCore,
        PacketKind::Uaix,
        PacketKind::GoldenManifest,
        PacketKind::Bundle,
        PacketKind::NotJson,
        PacketKind::Unknown,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PacketKind::RawA2a => "raw A2A adapter packet",
            PacketKind::CanonicalPayload => "canonical payload",
            PacketKind::EvidenceEvent => "evidence event",
            PacketKind::AdapterBatch => "adapter batch",
            PacketKind::A2aV03 => "A2A v0.3 object",
            PacketKind::A2aV10 => "A2A v1.0 object",
            PacketKind::A2a => "A2A object (version indeterminate)",
            PacketKind::MasterSub => "master/sub handoff record",
            PacketKind::ContextCore => "ContextCore handoff",
            PacketKind::Uaix => "UAIX handoff envelope",
            PacketKind::GoldenManifest => "golden manifest",
            PacketKind::Bundle => "evidence bundle",
            PacketKind::NotJson => "not JSON",
            PacketKind::Unknown => "unknown",
        }
    }

    /// A short tag for lists and filters.
    pub fn tag(self) -> &'static str {
        match self {
            PacketKind::RawA2a => "raw",
            PacketKind::CanonicalPayload => "payload",
            PacketKind::EvidenceEvent => "event",
            PacketKind::AdapterBatch => "batch",
            PacketKind::A2aV03 => "a2a-0.3",
            PacketKind::A2aV10 => "a2a-1.0",
            PacketKind::A2a => "a2a",
            PacketKind::MasterSub => "ahc",
            PacketKind::ContextCore => "contextcore",
            PacketKind::Uaix => "uaix",
            PacketKind::GoldenManifest => "golden",
            PacketKind::Bundle => "bundle",
            PacketKind::NotJson => "not-json",
            PacketKind::Unknown => "unknown",
        }
    }

    pub fn from_tag(tag: &str) -> Option<PacketKind> {
        PacketKind::ALL.into_iter().find(|kind| kind.tag() == tag)
    }

    /// Packets evaluated by one of the other handoff profiles.
    pub fn is_profile(self) -> bool {
        matches!(
            self,
            PacketKind::MasterSub | PacketKind::ContextCore | PacketKind::Uaix
        )
    }

    /// A2A protocol objects of either version, or of a version that cannot be told.
    pub fn is_a2a_object(self) -> bool {
        matches!(
            self,
            PacketKind::A2aV03 | PacketKind::A2aV10 | PacketKind::A2a
        )
    }

    pub fn canonical_shape(self) -> Option<CanonicalShape> {
        match self {
            PacketKind::CanonicalPayload => Some(CanonicalShape::Payload),
            PacketKind::EvidenceEvent => Some(CanonicalShape::Event),
            PacketKind::AdapterBatch => Some(CanonicalShape::Batch),
            _ => None,
        }
    }
}

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

/// Classifies a packet from its parse (`Err` holds the parser's message) and file name.
pub fn classify(parsed: Result<&Value, &str>, file_name: Option<&str>) -> Classification {
    let value = match parsed {
        Ok(value) => value,
        Err(message) => {
            return Classification::new(PacketKind::NotJson, format!("not JSON: {message}"))
        }
    };
    if file_name == Some(GOLDEN_MANIFEST_NAME) {
        return Classification::new(
            PacketKind::GoldenManifest,
            format!("file named {GOLDEN_MANIFEST_NAME}"),
        );
    }
    let Some(object) = value.as_object() else {
        return Classification::new(
            PacketKind::Unknown,
            format!(
                "the JSON root is {}, not an object",
                crate::json::type_with_article(value)
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
        return Classification::new(PacketKind::RawA2a, "top-level `protocol` is \"a2a\"");
    }
    if let Some(classification) = other_formats(value, file_name) {
        return classification;
    }
    if object.contains_key("event_type") {
        return Classification::new(
            PacketKind::RawA2a,
            "top-level `event_type` (adapter packet shape)",
        );
    }
    let mut keys: Vec<&str> = object.keys().map(String::as_str).take(6).collect();
    if object.len() > 6 {
        keys.push("...");
    }
    Classification::new(
        PacketKind::Unknown,
        format!(
            "a JSON object with none of the recognised shapes (keys: {})",
            crate::json::safe_text(&keys.join(", "))
        ),
    )
}

/// The other formats, recognised by their own detectors: master/sub, ContextCore and UAIX
/// handoffs, then A2A protocol objects. They run after canonical adapter output and
/// `protocol: "a2a"` packets are recognised and before the weaker `event_type` guess.
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
    let named = file_name.and_then(expected_output_version);
    let Some(detection) = crate::migrate::detect(value) else {
        // A bare Part (`text` or `data`, with `metadata`) is too common to claim as A2A, except
        // where the file's name says it is a migration's expected output.
        let (version, tag) = named?;
        return bare_part(value).then(|| {
            Classification::new(
                kind_of_version(version),
                format!(
                    "a bare Part (`text` or `data`, no `kind`), the expected {tag} output of a \
                     migration by its file name"
                ),
            )
        });
    };
    let reason = format!("{}: {}", detection.summary(), detection.reasons.join("; "));
    let kind = match (detection.version, named) {
        (Version::Indeterminate, Some((version, tag))) => {
            return Some(Classification::new(
                kind_of_version(version),
                format!(
                    "{reason}; the file name marks it as the expected {tag} output of a migration"
                ),
            ))
        }
        (Version::Indeterminate, None) => PacketKind::A2a,
        (version, _) => kind_of_version(version),
    };
    Some(Classification::new(kind, reason))
}

fn kind_of_version(version: Version) -> PacketKind {
    match version {
        Version::V0_3 => PacketKind::A2aV03,
        Version::V1_0 | Version::V1_0Rc => PacketKind::A2aV10,
        Version::Indeterminate => PacketKind::A2a,
    }
}

/// The version a migration's expected output is in, from its name: `NAME.v03[.DIALECT].v10.json`
/// is the v1.0 output of `NAME.v03[.DIALECT].json`, `NAME.v10.v03.json` the v0.3 output of
/// `NAME.v10.json` (the fixtures' naming, see fixtures/migrate/README.md).
pub fn expected_output_version(file_name: &str) -> Option<(Version, &'static str)> {
    let stem = file_name.strip_suffix(".json")?;
    if let Some(input) = stem.strip_suffix(".v10") {
        let from_v03 = [".v03", ".v03.jsonrpc", ".v03.rest"]
            .iter()
            .any(|suffix| input.ends_with(suffix));
        return from_v03.then_some((Version::V1_0, "v1.0"));
    }
    let input = stem.strip_suffix(".v03")?;
    input.ends_with(".v10").then_some((Version::V0_3, "v0.3"))
}

fn bare_part(value: &Value) -> bool {
    value.as_object().is_some_and(|object| {
        !object.is_empty()
            && (object.contains_key("text") || object.contains_key("data"))
            && object
                .keys()
                .all(|key| matches!(key.as_str(), "text" | "data" | "metadata"))
    })
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
            kind_of(json!({"specversion": "1.0", "type": "assay.adapter.a2a.message", "data": {}})),
            PacketKind::EvidenceEvent
        );
        assert_eq!(kind_of(json!({"events": []})), PacketKind::AdapterBatch);
        assert_eq!(kind_of(json!([1])), PacketKind::Unknown);
        assert_eq!(kind_of(json!({"hello": 1})), PacketKind::Unknown);
        assert_eq!(
            classify(Err("expected value"), None).kind,
            PacketKind::NotJson
        );
        assert_eq!(
            classify(Ok(&json!({})), Some("goldens.json")).kind,
            PacketKind::GoldenManifest
        );
        for kind in PacketKind::ALL {
            assert_eq!(PacketKind::from_tag(kind.tag()), Some(kind));
        }
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
        assert_eq!(kind_of(part.clone()), PacketKind::Unknown);
        assert_eq!(
            classify(Ok(&part), Some("part-text.v03.jsonrpc.v10.json")).kind,
            PacketKind::A2aV10
        );
        assert_eq!(expected_output_version("task.v10.json"), None);
        assert_eq!(expected_output_version("task.v03.rest.json"), None);
    }
}
