//! The two documents of a bundle as upstream's verifier deserializes them (spec §2, §3):
//! required fields and JSON types exactly as upstream's serde types require them; unknown
//! fields ignored.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// `manifest.json`. Only `files["events.ndjson"]` of `files` is used.
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub schema_version: u32,
    pub bundle_id: String,
    pub producer: Producer,
    pub run_id: String,
    /// `usize` upstream: serde's messages name the type (`expected usize`).
    pub event_count: usize,
    pub run_root: String,
    pub algorithms: Algorithms,
    pub files: BTreeMap<String, FileMeta>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Producer {
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub git: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Algorithms {
    pub canon: String,
    pub hash: String,
    pub root: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FileMeta {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
}

/// One line of `events.ndjson` (CloudEvents 1.0 envelope + flat `assay*` extensions).
#[derive(Debug, Clone, Deserialize)]
pub struct EvidenceEvent {
    pub specversion: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub source: String,
    pub id: String,
    /// RFC 3339 as chrono parses it (upstream's `DateTime<Utc>`), kept as written.
    #[serde(deserialize_with = "rfc3339_time")]
    pub time: String,
    pub datacontenttype: String,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(default)]
    pub traceparent: Option<String>,
    #[serde(default)]
    pub tracestate: Option<String>,
    #[serde(rename = "assayrunid")]
    pub run_id: String,
    #[serde(rename = "assayseq")]
    pub seq: u64,
    #[serde(rename = "assayproducer")]
    pub producer: String,
    #[serde(rename = "assayproducerversion")]
    pub producer_version: String,
    #[serde(rename = "assaygit")]
    pub git: String,
    #[serde(rename = "assaypolicyid", default)]
    pub policy_id: Option<String>,
    #[serde(rename = "assaypii")]
    pub pii: bool,
    #[serde(rename = "assaysecrets")]
    pub secrets: bool,
    #[serde(rename = "assaycontenthash", default)]
    pub content_hash: Option<String>,
    #[serde(rename = "assaysemanticdigest", default)]
    pub semantic_digest: Option<String>,
    #[serde(rename = "assaydigestprofile", default)]
    pub digest_profile: Option<String>,
    pub data: Value,
}

/// A2A adapter events: `type` under this prefix.
pub const A2A_TYPE_PREFIX: &str = "assay.adapter.a2a.";

/// Deserializes one event line (already UTF-8 and strictly checked); the error text is
/// serde's, as upstream reports it (with line and column, also for a `time` that does not
/// parse).
pub fn parse_event(line: &str) -> Result<EvidenceEvent, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

/// `time` as upstream's `DateTime<Utc>` field reads it: chrono's visitor (its `expecting`
/// text, its relaxed RFC 3339 parse: `T`, `t` or a space, an offset required), whose error
/// serde words with the position, inside the field loop (so a bad `time` is reported before a
/// member missing later).
fn rfc3339_time<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    struct Rfc3339;
    impl serde::de::Visitor<'_> for Rfc3339 {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an RFC 3339 formatted date and time string")
        }
        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<String, E> {
            value
                .parse::<chrono::DateTime<chrono::FixedOffset>>()
                .map_err(E::custom)?;
            Ok(value.to_owned())
        }
    }
    deserializer.deserialize_str(Rfc3339)
}

pub fn parse_manifest(text: &str) -> Result<Manifest, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// What the reviewer counts per event line, from a parsed JSON object: whether it is an A2A
/// event, and the members of its `data` that are JSON `true` (see `DataFlags`).
pub(crate) fn a2a_and_flags(type_: Option<&str>, data: Option<&Value>) -> (bool, DataFlags) {
    let a2a = type_.is_some_and(|t| t.starts_with(A2A_TYPE_PREFIX));
    (a2a, DataFlags::of_value(data))
}

/// The members of an event's `data` that the reviewer counts (`handoff.visible`) and that
/// upstream's A2A lint packs read (`discovery.agent_card_visible`,
/// `discovery.extended_card_access_visible`): each is set only when it is JSON `true` (the
/// string `"true"` does not count). The verifier reads them during its own scan of the line,
/// so that nothing has to parse the line again for them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataFlags {
    pub handoff_visible: bool,
    pub agent_card_visible: bool,
    pub extended_card_access_visible: bool,
}

