//! A converted packet against its golden entry: the duplicate keys the entry acknowledges,
//! the goldens it lacks, and each mode's recorded fields against the conversion.

use super::outcome::{recorded_mode, GoldenLookup, GoldenVerdict};
use crate::a2a::Mode;
use crate::corpus::evaluate::not_json_reason_of;
use crate::corpus::status::{CheckFinding, FindingKind};
use crate::corpus::{ModeResult, ModeSummary, PacketKind, PacketSummary, RawPacket};
use crate::freeze::HandoffState;
use crate::golden::{before, diff_json, shown_value, Before, Content, GoldenEntry, ModeGolden};
use crate::json::safe_text;
use serde_json::Value;

pub(super) fn duplicate_findings(
    found: &crate::corpus::PathList,
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
                safe_text(&named(
                    acknowledged.iter().map(String::as_str),
                    acknowledged.len()
                ))
            ),
        ));
        return;
    }
    let mut message = format!(
        "duplicate keys at {}: a JSON parser keeps the last value, a reader may see the first",
        safe_text(&named(found.iter(), found.len()))
    );
    if !acknowledged.is_empty() {
        message.push_str(&format!(
            " (the manifest acknowledges {})",
            safe_text(&named(
                acknowledged.iter().map(String::as_str),
                acknowledged.len()
            ))
        ));
    }
    findings.push(CheckFinding::new(FindingKind::DuplicateKeys, None, message));
}

/// How many paths a finding's message names; the rest are counted. `check --format json`
/// (`duplicate_keys`) and `explain` list every one; a message naming a million paths was an
/// 11 MB line in `check`'s text and in the inspector's Findings view.
const NAMED_PATHS: usize = 20;

/// The first [`NAMED_PATHS`] of `count` paths separated by spaces, then how many more.
fn named<'a>(paths: impl Iterator<Item = &'a str>, count: usize) -> String {
    let mut text = String::new();
    for (index, path) in paths.take(NAMED_PATHS).enumerate() {
        if index > 0 {
            text.push(' ');
        }
        text.push_str(path);
    }
    if count > NAMED_PATHS {
        text.push_str(&format!(" and {} more", count - NAMED_PATHS));
    }
    text
}

/// A converted-kind packet's missing goldens: one finding for the packet when it has no
/// entry, one per mode when the entry lacks a mode. Bytes that are not JSON and have no golden
/// expecting that are an error, not merely unrecorded.
pub(super) fn missing_golden_findings(
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

/// What a mode's drift is shown against: the recorded payload (when the golden keeps it) and
/// the converted one, computed only when a drift needs it.
pub struct DriftSides<'a> {
    pub recorded: Option<&'a Content>,
    /// Whether the packet is a file of its own (the kind of packet whose content is recorded).
    pub is_file: bool,
    pub current: &'a dyn Fn() -> Option<Value>,
}

/// Compares a mode's golden with its outcome; `None` when every recorded field matches.
/// A drifted payload is shown field by field against the recorded one (JSON paths, before ->
/// after), or the finding says why the before is unknown; the handoff state is named in the
/// freeze's words either way.
pub fn golden_finding(
    mode: Mode,
    expected: &ModeGolden,
    actual_summary: &ModeSummary,
    sides: &DriftSides<'_>,
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
    let mut message = if expected.error.is_some() != actual.error.is_some() {
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
    let expected_state = expected.state.or_else(|| {
        expected
            .handoff
            .as_ref()
            .and_then(HandoffState::from_digest)
    });
    if let Some(words) = state_change_words(expected_state, actual.state) {
        message.push_str(&format!("; {words}"));
    }
    let payload_drift = match (expected.payload, actual.payload) {
        (Some(want), Some(got)) if want != got => Some(want),
        _ => None,
    };
    let mut diff = None;
    if let Some(want) = payload_drift {
        match before(sides.recorded, want, sides.is_file) {
            Before::Known(recorded) => {
                if let Some(current) = (sides.current)() {
                    diff = Some(diff_json(
                        &recorded,
                        &current,
                        &format!("golden payload ({mode})"),
                        &format!("converted payload ({mode})"),
                    ));
                }
            }
            Before::Unknown(why) => message.push_str(&format!("; payload {why}")),
        }
    }
    let mut finding = CheckFinding::new(FindingKind::GoldenMismatch, Some(mode), message);
    if diff.is_none() {
        // No recorded payload: the handoff object is all a state gives back.
        if let (Some(want), Some(got)) = (expected_state, actual.state) {
            if want != got {
                diff = Some(diff_json(
                    &want.to_json(),
                    &got.to_json(),
                    &format!("golden handoff ({mode})"),
                    &format!("converted handoff ({mode})"),
                ));
            }
        }
    }
    if let Some(diff) = diff {
        finding = finding.with_diff(diff);
    }
    Some(finding)
}

/// `handoff state: typed positive: task + message refs -> defaults (not visible)`: a
/// changed state in the freeze's words (what is visible, never more); `None` when unchanged
/// or either side is unknown.
pub(crate) fn state_change_words(
    before: Option<HandoffState>,
    after: Option<HandoffState>,
) -> Option<String> {
    match (before, after) {
        (Some(before), Some(after)) if before != after => Some(format!(
            "handoff state: {} -> {}",
            before.name(),
            after.name()
        )),
        _ => None,
    }
}
