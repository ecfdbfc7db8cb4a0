//! `verify`: upstream's bundle verification, one line per bundle (text) or one JSON object;
//! with `--key`, each bundle's attestation judged as upstream's library judges it.

use super::common::{json_line, TextOrJson};
use super::{CliError, Exit, Output};
use crate::bundle::attest::{judge_bundle_file, read_trusted_keys, verify_attestation, Judged};
use crate::bundle::attest::{TrustedKey, MAX_ENVELOPE_BYTES};
use crate::bundle::{verify_path, verify_reader, Bundle, Compared, Limits};
use crate::json::safe_text;
use crate::report::attestation_text::{attestation_lines, is_failure, AttestationJson};
use crate::report::styled::{Style, StyledText};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Verify assay evidence bundles (.tar.gz) exactly as upstream's verifier does.
///
/// Runs the checks of upstream's `verify_bundle` in its order; the first failure wins and is
/// reported with upstream's class, code and message, the step that failed and what it
/// compared. A directory stands for every *.tar.gz / *.tgz below it; `-` reads standard input.
///
/// What passing shows: the archive has upstream's layout, each line's content hash matches
/// its data, the sequence is contiguous, and run root and file hash agree with the lines.
/// What it does not: who wrote the bundle (nothing is signed; anyone can edit a line and
/// recompute every hash), nor anything about `time`, `source` or `id` beyond the resealable
/// file hash, nor that any handoff in it was correct or authorized.
///
/// With --key, each bundle's attestation (an in-toto statement in a DSSE envelope, as
/// upstream's `assay evidence attest` writes it) is judged by upstream's fifteen checks in its
/// order: the envelope given with --attestation, else BUNDLE.dsse.json or NAME.dsse.json
/// beside the bundle. The outcome is "attestation verified" (a trusted key signed a statement
/// naming exactly these bytes), "signature verified, artifact not matched" (--attestation
/// without a BUNDLE) or "attestation refused" (the check and upstream's reason). An attestation
/// binds who said it and the bytes of one archive; it does not make any handoff flag mean
/// more, and which keys to trust is the reader's decision.
///
/// Exit 0 when every bundle passes (and, with --key, every attestation verifies), 1 when any
/// fails verification or its attestation is refused or absent, 2 when a path cannot be read or
/// a directory holds no bundle.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format: text (one line per bundle, then the failed check) or one JSON object per line.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Lift every configurable limit (input, decoded, member and line sizes, event count,
    /// name length, JSON depth); the rest of the contract is still checked.
    #[arg(long)]
    pub no_verify_limits: bool,
    /// Change one of upstream's limits, NAME=VALUE (max_bundle_bytes, max_decode_bytes,
    /// max_manifest_bytes, max_events_bytes, max_events, max_line_bytes, max_path_len,
    /// max_json_depth). Repeatable; applied after --no-verify-limits.
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limits: Vec<String>,
    /// A public key (SPKI PEM) to trust for attestations; repeatable: any of them whose
    /// signature verifies is the signer. Without it attestations are not looked at.
    #[arg(long = "key", value_name = "PUBLIC.pem")]
    pub keys: Vec<PathBuf>,
    /// The DSSE envelope to judge (default: BUNDLE.dsse.json or NAME.dsse.json beside each
    /// bundle). Without a BUNDLE the signature and statement alone are judged.
    #[arg(long, value_name = "ENVELOPE", requires = "keys")]
    pub attestation: Option<PathBuf>,
    /// Bundle files, directories holding bundles, or - for standard input.
    #[arg(required_unless_present = "attestation", value_name = "BUNDLE")]
    pub paths: Vec<PathBuf>,
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    code: String,
    class: &'static str,
    message: &'a str,
    step: u8,
    compared: Option<&'a Compared>,
}

#[derive(Serialize)]
struct Line<'a> {
    source: &'a str,
    valid: bool,
    error: Option<ErrorJson<'a>>,
    event_count: Option<u64>,
    run_id: Option<&'a str>,
    run_root: Option<&'a str>,
    a2a_events: Option<u64>,
    handoff_visible_events: Option<u64>,
    /// Only with --key.
    #[serde(skip_serializing_if = "Option::is_none")]
    attestation: Option<AttestationJson>,
}

