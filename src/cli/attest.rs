//! `attest`: sign an evidence bundle's attestation, the envelope upstream's `assay evidence
//! attest` writes for the same key and bundle, byte for byte.

use super::{CliError, Exit, Output};
use crate::bundle::attest::{attest, keyid, signing_key_from_pem, MAX_KEY_FILE_BYTES};
use crate::bundle::Limits;
use crate::input::read_file;
use crate::json::safe_text;
use crate::persist::{write_atomically, Replace};
use std::io::Write;
use std::path::PathBuf;

/// Sign an attestation of an evidence bundle (.tar.gz): an in-toto v1 statement naming the
/// archive's SHA-256, its run root and run, in a DSSE envelope signed with Ed25519.
///
/// The envelope is upstream's (`assay evidence attest --bundle B --key K`) for the same key
/// and bundle, byte for byte: the statement's RFC 8785 bytes as the payload, pretty JSON, a
/// newline at the end. A bundle that does not verify is refused and nothing is written. With
/// --out the envelope is written to a temporary file beside it and renamed into place; without
/// it, printed. `verify --key PUBLIC.pem BUNDLE` judges it (BUNDLE.dsse.json beside the bundle
/// is found without --attestation).
///
/// An attestation binds who said it and the bytes of one archive; it does not make any handoff
/// flag mean more, and which keys to trust is the reader's decision.
///
/// Exit 0 when signed, 1 when the bundle does not verify, 2 when a file cannot be read or
/// written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Ed25519 private key (PKCS#8 PEM, -----BEGIN PRIVATE KEY-----).
    #[arg(long, value_name = "PRIVATE.pem")]
    pub key: PathBuf,
    /// Write the envelope here (atomically) instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace --out if it exists.
    #[arg(long, requires = "out")]
    pub force: bool,
    /// The bundle to attest.
    #[arg(value_name = "BUNDLE")]
    pub bundle: PathBuf,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let shown = |path: &PathBuf| safe_text(&path.display().to_string()).into_owned();
    if let Some(out) = &args.out {
        if out.exists() && !args.force {
            return Err(CliError::Usage(format!(
                "{}: exists; pass --force to replace it",
                shown(out)
            )));
        }
    }
    let pem = read_file(&args.key, MAX_KEY_FILE_BYTES)?;
    let key = std::str::from_utf8(&pem)
        .map_err(|_| "not a PEM key file (not UTF-8)".to_owned())
        .and_then(signing_key_from_pem)
        .map_err(|reason| CliError::Usage(format!("{}: {reason}", shown(&args.key))))?;
    let bundle = read_file(&args.bundle, Limits::default().max_bundle_bytes)?;
    let envelope = match attest(&key, &bundle) {
        Ok(envelope) => envelope,
        Err(error) => {
            output.note(&format!(
                "{}: does not verify, not attested: {error}",
                shown(&args.bundle)
            ));
            return Ok(Exit::Findings);
        }
    };
    let text = envelope.to_text();
    match &args.out {
        None => {
            // Base64 and ASCII names only: nothing in it needs making terminal-safe.
            let _ = output.write_all(text.as_bytes());
        }
        Some(out) => {
            let replace = if args.force {
                Replace::Keep
            } else {
                Replace::Never
            };
            write_atomically(out, text.as_bytes(), replace).map_err(|error| CliError::Io {
                path: out.display().to_string(),
                error,
            })?;
            output.line(&format!(
                "wrote {}: attestation of {} signed by keyid {}",
                shown(out),
                shown(&args.bundle),
                keyid(&key.verifying_key())
            ));
        }
    }
    Ok(Exit::Ok)
}
