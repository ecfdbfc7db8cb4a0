//! What evaluating one packet against its profile returns: every row's outcome, findings,
//! the quirks that shaped a verdict, and the profile-specific views (ContextCore state and
//! OTel mapping, UAIX clock and integrity) plus the packet's A2A-seam roles.

use super::contextcore::mapping::{OtelAttribute, StateMapping};
use super::crosswalk::SeamValue;
use super::quirk::Quirk;
use super::{ProfileDetection, ProfileKind};
use crate::json::{for_each_duplicate_key, JsonPath};
use crate::rules::{Finding, RuleOutcome, Severity, Verdict};
use serde::Serialize;
use std::path::Path;

/// A quirk that shaped a verdict on this packet.
#[derive(Clone, Debug, Serialize)]
pub struct QuirkNote {
    pub quirk: &'static str,
    pub title: &'static str,
    pub path: JsonPath,
    pub detail: String,
}

/// ContextCore-only parts of a report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ContextCoreView {
    /// The packet's status against the ContextCore -> A2A state table.
    pub state: Option<StateMapping>,
    /// The OTel GenAI (and legacy) span attributes this packet maps to.
    pub otel: Vec<OtelAttribute>,
    /// CC-CONTRACT only: the error envelopes ContextCore's boundary would produce.
    pub schema_errors: Vec<SchemaError>,
}

/// One ContextCore validation error envelope (`error_code`, `failed_path`, ...).
#[derive(Clone, Debug, Serialize)]
pub struct SchemaError {
    pub rule: &'static str,
    pub error_code: &'static str,
    /// JSON pointer as ContextCore reports it (the parent object for a missing key).
    pub failed_path: String,
    pub message: String,
    /// The corrective action ContextCore's `_next_action_for` gives the code.
    pub next_action: String,
    /// The members the error is about (the missing or unknown key itself, not its parent).
    #[serde(skip)]
    pub paths: Vec<JsonPath>,
}

/// `rule error_code failed_path 'path': message`, as `profile` lists the envelopes (the
/// path and message terminal-safe).
impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} failed_path '{}': {}",
            self.rule,
            self.error_code,
            crate::json::safe_text(&self.failed_path),
            crate::json::safe_text(&self.message)
        )
    }
}

impl std::error::Error for SchemaError {}

/// How the UAIX checksum was checked.
#[derive(Clone, Debug, Serialize)]
pub struct IntegrityCheck {
    pub verdict: Verdict,
    /// The checksum as written (shortened).
    pub declared: Option<String>,
    /// Each preimage tried, with the digest computed under it.
    pub attempts: Vec<IntegrityAttempt>,
    /// The preimage whose digest matched, if any.
    pub matched: Option<&'static str>,
    pub explanation: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct IntegrityAttempt {
    pub preimage: &'static str,
    pub description: &'static str,
    pub sha256: String,
}

/// UAIX-only parts of a report.
#[derive(Clone, Debug, Serialize)]
pub struct UaixView {
    /// The instant expiry was judged at (RFC 3339).
    pub now: String,
    /// Whether `--now` fixed the clock (`false`: the system clock was read).
    pub clock_fixed: bool,
    pub integrity: IntegrityCheck,
}

/// How many rows came out with each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VerdictCounts {
    pub pass: usize,
    pub fail: usize,
    pub warn: usize,
    pub not_applicable: usize,
    pub not_checked: usize,
    pub unverifiable: usize,
}

/// Everything evaluating one packet against its profile found.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileReport {
    /// The packet's path as given, if it came from a file.
    pub source: Option<String>,
    /// The profile it was evaluated as; `None` when no profile recognised it.
    pub profile: Option<ProfileDetection>,
    /// The contract version reproduced (master/sub only), e.g. `1.0`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_version: Option<&'static str>,
    /// One outcome per row of the profile's table(s), in table order.
    pub outcomes: Vec<RuleOutcome>,
    pub findings: Vec<Finding>,
    /// Quirks that shaped a verdict on this packet.
    pub quirks: Vec<QuirkNote>,
    /// Guidance from the source that is not a rule (e.g. UAIX usage notes).
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contextcore: Option<ContextCoreView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uaix: Option<UaixView>,
    /// Which of this packet's fields play the A2A-seam roles.
    pub seam: Vec<SeamValue>,
    pub counts: VerdictCounts,
}

