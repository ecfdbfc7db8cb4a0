//! The packet's own verdicts, which an object golden can record as what the packet is for:
//! the canonical audit, a profile's failing and warning rows, an A2A migration's checks.

use super::outcome::CheckOptions;
use crate::corpus::status::{CheckFinding, FindingKind};
use crate::corpus::{PacketSummary, RawPacket};
use crate::freeze::audit;
use crate::json::{safe_text, Digest};
use crate::migrate::Judgement;
use crate::rules::{Severity, Verdict};
use serde_json::Value;

pub(super) fn audit_findings(
    value: &Value,
    summary: &PacketSummary,
    findings: &mut Vec<CheckFinding>,
) {
    if summary.audit_errors == 0 && summary.audit_warnings == 0 {
        return;
    }
    let Some(shape) = summary.kind.canonical_shape() else {
        return;
    };
    for finding in audit(value, shape).findings {
        let kind = match finding.severity {
            Severity::Error => FindingKind::AuditError,
            Severity::Warning | Severity::Note => FindingKind::AuditWarning,
        };
        findings.push(
            CheckFinding::new(
                kind,
                None,
                format!("{} {}: {}", finding.rule, finding.path, finding.message),
            )
            .with_rule(finding.rule),
        );
    }
}

/// Failing and warning rows of a master/sub, ContextCore or UAIX packet, with their ids.
pub(super) fn profile_findings(
    packet: &RawPacket,
    value: &Value,
    summary: &PacketSummary,
    options: &CheckOptions,
    findings: &mut Vec<CheckFinding>,
) {
    if summary.profile_failures == 0 && summary.profile_warnings == 0 {
        return;
    }
    let report = crate::profiles::evaluate(
        value,
        &packet.bytes,
        Some(&packet.source.path),
        &options.evaluate.profile,
    );
    for outcome in &report.outcomes {
        let kind = match outcome.verdict {
            Verdict::Fail => FindingKind::ProfileFailure,
            Verdict::Warn => FindingKind::ProfileWarning,
            _ => continue,
        };
        let path = outcome
            .evidence
            .first()
            .map(|evidence| evidence.path.to_string())
            .unwrap_or_else(|| "$".into());
        let message = outcome.message.as_deref().unwrap_or("");
        findings.push(
            CheckFinding::new(
                kind,
                None,
                format!("{} {path}: {}", outcome.rule, safe_text(message)),
            )
            .with_rule(outcome.rule),
        );
    }
}

/// An A2A protocol object's mixed-version signals and the checks its migration's result
/// fails; returns the digest of the migrated form (`None` for objects of indeterminate
/// version, which have nothing to migrate).
pub(super) fn migration_findings(
    judged: Option<Judgement>,
    findings: &mut Vec<CheckFinding>,
) -> Option<Digest> {
    let migration = judged?;
    for conflict in &migration.detection.conflicts {
        findings.push(
            CheckFinding::new(
                FindingKind::MigrationFinding,
                None,
                format!("mixed versions: {}", safe_text(conflict)),
            )
            .with_rule("mixed-versions"),
        );
    }
    for finding in &migration.findings {
        findings.push(
            CheckFinding::new(
                FindingKind::MigrationFinding,
                None,
                format!(
                    "{} {}: {}",
                    finding.rule,
                    finding.path,
                    safe_text(&finding.message)
                ),
            )
            .with_rule(finding.rule.clone()),
        );
    }
    Some(migration.result_digest)
}
