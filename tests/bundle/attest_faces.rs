//! An attestation in the faces beyond `verify`, through the binary: an envelope walked beside
//! its bundle is read as an attestation (never as a raw packet); an attested bundle's golden
//! records the signer's keyid (kept by a run given no keys); `diff` says when the signer
//! changed between two runs; the events of a bundle whose attestation is refused say so.

use crate::attest::{arg, data};
use crate::common::{run, run_env};
use serde_json::Value;
use std::path::{Path, PathBuf};

const KEYID_A: &str = "sha256:503d8ee46d581c649966569ae095e27041de83322e8e0480e5539e00d2d5d874";

fn key(name: &str) -> PathBuf {
    data("attest", &format!("key-{name}.pub.pem"))
}

/// `dir/run.tar.gz` (a sample bundle) with the sample envelope `envelope` beside it as
/// `run.tar.gz.dsse.json`.
fn attested_in(dir: &Path, envelope: &str) -> PathBuf {
    let bundle = dir.join("run.tar.gz");
    std::fs::copy(
        data("bundles", "edge-events-time-edited-resealed.tar.gz"),
        &bundle,
    )
    .unwrap();
    std::fs::copy(data("attest", envelope), dir.join("run.tar.gz.dsse.json")).unwrap();
    bundle
}

const OK: &str = "edge-events-time-edited-resealed.key-a.ok.dsse.json";
const NO_SIGNATURE: &str = "edge-events-time-edited-resealed.t-no-sig.dsse.json";

