//! Every case upstream judged (tests/data/attest/expected.json, copied from the shared
//! samples) gets upstream's verdict and message; `attest` reproduces upstream's envelopes;
//! any single-byte change to a signed payload or signature is refused.

use super::*;
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name)
}

fn read(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(data(dir, name)).unwrap()
}

fn trusted(name: &str) -> TrustedKey {
    let text = String::from_utf8(read("attest", name)).unwrap();
    TrustedKey::from_pem(&text, name).unwrap()
}

fn cases() -> Vec<Value> {
    let expected: Value = serde_json::from_slice(&read("attest", "expected.json")).unwrap();
    expected["cases"].as_array().unwrap().clone()
}

fn judge(envelope: &[u8], key: &TrustedKey, bundle: &[u8]) -> Attestation {
    verify_attestation(envelope, std::slice::from_ref(key), Some(&mut &bundle[..]))
}

#[test]
fn every_upstream_case_gets_upstreams_verdict_and_message() {
    let cases = cases();
    assert_eq!(cases.len(), 44);
    for case in &cases {
        let file = case["file"].as_str().unwrap();
        let key = trusted(case["key"].as_str().unwrap());
        let bundle = read("bundles", case["bundle"].as_str().unwrap());
        let judged = judge(&read("attest", file), &key, &bundle);
        if case["verified"] == true {
            assert_eq!(judged.outcome, Outcome::Verified, "{file}");
            assert_eq!(judged.signer, Some(0), "{file}");
            assert_eq!(key.keyid, case["keyid"], "{file}");
            let attested = judged.statement.as_ref().unwrap();
            assert_eq!(attested.subject_sha256, case["artifact_sha256"], "{file}");
            assert_eq!(attested.subject_name, case["subject_name"], "{file}");
        } else {
            let refusal = judged
                .refusal()
                .unwrap_or_else(|| panic!("{file}: not refused"));
            assert_eq!(refusal.message, case["error"], "{file}");
        }
    }
}

#[test]
fn each_refusal_is_decided_by_the_check_the_spec_names() {
    let check_of = |file: &str| -> Option<Check> {
        let case = cases().into_iter().find(|c| c["file"] == file).unwrap();
        let key = trusted(case["key"].as_str().unwrap());
        let bundle = read("bundles", case["bundle"].as_str().unwrap());
        judge(&read("attest", file), &key, &bundle)
            .refusal()
            .map(|r| r.check)
    };
    let name = |tamper: &str| format!("edge-events-time-edited-resealed.{tamper}.dsse.json");
    for (tamper, check) in [
        ("t-not-json", Check::Envelope),
        ("t-payload-type", Check::PayloadType),
        ("t-payload-b64", Check::PayloadBase64),
        ("t-no-sig", Check::SignaturePresent),
        ("t-sig-short", Check::SignatureBytes),
        ("t-sig-flip", Check::Signature),
        ("t-sig-second", Check::Signature),
        ("key-a.checked-with-b", Check::Signature),
        ("t-not-utf8", Check::PayloadJson),
        ("t-dup-key", Check::PayloadJson),
        ("t-stmt-type", Check::StatementType),
        ("t-v0", Check::PredicateType),
        ("t-v2", Check::PredicateType),
        ("t-two-subjects", Check::Subject),
        ("t-two-digests", Check::Subject),
        ("t-p-missing", Check::PredicateShape),
        ("t-schema-2", Check::PredicateShape),
        ("t-bad-bundle", Check::BundleVerifies),
        ("t-subject-digest", Check::SubjectDigest),
        ("t-other-bundle", Check::SubjectDigest),
        ("t-subject-name", Check::SubjectName),
        ("t-p-run-id", Check::PredicateMatches),
        ("t-p-end", Check::PredicateMatches),
    ] {
        assert_eq!(check_of(&name(tamper)), Some(check), "{tamper}");
    }
    for verified in ["key-a.ok", "t-keyid-wrong", "t-pretty", "t-p-extra"] {
        assert_eq!(check_of(&name(verified)), None, "{verified}");
    }
}

#[test]
fn attest_reproduces_upstreams_envelopes_byte_for_byte() {
    let key =
        signing_key_from_pem(&String::from_utf8(read("attest", "key-a.pem")).unwrap()).unwrap();
    let mut signed = 0;
    for case in cases() {
        let file = case["file"].as_str().unwrap();
        let Some(name) = file.strip_suffix(".key-a.ok.dsse.json") else {
            continue;
        };
        let bundle = read("bundles", &format!("{name}.tar.gz"));
        let text = attest(&key, &bundle).unwrap().to_text();
        // The samples are upstream's envelope without the newline its `attest` prints last.
        let mut expected = read("attest", file);
        expected.push(b'\n');
        assert_eq!(text.as_bytes(), expected, "{name}");
        // And what it signed verifies with key a, and not with key b.
        let judged = judge(text.as_bytes(), &trusted("key-a.pub.pem"), &bundle);
        assert_eq!(judged.outcome, Outcome::Verified, "{name}");
        let other = judge(text.as_bytes(), &trusted("key-b.pub.pem"), &bundle);
        assert_eq!(other.refusal().map(|r| r.check), Some(Check::Signature));
        signed += 1;
    }
    assert_eq!(signed, 6);
}

