//! `explain`: why each handoff flag of a raw packet is what it is, or the freeze audit of
//! canonical evidence (payload, event or batch).

use super::common::{for_each_packet, json_line, ConversionFlags, ProfileFlags, TextOrJson};
use super::{CliError, Exit, Output};
use crate::a2a::convert;
use crate::corpus::{
    classify, kind_after_conversion, migration_owned, take_tree, unaudited_bundle_event, PacketKind,
};
use crate::freeze::{audit, explain_conversion};
use crate::json::{count_duplicate_keys, for_each_duplicate_key};
use crate::profiles;
use crate::report::bundle_explain::BundleExplanation;
use crate::report::envelope_explain::EnvelopeExplanation;
use crate::report::explain::{
    audit_text, duplicate_line, explanation_text, heading, AuditJson, ExplanationJson,
};
use crate::report::object_explain::{
    a2a_object_conforms, a2a_object_text, undetected_a2a_text, unknown_text, A2aObjectJson,
    ManifestJson,
};
use crate::report::profile_text;
use crate::report::styled::{Style, StyledText};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Explain FILE as whatever kind it is (the kind `ls` gives it): a raw packet's handoff flags
/// against the K1-A rule table (any bytes: not JSON is the adapter's C3), canonical evidence
/// (payload, event, batch) audited against the freeze, an A2A object's migration (version,
/// dialect, steps, findings), a master/sub, ContextCore or UAIX packet against its profile's
/// rule table, a golden manifest (what it records, whether it parses). An evidence bundle
/// (.tar.gz): upstream's verdict, every check of the verification in order with pass/fail,
/// a line per event (content hash, handoff state, audit) and upstream's A2A lint rules;
/// BUNDLE:SEQ explains one of its events like any evidence event. With trusted keys (--key,
/// HANDOFF_TRUSTED_KEYS) a bundle's attestation beside it is judged too: verified (who signed,
/// which subject and run) or refused (the check and why). An attestation binds who said it
/// and the bytes of one archive; it does not make any handoff flag mean more.
///
/// Exit 0 when the packet converted (raw), conforms (canonical, profile, A2A object) or parses
/// (manifest), 1 otherwise (and for files of no known shape), 2 on usage or I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    #[command(flatten)]
    pub walk: super::common::WalkFlags,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub keys: super::common::KeyFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// The packet file (an NDJSON file explains each line), a bundle, or BUNDLE:SEQ.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let profile_options = args.profile.options()?;
    let keys = args.keys.trusted_keys()?;
    let mut findings = 0usize;
    let mut result = Ok(());
    // A bundle named on its own is explained as a whole (its events in a line each); its
    // events one by one with BUNDLE:SEQ, or when a directory holding it is walked.
    let named_bundle = crate::bundle::is_bundle_path(&args.file) && !args.file.is_dir();
    // Each bundle's attestation judged once, for all of its events.
    let mut attestations = BundleAttestations {
        keys: &keys,
        judged: std::collections::HashMap::new(),
    };
    let evaluate = crate::corpus::EvaluateOptions {
        conversion: options.clone(),
        profile: profile_options.clone(),
        ..Default::default()
    };
    let load_errors = for_each_packet(
        std::slice::from_ref(&args.file),
        &args.walk,
        output,
        &mut |packet, output| {
            if named_bundle && packet.source.is_bundle_event() {
                return;
            }
            if packet.bundle.is_some() {
                let written =
                    explain_bundle(&packet.source.path, &evaluate, &keys, args.format, output);
                match written {
                    Ok(true) => {}
                    Ok(false) => findings += 1,
                    Err(error) => result = Err(error),
                }
                return;
            }
            let source = packet.source.to_string();
            // Counted first, listed only where they are printed: a list of a million repeated
            // keys held beside the packet's tree is what this command's memory was.
            let duplicate_count = count_duplicate_keys(&packet.bytes);
            // The one classifier, as `ls` and `check` ask it: after the conversion.
            let mut conversion = convert(&packet.bytes, &options);
            let mut reparsed = None;
            let (kind, parsed) = kind_after_conversion(&packet, &conversion, &mut reparsed);
            let (conforms, written) = match (parsed, kind) {
                (Ok(value), PacketKind::EvidenceEvent)
                    if unaudited_bundle_event(&packet.source, value) =>
                {
                    let reason = "a bundle event that is not an A2A adapter event (type outside assay.adapter.a2a.): listed and recorded, not audited (not checked)";
                    let written = match args.format {
                        TextOrJson::Text => text(
                            output,
                            &format!(
                                "{}\n{reason}",
                                heading(&source, PacketKind::EvidenceEvent, None)
                            ),
                        ),
                        TextOrJson::Json => json_line(
                            output,
                            &serde_json::json!({
                                "source": source,
                                "kind": PacketKind::EvidenceEvent.tag(),
                                "status": crate::corpus::Status::NotChecked.key(),
                                "reason": reason,
                                "findings": [],
                            }),
                        ),
                    };
                    (true, written)
                }
                (Ok(value), kind) if kind.canonical_shape().is_some() => {
                    let Some(shape) = kind.canonical_shape() else {
                        return;
                    };
                    let audit = audit(value, shape);
                    let in_bundle = bundle_event_lines(&packet, &mut attestations);
                    let written = match args.format {
                        TextOrJson::Text => {
                            // The event's place in its bundle goes first, under the heading: a
                            // content hash that does not match is what a reviewer must see.
                            // Then the repeated keys, as the scan finds them.
                            let mut rest = audit_text(&source, kind, &audit);
                            let heading = rest.take_first_line();
                            output.styled_line(&heading);
                            for line in &in_bundle.lines {
                                output.styled_line(line);
                            }
                            duplicate_lines(output, &packet.bytes);
                            styled(output, rest)
                        }
                        TextOrJson::Json => {
                            let json = AuditJson::new(&source, kind, &audit, &packet.bytes);
                            match (serde_json::to_value(&json), in_bundle.json) {
                                (Ok(serde_json::Value::Object(mut object)), Some(extra)) => {
                                    object.extend(extra);
                                    json_line(output, &object)
                                }
                                _ => json_line(output, &json),
                            }
                        }
                    };
                    (audit.conforms() && in_bundle.hash_matches, written)
                }
                (Ok(value), kind) if kind.is_profile() => {
                    let report = profiles::evaluate(
                        value,
                        &packet.bytes,
                        Some(&packet.source.path),
                        &profile_options,
                    );
                    let written = match args.format {
                        TextOrJson::Text => text(
                            output,
                            &format!(
                                "{}\n{}",
                                heading(&source, kind, None),
                                profile_text::render(&report)
                            ),
                        ),
                        TextOrJson::Json => json_line(output, &report),
                    };
                    (report.conforms(), written)
                }
                (Ok(value), kind) if kind.is_a2a_object() => {
                    let hints = crate::corpus::migration_hints(packet.source.file_name());
                    let detection = match crate::migrate::detect_with(value, &hints) {
                        Ok(detection) => detection,
                        Err(why) => {
                            // Read as an A2A object (by --as, or by its name) and not detected as
                            // one: said so, never silence.
                            let classification = classify(Ok(value), packet.source.file_name());
                            let why = why.to_string();
                            let written = match args.format {
                                TextOrJson::Text => text(
                                    output,
                                    &undetected_a2a_text(&source, &classification, &why),
                                ),
                                TextOrJson::Json => json_line(
                                    output,
                                    &serde_json::json!({
                                        "source": source,
                                        "kind": classification.kind.tag(),
                                        "reason": classification.reason,
                                        "detected": null,
                                        "not_detected": why,
                                    }),
                                ),
                            };
                            findings += 1;
                            if written.is_err() {
                                result = written;
                            }
                            return;
                        }
                    };
                    // The tree is given up to the migration, which keeps it as its input: the
                    // parse and a copy of a big object are not both held.
                    let migration = take_tree(&mut conversion, &mut reparsed)
                        .and_then(|tree| migration_owned(kind, &packet.source, tree));
                    let conforms = a2a_object_conforms(&detection, migration.as_ref());
                    let written = match args.format {
                        TextOrJson::Text => text(
                            output,
                            &a2a_object_text(&source, kind, &detection, migration.as_ref()),
                        ),
                        TextOrJson::Json => json_line(
                            output,
                            &A2aObjectJson::new(&source, kind, &detection, migration.as_ref()),
                        ),
                    };
                    (conforms, written)
                }
                (Ok(_), PacketKind::GoldenManifest) => {
                    let manifest = ManifestJson::new(&source, &packet.bytes);
                    let written = match args.format {
                        TextOrJson::Text => text(output, &manifest.text()),
                        TextOrJson::Json => json_line(output, &manifest),
                    };
                    (manifest.parses, written)
                }
                (Ok(_), PacketKind::Attestation) => {
                    let (bundle, judged) = if keys.is_empty() {
                        let beside = crate::bundle::attest::bundles_beside(&packet.source.path);
                        (beside.into_iter().find(|bundle| bundle.exists()), None)
                    } else {
                        let (bundle, judged) =
                            crate::bundle::attest::judge_envelope_file(&packet.source.path, &keys);
                        (bundle, Some(judged))
                    };
                    let explanation = EnvelopeExplanation {
                        source: &source,
                        envelope: crate::bundle::attest::Envelope::read(&packet.bytes),
                        bundle,
                        judged,
                        keys: &keys,
                    };
                    let written = match args.format {
                        TextOrJson::Text => text(output, &explanation.text()),
                        TextOrJson::Json => json_line(output, &explanation.json()),
                    };
                    (explanation.conforms(), written)
                }
                (Ok(value), PacketKind::Unknown) => {
                    let classification = classify(Ok(value), packet.source.file_name());
                    let written = match args.format {
                        TextOrJson::Text => text(output, &unknown_text(&source, &classification)),
                        TextOrJson::Json => json_line(
                            output,
                            &serde_json::json!({
                                "source": source,
                                "kind": classification.kind.tag(),
                                "reason": classification.reason,
                            }),
                        ),
                    };
                    (false, written)
                }
                // Everything else is what the adapter would be handed: explain its verdict.
                _ => {
                    // The conversion made for the classifier, explained as it is: converting again
                    // held a second tree of the packet beside the first (145 MiB on a 4.5 MB
                    // object of 200k repeated keys, against a bound of 81).
                    let explanation = explain_conversion(conversion);
                    let written = match args.format {
                        TextOrJson::Text => {
                            // The repeated keys go out as the scan finds them, under the heading,
                            // not collected beside the tree and the text.
                            let mut rest = explanation_text(&source, kind, &explanation);
                            let heading = rest.take_first_line();
                            output.styled_line(&heading);
                            duplicate_lines(output, &packet.bytes);
                            styled(output, rest)
                        }
                        TextOrJson::Json => json_line(
                            output,
                            &ExplanationJson::new(&source, kind, &explanation, &packet.bytes),
                        ),
                    };
                    (explanation.conversion.error().is_none(), written)
                }
            };
            if !conforms || duplicate_count > 0 {
                findings += 1;
            }
            if written.is_err() {
                result = written;
            }
        },
    );
    result?;
    Ok(Exit::from_counts(load_errors, findings))
}

