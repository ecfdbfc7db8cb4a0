//! What a check takes besides the packet (options, its golden entry) and what it gives: the
//! packet's status with findings, per mode, and what a bless records from it.

use crate::a2a::Mode;
use crate::bundle::BundleReport;
use crate::corpus::evaluate::converted_kind;
use crate::corpus::status::{CheckFinding, Status};
use crate::corpus::{EvaluateOptions, ModeResult, ModeSummary, PacketSummary};
use crate::golden::{Contents, GoldenEntry, ModeGolden, ObjectGolden};
use crate::input::WalkOptions;
use serde::Serialize;

/// What `check` needs besides the packet.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub evaluate: EvaluateOptions,
    /// Cap for reading paired expected payloads (as for packets).
    pub max_file_bytes: u64,
    /// How the PATHs are walked (`--no-ignore`, `--follow-outside`).
    pub walk: WalkOptions,
    /// Keep the JSON each golden digest covers in `PacketCheck::content` (what `bless`
    /// records); off for `check` and the inspector, which keep digests only.
    pub record_content: bool,
    /// The keys the reader trusts for bundles' attestations (`--key`, `HANDOFF_TRUSTED_KEYS`);
    /// none: attestations are not looked at.
    pub trusted_keys: std::sync::Arc<[crate::bundle::attest::TrustedKey]>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            evaluate: EvaluateOptions::default(),
            max_file_bytes: crate::corpus::DEFAULT_MAX_FILE_BYTES,
            walk: WalkOptions::default(),
            record_content: false,
            trusted_keys: std::sync::Arc::new([]),
        }
    }
}

/// The packet's golden entry, or why there is none.
#[derive(Clone, Copy, Debug)]
pub enum GoldenLookup<'a> {
    Entry(&'a GoldenEntry),
    /// No entry; the reason names the manifest (`no goldens.json in DIR`, ...).
    Missing(&'a str),
}

/// How a mode's conversion compared with its golden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldenVerdict {
    /// Every recorded field matched.
    Matches,
    /// Some recorded field differs.
    Differs,
    /// Nothing recorded for this mode.
    Missing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeCheck {
    pub mode: Mode,
    pub status: Status,
    pub golden: GoldenVerdict,
}

/// A packet's summary with its check verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct PacketCheck {
    pub summary: PacketSummary,
    pub status: Status,
    /// One per evaluated mode of a converted packet, strict first.
    pub modes: [Option<ModeCheck>; 2],
    pub findings: Vec<CheckFinding>,
    /// Paths of repeated keys in the packet (what a bless acknowledges).
    pub duplicate_key_paths: crate::corpus::PathList,
    /// For kinds that are not converted: what this check concluded, in the manifest's terms.
    pub object: Option<Box<ObjectGolden>>,
    /// Findings the manifest records as expected (an intentional negative whose object
    /// golden matches): reported as recorded, never counted against the packet.
    pub recorded_findings: Vec<CheckFinding>,
    /// An evidence bundle's own packet: its verification report (verdict, counts, lint).
    pub bundle: Option<std::sync::Arc<BundleReport>>,
    /// With `CheckOptions::record_content`, for a packet that is a file: the JSON its golden
    /// digests cover (converted payloads, or the object), for the golden to record.
    pub content: Option<Box<Contents>>,
}

impl PacketCheck {
    pub fn mode(&self, mode: Mode) -> Option<&ModeCheck> {
        self.modes[mode.index()].as_ref()
    }

    /// Whether a bless records a golden for this packet (`recorded` is `Some`), without
    /// building the entry.
    pub fn records_golden(&self) -> bool {
        self.object.is_some() || converted_kind(self.summary.kind)
    }

    /// What a bless records for this packet: `None` for kinds with nothing to record
    /// (unknown shapes, golden manifests).
    pub fn recorded(&self) -> Option<GoldenEntry> {
        if let Some(object) = &self.object {
            return Some(GoldenEntry {
                duplicate_keys: self.duplicate_key_paths.to_vec(),
                modes: [None, None],
                object: Some(object.clone()),
                content: Contents {
                    modes: [None, None],
                    object: self
                        .content
                        .as_ref()
                        .and_then(|content| content.object.clone()),
                },
            });
        }
        if !converted_kind(self.summary.kind) {
            return None;
        }
        let mut entry = GoldenEntry {
            duplicate_keys: self.duplicate_key_paths.to_vec(),
            modes: [None, None],
            object: None,
            content: Contents {
                modes: self
                    .content
                    .as_ref()
                    .map(|content| content.modes.clone())
                    .unwrap_or_default(),
                object: None,
            },
        };
        for mode_summary in self.summary.evaluated_modes() {
            entry.set_mode(mode_summary.mode, Some(recorded_mode(mode_summary)));
        }
        Some(entry)
    }
}

/// A mode's outcome in the manifest's terms.
pub fn recorded_mode(summary: &ModeSummary) -> ModeGolden {
    match summary.result {
        ModeResult::Converted { state, digests, .. } => ModeGolden {
            rows: Some(summary.rows),
            state,
            handoff: Some(digests.handoff),
            discovery: Some(digests.discovery),
            payload: Some(digests.payload),
            ..ModeGolden::default()
        },
        ModeResult::Rejected { kind, rule } => ModeGolden {
            error: Some(kind),
            rule: Some(rule.to_owned()),
            rows: Some(summary.rows),
            ..ModeGolden::default()
        },
    }
}
