//! The attestation of a bundle file: the envelope named, or the one beside the bundle
//! (`BUNDLE.dsse.json`, then `NAME.dsse.json` for `NAME.tar.gz` / `NAME.tgz`), read through the
//! input layer and judged against the reader's keys, the bundle streamed from its file. Every
//! face (`verify`, `explain`, `check`, `diff`, the inspector) asks this one function.

use super::envelope::MAX_ENVELOPE_BYTES;
use super::keys::{TrustedKey, MAX_KEY_FILE_BYTES};
use super::verify::{verify_attestation, Attestation};
use crate::input::{open_regular, read_file, InputError};
use std::path::{Path, PathBuf};

/// What a bundle's attestation came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judged {
    /// No envelope beside the bundle (the places looked at, in order).
    Absent { looked: Vec<PathBuf> },
    /// The envelope or the bundle could not be read: a load error, not a verdict.
    Unreadable { envelope: PathBuf, error: String },
    Judged {
        envelope: PathBuf,
        attestation: Box<Attestation>,
    },
}

impl Judged {
    /// The state every face names it by.
    pub fn state_name(&self) -> &'static str {
        match self {
            Judged::Absent { .. } => "not attested",
            Judged::Unreadable { .. } => "attestation not read",
            Judged::Judged { attestation, .. } => attestation.outcome.name(),
        }
    }

    /// Refused by a check, or not read: what `check` reports and `explain` fails on. An
    /// absent envelope is neither (only `verify --key`, asked about it, counts it).
    pub fn is_refused(&self) -> bool {
        match self {
            Judged::Absent { .. } => false,
            Judged::Unreadable { .. } => true,
            Judged::Judged { attestation, .. } => attestation.refusal().is_some(),
        }
    }
}

/// The ending of an envelope beside a bundle (`BUNDLE.dsse.json`, `NAME.dsse.json`): what
/// `verify`, `check --key` and the classifier look for.
pub const ENVELOPE_SUFFIX: &str = ".dsse.json";

/// Where an envelope beside `bundle` may lie, in the order looked at.
pub fn envelopes_beside(bundle: &Path) -> Vec<PathBuf> {
    let mut places = Vec::with_capacity(2);
    let Some(name) = bundle.file_name().and_then(|name| name.to_str()) else {
        return places;
    };
    places.push(bundle.with_file_name(format!("{name}{ENVELOPE_SUFFIX}")));
    let stem = name
        .strip_suffix(".tar.gz")
        .or_else(|| name.strip_suffix(".tgz"));
    if let Some(stem) = stem {
        places.push(bundle.with_file_name(format!("{stem}{ENVELOPE_SUFFIX}")));
    }
    places
}

/// The bundles an envelope named as one beside a bundle may be the attestation of, in the
/// order `envelopes_beside` pairs them: `BUNDLE` for `BUNDLE.dsse.json` when it names a bundle,
/// else `NAME.tar.gz`, `NAME.tgz` for `NAME.dsse.json`. Empty for any other name.
pub fn bundles_beside(envelope: &Path) -> Vec<PathBuf> {
    let Some(stem) = envelope
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.strip_suffix(ENVELOPE_SUFFIX))
        .filter(|stem| !stem.is_empty())
    else {
        return Vec::new();
    };
    if crate::bundle::is_bundle_path(Path::new(stem)) {
        return vec![envelope.with_file_name(stem)];
    }
    [".tar.gz", ".tgz"]
        .iter()
        .map(|ending| envelope.with_file_name(format!("{stem}{ending}")))
        .collect()
}

/// Judges the attestation of the bundle file `bundle`: `envelope` when named, else the first
/// of `envelopes_beside` that exists.
pub fn judge_bundle_file(bundle: &Path, envelope: Option<&Path>, keys: &[TrustedKey]) -> Judged {
    let envelope = match envelope {
        Some(envelope) => envelope.to_path_buf(),
        None => {
            let looked = envelopes_beside(bundle);
            match looked.iter().find(|place| place.exists()) {
                Some(place) => place.clone(),
                None => return Judged::Absent { looked },
            }
        }
    };
    let unreadable = |error: InputError| Judged::Unreadable {
        envelope: envelope.clone(),
        error: error.to_string(),
    };
    let bytes = match read_file(&envelope, MAX_ENVELOPE_BYTES) {
        Ok(bytes) => bytes,
        Err(error) => return unreadable(error),
    };
    let mut file = match open_regular(bundle) {
        Ok(file) => file,
        Err(error) => return unreadable(error),
    };
    let attestation = Box::new(verify_attestation(&bytes, keys, Some(&mut file)));
    Judged::Judged {
        envelope,
        attestation,
    }
}

