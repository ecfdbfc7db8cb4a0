//! A mode's paired expected payload (`NAME.MODE.payload.json`) against the payload the
//! conversion gives, with a diff when they differ.

use super::outcome::CheckOptions;
use crate::a2a::convert;
use crate::corpus::status::{CheckFinding, FindingKind};
use crate::corpus::{reread_packet, ModeResult, ModeSummary, RawPacket, Source};
use crate::golden::diff_json;
use crate::json::{digest_value, safe_text};
use serde_json::Value;
use std::path::Path;

pub(super) fn paired_finding(
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
                crate::corpus::evaluate::not_json_reason(&bytes, &error)
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
                        "{mode}: the converted payload differs from {name} at {} path(s); bless records goldens.json only; after review, update it: {}",
                        diff.total_changes,
                        crate::corpus::paired_update_command(&packet.source.path, path, mode)
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
