//! Upstream's fifteen checks of an attestation, in its order, as data: the number and the
//! title every face shows beside the refusal (`verify`, `explain`, `check`'s finding and its
//! SARIF rule, the inspector) come from this one table.

use serde::Serialize;

/// One of the fifteen checks of `verify_attestation_for_bundle`, in upstream's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Check {
    Envelope,
    PayloadType,
    PayloadBase64,
    SignaturePresent,
    SignatureBytes,
    Signature,
    PayloadJson,
    StatementType,
    PredicateType,
    Subject,
    PredicateShape,
    BundleVerifies,
    SubjectDigest,
    SubjectName,
    PredicateMatches,
}

/// A check's row: what it is called and what it asks.
pub struct CheckRow {
    pub check: Check,
    /// A stable name (JSON, SARIF rule ids).
    pub id: &'static str,
    pub title: &'static str,
}

/// The table, in upstream's order: a check's number is its place here, from 1.
pub static CHECKS: [CheckRow; 15] = [
    row(
        Check::Envelope,
        "envelope",
        "the file is a DSSE envelope (JSON with payload, payloadType, signatures)",
    ),
    row(
        Check::PayloadType,
        "payload-type",
        "payloadType is application/vnd.in-toto+json",
    ),
    row(
        Check::PayloadBase64,
        "payload-base64",
        "the payload decodes as base64",
    ),
    row(
        Check::SignaturePresent,
        "signature-present",
        "the envelope carries a signature (only the first is checked)",
    ),
    row(
        Check::SignatureBytes,
        "signature-bytes",
        "the first signature decodes to 64 bytes",
    ),
    row(
        Check::Signature,
        "signature",
        "a trusted key's Ed25519 signature over the PAE verifies",
    ),
    row(
        Check::PayloadJson,
        "payload-json",
        "the signed payload is UTF-8, unambiguous JSON, an in-toto statement",
    ),
    row(
        Check::StatementType,
        "statement-type",
        "the statement's _type is https://in-toto.io/Statement/v1",
    ),
    row(
        Check::PredicateType,
        "predicate-type",
        "the predicate type is evidence-bundle v1 (v0 and unknown types refused)",
    ),
    row(
        Check::Subject,
        "subject",
        "exactly one subject with exactly one digest, sha256",
    ),
    row(
        Check::PredicateShape,
        "predicate-shape",
        "the predicate has the v1 shape and schema_version 1",
    ),
    row(
        Check::BundleVerifies,
        "bundle-verifies",
        "the attested bundle verifies",
    ),
    row(
        Check::SubjectDigest,
        "subject-digest",
        "the subject digest is the SHA-256 of the bundle's bytes",
    ),
    row(
        Check::SubjectName,
        "subject-name",
        "the subject name is the bundle's bundle_id",
    ),
    row(
        Check::PredicateMatches,
        "predicate-matches",
        "the predicate equals the one derived from the verified bundle",
    ),
];

const fn row(check: Check, id: &'static str, title: &'static str) -> CheckRow {
    CheckRow { check, id, title }
}

impl Check {
    /// Upstream's number of the check, 1 to 15.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    pub fn row(self) -> &'static CheckRow {
        &CHECKS[self as usize]
    }

    pub fn id(self) -> &'static str {
        self.row().id
    }

    pub fn title(self) -> &'static str {
        self.row().title
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_upstreams_order_and_numbered_from_one() {
        for (at, row) in CHECKS.iter().enumerate() {
            assert_eq!(row.check as usize, at, "{}", row.id);
            assert_eq!(usize::from(row.check.number()), at + 1);
        }
        assert_eq!(Check::Signature.number(), 6);
        assert_eq!(Check::BundleVerifies.number(), 12);
        assert_eq!(Check::PredicateMatches.number(), 15);
        let mut ids: Vec<&str> = CHECKS.iter().map(|row| row.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), CHECKS.len());
    }
}
