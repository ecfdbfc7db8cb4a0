//! `check_packet`: summarizes the packet, runs the checks its kind has, and sets its status
//! and each mode's from the findings.

use super::audit::{audit_findings, migration_findings, profile_findings};
use super::golden::{duplicate_findings, golden_finding, missing_golden_findings, DriftSides};
use super::object::{
    attestation_check, bundle_finding, bundle_object, compare_object, current_object,
    event_hash_finding, keep_unjudged_attestation,
};
use super::outcome::{CheckOptions, GoldenLookup, GoldenVerdict, ModeCheck, PacketCheck};
use super::paired::paired_finding;
use crate::a2a::Mode;
use crate::corpus::evaluate::{converted_kind, summarize_keeping, unaudited_bundle_event};
use crate::corpus::pair::PairedFiles;
use crate::corpus::status::{with_recorded, worst_status, Status};
use crate::corpus::RawPacket;
use crate::golden::{keeps_content, records_object, Content, Contents};
use crate::json::for_each_duplicate_key;
use serde_json::Value;

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
    let mut duplicate_key_paths = crate::corpus::PathList::new();
    if summary.duplicate_keys > 0 {
        for_each_duplicate_key(&packet.bytes, |duplicate| {
            duplicate_key_paths.push(&duplicate.path.to_string());
        });
        duplicate_key_paths.shrink_to_fit();
    }
    duplicate_findings(&duplicate_key_paths, entry, &mut findings);
    let mut verdicts = [GoldenVerdict::Missing; 2];
    // What a bless records besides digests, and what drift is shown against (not for a
    // stream's lines: see `golden::keeps_content`).
    let is_file = keeps_content(packet.source.line, packet.in_bundle.is_some());
    let mut content = Contents::default();
    let mut object = None;
    let mut recorded_findings = Vec::new();
    // A bundle's non-A2A event: recorded, not audited.
    let mut unchecked = false;
    let baseline = if let Some(report) = &packet.bundle {
        // The bundle as a whole: upstream's verdict, recorded with its run root.
        findings.extend(bundle_finding(report));
        let attestation = attestation_check(&packet.source.path, &options.trusted_keys);
        findings.extend(attestation.finding);
        let mut current = bundle_object(report, &findings, attestation.signer);
        if options.trusted_keys.is_empty() {
            keep_unjudged_attestation(&mut current, &golden);
        }
        // The object of a bundle is its manifest.json (the packet's bytes).
        let manifest = || serde_json::from_slice::<Value>(&packet.bytes).ok();
        compare_object(
            &current,
            golden,
            (&manifest, is_file),
            &mut findings,
            &mut recorded_findings,
        );
        if options.record_content && is_file {
            content.object = manifest().as_ref().and_then(Content::of);
        }
        object = Some(Box::new(current));
        Status::Conforms
    } else if converted_kind(summary.kind) {
        for mode_summary in summary.evaluated_modes() {
            let mode = mode_summary.mode;
            let expected = entry.and_then(|entry| entry.mode(mode));
            let current = || converted_payload(packet, options, mode);
            let sides = DriftSides {
                recorded: entry.and_then(|entry| entry.content.modes[mode.index()].as_ref()),
                is_file,
                current: &current,
            };
            if options.record_content && is_file {
                content.modes[mode.index()] =
                    converted_payload_bytes(packet, options, mode).and_then(Content::of_canonical);
            }
            verdicts[mode.index()] = match expected {
                Some(expected) => match golden_finding(mode, expected, mode_summary, &sides) {
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
                findings.extend(event_hash_finding(packet));
            } else if summary.kind.is_profile() {
                profile_findings(packet, &value, &summary, options, &mut findings);
            } else {
                migrated = migration_findings(judged.take(), &mut findings);
            }
            let current = current_object(&value, &summary, &findings, migrated);
            let whole = || Some(value.clone());
            compare_object(
                &current,
                golden,
                (&whole, is_file),
                &mut findings,
                &mut recorded_findings,
            );
            if options.record_content && is_file {
                content.object = Content::of(&value);
            }
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
    let status = with_recorded(worst_status(baseline, &findings, None), &recorded_findings);
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
        content: (content != Contents::default()).then(|| Box::new(content)),
    }
}

/// The payload `mode` converts the packet to, converted again (a check keeps digests only),
/// as a tree for a drift's field-by-field diff: `None` when that tree would pass
/// `json::tree_cap` (`attributes` of a million small objects are 700 MB as a tree).
fn converted_payload(
    packet: &RawPacket,
    options: &CheckOptions,
    mode: Mode,
) -> Option<serde_json::Value> {
    crate::json::tree_within_cap(&converted_payload_bytes(packet, options, mode)?)
}

/// The canonical bytes of the payload `mode` converts the packet to, written without a tree.
fn converted_payload_bytes(
    packet: &RawPacket,
    options: &CheckOptions,
    mode: Mode,
) -> Option<Vec<u8>> {
    let conversion =
        crate::a2a::convert(&packet.bytes, &options.evaluate.conversion.with_mode(mode));
    conversion
        .converted()
        .map(crate::a2a::Converted::payload_bytes)
}
