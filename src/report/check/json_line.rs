//! One `check --format json` packet line written straight into bytes from the check's
//! facts: no intermediate structs or `Value` tree for the common fields, no formatter per
//! string fragment. `json_oracle::packet_json_via_serde` builds the same line through
//! `serde` and is the test oracle for it (byte for byte, fixtures and the realistic mix).
//! The rare parts (a golden diff, an object golden) are still written by `serde_json`.

use crate::corpus::{
    CheckFinding, CheckItem, FindingKind, GoldenVerdict, ModeResult, PacketCheck, Source,
};
use crate::json::{safe_json_bytes, write_json_string, Digest};
use std::fmt::Write as _;

/// The line for one packet (or load error): terminal-safe UTF-8 JSON, without the newline.
pub(crate) fn write_packet_line(item: &CheckItem) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(1024);
    match item {
        CheckItem::Packet(check) => write_packet(check, &mut out)?,
        CheckItem::LoadError(error) => {
            out.extend_from_slice(br#"{"source":"#);
            write_source(&error.source, &mut out);
            out.extend_from_slice(br#","kind":"load_error","status":"error","findings":["#);
            let finding = CheckFinding::new(FindingKind::LoadError, None, error.reason.clone());
            write_finding(&finding, &mut out)?;
            out.extend_from_slice(b"]}");
        }
    }
    Ok(safe_json_bytes(out))
}

fn write_packet(check: &PacketCheck, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let summary = &check.summary;
    out.extend_from_slice(br#"{"source":"#);
    write_source(&summary.source, out);
    out.extend_from_slice(br#","kind":"#);
    write_json_string(summary.kind.tag(), out);
    out.extend_from_slice(br#","status":"#);
    write_json_string(check.status.key(), out);
    write_modes(check, out);
    if summary.kind.canonical_shape().is_some() {
        out.extend_from_slice(br#","audit":{"errors":"#);
        write_number(u64::from(summary.audit_errors), out);
        out.extend_from_slice(br#","warnings":"#);
        write_number(u64::from(summary.audit_warnings), out);
        out.extend_from_slice(br#","state":"#);
        match summary.canonical_state {
            Some(state) => write_json_string(state.key(), out),
            None => out.extend_from_slice(b"null"),
        }
        let supports = summary.audit_supports.keys();
        if !supports.is_empty() {
            out.extend_from_slice(br#","supports":"#);
            write_string_list(supports.iter().copied(), out);
        }
        out.push(b'}');
    }
    if !check.duplicate_key_paths.is_empty() {
        out.extend_from_slice(br#","duplicate_keys":"#);
        write_string_list(check.duplicate_key_paths.iter(), out);
    }
    out.extend_from_slice(br#","findings":"#);
    write_findings(&check.findings, out)?;
    if !check.recorded_findings.is_empty() {
        out.extend_from_slice(br#","recorded_findings":"#);
        write_findings(&check.recorded_findings, out)?;
    }
    if let Some(object) = &check.object {
        out.extend_from_slice(br#","object":"#);
        serde_json::to_writer(&mut *out, &object.to_json())?;
    }
    if let Some(bundle) = &check.bundle {
        out.extend_from_slice(br#","bundle":"#);
        serde_json::to_writer(&mut *out, &super::json::bundle_json(bundle))?;
    }
    out.push(b'}');
    Ok(())
}

/// `"modes":[…]` for every evaluated mode with a verdict; nothing when there is none.
fn write_modes(check: &PacketCheck, out: &mut Vec<u8>) {
    let mut first = true;
    for summary in check.summary.evaluated_modes() {
        let Some(verdict) = check.mode(summary.mode) else {
            continue;
        };
        out.extend_from_slice(if first { br#","modes":["# } else { b"," });
        first = false;
        out.extend_from_slice(br#"{"mode":"#);
        write_json_string(summary.mode.name(), out);
        out.extend_from_slice(br#","status":"#);
        write_json_string(verdict.status.key(), out);
        out.extend_from_slice(br#","golden":"#);
        write_json_string(golden_key(verdict.golden), out);
        match summary.result {
            ModeResult::Converted {
                canonical_type,
                state,
                digests,
            } => {
                out.extend_from_slice(br#","outcome":"converted","event":"#);
                write_json_string(canonical_type.short_name(), out);
                if let Some(state) = state {
                    out.extend_from_slice(br#","state":"#);
                    write_json_string(state.key(), out);
                }
                out.extend_from_slice(br#","digests":{"payload":"#);
                write_digest(&digests.payload, out);
                out.extend_from_slice(br#","handoff":"#);
                write_digest(&digests.handoff, out);
                out.extend_from_slice(br#","discovery":"#);
                write_digest(&digests.discovery, out);
                out.push(b'}');
            }
            ModeResult::Rejected { kind, rule } => {
                out.extend_from_slice(br#","outcome":"rejected","error":"#);
                write_json_string(kind.name(), out);
                out.extend_from_slice(br#","rule":"#);
                write_json_string(rule, out);
            }
        }
        out.extend_from_slice(br#","rows":"#);
        write_string_list(summary.rows.ids(), out);
        out.push(b'}');
    }
    if !first {
        out.push(b']');
    }
}

/// A JSON array of strings.
fn write_string_list<'a>(items: impl Iterator<Item = &'a str>, out: &mut Vec<u8>) {
    out.push(b'[');
    for (index, item) in items.enumerate() {
        if index > 0 {
            out.push(b',');
        }
        write_json_string(item, out);
    }
    out.push(b']');
}

fn write_findings(findings: &[CheckFinding], out: &mut Vec<u8>) -> serde_json::Result<()> {
    out.push(b'[');
    for (index, finding) in findings.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        write_finding(finding, out)?;
    }
    out.push(b']');
    Ok(())
}

fn write_finding(finding: &CheckFinding, out: &mut Vec<u8>) -> serde_json::Result<()> {
    out.extend_from_slice(br#"{"kind":"#);
    write_json_string(finding.kind.key(), out);
    if let Some(mode) = finding.mode {
        out.extend_from_slice(br#","mode":"#);
        write_json_string(mode.name(), out);
    }
    if let Some(rule) = &finding.rule {
        out.extend_from_slice(br#","rule":"#);
        write_json_string(rule, out);
    }
    if let Some(class) = finding.class {
        out.extend_from_slice(br#","class":"#);
        write_json_string(class, out);
    }
    out.extend_from_slice(br#","message":"#);
    write_json_string(&finding.message, out);
    if let Some(diff) = &finding.diff {
        out.extend_from_slice(br#","diff":"#);
        serde_json::to_writer(&mut *out, diff)?;
    }
    out.push(b'}');
    Ok(())
}

/// `Source` serializes as its display text.
fn write_source(source: &Source, out: &mut Vec<u8>) {
    let mut text = String::with_capacity(64);
    let _ = write!(text, "{source}");
    write_json_string(&text, out);
}

fn write_digest(digest: &Digest, out: &mut Vec<u8>) {
    out.push(b'"');
    out.extend_from_slice(digest.hex_str(&mut [0u8; 64]).as_bytes());
    out.push(b'"');
}

fn write_number(number: u64, out: &mut Vec<u8>) {
    let mut text = String::with_capacity(20);
    let _ = write!(text, "{number}");
    out.extend_from_slice(text.as_bytes());
}

/// `GoldenVerdict`'s snake_case serde names.
fn golden_key(verdict: GoldenVerdict) -> &'static str {
    match verdict {
        GoldenVerdict::Matches => "matches",
        GoldenVerdict::Differs => "differs",
        GoldenVerdict::Missing => "missing",
    }
}
