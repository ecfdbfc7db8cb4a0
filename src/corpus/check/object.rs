//! A packet's outcome as an object golden (kinds that are not converted, and bundles as a
//! whole) and its comparison with the manifest's: recorded findings or drift.

use super::outcome::GoldenLookup;
use crate::bundle::attest::{judge_bundle_file, Judged, TrustedKey};
use crate::bundle::BundleReport;
use crate::corpus::status::{CheckFinding, FindingKind, Status};
use crate::corpus::{PacketKind, PacketSummary};
use crate::golden::{before, diff_json, shown_value, Before, ObjectGolden};
use crate::json::{digest_value, safe_text, Digest};
use serde_json::Value;

/// What `check` concluded about a packet of a kind that is not converted, in the terms of
/// its object golden.
pub(super) fn current_object(
    value: &Value,
    summary: &PacketSummary,
    findings: &[CheckFinding],
    migrated: Option<Digest>,
) -> ObjectGolden {
    let ids = |status: Status| -> Vec<String> {
        findings
            .iter()
            .filter(|finding| expectable(finding.kind) && finding.kind.status() == status)
            .map(|finding| finding.rule.clone().unwrap_or_else(|| "?".to_owned()))
            .collect()
    };
    ObjectGolden {
        kind: summary.kind,
        object: digest_value(value),
        state: summary.canonical_state,
        migrated,
        verdict: None,
        run_root: None,
        signer: None,
        failing: ids(Status::Finding),
        warning: ids(Status::Conforms),
    }
}

/// A bundle that fails upstream's verification: one finding with upstream's code as its
/// rule, class and message, the step of the spec and what the check compared.
pub(super) fn bundle_finding(report: &BundleReport) -> Option<CheckFinding> {
    let error = report.error()?;
    let mut message = format!(
        "{}: {} ({}); spec step {}",
        error.class().as_str(),
        safe_text(&error.message),
        error.code.as_str(),
        error.step
    );
    if let Some(compared) = &error.compared {
        message.push_str(&format!(
            "; {}: expected {}, found {}",
            safe_text(&compared.what),
            safe_text(&compared.expected),
            safe_text(&compared.found)
        ));
    }
    let mut finding =
        CheckFinding::new(FindingKind::BundleError, None, message).with_rule(error.code.as_str());
    finding.class = Some(error.class().as_str());
    Some(finding)
}

/// What a run given trusted keys concluded about a bundle's attestation: a refusal as a
/// finding, or the keyid of the trusted key whose signature verified it.
#[derive(Default)]
pub(super) struct AttestationCheck {
    pub finding: Option<CheckFinding>,
    pub signer: Option<String>,
}

/// A bundle whose attestation is refused (or cannot be read) by the reader's trusted keys:
/// one finding naming the check (its rule: `attestation-` and the check's id) and upstream's
/// message. Verified: the signer's keyid, for the golden. No keys, or no envelope beside the
/// bundle: nothing to report.
pub(super) fn attestation_check(path: &std::path::Path, keys: &[TrustedKey]) -> AttestationCheck {
    if keys.is_empty() {
        return AttestationCheck::default();
    }
    let judged = judge_bundle_file(path, None, keys);
    let (rule, message) = match &judged {
        Judged::Absent { .. } => return AttestationCheck::default(),
        Judged::Unreadable { error, .. } => (
            "attestation-unreadable".to_owned(),
            safe_text(error).into_owned(),
        ),
        Judged::Judged {
            attestation,
            envelope,
        } => {
            let Some(refusal) = attestation.refusal() else {
                return AttestationCheck {
                    finding: None,
                    signer: attestation.signer(keys).map(|key| key.keyid.clone()),
                };
            };
            (
                format!("{ATTESTATION_RULE_PREFIX}{}", refusal.check.id()),
                format!(
                    "attestation refused at check {} ({}): {}; envelope {}",
                    refusal.check.number(),
                    refusal.check.title(),
                    safe_text(&refusal.message),
                    safe_text(&envelope.display().to_string())
                ),
            )
        }
    };
    AttestationCheck {
        finding: Some(
            CheckFinding::new(FindingKind::AttestationRefused, None, message).with_rule(rule),
        ),
        signer: None,
    }
}

/// The start of every refused attestation's rule id (`attestation-signature`, ...).
const ATTESTATION_RULE_PREFIX: &str = "attestation-";

/// A run given no trusted keys does not judge attestations, so what the golden recorded of
/// one (the signer, a refusal's rule) is kept rather than read as drift.
pub(super) fn keep_unjudged_attestation(current: &mut ObjectGolden, golden: &GoldenLookup<'_>) {
    let GoldenLookup::Entry(entry) = golden else {
        return;
    };
    let Some(expected) = &entry.object else {
        return;
    };
    current.signer.clone_from(&expected.signer);
    current.failing.extend(
        expected
            .failing
            .iter()
            .filter(|id| id.starts_with(ATTESTATION_RULE_PREFIX))
            .cloned(),
    );
}

