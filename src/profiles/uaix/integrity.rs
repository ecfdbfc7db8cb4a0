//! Recomputes a UAIX integrity checksum. No source says which bytes are hashed, so the
//! preimage is a named choice: by default the envelope without its `integrity` member, with
//! the alternative "integrity kept, `integrity.checksum` removed"; both are serialized with
//! RFC 8785 (JCS) and hashed with SHA-256. A checksum that is not a SHA-256 hex digest (the
//! seed fixture's `sha256:fixture-hash-recorded-by-validator`) cannot be checked: it is
//! reported as unverifiable, neither passed nor failed.

use crate::json::jcs_bytes;
use crate::json::{digest_bytes, Digest};
use crate::profiles::report::{IntegrityAttempt, IntegrityCheck};
use crate::profiles::rows::clip;
use crate::rules::Verdict;
use serde_json::Value;

/// The preimage choices, default first.
pub(crate) const PREIMAGES: [(&str, &str); 2] = [
    (
        "envelope-without-integrity",
        "the whole envelope with the `integrity` member removed, RFC 8785 canonical JSON, SHA-256",
    ),
    (
        "integrity-without-checksum",
        "the whole envelope with only `integrity.checksum` removed, RFC 8785 canonical JSON, SHA-256",
    ),
];

const EXPECTED_CANONICALIZATION: &str = "jcs-compatible-sorted-json";

fn preimage(value: &Value, name: &str) -> Value {
    let mut copy = value.clone();
    if let Some(map) = copy.as_object_mut() {
        if name == PREIMAGES[0].0 {
            map.remove("integrity");
        } else if let Some(integrity) = map.get_mut("integrity").and_then(Value::as_object_mut) {
            integrity.remove("checksum");
        }
    }
    copy
}

/// The declared digest, when the checksum is `sha256:<64 hex>` or bare `<64 hex>`.
fn declared_digest(checksum: &str) -> Option<Digest> {
    let hex = checksum
        .strip_prefix("sha256:")
        .or_else(|| checksum.strip_prefix("SHA256:"))
        .unwrap_or(checksum);
    Digest::from_hex(hex)
}

pub(crate) fn check(value: &Value) -> IntegrityCheck {
    let attempts: Vec<IntegrityAttempt> = PREIMAGES
        .iter()
        .map(|(name, description)| IntegrityAttempt {
            preimage: name,
            description,
            sha256: digest_bytes(&jcs_bytes(&preimage(value, name))).to_hex(),
        })
        .collect();
    let integrity = value.get("integrity").and_then(Value::as_object);
    let checksum = integrity.and_then(|i| i.get("checksum"));
    let declared = checksum.map(|c| {
        clip(
            c.as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| c.to_string())
                .as_str(),
        )
    });
    let unverifiable = |explanation: String| IntegrityCheck {
        verdict: Verdict::Unverifiable,
        declared: declared.clone(),
        attempts: attempts.clone(),
        matched: None,
        explanation,
    };
    let Some(integrity) = integrity else {
        return unverifiable("no integrity object: nothing to recompute".into());
    };
    let algorithm = integrity.get("algorithm").and_then(Value::as_str);
    if !algorithm.is_some_and(|a| a.eq_ignore_ascii_case("sha256")) {
        return unverifiable(format!(
            "algorithm {} is not sha256; the inspector can only recompute sha256",
            algorithm
                .map(|a| format!("'{}'", clip(a)))
                .unwrap_or_else(|| "absent".into())
        ));
    }
    let Some(checksum_text) = checksum.and_then(Value::as_str) else {
        return unverifiable("no checksum string: nothing to compare".into());
    };
    let Some(digest) = declared_digest(checksum_text) else {
        return unverifiable(format!(
            "checksum '{}' is not a SHA-256 hex digest (a placeholder?): it cannot be checked, so it is neither passed nor failed",
            clip(checksum_text)
        ));
    };
    let canonicalization = integrity.get("canonicalization").and_then(Value::as_str);
    let canon_note = match canonicalization {
        Some(EXPECTED_CANONICALIZATION) => String::new(),
        Some(other) => format!(
            " (canonicalization is '{}', not '{EXPECTED_CANONICALIZATION}'; RFC 8785 was used anyway)",
            clip(other)
        ),
        None => " (no canonicalization named; RFC 8785 was used)".into(),
    };
    let wanted = digest.to_hex();
    match attempts.iter().find(|a| a.sha256 == wanted) {
        Some(hit) => IntegrityCheck {
            verdict: Verdict::Pass,
            declared,
            matched: Some(hit.preimage),
            explanation: format!(
                "checksum reproduced with preimage {}{canon_note}; a bare SHA-256 has no key, so this is not authenticity",
                hit.preimage
            ),
            attempts,
        },
        None => IntegrityCheck {
            verdict: Verdict::Fail,
            declared,
            matched: None,
            explanation: format!(
                "integrity not reproducible under the assumed canonicalization (tried {}){canon_note}; this is not proof of tampering",
                PREIMAGES.map(|p| p.0).join(", ")
            ),
            attempts,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn packet(checksum: &str) -> Value {
        json!({"a": 1, "integrity": {"version": "1", "algorithm": "sha256", "canonicalization": "jcs-compatible-sorted-json", "checksum": checksum}})
    }

    #[test]
    fn placeholder_checksum_is_unverifiable() {
        let check = check(&packet("sha256:fixture-hash-recorded-by-validator"));
        assert_eq!(check.verdict, Verdict::Unverifiable);
        assert_eq!(check.attempts.len(), 2);
    }

    #[test]
    fn default_and_alternative_preimages_both_verify() {
        let default = digest_bytes(br#"{"a":1}"#).to_hex();
        let check1 = check(&packet(&format!("sha256:{default}")));
        assert_eq!(check1.verdict, Verdict::Pass);
        assert_eq!(check1.matched, Some("envelope-without-integrity"));
        let alt = digest_bytes(
            br#"{"a":1,"integrity":{"algorithm":"sha256","canonicalization":"jcs-compatible-sorted-json","version":"1"}}"#,
        )
        .to_hex();
        let check2 = check(&packet(&alt));
        assert_eq!(check2.verdict, Verdict::Pass);
        assert_eq!(check2.matched, Some("integrity-without-checksum"));
    }

    #[test]
    fn wrong_digest_fails_without_claiming_tampering() {
        let check = check(&packet(&"0".repeat(64)));
        assert_eq!(check.verdict, Verdict::Fail);
        assert!(check.explanation.contains("not proof of tampering"));
    }
}
