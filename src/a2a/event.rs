//! The canonical event types and the CloudEvents envelope fields (spec section 6).

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

/// Used when `timestamp` is absent or not RFC 3339 (Unix 1700100000).
pub const DEFAULT_EVENT_TIME: &str = "2023-11-16T02:00:00Z";
pub(crate) const EVENT_SOURCE: &str = "urn:assay:adapter:a2a";
pub(crate) const MEDIA_TYPE: &str = "application/json";

enum_with_all! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    pub enum CanonicalType {
        #[serde(rename = "assay.adapter.a2a.agent.capabilities")]
        AgentCapabilities,
        #[serde(rename = "assay.adapter.a2a.task.requested")]
        TaskRequested,
        #[serde(rename = "assay.adapter.a2a.task.updated")]
        TaskUpdated,
        #[serde(rename = "assay.adapter.a2a.artifact.shared")]
        ArtifactShared,
        /// The generic fallback for unmapped event types (lenient mode only).
        #[serde(rename = "assay.adapter.a2a.message")]
        Message,
    }
}

impl CanonicalType {
    pub fn name(self) -> &'static str {
        match self {
            CanonicalType::AgentCapabilities => "assay.adapter.a2a.agent.capabilities",
            CanonicalType::TaskRequested => "assay.adapter.a2a.task.requested",
            CanonicalType::TaskUpdated => "assay.adapter.a2a.task.updated",
            CanonicalType::ArtifactShared => "assay.adapter.a2a.artifact.shared",
            CanonicalType::Message => "assay.adapter.a2a.message",
        }
    }

    /// The part after `assay.adapter.a2a.`, for compact display.
    pub fn short_name(self) -> &'static str {
        &self.name()["assay.adapter.a2a.".len()..]
    }

    pub fn parse(name: &str) -> Option<CanonicalType> {
        CanonicalType::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
    }

    pub fn is_task_event(self) -> bool {
        matches!(
            self,
            CanonicalType::TaskRequested | CanonicalType::TaskUpdated
        )
    }
}

/// Maps an upstream `event_type`; `None` means unmapped.
pub fn canonical_type_for(event_type: Option<&str>) -> Option<CanonicalType> {
    match event_type? {
        "agent.capabilities" => Some(CanonicalType::AgentCapabilities),
        "task.requested" => Some(CanonicalType::TaskRequested),
        "task.updated" => Some(CanonicalType::TaskUpdated),
        "artifact.shared" => Some(CanonicalType::ArtifactShared),
        _ => None,
    }
}

/// The event `time`: the packet timestamp as RFC 3339 in UTC (`Z`, fractional seconds only
/// when present, as chrono's `AutoSi`), or the fixed default.
pub(crate) fn event_time(timestamp: Option<&str>) -> String {
    timestamp
        .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
        .map(|time| {
            time.with_timezone(&Utc)
                .to_rfc3339_opts(SecondsFormat::AutoSi, true)
        })
        .unwrap_or_else(|| DEFAULT_EVENT_TIME.to_owned())
}

/// The producer members every upstream `EvidenceEvent` serializes (spec section 6). They
/// describe the producing build, so they are in the event and batch (and their digests) but
/// never in the payload, handoff or discovery digests. Upstream's producer version is the
/// same workspace version as `adapter_version`; the adapter never sets a content hash.
pub(crate) fn insert_producer_envelope(
    event: &mut serde_json::Map<String, serde_json::Value>,
    version: &str,
) {
    use serde_json::Value;
    event.insert("assayproducer".into(), Value::String("assay".into()));
    event.insert(
        "assayproducerversion".into(),
        Value::String(version.to_owned()),
    );
    event.insert("assaygit".into(), Value::String("unknown".into()));
    event.insert("assaypii".into(), Value::Bool(false));
    event.insert("assaysecrets".into(), Value::Bool(false));
    event.insert("assaycontenthash".into(), Value::Null);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_convert_to_utc_or_fall_back() {
        assert_eq!(
            event_time(Some("2026-02-27T11:05:00+01:00")),
            "2026-02-27T10:05:00Z"
        );
        assert_eq!(
            event_time(Some("2026-02-27T10:05:00Z")),
            "2026-02-27T10:05:00Z"
        );
        assert_eq!(
            event_time(Some("2026-02-27T10:05:00.250Z")),
            "2026-02-27T10:05:00.250Z"
        );
        assert_eq!(event_time(Some("2026-02-27")), DEFAULT_EVENT_TIME);
        assert_eq!(event_time(Some("yesterday")), DEFAULT_EVENT_TIME);
        assert_eq!(event_time(None), DEFAULT_EVENT_TIME);
    }

    #[test]
    fn event_type_mapping() {
        assert_eq!(
            canonical_type_for(Some("task.requested")),
            Some(CanonicalType::TaskRequested)
        );
        assert_eq!(canonical_type_for(Some("session.unknown")), None);
        assert_eq!(canonical_type_for(Some("Task.Requested")), None);
        assert_eq!(canonical_type_for(None), None);
        for kind in CanonicalType::ALL {
            assert_eq!(CanonicalType::parse(kind.name()), Some(kind));
        }
    }
}