impl DataFlags {
    /// From `data` as `serde_json` parsed it (the slow and the lenient routes).
    pub fn of_value(data: Option<&Value>) -> DataFlags {
        let is_true =
            |pointer: &str| data.and_then(|d| d.pointer(pointer)) == Some(&Value::Bool(true));
        DataFlags {
            handoff_visible: is_true("/handoff/visible"),
            agent_card_visible: is_true("/discovery/agent_card_visible"),
            extended_card_access_visible: is_true("/discovery/extended_card_access_visible"),
        }
    }

    /// Sets the flag that `name` (a member of `parent`, itself a member of `data`) stands for.
    pub fn set(&mut self, parent: DataMember, name: &str) {
        match (parent, name) {
            (DataMember::Handoff, "visible") => self.handoff_visible = true,
            (DataMember::Discovery, "agent_card_visible") => self.agent_card_visible = true,
            (DataMember::Discovery, "extended_card_access_visible") => {
                self.extended_card_access_visible = true
            }
            _ => {}
        }
    }

    pub fn union(self, other: DataFlags) -> DataFlags {
        DataFlags {
            handoff_visible: self.handoff_visible || other.handoff_visible,
            agent_card_visible: self.agent_card_visible || other.agent_card_visible,
            extended_card_access_visible: self.extended_card_access_visible
                || other.extended_card_access_visible,
        }
    }
}

/// The members of `data` whose own members `DataFlags` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataMember {
    Handoff,
    Discovery,
}

impl DataMember {
    pub fn named(name: &str) -> Option<DataMember> {
        match name {
            "handoff" => Some(DataMember::Handoff),
            "discovery" => Some(DataMember::Discovery),
            _ => None,
        }
    }

    pub const ALL: [(DataMember, &'static str); 2] = [
        (DataMember::Handoff, "handoff"),
        (DataMember::Discovery, "discovery"),
    ];

    /// The flag names this member holds.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            DataMember::Handoff => &["visible"],
            DataMember::Discovery => &["agent_card_visible", "extended_card_access_visible"],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"assaycontenthash":"sha256:00","assaygit":"unknown","assaypii":false,"assayproducer":"assay","assayproducerversion":"5.4.0","assayrunid":"r","assaysecrets":false,"assayseq":0,"data":{},"datacontenttype":"application/json","id":"r:0","source":"urn:x","specversion":"1.0","time":"TIME","type":"assay.test"}"#;

    #[test]
    fn time_is_chronos_relaxed_rfc3339() {
        for ok in [
            "2026-02-27T10:05:00Z",
            "2026-02-27 12:05:00.5+02:00",
            "2026-02-27t10:05:00+0200",
        ] {
            assert!(parse_event(&LINE.replace("TIME", ok)).is_ok(), "{ok}");
        }
        // serde's message with its position, nothing naming the value (spec §7).
        for (bad, message) in [
            (
                "2026-02-27T10:05:00",
                "premature end of input at line 1 column 299",
            ),
            (
                "yesterday",
                "input contains invalid characters at line 1 column 289",
            ),
        ] {
            assert_eq!(
                parse_event(&LINE.replace("TIME", bad)).unwrap_err(),
                message,
                "{bad}"
            );
        }
        let number = LINE.replace("\"TIME\"", "5");
        assert_eq!(
            parse_event(&number).unwrap_err(),
            "invalid type: integer `5`, expected an RFC 3339 formatted date and time string at line 1 column 279"
        );
    }

    #[test]
    fn types_are_upstreams() {
        assert!(parse_event(&LINE.replace("TIME", "2026-02-27T10:05:00Z"))
            .unwrap()
            .subject
            .is_none());
        let seq_float = LINE
            .replace("TIME", "2026-02-27T10:05:00Z")
            .replace("\"assayseq\":0", "\"assayseq\":0.0");
        assert!(parse_event(&seq_float).is_err());
        let no_data = LINE
            .replace("TIME", "2026-02-27T10:05:00Z")
            .replace("\"data\":{},", "");
        assert!(parse_event(&no_data)
            .unwrap_err()
            .contains("missing field `data`"));
        let null_subject = LINE
            .replace("TIME", "2026-02-27T10:05:00Z")
            .replace("\"data\":{}", "\"data\":{},\"subject\":null");
        assert!(parse_event(&null_subject).unwrap().subject.is_none());
    }
}