/// The warning line of each repeated key in `text`, printed as the scan finds them (a packet
/// may repeat a million keys).
fn duplicate_lines(output: &mut Output, text: &[u8]) {
    for_each_duplicate_key(text, |duplicate| {
        output.styled_line(&duplicate_line(&duplicate))
    });
}

/// What an event of a bundle adds to its audit: whether its content hash matches (recomputed
/// vs stored) and the bundle's verdict.
struct InBundle {
    lines: Vec<StyledText>,
    json: Option<serde_json::Map<String, serde_json::Value>>,
    hash_matches: bool,
}

/// The attestations of the bundles whose events are explained, judged against the trusted
/// keys once per bundle (with no keys, none is judged).
struct BundleAttestations<'k> {
    keys: &'k [crate::bundle::attest::TrustedKey],
    judged:
        std::collections::HashMap<std::sync::Arc<std::path::Path>, crate::bundle::attest::Judged>,
}

impl BundleAttestations<'_> {
    fn of(
        &mut self,
        bundle: &std::sync::Arc<std::path::Path>,
    ) -> Option<&crate::bundle::attest::Judged> {
        if self.keys.is_empty() {
            return None;
        }
        let keys = self.keys;
        Some(
            self.judged
                .entry(bundle.clone())
                .or_insert_with(|| crate::bundle::attest::judge_bundle_file(bundle, None, keys)),
        )
    }
}

