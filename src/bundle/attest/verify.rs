//! `verify_attestation_for_bundle`: upstream's fifteen checks in its order, the first failure
//! decides, with upstream's message; and the outcome as one of three named states.

use super::checks::Check;
use super::envelope::Envelope;
use super::keys::TrustedKey;
use super::pae::pae;
use super::statement::{
    Predicate, StatementIn, PAYLOAD_TYPE, PREDICATE_V0, PREDICATE_V1, STATEMENT_TYPE,
};
use crate::bundle::limits::{Limits, MAX_KEYS_PER_OBJECT, MAX_STRING_CHARS};
use crate::bundle::open::verify_reader;
use crate::bundle::strict::{validate, StrictError};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::{Signature, Verifier};
use sha2::{Digest, Sha256};
use std::io::Read;

/// What an attestation was judged to be. Three states, never conflated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A trusted key signed a statement naming exactly the bytes of the bundle offered, and
    /// the bundle verifies.
    Verified,
    /// A trusted key signed this statement (checks 1-11 passed); no bundle was offered, so no
    /// artifact has been matched.
    SignatureOnly,
    /// A check failed: the first one, with upstream's message.
    Refused(Refusal),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub check: Check,
    /// Upstream's message, word for word.
    pub message: String,
}

/// What the statement names, once read (checks 7-11 passed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attested {
    pub subject_name: String,
    /// The subject's SHA-256, lowercase hex as written.
    pub subject_sha256: String,
    pub predicate: Predicate,
}

/// The judgement of one envelope: the outcome, and what was established on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attestation {
    pub outcome: Outcome,
    /// The trusted key whose signature verified (check 6), by its place in the keys given.
    pub signer: Option<usize>,
    /// The first signature's `keyid` as the envelope states it (never compared with the key).
    pub envelope_keyid: Option<String>,
    pub statement: Option<Attested>,
}

impl Outcome {
    /// The state's name, as every face says it.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Verified => "attestation verified",
            Outcome::SignatureOnly => "signature verified, artifact not matched",
            Outcome::Refused(_) => "attestation refused",
        }
    }
}

impl Attestation {
    pub fn is_verified(&self) -> bool {
        self.outcome == Outcome::Verified
    }

    pub fn refusal(&self) -> Option<&Refusal> {
        match &self.outcome {
            Outcome::Refused(refusal) => Some(refusal),
            _ => None,
        }
    }

    /// The signer among `keys` (the slice this attestation was judged with).
    pub fn signer<'k>(&self, keys: &'k [TrustedKey]) -> Option<&'k TrustedKey> {
        self.signer.and_then(|at| keys.get(at))
    }
}

/// Judges `envelope` (the file's bytes) against the reader's trusted `keys` and, when offered,
/// the bundle's bytes. Only the first signature is checked; any trusted key whose signature
/// over it verifies is the signer (the first such, in the order given). Without a bundle the
/// checks stop after 11: the best outcome is then `SignatureOnly`.
pub fn verify_attestation(
    envelope: &[u8],
    keys: &[TrustedKey],
    bundle: Option<&mut dyn Read>,
) -> Attestation {
    let mut attestation = Attestation {
        outcome: Outcome::Verified,
        signer: None,
        envelope_keyid: None,
        statement: None,
    };
    attestation.outcome = match judge(&mut attestation, envelope, keys, bundle) {
        Ok(outcome) => outcome,
        Err(refusal) => Outcome::Refused(refusal),
    };
    attestation
}

fn refuse<T>(check: Check, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal {
        check,
        message: message.into(),
    })
}

