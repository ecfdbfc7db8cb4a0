//! `attest`: the envelope upstream's `assay evidence attest` writes for a key and a bundle.
//! Ed25519 is deterministic, so the same key and bundle give the same bytes.

use super::envelope::{Envelope, EnvelopeSignature};
use super::keys::keyid;
use super::pae::pae;
use super::statement::{statement_of, PAYLOAD_TYPE};
use crate::bundle::error::VerifyError;
use crate::bundle::limits::Limits;
use crate::bundle::open::verify_reader;
use crate::json::jcs_bytes;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

/// Signs the statement for `bundle` (the archive's bytes) with `key`: the statement's RFC 8785
/// bytes as the payload, the signature over their PAE. A bundle that does not verify is
/// refused with its verification error: an attestation names only an archive that verifies.
pub fn attest(key: &SigningKey, bundle: &[u8]) -> Result<Envelope, VerifyError> {
    let verified = verify_reader(bundle, &Limits::default()).verdict?;
    let mut sha256 = String::with_capacity(64);
    crate::json::push_hex(Sha256::digest(bundle).as_slice(), &mut sha256);
    let payload = jcs_bytes(&statement_of(&verified, &sha256));
    let signature = key.sign(&pae(PAYLOAD_TYPE, &payload));
    Ok(Envelope {
        payload: STANDARD.encode(&payload),
        payload_type: PAYLOAD_TYPE.into(),
        signatures: vec![EnvelopeSignature {
            keyid: keyid(&key.verifying_key()),
            sig: STANDARD.encode(signature.to_bytes()),
        }],
    })
}