pub fn limits_from(no_limits: bool, overrides: &[String]) -> Result<Limits, CliError> {
    let mut limits = if no_limits {
        Limits::unlimited()
    } else {
        Limits::default()
    };
    for assignment in overrides {
        limits.set(assignment).map_err(CliError::Usage)?;
    }
    Ok(limits)
}

/// The bundle files a path stands for: itself, or the bundles below a directory, sorted.
fn bundle_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let file_type = entry.file_type()?;
            let child = entry.path();
            if file_type.is_dir() {
                pending.push(child);
            } else if is_bundle_name(&child) {
                found.push(child);
            }
        }
    }
    found.sort();
    Ok(found)
}

pub fn is_bundle_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".tar.gz") || name.ends_with(".tgz")
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let limits = limits_from(args.no_verify_limits, &args.limits)?;
    let keys = read_trusted_keys(&args.keys).map_err(CliError::Usage)?;
    if args.paths.is_empty() {
        if let Some(envelope) = &args.attestation {
            return signature_only(args.format, envelope, &keys, output);
        }
    }
    let mut load_errors = 0usize;
    let mut failed = 0usize;
    // A line per bundle: on a terminal, the lines are the progress.
    output.start_progress("verifying", true);
    for path in &args.paths {
        if path.as_os_str() == "-" {
            if !keys.is_empty() {
                return Err(CliError::Usage(
                    "verify --key reads the bundle from a file, not from standard input".into(),
                ));
            }
            let bundle = verify_reader(std::io::stdin().lock(), &limits);
            failed += usize::from(!bundle.is_valid());
            report(output, args.format, "-", &bundle, None)?;
            continue;
        }
        let files = match bundle_files(path) {
            Ok(files) => files,
            Err(error) => {
                load_errors += 1;
                output.note(&format!("{}: {error}", path.display()));
                continue;
            }
        };
        if files.is_empty() {
            // Nothing to verify is not "all verified": a directory without a bundle is an
            // input that could not be used, like one that could not be read.
            load_errors += 1;
            output.note(&format!(
                "no evidence bundle (.tar.gz) found under {}",
                path.display()
            ));
            continue;
        }
        for file in files {
            let source = file.display().to_string();
            let verified = verify_path(&file, &limits);
            let events = verified.as_ref().ok().and_then(Bundle::event_count);
            if let Some(counts) = output.progress_counts() {
                counts.add(events.unwrap_or(0), 1);
            }
            match verified {
                Ok(bundle) => {
                    let judged = (!keys.is_empty())
                        .then(|| judge_bundle_file(&file, args.attestation.as_deref(), &keys));
                    if let Some(Judged::Unreadable { error, .. }) = &judged {
                        load_errors += 1;
                        output.note(error);
                    }
                    let attested = judged.as_ref().is_none_or(|judged| !is_failure(judged));
                    failed += usize::from(!bundle.is_valid() || !attested);
                    let attestation = judged.as_ref().map(|judged| (judged, &keys[..]));
                    report(output, args.format, &source, &bundle, attestation)?;
                }
                Err(error) => {
                    load_errors += 1;
                    output.note(&error.to_string());
                }
            }
        }
    }
    Ok(Exit::from_counts(load_errors, failed))
}

/// `--attestation ENVELOPE` without a bundle: who signed which statement, no artifact matched.
fn signature_only(
    format: TextOrJson,
    envelope: &Path,
    keys: &[TrustedKey],
    output: &mut Output,
) -> Result<Exit, CliError> {
    let bytes = crate::input::read_file(envelope, MAX_ENVELOPE_BYTES)?;
    let judged = Judged::Judged {
        envelope: envelope.to_path_buf(),
        attestation: Box::new(verify_attestation(&bytes, keys, None)),
    };
    match format {
        TextOrJson::Json => json_line(
            output,
            &serde_json::json!({"attestation": AttestationJson::of(&judged, keys)}),
        )?,
        TextOrJson::Text => {
            for line in attestation_lines(&judged, keys) {
                output.line(&line);
            }
        }
    }
    Ok(if is_failure(&judged) {
        Exit::Findings
    } else {
        Exit::Ok
    })
}