fn judge(
    attestation: &mut Attestation,
    bytes: &[u8],
    keys: &[TrustedKey],
    bundle: Option<&mut dyn Read>,
) -> Result<Outcome, Refusal> {
    // 1-5: the envelope, key-independent.
    let envelope = match Envelope::read(bytes) {
        Ok(envelope) => envelope,
        Err(e) => {
            return refuse(
                Check::Envelope,
                format!("envelope is not a DSSE envelope: {e}"),
            )
        }
    };
    if envelope.payload_type != PAYLOAD_TYPE {
        return refuse(
            Check::PayloadType,
            format!(
                "unexpected DSSE payloadType: expected {PAYLOAD_TYPE}, got {}",
                envelope.payload_type
            ),
        );
    }
    let payload = match STANDARD.decode(&envelope.payload) {
        Ok(payload) => payload,
        Err(e) => return refuse(Check::PayloadBase64, format!("decode dsse payload: {e}")),
    };
    let Some(first) = envelope.signatures.first() else {
        return refuse(Check::SignaturePresent, "dsse envelope has no signatures");
    };
    attestation.envelope_keyid = Some(first.keyid.clone());
    let signature = match STANDARD.decode(&first.sig) {
        Ok(signature) => signature,
        Err(e) => return refuse(Check::SignatureBytes, format!("decode signature: {e}")),
    };
    let Ok(signature) = <[u8; 64]>::try_from(signature.as_slice()) else {
        return refuse(Check::SignatureBytes, "signature is not 64 bytes");
    };
    // 6: the first trusted key whose signature over the PAE verifies; else the first key's
    // reason.
    let signature = Signature::from_bytes(&signature);
    let signed = pae(&envelope.payload_type, &payload);
    let mut failure = None;
    for (at, key) in keys.iter().enumerate() {
        match key.key.verify(&signed, &signature) {
            Ok(()) => {
                attestation.signer = Some(at);
                break;
            }
            Err(e) => {
                failure.get_or_insert_with(|| e.to_string());
            }
        }
    }
    if attestation.signer.is_none() {
        let reason = failure.unwrap_or_else(|| "no trusted key was given".into());
        return refuse(
            Check::Signature,
            format!("dsse signature verification failed: {reason}"),
        );
    }
    // 7-8: the signed statement.
    let text = match std::str::from_utf8(&payload) {
        Ok(text) => text,
        Err(e) => {
            return refuse(
                Check::PayloadJson,
                format!("signed payload is not UTF-8: {e}"),
            )
        }
    };
    if let Err(e) = validate(text, Limits::default().max_json_depth) {
        return refuse(
            Check::PayloadJson,
            format!(
                "signed payload is not unambiguous JSON: {}",
                strict_reason(e)
            ),
        );
    }
    let statement: StatementIn = match serde_json::from_str(text) {
        Ok(statement) => statement,
        Err(e) => {
            return refuse(
                Check::PayloadJson,
                format!("signed payload is not an in-toto statement: {e}"),
            )
        }
    };
    if statement.type_ != STATEMENT_TYPE {
        return refuse(
            Check::StatementType,
            format!(
                "unexpected in-toto statement _type: expected {STATEMENT_TYPE}, got {}",
                statement.type_
            ),
        );
    }
    // 9-11: what it says, still without the bundle.
    if statement.predicate_type == PREDICATE_V0 {
        return refuse(
            Check::PredicateType,
            format!("attestation uses the pre-ADR-044 predicate {PREDICATE_V0}, whose subject digest identifies no artifact; it cannot be matched and must be reissued"),
        );
    }
    if statement.predicate_type != PREDICATE_V1 {
        return refuse(
            Check::PredicateType,
            format!("unknown predicate type: expected {PREDICATE_V1}. An unrecognised major version fails closed rather than being reported as verified"),
        );
    }
    let [subject] = statement.subject.as_slice() else {
        return refuse(
            Check::Subject,
            format!(
                "expected exactly one subject, found {}",
                statement.subject.len()
            ),
        );
    };
    if subject.digest.len() != 1 {
        return refuse(
            Check::Subject,
            format!("subject carries {} digest entries; DigestSets match on ANY field, so a second entry would let a different artifact match", subject.digest.len()),
        );
    }
    let Some(subject_sha256) = subject.digest.get("sha256") else {
        return refuse(Check::Subject, "subject digest has no sha256 entry");
    };
    let predicate: Predicate = match serde_json::from_value(statement.predicate.clone()) {
        Ok(predicate) => predicate,
        Err(e) => return refuse(Check::PredicateShape, format!("parse v1 predicate: {e}")),
    };
    if predicate.schema_version != 1 {
        return refuse(
            Check::PredicateShape,
            format!(
                "predicate schema_version {} is not 1",
                predicate.schema_version
            ),
        );
    }
    attestation.statement = Some(Attested {
        subject_name: subject.name.clone(),
        subject_sha256: subject_sha256.clone(),
        predicate,
    });
    let Some(bundle) = bundle else {
        return Ok(Outcome::SignatureOnly);
    };
    // 12-15: the bundle offered.
    let mut hashing = Hashing {
        inner: bundle,
        digest: Sha256::new(),
    };
    let verified = match verify_reader(&mut hashing, &Limits::default()).verdict {
        Ok(verified) => verified,
        Err(e) => {
            return refuse(
                Check::BundleVerifies,
                format!("the attested bundle does not verify: {e}"),
            )
        }
    };
    let mut sha256 = String::with_capacity(64);
    crate::json::push_hex(hashing.digest.finalize().as_slice(), &mut sha256);
    if *subject_sha256 != sha256 {
        return refuse(
            Check::SubjectDigest,
            "the subject digest does not match the sha256 of the bundle offered",
        );
    }
    if subject.name != verified.manifest.bundle_id {
        return refuse(
            Check::SubjectName,
            "the subject name is not the attested bundle's bundle_id",
        );
    }
    let derived = Predicate::of(&verified);
    let stated = attestation.statement.as_ref().map(|s| &s.predicate);
    if let Some(field) = stated.and_then(|stated| stated.first_difference(&derived)) {
        return refuse(
            Check::PredicateMatches,
            format!("predicate field `{field}` disagrees with the bundle it is attached to"),
        );
    }
    Ok(Outcome::Verified)
}

/// The strict parser's reason, worded for a signed payload.
fn strict_reason(error: StrictError) -> String {
    match error {
        StrictError::DuplicateKey => "it contains a duplicate object member".into(),
        StrictError::InvalidUnicodeEscape => {
            "it contains an invalid unicode escape sequence".into()
        }
        StrictError::UnpairedSurrogate => "it contains an unpaired surrogate".into(),
        StrictError::Depth { limit } => {
            format!("it nests deeper than the maximum depth of {limit}")
        }
        StrictError::TooManyKeys => {
            format!("it has an object of more than {MAX_KEYS_PER_OBJECT} members")
        }
        StrictError::StringTooLong => {
            format!("it contains a string longer than {MAX_STRING_CHARS} bytes")
        }
        StrictError::NotWellFormed => "it is not well-formed JSON".into(),
    }
}

/// The bundle as the verifier reads it, hashed on the way: the verifier reads its input to
/// the end (step 0 counts every byte), so once it passes the digest is the whole archive's.
struct Hashing<'r> {
    inner: &'r mut dyn Read,
    digest: Sha256,
}

impl Read for Hashing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.digest.update(buf.get(..n).unwrap_or(buf));
        Ok(n)
    }
}