/// For an event of a bundle whose stored content hash is not the one recomputed from its
/// line: that it does not match (recomputed vs stored) and that the bundle fails upstream's
/// verification, as a bundle error the event's golden can record.
pub(super) fn event_hash_finding(packet: &crate::corpus::RawPacket) -> Option<CheckFinding> {
    let report = packet.in_bundle.as_ref()?;
    let mismatch = report.hash_mismatch(packet.source.line?)?;
    let message = event_hash_text(report, mismatch);
    let rule = report.error().map_or_else(
        || "IntegrityEventHash".to_owned(),
        |error| error.code.as_str(),
    );
    let mut finding = CheckFinding::new(FindingKind::BundleError, None, message).with_rule(rule);
    finding.class = report.error().map(|error| error.class().as_str());
    Some(finding)
}

/// The words every face uses for an event whose content hash does not match.
pub fn event_hash_text(report: &BundleReport, mismatch: &crate::bundle::HashMismatch) -> String {
    let verdict = match report.error() {
        Some(error) => format!(
            "the bundle fails upstream's verification: {} {}: {}",
            error.class().as_str(),
            error.code.as_str(),
            safe_text(&error.message)
        ),
        None => "the bundle's verdict does not say so".to_owned(),
    };
    format!(
        "content hash does not match: recomputed {}, stored {}; {verdict}",
        safe_text(&mismatch.recomputed),
        safe_text(&mismatch.stored)
    )
}

/// What a golden records for a bundle as a whole.
pub(super) fn bundle_object(
    report: &BundleReport,
    findings: &[CheckFinding],
    signer: Option<String>,
) -> ObjectGolden {
    ObjectGolden {
        kind: PacketKind::Bundle,
        object: report.manifest_digest,
        state: None,
        migrated: None,
        verdict: Some(report.verdict_key()),
        run_root: report.run_root().map(str::to_owned),
        signer,
        failing: findings
            .iter()
            .filter(|finding| {
                matches!(
                    finding.kind,
                    FindingKind::BundleError | FindingKind::AttestationRefused
                )
            })
            .filter_map(|finding| finding.rule.clone())
            .collect(),
        warning: Vec::new(),
    }
}

/// Findings an object golden can record as what the packet is for: the verdicts of its
/// audit, profile or migration check (never drift, unreadable input or duplicate keys).
fn expectable(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::AuditError
            | FindingKind::AuditWarning
            | FindingKind::ProfileFailure
            | FindingKind::ProfileWarning
            | FindingKind::MigrationFinding
            | FindingKind::BundleError
            | FindingKind::AttestationRefused
    )
}

/// Compares an object's outcome with its golden: equal moves the recorded findings out of the
/// packet's account; different is drift, with the fields that changed and a diff.
pub(super) fn compare_object(
    current: &ObjectGolden,
    golden: GoldenLookup<'_>,
    (value, keeps_content): (&dyn Fn() -> Option<Value>, bool),
    findings: &mut Vec<CheckFinding>,
    recorded_findings: &mut Vec<CheckFinding>,
) {
    let entry = match golden {
        GoldenLookup::Entry(entry) => entry,
        GoldenLookup::Missing(reason) => {
            findings.push(CheckFinding::new(
                FindingKind::NoGolden,
                None,
                reason.to_owned(),
            ));
            return;
        }
    };
    let Some(expected) = &entry.object else {
        let message = if entry.modes.iter().any(Option::is_some) {
            format!(
                "golden expects a converted packet (strict/lenient outcomes), the file is now {} ({})",
                current.kind.tag(),
                current.kind.name()
            )
        } else {
            "the manifest entry records nothing for this packet".to_owned()
        };
        let kind = if entry.modes.iter().any(Option::is_some) {
            FindingKind::GoldenMismatch
        } else {
            FindingKind::NoGolden
        };
        findings.push(CheckFinding::new(kind, None, message));
        return;
    };
    if **expected == *current {
        let (recorded, rest): (Vec<CheckFinding>, Vec<CheckFinding>) = std::mem::take(findings)
            .into_iter()
            .partition(|finding| expectable(finding.kind));
        *findings = rest;
        recorded_findings.extend(recorded);
        return;
    }
    let mut parts: Vec<String> = expected
        .fields()
        .into_iter()
        .zip(current.fields())
        .filter(|((_, want), (_, got))| want != got)
        .map(|((field, want), (_, got))| {
            let show = |value: Option<String>| match value {
                None => "absent".to_owned(),
                Some(text) if text.is_empty() => "[]".to_owned(),
                Some(text) => shown_value(&text),
            };
            format!("{field} {} -> {}", show(want), show(got))
        })
        .collect();
    if let Some(words) = super::golden::state_change_words(expected.state, current.state) {
        parts.push(words);
    }
    // The object itself changed: shown field by field against the recorded content when the
    // golden keeps it (a bundle's object is its manifest.json).
    let object_diff = if expected.object == current.object {
        None
    } else {
        match before(
            entry.content.object.as_ref(),
            expected.object,
            keeps_content,
        ) {
            Before::Known(recorded) => {
                value().map(|value| diff_json(&recorded, &value, "golden object", "this object"))
            }
            Before::Unknown(why) => {
                parts.push(format!("object {why}"));
                None
            }
        }
    };
    let diff = object_diff.unwrap_or_else(|| {
        diff_json(
            &expected.to_json(),
            &current.to_json(),
            "golden",
            "this check",
        )
    });
    findings.push(
        CheckFinding::new(FindingKind::GoldenMismatch, None, parts.join("; ")).with_diff(diff),
    );
}
