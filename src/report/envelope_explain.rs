//! `explain` of an attestation envelope found on its own (kind `attestation`): what the
//! envelope states, the bundle beside it, and, with trusted keys, what it was judged to be in
//! the words every face uses (`attestation_text`). Without keys nothing is judged, and the
//! text says how to judge it.

use super::attestation_text::{attestation_lines, is_failure, AttestationJson};
use super::explain::heading;
use crate::bundle::attest::{Envelope, Judged, TrustedKey, ATTESTATION_SHOWS};
use crate::json::safe_text;
use crate::packet::PacketKind;
use serde::Serialize;
use std::path::PathBuf;

/// An envelope file explained: read, and judged when keys were given.
pub struct EnvelopeExplanation<'a> {
    pub source: &'a str,
    /// The envelope as DSSE reads it, or why it does not read as one.
    pub envelope: Result<Envelope, String>,
    /// The bundle it was judged with (the first beside it that exists).
    pub bundle: Option<PathBuf>,
    /// `None` without trusted keys.
    pub judged: Option<Judged>,
    pub keys: &'a [TrustedKey],
}

#[derive(Serialize)]
struct EnvelopeJson<'a> {
    source: &'a str,
    kind: &'static str,
    reads: bool,
    error: Option<&'a str>,
    payload_type: Option<&'a str>,
    signatures: usize,
    /// The first signature's keyid as the envelope states it (never compared with a key).
    stated_keyid: Option<&'a str>,
    bundle: Option<String>,
    attestation: Option<AttestationJson>,
}

impl EnvelopeExplanation<'_> {
    /// Reads as an envelope and, when judged, is not refused.
    pub fn conforms(&self) -> bool {
        self.envelope.is_ok() && !self.judged.as_ref().is_some_and(is_failure)
    }

    pub fn text(&self) -> String {
        let mut lines = vec![heading(self.source, PacketKind::Attestation, None)];
        match &self.envelope {
            Ok(envelope) => {
                let stated = envelope
                    .signatures
                    .first()
                    .map(|signature| {
                        format!(
                            ", the first with keyid \"{}\" as the envelope states it",
                            safe_text(&signature.keyid)
                        )
                    })
                    .unwrap_or_default();
                lines.push(format!(
                    "envelope: payloadType \"{}\", {} signature(s){stated}",
                    safe_text(&envelope.payload_type),
                    envelope.signatures.len()
                ));
            }
            Err(reason) => lines.push(format!(
                "does not read as a DSSE envelope: {}",
                safe_text(reason)
            )),
        }
        lines.push(match &self.bundle {
            Some(bundle) => format!(
                "bundle beside it: {}",
                safe_text(&bundle.display().to_string())
            ),
            None => "no bundle beside it (NAME.tar.gz or NAME.tgz for NAME.dsse.json)".to_owned(),
        });
        match &self.judged {
            Some(judged) => {
                lines.push("attestation (trusted keys given):".to_owned());
                for line in attestation_lines(judged, self.keys) {
                    lines.push(format!("  {line}"));
                }
            }
            None => {
                lines.push(
                    "not judged: no trusted key given (--key PUBLIC.pem, or HANDOFF_TRUSTED_KEYS)"
                        .to_owned(),
                );
                lines.push(ATTESTATION_SHOWS.to_owned());
            }
        }
        lines.join("\n")
    }

    pub fn json(&self) -> serde_json::Value {
        let envelope = self.envelope.as_ref().ok();
        serde_json::to_value(EnvelopeJson {
            source: self.source,
            kind: PacketKind::Attestation.tag(),
            reads: envelope.is_some(),
            error: self.envelope.as_ref().err().map(String::as_str),
            payload_type: envelope.map(|envelope| envelope.payload_type.as_str()),
            signatures: envelope.map_or(0, |envelope| envelope.signatures.len()),
            stated_keyid: envelope
                .and_then(|envelope| envelope.signatures.first())
                .map(|signature| signature.keyid.as_str()),
            bundle: self
                .bundle
                .as_ref()
                .map(|bundle| bundle.display().to_string()),
            attestation: self
                .judged
                .as_ref()
                .map(|judged| AttestationJson::of(judged, self.keys)),
        })
        .unwrap_or_default()
    }
}