#[test]
fn a_walked_envelope_is_an_attestation_never_a_raw_packet() {
    let dir = tempfile::tempdir().unwrap();
    attested_in(dir.path(), OK);
    let envelope = dir.path().join("run.tar.gz.dsse.json");
    let listed = run(&["ls", "--format", "json", arg(dir.path())]);
    let kinds: Vec<(String, String)> = listed
        .json_lines()
        .iter()
        .map(|line| {
            (
                line["source"].as_str().unwrap().to_owned(),
                line["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&(arg(&envelope).to_owned(), "attestation".to_owned())),
        "{kinds:?}"
    );
    // `check` lists it as what it is and converts nothing of it.
    let checked = run(&["check", "--format", "json", arg(dir.path())]);
    let document: Value = serde_json::from_str(&checked.stdout).unwrap();
    let entry = document["packets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|packet| packet["source"] == arg(&envelope))
        .expect("the envelope is listed")
        .clone();
    assert_eq!(entry["kind"], "attestation", "{entry}");
    assert_eq!(entry["status"], "not_checked", "{entry}");
    // explain without a key: what it states, the bundle beside it, nothing judged.
    let plain = run(&["explain", arg(&envelope)]);
    assert_eq!(plain.code, 0, "{}", plain.stdout);
    assert!(plain.stdout.contains("(attestation envelope (DSSE))"));
    assert!(plain.stdout.contains(&format!(
        "1 signature(s), the first with keyid \"{KEYID_A}\" as the envelope states it"
    )));
    assert!(plain.stdout.contains("not judged: no trusted key given"));
    // With the signing key: judged against the bundle beside it; with another: refused.
    let judged = run(&["explain", "--key", arg(&key("a")), arg(&envelope)]);
    assert_eq!(judged.code, 0, "{}", judged.stdout);
    assert!(
        judged.stdout.contains("  attestation verified: signed by "),
        "{}",
        judged.stdout
    );
    assert!(judged.stdout.contains("(these bytes)"), "{}", judged.stdout);
    let other = run(&[
        "explain",
        "--format",
        "json",
        "--key",
        arg(&key("b")),
        arg(&envelope),
    ]);
    assert_eq!(other.code, 1, "{}", other.stdout);
    let line = &other.json_lines()[0];
    assert_eq!(line["kind"], "attestation");
    assert_eq!(line["attestation"]["state"], "attestation refused");
    assert_eq!(line["attestation"]["check"], 6);
    assert_eq!(line["bundle"], arg(&dir.path().join("run.tar.gz")));
}

#[test]
fn an_attested_bundles_golden_records_the_signer_and_a_run_without_keys_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    attested_in(dir.path(), OK);
    let path = arg(dir.path());
    // CI refuses bless's writes; this test runs under CI too.
    let blessed = run_env(&["bless", "--key", arg(&key("a")), path], &[("CI", None)]);
    assert_eq!(blessed.code, 0, "{}", blessed.stderr);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("goldens.json")).unwrap())
            .unwrap();
    let bundle_entry = manifest["packets"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(name, _)| name.ends_with("run.tar.gz"))
        .map(|(_, entry)| entry.clone())
        .expect("the bundle's entry");
    assert_eq!(bundle_entry["signer"], KEYID_A, "{bundle_entry}");
    // Not judged without keys: the golden's record stands.
    let unjudged = run(&["check", "--require-golden", path]);
    assert_eq!(unjudged.code, 0, "{}", unjudged.stdout);
    let same = run(&["check", "--require-golden", "--key", arg(&key("a")), path]);
    assert_eq!(same.code, 0, "{}", same.stdout);
    // Another key refuses it: a refused attestation, and the golden's signer is gone.
    let other = run(&["check", "--key", arg(&key("b")), path]);
    assert_eq!(other.code, 1, "{}", other.stdout);
    assert!(
        other.stdout.contains(&format!(
            "signer {KEYID_A} -> absent; failing [] -> attestation-signature"
        )),
        "{}",
        other.stdout
    );
}

#[test]
fn diff_says_when_the_signer_changed() {
    let (base, candidate) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let base_bundle = attested_in(base.path(), OK);
    let candidate_bundle = attested_in(candidate.path(), NO_SIGNATURE);
    let sides = [arg(&base_bundle), arg(&candidate_bundle)];
    // The same bytes and no key: nothing changed, and nothing is said of who signed.
    let plain = run(&["diff", sides[0], sides[1]]);
    assert_eq!(plain.code, 0, "{}", plain.stdout);
    assert!(!plain.stdout.contains("signer"), "{}", plain.stdout);
    let keyed = run(&["diff", "--key", arg(&key("a")), sides[0], sides[1]]);
    assert_eq!(keyed.code, 1, "{}", keyed.stdout);
    assert!(
        keyed.stdout.contains(&format!(
            "\nsigner changed: attestation verified, signer keyid {KEYID_A} -> attestation refused at check 4\n"
        )),
        "{}",
        keyed.stdout
    );
    let json = run(&[
        "diff",
        "--format",
        "json",
        "--key",
        arg(&key("a")),
        sides[0],
        sides[1],
    ]);
    let document: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(document["summary"]["signer_changed"], true, "{document}");
    assert_eq!(
        document["header"]["base"]["bundle"]["attestation"]["signer"],
        KEYID_A
    );
    assert_eq!(
        document["header"]["candidate"]["bundle"]["attestation"]["refused_at"],
        4
    );
    // The same signer on both sides: no change.
    let same = run_env(
        &["diff", sides[0], sides[0]],
        &[("HANDOFF_TRUSTED_KEYS", Some(arg(&key("a"))))],
    );
    assert_eq!(same.code, 0, "{}", same.stdout);
    assert!(!same.stdout.contains("signer changed"), "{}", same.stdout);
}

#[test]
fn the_events_of_a_bundle_whose_attestation_is_refused_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = attested_in(dir.path(), OK);
    let event = format!("{}:3", arg(&bundle));
    let refused = run(&["explain", "--key", arg(&key("b")), &event]);
    assert!(
        refused
            .stdout
            .contains("\nbundle: attestation refused at check 6 "),
        "{}",
        refused.stdout
    );
    let json = run(&[
        "explain",
        "--format",
        "json",
        "--key",
        arg(&key("b")),
        &event,
    ]);
    assert_eq!(
        json.json_lines()[0]["bundle"]["attestation"],
        "attestation refused"
    );
    let verified = run(&["explain", "--key", arg(&key("a")), &event]);
    assert!(
        verified
            .stdout
            .contains("\nbundle: attestation verified: signed by "),
        "{}",
        verified.stdout
    );
    // The inspector: every per-packet screen of its events starts with the banner, whole at
    // 80x24; with the signing key, no banner.
    let screen = |keys: &Path| {
        run_env(
            &[
                "render",
                "--view",
                "raw",
                "--size",
                "80x24",
                "--select",
                "run.tar.gz:3",
                arg(dir.path()),
            ],
            &[("HANDOFF_TRUSTED_KEYS", Some(arg(keys)))],
        )
        .stdout
    };
    let drawn = screen(&key("b"));
    assert!(
        drawn.contains("ATTESTATION REFUSED (the bundle's row"),
        "{drawn}"
    );
    assert!(drawn.contains(">says why)<"), "the banner is cut at 80x24");
    assert!(!screen(&key("a")).contains("ATTESTATION REFUSED"));
}
