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
    MasterSub,
    ContextCore,
    Uaix,
    GoldenManifest,
    NotJson,
    Unknown,
}

impl PacketKind {
    pub const ALL: [PacketKind; 12] = [
        PacketKind::RawA2a,
        PacketKind::CanonicalPayload,
        PacketKind::EvidenceEvent,
        PacketKind::AdapterBatch,
        PacketKind::A2aV03,
        PacketKind::A2aV10,
        PacketKind::MasterSub,
        PacketKind::ContextCore,
        PacketKind::Uaix,
        PacketKind::GoldenManifest,
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
            PacketKind::MasterSub => "master/sub handoff record",
            PacketKind::ContextCore => "ContextCore handoff",
            PacketKind::Uaix => "UAIX handoff envelope",
            PacketKind::GoldenManifest => "golden manifest",
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
            PacketKind::MasterSub => "ahc",
            PacketKind::ContextCore => "contextcore",
            PacketKind::Uaix => "uaix",
            PacketKind::GoldenManifest => "golden",
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
    if let Some(classification) = other_formats(value) {
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
fn other_formats(value: &Value) -> Option<Classification> {
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
    let detection = crate::migrate::detect(value)?;
    let kind = match detection.version {
        Version::V0_3 => PacketKind::A2aV03,
        // Indeterminate objects read the same in both versions: nothing to migrate.
        Version::V1_0 | Version::V1_0Rc | Version::Indeterminate => PacketKind::A2aV10,
    };
    Some(Classification::new(
        kind,
        format!("{}: {}", detection.summary(), detection.reasons.join("; ")),
    ))
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
}