fn bundle_event_lines(
    packet: &crate::corpus::RawPacket,
    attestations: &mut BundleAttestations<'_>,
) -> InBundle {
    let (Some(report), Some(seq)) = (&packet.in_bundle, packet.source.line) else {
        return InBundle {
            lines: Vec::new(),
            json: None,
            hash_matches: true,
        };
    };
    let mismatch = report.hash_mismatch(seq);
    let mut verdict = StyledText::from("bundle: ");
    match report.error() {
        Some(error) => {
            verdict.push_styled(Style::Fail, "fails upstream's verification");
            let _ = write!(
                verdict,
                ": {} {}: {}",
                error.class().as_str(),
                error.code.as_str(),
                crate::json::safe_text(&error.message)
            );
        }
        None => verdict.push_styled(Style::Pass, "upstream's verifier accepts it"),
    }
    let mut lines = Vec::new();
    if let Some(mismatch) = mismatch {
        let mut line = StyledText::new();
        line.push_styled(Style::Fail, "content hash does not match");
        let _ = write!(
            line,
            ": recomputed {}, stored {}",
            crate::json::safe_text(&mismatch.recomputed),
            crate::json::safe_text(&mismatch.stored)
        );
        lines.push(line);
    }
    lines.push(verdict);
    // The bundle's attestation, when keys were given: a refused one says so on every event,
    // as an unverified bundle does.
    let keys = attestations.keys;
    let attestation = attestations.of(&packet.source.path);
    if let Some(judged) = attestation {
        let said = crate::report::attestation_text::attestation_lines(judged, keys);
        if let Some(first) = said.first() {
            lines.push(format!("bundle: {first}").into());
        }
    }
    let mut json = serde_json::Map::new();
    json.insert(
        "content_hash".into(),
        match mismatch {
            Some(mismatch) => serde_json::json!({
                "matches": false,
                "recomputed": mismatch.recomputed,
                "stored": mismatch.stored,
            }),
            None => serde_json::json!({"matches": true}),
        },
    );
    json.insert(
        "bundle".into(),
        serde_json::json!({
            "valid": report.is_valid(),
            "error": report.error().map(|error| error.code.as_str()),
            "attestation": attestation.map(|judged| judged.state_name()),
        }),
    );
    InBundle {
        lines,
        json: Some(json),
        hash_matches: mismatch.is_none(),
    }
}