/// Judges an envelope file found on its own (walked, or named to `explain`): against the
/// first bundle beside it that exists (`bundles_beside`), as `verify --attestation` would;
/// with no bundle beside it, its signature alone (the best outcome is then
/// "signature verified, artifact not matched"). Returns the bundle it was judged with.
pub fn judge_envelope_file(envelope: &Path, keys: &[TrustedKey]) -> (Option<PathBuf>, Judged) {
    if let Some(bundle) = bundles_beside(envelope)
        .into_iter()
        .find(|bundle| bundle.exists())
    {
        let judged = judge_bundle_file(&bundle, Some(envelope), keys);
        return (Some(bundle), judged);
    }
    let judged = match read_file(envelope, MAX_ENVELOPE_BYTES) {
        Ok(bytes) => Judged::Judged {
            envelope: envelope.to_path_buf(),
            attestation: Box::new(verify_attestation(&bytes, keys, None)),
        },
        Err(error) => Judged::Unreadable {
            envelope: envelope.to_path_buf(),
            error: error.to_string(),
        },
    };
    (None, judged)
}

/// The public key files named, read through the input layer: the first that cannot be read
/// or is not an Ed25519 public key ends the reading with its path and reason.
pub fn read_trusted_keys(paths: &[PathBuf]) -> Result<Vec<TrustedKey>, String> {
    paths
        .iter()
        .map(|path| {
            let shown = path.display().to_string();
            let bytes = read_file(path, MAX_KEY_FILE_BYTES).map_err(|e| e.to_string())?;
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{shown}: not a PEM key file (not UTF-8)"))?;
            TrustedKey::from_pem(&text, shown.clone())
                .map_err(|reason| format!("{shown}: {reason}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_are_looked_for_beside_the_bundle() {
        assert_eq!(
            envelopes_beside(Path::new("runs/a.tar.gz")),
            [
                PathBuf::from("runs/a.tar.gz.dsse.json"),
                PathBuf::from("runs/a.dsse.json")
            ]
        );
        assert_eq!(
            envelopes_beside(Path::new("b.tgz")),
            [
                PathBuf::from("b.tgz.dsse.json"),
                PathBuf::from("b.dsse.json")
            ]
        );
        // And back: each envelope name to the bundles it may be beside.
        assert_eq!(
            bundles_beside(Path::new("runs/a.tar.gz.dsse.json")),
            [PathBuf::from("runs/a.tar.gz")]
        );
        assert_eq!(
            bundles_beside(Path::new("b.dsse.json")),
            [PathBuf::from("b.tar.gz"), PathBuf::from("b.tgz")]
        );
        assert!(bundles_beside(Path::new(".dsse.json")).is_empty());
        assert!(bundles_beside(Path::new("b.json")).is_empty());
        assert_eq!(
            envelopes_beside(Path::new("c.bin")),
            [PathBuf::from("c.bin.dsse.json")]
        );
    }

    #[test]
    fn an_absent_or_unreadable_envelope_is_not_a_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("x.tar.gz");
        std::fs::write(&bundle, b"").unwrap();
        assert!(matches!(
            judge_bundle_file(&bundle, None, &[]),
            Judged::Absent { looked } if looked.len() == 2
        ));
        let missing = dir.path().join("none.dsse.json");
        let Judged::Unreadable { error, .. } = judge_bundle_file(&bundle, Some(&missing), &[])
        else {
            panic!("read a missing envelope");
        };
        assert!(error.contains("no such file"), "{error}");
        let bad_key = dir.path().join("k.pem");
        std::fs::write(&bad_key, "nope").unwrap();
        let error = read_trusted_keys(&[bad_key]).unwrap_err();
        assert!(
            error.contains("k.pem: not an Ed25519 public key"),
            "{error}"
        );
    }
}
