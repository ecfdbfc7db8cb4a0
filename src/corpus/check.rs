//! Checking one packet: its summary, compared with its golden entry and its paired expected
//! payloads, audited when it is canonical input, and turned into a `Status` with findings.
//! This is the one place the status rules live; `check`, `bless` and the TUI all use it.

use super::evaluate::{
    converted_kind, not_json_reason_of, summarize_keeping, unaudited_bundle_event,
};
use super::pair::PairedFiles;
use super::status::{worst_status, CheckFinding, FindingKind, Status};
use super::{
    reread_packet, EvaluateOptions, ModeResult, ModeSummary, PacketKind, PacketSummary, RawPacket,
    Source,
};
use crate::a2a::{convert, Mode};
use crate::bundle::BundleReport;
use crate::freeze::{audit, HandoffState};
use crate::golden::{
    diff_json, records_object, shown_value, GoldenEntry, ModeGolden, ObjectGolden,
};
use crate::json::{digest_value, for_each_duplicate_key, safe_text, Digest};
use crate::migrate::Judgement;
use crate::rules::{Severity, Verdict};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// What `check` needs besides the packet.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub evaluate: EvaluateOptions,
    /// Cap for reading paired expected payloads (as for packets).
    pub max_file_bytes: u64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            evaluate: EvaluateOptions::default(),
            max_file_bytes: super::DEFAULT_MAX_FILE_BYTES,
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
    pub duplicate_key_paths: super::PathList,
    /// For kinds that are not converted: what this check concluded, in the manifest's terms.
    pub object: Option<Box<ObjectGolden>>,
    /// Findings the manifest records as expected (an intentional negative whose object
    /// golden matches): reported as recorded, never counted against the packet.
    pub recorded_findings: Vec<CheckFinding>,
    /// An evidence bundle's own packet: its verification report (verdict, counts, lint).
    pub bundle: Option<std::sync::Arc<BundleReport>>,
}

impl PacketCheck {
    pub fn mode(&self, mode: Mode) -> Option<&ModeCheck> {
        self.modes[mode.index()].as_ref()
    }