/// Explains a bundle as a whole (and, with trusted keys, its attestation); `Ok(true)` when it
/// verifies, no event has an audit error and no attestation beside it is refused.
fn explain_bundle(
    path: &std::path::Path,
    evaluate: &crate::corpus::EvaluateOptions,
    keys: &[crate::bundle::attest::TrustedKey],
    format: TextOrJson,
    output: &mut Output,
) -> Result<bool, CliError> {
    use crate::bundle::attest::{judge_bundle_file, Judged};
    use crate::report::attestation_text::{attestation_lines, AttestationJson};
    let opened = match crate::corpus::open_packets(path, &crate::bundle::Limits::default()) {
        Ok(opened) => opened,
        Err(error) => return Err(CliError::Usage(error.to_string())),
    };
    let explanation = BundleExplanation::new(&opened, evaluate);
    let judged = (!keys.is_empty()).then(|| judge_bundle_file(path, None, keys));
    match format {
        TextOrJson::Text => {
            let mut shown = explanation.text().trim_end();
            if let Some(judged) = &judged {
                shown.push("\n\nattestation (trusted keys given):");
                for line in attestation_lines(judged, keys) {
                    let _ = write!(shown, "\n  {line}");
                }
            }
            styled(output, shown)?
        }
        TextOrJson::Json => {
            let mut json = explanation.json();
            if let (Some(judged), Some(object)) = (&judged, json.as_object_mut()) {
                let attestation =
                    serde_json::to_value(AttestationJson::of(judged, keys)).unwrap_or_default();
                object.insert("attestation".into(), attestation);
            }
            json_line(output, &json)?
        }
    }
    let refused = judged.as_ref().is_some_and(Judged::is_refused);
    Ok(explanation.conforms() && !refused)
}

fn text(output: &mut Output, text: &str) -> Result<(), CliError> {
    output.line(text.trim_end());
    Ok(())
}

/// [`text`] for styled text (given up: trimmed in place, not copied).
fn styled(output: &mut Output, mut text: StyledText) -> Result<(), CliError> {
    text.trim_end_in_place();
    output.styled_line(&text);
    Ok(())
}
