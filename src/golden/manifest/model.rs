//! What the manifest records: per packet, per mode, the expected outcome; the manifest itself.

use super::options::RecordedOptions;
use super::PacketKey;
use crate::a2a::{ConvertOptions, ErrorKind, Mode};
use crate::freeze::{HandoffState, RowSet};
use crate::golden::content::Contents;
use crate::golden::object::ObjectGolden;
use crate::json::Digest;
use std::collections::BTreeMap;

/// The value of the manifest's `format` field, as this tool writes it. v2 added each golden's
/// recorded content (`content`); v1 manifests (digests only) are still read.
pub const MANIFEST_FORMAT: &str = "handoff-inspector goldens v2";

/// Every `format` this tool reads, newest first.
pub const MANIFEST_FORMATS: [&str; 2] = [MANIFEST_FORMAT, "handoff-inspector goldens v1"];

/// What one mode of one packet is expected to give. Every field is optional so that a
/// manifest written by `derive` (rows and state, no digests yet) is legal; `check` compares
/// the fields that are present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModeGolden {
    pub error: Option<ErrorKind>,
    /// The conversion-table row that rejected the packet (e.g. `S3`).
    pub rule: Option<String>,
    pub rows: Option<RowSet>,
    pub state: Option<HandoffState>,
    pub handoff: Option<Digest>,
    pub discovery: Option<Digest>,
    pub payload: Option<Digest>,
}

impl ModeGolden {
    pub fn is_empty(&self) -> bool {
        *self == ModeGolden::default()
    }

    /// Every field by name with its value as written in the manifest (`None` when absent),
    /// in manifest order: what `check` compares and `bless` reports, one field at a time.
    pub fn fields(&self) -> [(&'static str, Option<String>); 7] {
        let rows = self
            .rows
            .map(|rows| rows.ids().collect::<Vec<_>>().join(" "));
        [
            ("error", self.error.map(|kind| kind.name().to_owned())),
            ("rule", self.rule.clone()),
            ("rows", rows),
            ("state", self.state.map(|state| state.key().to_owned())),
            ("handoff", self.handoff.map(|digest| digest.to_hex())),
            ("discovery", self.discovery.map(|digest| digest.to_hex())),
            ("payload", self.payload.map(|digest| digest.to_hex())),
        ]
    }

    /// One line for people: `error measurement (S3)` or `task_ref_only [P TR] payload 1a2b3c4d`.
    pub fn describe(&self) -> String {
        if let Some(error) = self.error {
            return match &self.rule {
                Some(rule) => format!("error {} ({rule})", error.name()),
                None => format!("error {}", error.name()),
            };
        }
        let mut parts = Vec::new();
        if let Some(state) = self.state {
            parts.push(state.key().to_owned());
        }
        if let Some(rows) = self.rows {
            parts.push(format!("[{}]", rows.ids().collect::<Vec<_>>().join(" ")));
        }
        if let Some(payload) = self.payload {
            parts.push(format!("payload {}", payload.short(12)));
        }
        if parts.is_empty() {
            "nothing recorded".to_owned()
        } else {
            parts.join(" ")
        }
    }
}

/// A manifest field's value for people: a digest by its first 12 hex digits, anything else
/// terminal-safe and whole.
pub fn shown_value(value: &str) -> String {
    match Digest::from_hex(value) {
        Some(digest) => digest.short(12),
        None => crate::json::safe_text(value).into_owned(),
    }
}

/// Everything recorded for one packet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoldenEntry {
    /// Duplicate-key paths a reviewer has acknowledged (a fixture may repeat a key on
    /// purpose); `check` reports duplicates only when they differ from these.
    pub duplicate_keys: Vec<String>,
    /// Strict first.
    pub modes: [Option<ModeGolden>; 2],
    /// For kinds that are not converted: what `check` concluded (see `golden::object`).
    /// Boxed: most entries have none, and a manifest holds one entry per packet.
    pub object: Option<Box<ObjectGolden>>,
    /// The JSON the digests cover, where recorded (format v2): what drift is shown against.
    pub content: Contents,
}

impl GoldenEntry {
    pub fn mode(&self, mode: Mode) -> Option<&ModeGolden> {
        self.modes[mode.index()].as_ref()
    }

    pub fn set_mode(&mut self, mode: Mode, golden: Option<ModeGolden>) {
        self.modes[mode.index()] = golden;
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenManifest {
    pub options: RecordedOptions,
    pub packets: BTreeMap<PacketKey, GoldenEntry>,
}

impl GoldenManifest {
    pub fn new(options: &ConvertOptions) -> GoldenManifest {
        GoldenManifest {
            options: RecordedOptions::of(options),
            packets: BTreeMap::new(),
        }
    }

    pub fn entry(&self, key: &PacketKey) -> Option<&GoldenEntry> {
        self.packets.get(key)
    }
}

#[cfg(test)]
impl GoldenEntry {
    /// A small entry for tests of the manifest's readers: a strict-mode rejection under `rule`
    /// with one repeated key (index and spool tests share it).
    pub(crate) fn sample_rejected(rule: &str) -> Self {
        GoldenEntry {
            duplicate_keys: vec!["$.a".to_owned()],
            modes: [
                Some(ModeGolden {
                    error: Some(crate::a2a::ErrorKind::Measurement),
                    rule: Some(rule.to_owned()),
                    ..ModeGolden::default()
                }),
                None,
            ],
            object: None,
            content: Default::default(),
        }
    }
}