    /// What a bless records for this packet: `None` for kinds with nothing to record
    /// (unknown shapes, golden manifests).
    pub fn recorded(&self) -> Option<GoldenEntry> {
        if let Some(object) = &self.object {
            return Some(GoldenEntry {
                duplicate_keys: self.duplicate_key_paths.to_vec(),
                modes: [None, None],
                object: Some(object.clone()),
            });
        }
        if !converted_kind(self.summary.kind) {
            return None;
        }
        let mut entry = GoldenEntry {
            duplicate_keys: self.duplicate_key_paths.to_vec(),
            modes: [None, None],
            object: None,
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

/// Checks one packet.
pub fn check_packet(
    packet: &RawPacket,
    options: &CheckOptions,
    golden: GoldenLookup<'_>,
    paired: &PairedFiles,
) -> PacketCheck {
    // An A2A object's migration is judged once, in the summary, and reported from there.
    let mut judged = None;
    let (summary, parsed) = summarize_keeping(packet, &options.evaluate, &mut judged);
    // Only a kind with an object golden reads the tree again: any other lets it go now, before
    // its repeated keys are listed (an object of 500k of them held both).
    let parsed = parsed.filter(|_| records_object(summary.kind));
    let entry = match golden {
        GoldenLookup::Entry(entry) => Some(entry),
        GoldenLookup::Missing(_) => None,
    };
    let mut findings = Vec::new();
    let mut duplicate_key_paths = super::PathList::new();
    if summary.duplicate_keys > 0 {
        for_each_duplicate_key(&packet.bytes, |duplicate| {
            duplicate_key_paths.push(&duplicate.path.to_string());
        });
        duplicate_key_paths.shrink_to_fit();
    }
    duplicate_findings(&duplicate_key_paths, entry, &mut findings);
    let mut verdicts = [GoldenVerdict::Missing; 2];
    let mut object = None;
    let mut recorded_findings = Vec::new();
    // A bundle's non-A2A event: recorded, not audited.
    let mut unchecked = false;
    let baseline = if let Some(report) = &packet.bundle {
        // The bundle as a whole: upstream's verdict, recorded with its run root.
        findings.extend(bundle_finding(report));
        let current = bundle_object(report, &findings);
        compare_object(&current, golden, &mut findings, &mut recorded_findings);
        object = Some(Box::new(current));
        Status::Conforms
    } else if converted_kind(summary.kind) {
        for mode_summary in summary.evaluated_modes() {
            let mode = mode_summary.mode;
            let expected = entry.and_then(|entry| entry.mode(mode));
            verdicts[mode.index()] = match expected {
                Some(expected) => match golden_finding(mode, expected, mode_summary) {
                    Some(finding) => {
                        findings.push(finding);
                        GoldenVerdict::Differs
                    }
                    None => GoldenVerdict::Matches,
                },
                None => GoldenVerdict::Missing,
            };
            if let Some(path) = &paired[mode.index()] {
                findings.extend(paired_finding(packet, options, mode_summary, path));
            }
        }
        missing_golden_findings(packet, &summary, golden, &verdicts, &mut findings);
        Status::Conforms
    } else if records_object(summary.kind) {
        // Parsed once (by `summarize_keeping`) for the kind, the audit, profile or migration
        // and the object's digest.
        let parsed = parsed.or_else(|| serde_json::from_slice::<Value>(&packet.bytes).ok());
        if let Some(value) = parsed {
            let mut migrated = None;
            if summary.kind.canonical_shape().is_some() {
                audit_findings(&value, &summary, &mut findings);
            } else if summary.kind.is_profile() {
                profile_findings(packet, &value, &summary, options, &mut findings);
            } else {
                migrated = migration_findings(judged.take(), &mut findings);
            }
            let current = current_object(&value, &summary, &findings, migrated);
            compare_object(&current, golden, &mut findings, &mut recorded_findings);
            object = Some(Box::new(current));
            if unaudited_bundle_event(&summary.source, &value) {
                unchecked = true;
            }
        }
        if unchecked {
            Status::NotChecked
        } else {
            Status::Conforms
        }
    } else {
        Status::NotChecked
    };
    let status = worst_status(baseline, &findings, None);
    let mut modes = [None, None];
    for mode_summary in summary.evaluated_modes() {
        let mode = mode_summary.mode;
        modes[mode.index()] = Some(ModeCheck {
            mode,
            status: worst_status(baseline, &findings, Some(mode)),
            golden: verdicts[mode.index()],
        });
    }
    PacketCheck {
        summary,
        status,
        modes,
        findings,
        duplicate_key_paths,
        object,
        recorded_findings,
        bundle: packet.bundle.clone(),
    }
}

/// What `check` concluded about a packet of a kind that is not converted, in the terms of
/// its object golden.
fn current_object(
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
        failing: ids(Status::Finding),
        warning: ids(Status::Conforms),
    }
}

/// A bundle that fails upstream's verification: one finding with upstream's code as its
/// rule, class and message, the step of the spec and what the check compared.
fn bundle_finding(report: &BundleReport) -> Option<CheckFinding> {
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

/// What a golden records for a bundle as a whole.
fn bundle_object(report: &BundleReport, findings: &[CheckFinding]) -> ObjectGolden {
    ObjectGolden {
        kind: PacketKind::Bundle,
        object: report.manifest_digest,
        state: None,
        migrated: None,
        verdict: Some(report.verdict_key()),
        run_root: report.run_root().map(str::to_owned),
        failing: findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::BundleError)
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
    )
}

/// Compares an object's outcome with its golden: equal moves the recorded findings out of the
/// packet's account; different is drift, with the fields that changed and a diff.
fn compare_object(
    current: &ObjectGolden,
    golden: GoldenLookup<'_>,
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
    let parts: Vec<String> = expected
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
    findings.push(
        CheckFinding::new(FindingKind::GoldenMismatch, None, parts.join("; ")).with_diff(
            diff_json(
                &expected.to_json(),
                &current.to_json(),
                "golden",
                "this check",
            ),
        ),
    );
}

fn duplicate_findings(
    found: &super::PathList,
    entry: Option<&GoldenEntry>,
    findings: &mut Vec<CheckFinding>,
) {
    let acknowledged = entry
        .map(|entry| entry.duplicate_keys.as_slice())
        .unwrap_or(&[]);
    if found.same_as(acknowledged) {
        return;
    }
    if found.is_empty() {
        findings.push(CheckFinding::new(
            FindingKind::GoldenMismatch,
            None,
            format!(
                "the manifest acknowledges duplicate keys at {} but the packet has none now",
                safe_text(&acknowledged.join(" "))
            ),
        ));
        return;
    }
    let mut message = format!(
        "duplicate keys at {}: a JSON parser keeps the last value, a reader may see the first",
        safe_text(&joined(found))
    );
    if !acknowledged.is_empty() {
        message.push_str(&format!(
            " (the manifest acknowledges {})",
            safe_text(&acknowledged.join(" "))
        ));
    }
    findings.push(CheckFinding::new(FindingKind::DuplicateKeys, None, message));
}

/// The paths separated by spaces, written straight into one string (500k of them are 4.5 MB).
fn joined(paths: &super::PathList) -> String {
    let mut text = String::new();
    for (index, path) in paths.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        text.push_str(path);
    }
    text
}

/// A converted-kind packet's missing goldens: one finding for the packet when it has no
/// entry, one per mode when the entry lacks a mode. Bytes that are not JSON and have no golden
/// expecting that are an error, not merely unrecorded.
fn missing_golden_findings(
    packet: &RawPacket,
    summary: &PacketSummary,
    golden: GoldenLookup<'_>,
    verdicts: &[GoldenVerdict; 2],
    findings: &mut Vec<CheckFinding>,
) {
    let missing: Vec<Mode> = summary
        .evaluated_modes()
        .map(|mode_summary| mode_summary.mode)
        .filter(|&mode| verdicts[mode.index()] == GoldenVerdict::Missing)
        .collect();
    if missing.is_empty() {
        return;
    }
    if summary.kind == PacketKind::NotJson {
        // The converter's own rule for these bytes (C3, invalid JSON), so that `check` and
        // `convert`/`explain` name the same row.
        let rule = summary
            .evaluated_modes()
            .find_map(|mode_summary| match mode_summary.result {
                ModeResult::Rejected { rule, .. } => Some(rule),
                ModeResult::Converted { .. } => None,
            });
        let mut finding = CheckFinding::new(
            FindingKind::NotJson,
            None,
            format!("not JSON: {}", not_json_reason_of(&packet.bytes)),
        );
        if let Some(rule) = rule {
            finding = finding.with_rule(rule);
        }
        findings.push(finding);
        return;
    }
    match golden {
        GoldenLookup::Missing(reason) => findings.push(CheckFinding::new(
            FindingKind::NoGolden,
            None,
            reason.to_owned(),
        )),
        GoldenLookup::Entry(_) => {
            for mode in missing {
                findings.push(CheckFinding::new(
                    FindingKind::NoGolden,
                    Some(mode),
                    format!("the manifest entry records nothing for {mode} mode"),
                ));
            }
        }
    }
}

/// Compares a mode's golden with its outcome; `None` when every recorded field matches.
pub fn golden_finding(
    mode: Mode,
    expected: &ModeGolden,
    actual_summary: &ModeSummary,
) -> Option<CheckFinding> {
    let actual = recorded_mode(actual_summary);
    let differing: Vec<(&str, String, String)> = expected
        .fields()
        .into_iter()
        .zip(actual.fields())
        .filter_map(|((field, want), (_, got))| match want {
            Some(want) if Some(&want) != got.as_ref() => Some((
                field,
                shown_value(&want),
                got.map(|got| shown_value(&got))
                    .unwrap_or_else(|| "absent".to_owned()),
            )),
            _ => None,
        })
        .collect();
    if differing.is_empty() {
        return None;
    }
    let message = if expected.error.is_some() != actual.error.is_some() {
        format!(
            "{mode}: golden expects {}, the conversion gives {}",
            expected.describe(),
            actual.describe()
        )
    } else {
        let parts: Vec<String> = differing
            .iter()
            .map(|(field, want, got)| format!("{field} {want} -> {got}"))
            .collect();
        format!("{mode}: {}", parts.join("; "))
    };
    let mut finding = CheckFinding::new(FindingKind::GoldenMismatch, Some(mode), message);
    let expected_state = expected.state.or_else(|| {
        expected
            .handoff
            .as_ref()
            .and_then(HandoffState::from_digest)
    });
    if let (Some(want), Some(got)) = (expected_state, actual.state) {
        if want != got {
            finding = finding.with_diff(diff_json(
                &want.to_json(),
                &got.to_json(),
                &format!("golden handoff ({mode})"),
                &format!("converted handoff ({mode})"),
            ));
        }
    }
    Some(finding)
}

fn paired_finding(
    packet: &RawPacket,
    options: &CheckOptions,
    actual: &ModeSummary,
    path: &Path,
) -> Option<CheckFinding> {
    let mode = actual.mode;
    let name = path
        .file_name()
        .map(|name| safe_text(&name.to_string_lossy()).into_owned())
        .unwrap_or_default();
    let unreadable = |reason: String| {
        Some(CheckFinding::new(
            FindingKind::PairedUnreadable,
            Some(mode),
            format!("{name}: {reason}"),
        ))
    };
    let bytes = match reread_packet(&Source::file(path), 0, options.max_file_bytes) {
        Ok(bytes) => bytes,
        Err(error) => return unreadable(error.reason),
    };
    let expected: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(error) => {
            return unreadable(format!(
                "not JSON: {}",
                super::evaluate::not_json_reason(&bytes, &error)
            ))
        }
    };
    match actual.result {
        ModeResult::Converted { digests, .. } if digest_value(&expected) == digests.payload => None,
        ModeResult::Converted { .. } => {
            let conversion = convert(&packet.bytes, &options.evaluate.conversion.with_mode(mode));
            let actual_payload = conversion
                .converted()
                .map(|converted| converted.payload().clone())
                .unwrap_or(Value::Null);
            let diff = diff_json(
                &expected,
                &actual_payload,
                &name,
                &format!("converted payload ({mode})"),
            );
            Some(
                CheckFinding::new(
                    FindingKind::PairedMismatch,
                    Some(mode),
                    format!(
                        "{mode}: the converted payload differs from {name} at {} path(s)",
                        diff.total_changes
                    ),
                )
                .with_diff(diff),
            )
        }
        ModeResult::Rejected { kind, rule } => Some(CheckFinding::new(
            FindingKind::PairedMismatch,
            Some(mode),
            format!(
                "{mode}: {name} expects a payload, but the conversion was rejected: {} ({rule})",
                kind.name()
            ),
        )),
    }
}

