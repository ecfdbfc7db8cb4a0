//! Attestations through the binary: every case upstream judged (tests/data/attest/expected.json,
//! copied from upstream's run over tests/data/bundles) gives upstream's verdict, keyid,
//! artifact digest, subject name and message from `verify --attestation --key --format json`;
//! `attest` writes upstream's envelope, which `verify` then finds beside the bundle.

use crate::common::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub(crate) fn data(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir)
        .join(name)
}

pub(crate) fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(data("attest", "expected.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["cases"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_upstream_case_gets_upstreams_verdict_through_verify() {
    let cases = cases();
    assert_eq!(cases.len(), 44);
    for case in cases {
        let file = case["file"].as_str().unwrap();
        let (envelope, key) = (
            data("attest", file),
            data("attest", case["key"].as_str().unwrap()),
        );
        let bundle = data("bundles", case["bundle"].as_str().unwrap());
        let out = run(&[
            "verify",
            "--format",
            "json",
            "--attestation",
            arg(&envelope),
            "--key",
            arg(&key),
            arg(&bundle),
        ]);
        let lines = out.json_lines();
        assert_eq!(lines.len(), 1, "{file}: {}", out.stdout);
        let got = &lines[0]["attestation"];
        assert_eq!(got["envelope"], arg(&envelope), "{file}");
        let bundle_valid = lines[0]["valid"] == true;
        if case["verified"] == true {
            assert_eq!(out.code, 0, "{file}: {}", out.stderr);
            assert_eq!(got["state"], "attestation verified", "{file}");
            assert_eq!(got["verified"], true, "{file}");
            for field in ["keyid", "artifact_sha256", "subject_name"] {
                assert_eq!(got[field], case[field], "{file}: {field}");
            }
            assert_eq!(got["key"], arg(&key), "{file}");
            assert!(got["error"].is_null() && got["check"].is_null(), "{file}");
        } else {
            assert_eq!(out.code, 1, "{file}");
            assert_eq!(got["state"], "attestation refused", "{file}");
            assert_eq!(got["verified"], false, "{file}");
            assert_eq!(got["error"], case["error"], "{file}");
            let check = got["check"].as_u64().unwrap();
            assert!((1..=15).contains(&check), "{file}");
            assert!(got["check_id"].is_string(), "{file}");
            // Refused by its own checks, whatever the bundle's own verdict.
            assert_eq!(
                bundle_valid,
                case["bundle"] != "bad-entry-path-traversal.tar.gz"
            );
        }
    }
}

#[test]
fn text_names_the_key_the_subject_the_run_and_the_boundary() {
    let envelope = data("attest", "valid-02-two-events.key-a.ok.dsse.json");
    let key = data("attest", "key-a.pub.pem");
    let bundle = data("bundles", "valid-02-two-events.tar.gz");
    let out = run(&[
        "verify",
        "--attestation",
        arg(&envelope),
        "--key",
        arg(&key),
        arg(&bundle),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for expected in [
        "  attestation verified: signed by ",
        "key-a.pub.pem (keyid sha256:503d8ee46d581c649966569ae095e27041de83322e8e0480e5539e00d2d5d874)",
        "  subject sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb, sha256 5668431a5543967a39df15b88b062019acfa0d6a08aede949ffc2da59d293de4 (these bytes)",
        "  run a2a-run-02, 2 events, ",
        "It does not make any handoff flag mean more",
        "which keys to trust is the reader's decision",
    ] {
        assert!(out.stdout.contains(expected), "{expected}\n{}", out.stdout);
    }
    let other = data("attest", "key-b.pub.pem");
    let out = run(&[
        "verify",
        "--attestation",
        arg(&envelope),
        "--key",
        arg(&other),
        arg(&bundle),
    ]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("  attestation refused at check 6 (a trusted key's Ed25519 signature over the PAE verifies): dsse signature verification failed: signature error: Verification equation was not satisfied\n  trusted keys: "),
        "{}",
        out.stdout
    );
}

#[test]
fn any_of_several_keys_may_be_the_signer() {
    let envelope = data("attest", "valid-01-one-event.key-a.ok.dsse.json");
    let (a, b) = (
        data("attest", "key-a.pub.pem"),
        data("attest", "key-b.pub.pem"),
    );
    let bundle = data("bundles", "valid-01-one-event.tar.gz");
    let out = run(&[
        "verify",
        "--format",
        "json",
        "--attestation",
        arg(&envelope),
        "--key",
        arg(&b),
        "--key",
        arg(&a),
        arg(&bundle),
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert_eq!(out.json_lines()[0]["attestation"]["key"], arg(&a));
}

#[test]
fn without_a_bundle_only_the_signature_and_statement_are_judged() {
    let key = data("attest", "key-a.pub.pem");
    let ok = data("attest", "valid-04-hundred.key-a.ok.dsse.json");
    let out = run(&[
        "verify",
        "--format",
        "json",
        "--attestation",
        arg(&ok),
        "--key",
        arg(&key),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got = &out.json_lines()[0]["attestation"];
    assert_eq!(got["state"], "signature verified, artifact not matched");
    assert_eq!(got["verified"], false);
    assert_eq!(
        got["artifact_sha256"],
        "40dae154c02daecc7ac3d37db1f740279e16f5a944f789e5ed0b3d6aaf2866ad"
    );
    let text = run(&["verify", "--attestation", arg(&ok), "--key", arg(&key)]);
    assert!(
        text.stdout
            .contains("(no bundle offered: no archive's bytes matched)"),
        "{}",
        text.stdout
    );
    let v0 = data("attest", "edge-events-time-edited-resealed.t-v0.dsse.json");
    let out = run(&["verify", "--attestation", arg(&v0), "--key", arg(&key)]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with("attestation refused at check 9 "),
        "{}",
        out.stdout
    );
}

#[test]
fn attest_writes_upstreams_envelope_and_verify_finds_it_beside_the_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("valid-11-mixed-non-a2a.tar.gz");
    std::fs::copy(data("bundles", "valid-11-mixed-non-a2a.tar.gz"), &bundle).unwrap();
    let private = data("attest", "key-a.pem");
    let public = data("attest", "key-a.pub.pem");
    // Printed: upstream's bytes (the sample without the newline upstream's attest ends with).
    let printed = run(&["attest", "--key", arg(&private), arg(&bundle)]);
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    let upstream =
        std::fs::read_to_string(data("attest", "valid-11-mixed-non-a2a.key-a.ok.dsse.json"))
            .unwrap();
    assert_eq!(printed.stdout, format!("{upstream}\n"));
    // Not attested yet: verify with a key says so, and fails.
    let before = run(&["verify", "--key", arg(&public), arg(&bundle)]);
    assert_eq!(before.code, 1);
    assert!(
        before.stdout.contains("  not attested: no envelope at "),
        "{}",
        before.stdout
    );
    // Written beside the bundle as NAME.dsse.json: found without --attestation.
    let out = dir.path().join("valid-11-mixed-non-a2a.dsse.json");
    let wrote = run(&[
        "attest",
        "--key",
        arg(&private),
        "--out",
        arg(&out),
        arg(&bundle),
    ]);
    assert_eq!(wrote.code, 0, "{}", wrote.stderr);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        format!("{upstream}\n")
    );
    let after = run(&["verify", "--key", arg(&public), arg(&bundle)]);
    assert_eq!(after.code, 0, "{}", after.stdout);
    assert!(
        after.stdout.contains("  attestation verified: "),
        "{}",
        after.stdout
    );
    // An existing --out is kept unless --force.
    let again = run(&[
        "attest",
        "--key",
        arg(&private),
        "--out",
        arg(&out),
        arg(&bundle),
    ]);
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("exists; pass --force"),
        "{}",
        again.stderr
    );
    let forced = run(&[
        "attest",
        "--key",
        arg(&private),
        "--out",
        arg(&out),
        "--force",
        arg(&bundle),
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    let names = crate::common::dir_names(dir.path());
    assert_eq!(names.len(), 2, "a temporary file was left: {names:?}");
}

#[test]
fn a_tampered_bundle_is_caught_and_a_bundle_that_does_not_verify_is_not_attested() {
    let dir = tempfile::tempdir().unwrap();
    let private = data("attest", "key-a.pem");
    let public = data("attest", "key-a.pub.pem");
    let bundle = dir.path().join("run.tar.gz");
    std::fs::copy(data("bundles", "valid-01-one-event.tar.gz"), &bundle).unwrap();
    let envelope = dir.path().join("run.tar.gz.dsse.json");
    assert_eq!(
        run(&[
            "attest",
            "--key",
            arg(&private),
            "--out",
            arg(&envelope),
            arg(&bundle)
        ])
        .code,
        0
    );
    // Re-sealed by someone else: the bundle verifies, its attestation no longer names it.
    std::fs::copy(data("bundles", "valid-02-two-events.tar.gz"), &bundle).unwrap();
    let out = run(&[
        "verify",
        "--format",
        "json",
        "--key",
        arg(&public),
        arg(&bundle),
    ]);
    assert_eq!(out.code, 1);
    let line = &out.json_lines()[0];
    assert_eq!(line["valid"], true);
    assert_eq!(line["attestation"]["check"], 13);
    assert_eq!(
        line["attestation"]["error"],
        "the subject digest does not match the sha256 of the bundle offered"
    );
    let bad = data("bundles", "bad-events-seq-gap.tar.gz");
    let refused = run(&[
        "attest",
        "--key",
        arg(&private),
        "--out",
        arg(&dir.path().join("bad.dsse.json")),
        arg(&bad),
    ]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains(
            "does not verify, not attested: Contract: Sequence gap (ContractSequenceGap)"
        ),
        "{}",
        refused.stderr
    );
    assert!(!dir.path().join("bad.dsse.json").exists());
    // A public key cannot sign, and a private key is not taken as a trusted key.
    assert_eq!(
        run(&["attest", "--key", arg(&public), arg(&bundle)]).code,
        2
    );
    let wrong = run(&["verify", "--key", arg(&private), arg(&bundle)]);
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.stderr.contains("holds a private key"),
        "{}",
        wrong.stderr
    );
}

/// The findings of kind `kind` in `check --format json`'s document.
fn findings_of(stdout: &str, kind: &str) -> Vec<Value> {
    let document: Value = serde_json::from_str(stdout).unwrap();
    document["packets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|packet| packet["findings"].as_array().cloned().unwrap_or_default())
        .filter(|finding| finding["kind"] == kind)
        .collect()
}

/// A directory holding a sample bundle and, beside it, the envelope `envelope` of the samples.
fn attested_dir(envelope: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("run.tar.gz");
    std::fs::copy(
        data("bundles", "edge-events-time-edited-resealed.tar.gz"),
        &bundle,
    )
    .unwrap();
    std::fs::copy(
        data("attest", envelope),
        dir.path().join("run.tar.gz.dsse.json"),
    )
    .unwrap();
    (dir, bundle)
}

#[test]
fn check_reports_a_refused_attestation_as_a_finding_with_its_sarif_rule() {
    let key = data("attest", "key-a.pub.pem");
    let (dir, _) = attested_dir("edge-events-time-edited-resealed.t-p-end.dsse.json");
    let path = arg(dir.path());
    // Without a trusted key the attestation is not looked at.
    let untrusted = run(&["check", "--format", "json", path]);
    assert!(findings_of(&untrusted.stdout, "attestation_refused").is_empty());
    let out = run(&["check", "--format", "json", "--key", arg(&key), path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let refused = findings_of(&out.stdout, "attestation_refused");
    assert_eq!(refused.len(), 1, "{}", out.stdout);
    assert_eq!(refused[0]["rule"], "attestation-predicate-matches");
    assert!(
        refused[0]["message"].as_str().unwrap().contains(
            "attestation refused at check 15 (the predicate equals the one derived from the verified bundle): predicate field `run.time_window.end` disagrees with the bundle it is attached to"
        ),
        "{}",
        refused[0]
    );
    // The key may come from the environment instead; SARIF declares the rule it names.
    let sarif = crate::common::run_env(
        &["check", "--format", "sarif", path],
        &[("HANDOFF_TRUSTED_KEYS", Some(arg(&key)))],
    );
    assert_eq!(sarif.code, 1, "{}", sarif.stderr);
    let log: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let run0 = &log["runs"][0];
    let result = run0["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["ruleId"] == "attestation-predicate-matches")
        .expect("a result for the refused attestation");
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        run0["tool"]["driver"]["rules"][index]["id"],
        "attestation-predicate-matches"
    );
}

#[test]
fn check_and_explain_with_a_verified_attestation_find_nothing_and_say_who_signed() {
    let key = data("attest", "key-a.pub.pem");
    let (dir, bundle) = attested_dir("edge-events-time-edited-resealed.key-a.ok.dsse.json");
    let out = run(&[
        "check",
        "--format",
        "json",
        "--key",
        arg(&key),
        arg(dir.path()),
    ]);
    assert!(findings_of(&out.stdout, "attestation_refused").is_empty());
    let explained = run(&["explain", "--key", arg(&key), arg(&bundle)]);
    assert_eq!(explained.code, 0, "{}", explained.stdout);
    assert!(
        explained
            .stdout
            .contains("\nattestation (trusted keys given):\n  attestation verified: signed by "),
        "{}",
        explained.stdout
    );
    assert!(
        explained
            .stdout
            .contains("it does not make any handoff flag mean more")
            || explained
                .stdout
                .contains("It does not make any handoff flag mean more")
    );
    let json = run(&[
        "explain",
        "--format",
        "json",
        "--key",
        arg(&key),
        arg(&bundle),
    ]);
    let line = &json.json_lines()[0];
    assert_eq!(line["attestation"]["state"], "attestation verified");
    assert_eq!(
        line["attestation"]["keyid"],
        "sha256:503d8ee46d581c649966569ae095e27041de83322e8e0480e5539e00d2d5d874"
    );
    // Another key: refused, and explain fails.
    let other = run(&[
        "explain",
        "--key",
        arg(&data("attest", "key-b.pub.pem")),
        arg(&bundle),
    ]);
    assert_eq!(other.code, 1);
    assert!(
        other.stdout.contains("  attestation refused at check 6 "),
        "{}",
        other.stdout
    );
    // No key: nothing is said about it.
    let plain = run(&["explain", arg(&bundle)]);
    assert!(!plain.stdout.contains("attestation"), "{}", plain.stdout);
}