#[test]
fn a_bundle_that_does_not_verify_is_not_attested() {
    let key =
        signing_key_from_pem(&String::from_utf8(read("attest", "key-a.pem")).unwrap()).unwrap();
    let error = attest(&key, &read("bundles", "bad-events-seq-gap.tar.gz")).unwrap_err();
    assert_eq!(error.code, crate::bundle::ErrorCode::ContractSequenceGap);
}

#[test]
fn without_a_bundle_the_best_is_signature_only_and_with_no_key_it_is_refused() {
    let envelope = read("attest", "valid-01-one-event.key-a.ok.dsse.json");
    let keys = [trusted("key-b.pub.pem"), trusted("key-a.pub.pem")];
    let judged = verify_attestation(&envelope, &keys, None);
    assert_eq!(judged.outcome, Outcome::SignatureOnly);
    assert_eq!(judged.signer(&keys).unwrap().source, "key-a.pub.pem");
    let attested = judged.statement.unwrap();
    assert_eq!(attested.predicate.run.run_id, "a2a-run-01");
    assert_eq!(
        attested.predicate.run.time_window.start,
        "2026-02-27T10:05:00Z"
    );
    let none = verify_attestation(&envelope, &[], None);
    assert_eq!(
        none.refusal().unwrap().message,
        "dsse signature verification failed: no trusted key was given"
    );
}

#[test]
fn the_other_strict_reasons_are_worded_for_a_signed_payload() {
    // Re-signed with key a: an invalid escape (the strict parser), then JSON that is not a
    // statement (serde's reason).
    let key =
        signing_key_from_pem(&String::from_utf8(read("attest", "key-a.pem")).unwrap()).unwrap();
    let public = TrustedKey::new(key.verifying_key(), "a");
    let sign = |payload: &[u8]| {
        use base64::Engine;
        use ed25519_dalek::Signer;
        let sig = key.sign(&pae(PAYLOAD_TYPE, payload));
        let engine = base64::engine::general_purpose::STANDARD;
        Envelope {
            payload: engine.encode(payload),
            payload_type: PAYLOAD_TYPE.into(),
            signatures: vec![EnvelopeSignature {
                keyid: String::new(),
                sig: engine.encode(sig.to_bytes()),
            }],
        }
        .to_text()
    };
    let judged = |payload: &[u8]| {
        verify_attestation(
            sign(payload).as_bytes(),
            std::slice::from_ref(&public),
            None,
        )
        .refusal()
        .map(|r| r.message.clone())
    };
    assert_eq!(
        judged(br#"{"_type":"\u12"}"#).as_deref(),
        Some("signed payload is not unambiguous JSON: it contains an invalid unicode escape sequence")
    );
    assert_eq!(
        judged(b"{}").as_deref(),
        Some(
            "signed payload is not an in-toto statement: missing field `_type` at line 1 column 2"
        )
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any one byte of the signed payload or of the signature changed: refused, by check 6
    /// or earlier (never verified, never "signature only").
    #[test]
    fn any_single_byte_change_to_payload_or_signature_is_refused(
        in_signature in any::<bool>(),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        use base64::Engine;
        let engine = base64::engine::general_purpose::STANDARD;
        let name = "valid-02-two-events";
        let mut envelope =
            Envelope::read(&read("attest", &format!("{name}.key-a.ok.dsse.json"))).unwrap();
        let field = if in_signature {
            &mut envelope.signatures[0].sig
        } else {
            &mut envelope.payload
        };
        let mut bytes = engine.decode(&*field).unwrap();
        let at = at.index(bytes.len());
        bytes[at] ^= flip;
        *field = engine.encode(&bytes);
        let bundle = read("bundles", &format!("{name}.tar.gz"));
        let judged = judge(envelope.to_text().as_bytes(), &trusted("key-a.pub.pem"), &bundle);
        let refusal = judged.refusal().cloned();
        prop_assert!(refusal.as_ref().is_some_and(|r| r.check <= Check::Signature), "{refusal:?}");
        let unbundled = verify_attestation(
            envelope.to_text().as_bytes(),
            &[trusted("key-a.pub.pem")],
            None,
        );
        prop_assert!(unbundled.refusal().is_some());
    }
}