fn audit_findings(value: &Value, summary: &PacketSummary, findings: &mut Vec<CheckFinding>) {
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
fn profile_findings(
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
fn migration_findings(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::ErrorKind;

    const POSITIVE: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"message":{"id":"m"}}"#;

    fn raw(text: &[u8]) -> RawPacket {
        RawPacket {
            source: Source::file("d/p.json"),
            offset: 0,
            bytes: text.to_vec(),
            bundle: None,
        }
    }

    fn check(text: &[u8], golden: GoldenLookup<'_>) -> PacketCheck {
        check_packet(&raw(text), &CheckOptions::default(), golden, &[None, None])
    }

    #[test]
    fn without_golden_a_clean_raw_packet_is_no_golden() {
        let result = check(
            POSITIVE.as_bytes(),
            GoldenLookup::Missing("no goldens.json in d"),
        );
        assert_eq!(result.status, Status::NoGolden);
        assert_eq!(result.findings[0].message, "no goldens.json in d");
        assert_eq!(
            result.mode(Mode::Strict).unwrap().golden,
            GoldenVerdict::Missing
        );
    }

    #[test]
    fn recorded_entry_conforms_and_a_changed_one_mismatches() {
        let first = check(POSITIVE.as_bytes(), GoldenLookup::Missing("none"));
        let entry = first.recorded().unwrap();
        let again = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&entry));
        assert_eq!(again.status, Status::Conforms, "{:?}", again.findings);

        let mut drifted = entry.clone();
        let strict = drifted.modes[0].as_mut().unwrap();
        strict.state = Some(HandoffState::Defaults);
        strict.handoff = crate::json::Digest::from_hex(HandoffState::Defaults.digest_hex());
        let result = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&drifted));
        assert_eq!(result.status, Status::Mismatch);
        assert_eq!(result.mode(Mode::Strict).unwrap().status, Status::Mismatch);
        assert_eq!(result.mode(Mode::Lenient).unwrap().status, Status::Conforms);
        let finding = &result.findings[0];
        assert!(
            finding.message.starts_with("strict: state defaults -> task_and_message_refs; handoff 60e992b4881c -> e478af7359a2"),
            "{}",
            finding.message
        );
        let diff = finding.diff.as_ref().unwrap();
        assert_eq!(diff.total_changes, 4);
    }

    #[test]
    fn expected_error_recorded_for_bytes_that_are_not_json() {
        let bytes = b"\xEF\xBB\xBF{}";
        let unrecorded = check(bytes, GoldenLookup::Missing("none"));
        assert_eq!(unrecorded.status, Status::Error);
        assert!(unrecorded.findings[0].message.contains("byte-order mark"));
        let entry = unrecorded.recorded().unwrap();
        assert_eq!(
            entry.mode(Mode::Strict).unwrap().error,
            Some(ErrorKind::Measurement)
        );
        assert_eq!(
            check(bytes, GoldenLookup::Entry(&entry)).status,
            Status::Conforms
        );
    }

    #[test]
    fn duplicate_keys_are_findings_unless_acknowledged() {
        let bytes = br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"x","kind":"delegation"}}"#;
        let first = check(bytes, GoldenLookup::Missing("none"));
        assert_eq!(first.status, Status::Finding);
        assert_eq!(first.duplicate_key_paths.to_vec(), vec!["$.task.kind"]);
        let entry = first.recorded().unwrap();
        assert_eq!(
            check(bytes, GoldenLookup::Entry(&entry)).status,
            Status::Conforms
        );
        // The acknowledgement no longer holds once the packet changes.
        let fixed = POSITIVE.as_bytes();
        let mut stale = check(fixed, GoldenLookup::Missing("none"))
            .recorded()
            .unwrap();
        stale.duplicate_keys = entry.duplicate_keys.clone();
        assert_eq!(
            check(fixed, GoldenLookup::Entry(&stale)).status,
            Status::Mismatch
        );
    }

    #[test]
    fn expected_error_against_a_conversion() {
        let mut entry = check(POSITIVE.as_bytes(), GoldenLookup::Missing("none"))
            .recorded()
            .unwrap();
        entry.modes[0] = Some(ModeGolden {
            error: Some(ErrorKind::Measurement),
            rule: Some("S3".to_owned()),
            ..ModeGolden::default()
        });
        let result = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&entry));
        assert!(result.findings[0]
            .message
            .starts_with("strict: golden expects error measurement (S3), the conversion gives task_and_message_refs"));
    }

    #[test]
    fn canonical_input_is_audited_and_unknown_is_not_checked() {
        let bad = br#"{"adapter_id":"assay-adapter-a2a","agent":{"id":"a"},"handoff":{"visible":true,"source_kind":"unknown","task_ref_visible":false,"message_ref_visible":false}}"#;
        let result = check(bad, GoldenLookup::Missing("none"));
        assert_eq!(result.status, Status::Finding);
        let kinds: Vec<FindingKind> = result.findings.iter().map(|finding| finding.kind).collect();
        assert!(kinds.contains(&FindingKind::AuditError));
        assert!(kinds.contains(&FindingKind::NoGolden));
        assert!(result
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::AuditError)
            .all(|finding| finding.rule.is_some()));

        // Recorded, the audit errors are what the packet is for; changed, they are drift.
        let entry = result.recorded().unwrap();
        let again = check(bad, GoldenLookup::Entry(&entry));
        assert_eq!(again.status, Status::Conforms, "{:?}", again.findings);
        assert_eq!(again.recorded_findings.len(), kinds.len() - 1);
        let fixed = br#"{"adapter_id":"assay-adapter-a2a","agent":{"id":"a"},"handoff":{"visible":false,"source_kind":"unknown","task_ref_visible":false,"message_ref_visible":false}}"#;
        let drifted = check(fixed, GoldenLookup::Entry(&entry));
        assert_eq!(drifted.status, Status::Mismatch);
        assert!(
            drifted.findings[0].message.contains("failing "),
            "{}",
            drifted.findings[0].message
        );
        assert_eq!(
            check(b"[1,2]", GoldenLookup::Missing("none")).status,
            Status::NotChecked
        );
    }

    #[test]
    fn paired_payload_is_compared_with_a_diff() {
        let dir = tempfile::tempdir().unwrap();
        let packet = raw(POSITIVE.as_bytes());
        let converted = convert(POSITIVE.as_bytes(), &Default::default());
        let mut payload = converted.converted().unwrap().payload().clone();
        let strict_path = dir.path().join("p.strict.payload.json");
        std::fs::write(&strict_path, serde_json::to_vec_pretty(&payload).unwrap()).unwrap();
        let lenient_path = dir.path().join("p.lenient.payload.json");
        payload["task"]["kind"] = Value::from("analysis");
        std::fs::write(&lenient_path, serde_json::to_vec(&payload).unwrap()).unwrap();
        let result = check_packet(
            &packet,
            &CheckOptions::default(),
            GoldenLookup::Missing("none"),
            &[Some(strict_path), Some(lenient_path)],
        );
        let mismatches: Vec<&CheckFinding> = result
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::PairedMismatch)
            .collect();
        assert_eq!(mismatches.len(), 1);
        assert_eq!(mismatches[0].mode, Some(Mode::Lenient));
        let diff = mismatches[0].diff.as_ref().unwrap();
        assert_eq!(
            diff.changes[0].describe(),
            "~ $.task.kind: \"analysis\" -> \"delegation\""
        );
        assert!(diff.lines.contains("--- p.lenient.payload.json"));
        assert_eq!(result.mode(Mode::Strict).unwrap().status, Status::NoGolden);
    }
}