impl ProfileReport {
    pub(crate) fn new(detection: ProfileDetection, source_path: Option<&Path>) -> ProfileReport {
        ProfileReport {
            source: source_path.map(|p| p.display().to_string()),
            profile: Some(detection),
            profile_version: None,
            outcomes: Vec::new(),
            findings: Vec::new(),
            quirks: Vec::new(),
            notes: Vec::new(),
            contextcore: None,
            uaix: None,
            seam: Vec::new(),
            counts: VerdictCounts::default(),
        }
    }

    pub(crate) fn unrecognised(source_path: Option<&Path>) -> ProfileReport {
        ProfileReport::without_profile(
            source_path,
            "PROFILE",
            "not a recognised handoff profile (master/sub record, ContextCore handoff or UAIX \
             uai.agent.handoff.v1); use --as to name one"
                .into(),
        )
    }

    /// A report with no profile and one error finding saying why.
    pub(crate) fn without_profile(
        source_path: Option<&Path>,
        rule: &str,
        message: String,
    ) -> ProfileReport {
        let mut report = ProfileReport::new(
            ProfileDetection {
                kind: ProfileKind::Ahc,
                reason: String::new(),
            },
            source_path,
        );
        report.profile = None;
        report.findings.push(Finding::new(
            rule,
            Severity::Error,
            JsonPath::root(),
            message,
        ));
        report
    }

    /// Adds outcomes and findings and refreshes the counts.
    pub(crate) fn absorb(&mut self, outcomes: Vec<RuleOutcome>, findings: Vec<Finding>) {
        self.outcomes.extend(outcomes);
        self.findings.extend(findings);
        self.counts = self.tally();
    }

    pub(crate) fn quirk(&mut self, quirk: &'static Quirk, path: JsonPath, detail: String) {
        self.findings.push(Finding::new(
            format!("quirk:{}", quirk.id),
            Severity::Note,
            path.clone(),
            format!("{}: {}", quirk.title, detail),
        ));
        self.quirks.push(QuirkNote {
            quirk: quirk.id,
            title: quirk.title,
            path,
            detail,
        });
    }

    /// A repeated key makes the packet ambiguous: Python's `json` and serde_json both keep
    /// the last value, which is what was evaluated.
    pub(crate) fn note_duplicate_keys(&mut self, raw_bytes: &[u8]) {
        let mut noted = 0;
        for_each_duplicate_key(raw_bytes, |duplicate| {
            if noted == 20 {
                return;
            }
            noted += 1;
            self.findings.push(Finding::new(
                "DUPLICATE-KEY",
                Severity::Warning,
                duplicate.path,
                format!(
                    "key appears {} times; the last value was evaluated (as Python's json does)",
                    duplicate.occurrences
                ),
            ));
        });
    }

    fn tally(&self) -> VerdictCounts {
        let mut counts = VerdictCounts::default();
        for outcome in &self.outcomes {
            match outcome.verdict {
                Verdict::Pass | Verdict::Matched => counts.pass += 1,
                Verdict::Fail => counts.fail += 1,
                Verdict::Warn => counts.warn += 1,
                Verdict::NotApplicable | Verdict::NotMatched => counts.not_applicable += 1,
                Verdict::NotChecked => counts.not_checked += 1,
                Verdict::Unverifiable => counts.unverifiable += 1,
            }
        }
        counts
    }

    /// How many rows came out with each verdict.
    pub fn counts(&self) -> VerdictCounts {
        self.tally()
    }

    /// True when a profile was recognised and no row failed. Warnings, unverifiable and
    /// not-machine-checked rows do not fail a packet, and a conforming packet is still only
    /// "no failing row": never a correct, authorized or successful handoff.
    pub fn conforms(&self) -> bool {
        self.profile.is_some() && self.outcomes.iter().all(|o| o.verdict != Verdict::Fail)
    }

    /// The outcome of one row.
    pub fn outcome(&self, rule: &str) -> Option<&RuleOutcome> {
        self.outcomes.iter().find(|o| o.rule == rule)
    }
}
