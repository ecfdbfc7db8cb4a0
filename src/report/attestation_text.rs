//! A bundle's attestation as every face says it: the state by its name, who signed (keyid and
//! key file), which subject and run, or the check that refused it and upstream's reason; and
//! the `attestation` object of `verify --format json`. Packet-derived text is terminal-safe.

use crate::bundle::attest::{Judged, Outcome, TrustedKey, ATTESTATION_SHOWS};
use crate::json::safe_text;
use serde::Serialize;

/// The state a face names for a judged (or absent, or unreadable) attestation.
pub fn state_name(judged: &Judged) -> &'static str {
    judged.state_name()
}

/// Whether a face that was given trusted keys counts this as a failure: anything but a
/// verified attestation (or, with no bundle offered, a verified signature).
pub fn is_failure(judged: &Judged) -> bool {
    match judged {
        Judged::Judged { attestation, .. } => attestation.refusal().is_some(),
        Judged::Absent { .. } | Judged::Unreadable { .. } => true,
    }
}

fn key_text(key: &TrustedKey) -> String {
    format!("{} (keyid {})", safe_text(&key.source), key.keyid)
}

/// The lines (without indent) that say what the attestation came to.
pub fn attestation_lines(judged: &Judged, keys: &[TrustedKey]) -> Vec<String> {
    let state = state_name(judged);
    let attestation = match judged {
        Judged::Absent { looked } => {
            let looked: Vec<String> = looked
                .iter()
                .map(|place| safe_text(&place.display().to_string()).into_owned())
                .collect();
            return vec![format!("{state}: no envelope at {}", looked.join(" or "))];
        }
        Judged::Unreadable { error, .. } => return vec![format!("{state}: {}", safe_text(error))],
        Judged::Judged { attestation, .. } => attestation,
    };
    let mut lines = Vec::new();
    let signer = attestation.signer(keys);
    match &attestation.outcome {
        Outcome::Refused(refusal) => {
            lines.push(format!(
                "{state} at check {} ({}): {}",
                refusal.check.number(),
                refusal.check.title(),
                safe_text(&refusal.message)
            ));
            match signer {
                Some(key) => lines.push(format!("signed by {}", key_text(key))),
                None => {
                    let trusted: Vec<String> = keys.iter().map(key_text).collect();
                    lines.push(format!("trusted keys: {}", trusted.join(", ")));
                }
            }
        }
        Outcome::Verified | Outcome::SignatureOnly => {
            if let Some(key) = signer {
                lines.push(format!("{state}: signed by {}", key_text(key)));
            }
            if let Some(attested) = &attestation.statement {
                let matched = if attestation.outcome == Outcome::Verified {
                    "these bytes"
                } else {
                    "no bundle offered: no archive's bytes matched"
                };
                lines.push(format!(
                    "subject {}, sha256 {} ({matched})",
                    safe_text(&attested.subject_name),
                    safe_text(&attested.subject_sha256)
                ));
                let run = &attested.predicate.run;
                lines.push(format!(
                    "run {}, {} events, {} .. {}, producer {} {}",
                    safe_text(&run.run_id),
                    run.event_count,
                    safe_text(&run.time_window.start),
                    safe_text(&run.time_window.end),
                    safe_text(&run.producer.name),
                    safe_text(&run.producer.version)
                ));
            }
            lines.push(ATTESTATION_SHOWS.to_owned());
        }
    }
    if let Judged::Judged { envelope, .. } = judged {
        lines.push(format!(
            "envelope {}",
            safe_text(&envelope.display().to_string())
        ));
    }
    lines
}

/// `verify --format json`'s `attestation` object.
#[derive(Serialize)]
pub struct AttestationJson {
    pub envelope: Option<String>,
    pub state: &'static str,
    pub verified: bool,
    /// The keyid of the trusted key whose signature verified.
    pub keyid: Option<String>,
    /// That key's file.
    pub key: Option<String>,
    /// The archive's SHA-256 the statement names, once it matched (or, with no bundle
    /// offered, as the statement names it).
    pub artifact_sha256: Option<String>,
    pub subject_name: Option<String>,
    pub run_id: Option<String>,
    /// Upstream's message when refused; the reason when absent or not read; else null.
    pub error: Option<String>,
    /// The check that decided a refusal: its number (1-15) and name.
    pub check: Option<u8>,
    pub check_id: Option<&'static str>,
}

impl AttestationJson {
    pub fn of(judged: &Judged, keys: &[TrustedKey]) -> AttestationJson {
        let mut json = AttestationJson {
            envelope: None,
            state: state_name(judged),
            verified: false,
            keyid: None,
            key: None,
            artifact_sha256: None,
            subject_name: None,
            run_id: None,
            error: None,
            check: None,
            check_id: None,
        };
        let (envelope, attestation) = match judged {
            Judged::Absent { .. } => {
                json.error = attestation_lines(judged, keys).pop();
                return json;
            }
            Judged::Unreadable { envelope, error } => {
                json.envelope = Some(envelope.display().to_string());
                json.error = Some(error.clone());
                return json;
            }
            Judged::Judged {
                envelope,
                attestation,
            } => (envelope, attestation),
        };
        json.envelope = Some(envelope.display().to_string());
        json.verified = attestation.is_verified();
        if let Some(key) = attestation.signer(keys) {
            json.keyid = Some(key.keyid.clone());
            json.key = Some(key.source.clone());
        }
        match (&attestation.outcome, &attestation.statement) {
            (Outcome::Refused(refusal), _) => {
                json.error = Some(refusal.message.clone());
                json.check = Some(refusal.check.number());
                json.check_id = Some(refusal.check.id());
            }
            (_, Some(attested)) => {
                json.artifact_sha256 = Some(attested.subject_sha256.clone());
                json.subject_name = Some(attested.subject_name.clone());
                json.run_id = Some(attested.predicate.run.run_id.clone());
            }
            (_, None) => {}
        }
        json
    }
}