fn report(
    output: &mut Output,
    format: TextOrJson,
    source: &str,
    bundle: &Bundle,
    attestation: Option<(&Judged, &[TrustedKey])>,
) -> Result<(), CliError> {
    match format {
        TextOrJson::Json => json_line(
            output,
            &Line {
                source,
                valid: bundle.is_valid(),
                error: bundle.error().map(|e| ErrorJson {
                    code: e.code.as_str(),
                    class: e.class().as_str(),
                    message: &e.message,
                    step: e.step,
                    compared: e.compared.as_ref(),
                }),
                event_count: bundle.event_count(),
                run_id: bundle.run_id(),
                run_root: bundle.run_root(),
                a2a_events: bundle.a2a_events(),
                handoff_visible_events: bundle.handoff_visible_events(),
                attestation: attestation.map(|(judged, keys)| AttestationJson::of(judged, keys)),
            },
        ),
        TextOrJson::Text => {
            output.styled_line(&text_lines(source, bundle));
            if let Some((judged, keys)) = attestation {
                for line in attestation_lines(judged, keys) {
                    output.line(&format!("  {line}"));
                }
            }
            Ok(())
        }
    }
}

/// `OK  run_root  N events  PATH`, or `FAIL  Class  Code  message  PATH` and the failed check;
/// the verdict styled, the code as a rule id, the bundle as a path.
fn text_lines(source: &str, bundle: &Bundle) -> StyledText {
    let source = safe_text(source);
    let mut text = StyledText::new();
    match &bundle.verdict {
        Ok(verified) => {
            text.push_styled(Style::Pass, "OK");
            let _ = write!(
                text,
                "  {}  {} events  ",
                safe_text(&verified.run_root),
                verified.event_count
            );
            text.push_styled(Style::Path, &source);
        }
        Err(error) => {
            text.push_styled(Style::Fail, "FAIL");
            let _ = write!(text, "  {}  ", error.class().as_str());
            text.push_styled(Style::Rule, &error.code.as_str());
            let _ = write!(text, "  {}  ", safe_text(&error.message));
            text.push_styled(Style::Path, &source);
            let _ = write!(text, "\n  step {}: {}", error.step, step_name(error.step));
            if let Some(compared) = &error.compared {
                let _ = write!(
                    text,
                    "\n  {}: expected {}, found {}",
                    safe_text(&compared.what),
                    safe_text(&compared.expected),
                    safe_text(&compared.found)
                );
            }
        }
    }
    text
}

/// What each step of the spec's §9 checks, for the explanation line.
fn step_name(step: u8) -> &'static str {
    match step {
        0 => "input size within max_bundle_bytes",
        1 => "gzip and tar headers readable",
        2 => "member name within max_path_len",
        3 => "member declared size within its limit",
        4 => "member name has no '..' or root component",
        5 => "member name is manifest.json or events.ndjson",
        6 => "member name not seen before",
        7 => "first member is manifest.json",
        8 => "manifest readable, strict JSON, schema_version 1",
        9 => "manifest describes events.ndjson with the member's size",
        10 => "line within max_line_bytes and readable",
        11 => "no byte-order mark",
        12 => "line count within max_events",
        13 => "no blank line",
        14 => "line is strict JSON with every required field",
        15 => "specversion is 1.0",
        16 => "assaycontenthash present",
        17 => "content hash recomputed equals stored",
        18 => "assayseq contiguous from 0",
        19 => "assayrunid equals the manifest's run_id",
        20 => "source is a URI, the same on every event",
        21 => "run_id has no colon",
        22 => "id equals run_id:seq",
        23 => "events.ndjson byte count and sha256 equal the manifest's",
        24 => "event_count, run_root and bundle_id equal the recomputed values",
        25 => "events.ndjson present; gzip trailer and decoded size",
        _ => "verification",
    }
}
