//! Attestations over evidence bundles, as upstream's `assay_evidence::attestation` makes and
//! judges them (spec `assay-attestation.md`): an in-toto v1 statement naming the archive's
//! SHA-256, with the `evidence-bundle/v1` predicate, in a DSSE envelope signed with Ed25519.
//!
//! One job a file: `beside` (the envelope of a bundle file, judged; key files read), `checks` (the fifteen checks as data), `envelope` (DSSE read and written),
//! `pae` (what a signature covers), `keys` (PEM key files, keyid), `statement` (the statement,
//! its predicate, the one derived from a verified bundle), `verify` (the checks in upstream's
//! order, the three outcomes), `sign` (`attest`'s envelope).
//!
//! What an attestation shows (`ATTESTATION_SHOWS`): who said it and the bytes of one archive.

mod beside;
mod checks;
mod envelope;
mod keys;
mod pae;
mod sign;
mod statement;
mod verify;

pub use beside::{
    bundles_beside, envelopes_beside, judge_bundle_file, judge_envelope_file, read_trusted_keys,
    Judged, ENVELOPE_SUFFIX,
};
pub use checks::{Check, CheckRow, CHECKS};
pub use envelope::{Envelope, EnvelopeSignature, MAX_ENVELOPE_BYTES};
pub use keys::{keyid, signing_key_from_pem, TrustedKey, MAX_KEY_FILE_BYTES};
pub use pae::pae;
pub use sign::attest;
pub use statement::{
    statement_of, Predicate, PAYLOAD_TYPE, PREDICATE_V0, PREDICATE_V1, STATEMENT_TYPE,
};
pub use verify::{verify_attestation, Attestation, Attested, Outcome, Refusal};

/// What every face says beside an attestation's state: the honest boundary.
pub const ATTESTATION_SHOWS: &str = "An attestation binds who said it (the key that signed) to the bytes of one archive. It does not make any handoff flag mean more, and it is no trust root: which keys to trust is the reader's decision.";

#[cfg(test)]
mod tests;
