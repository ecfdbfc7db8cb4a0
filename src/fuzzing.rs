//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs` call these), kept in the library
//! so `tests/hostile/fuzz_replay.rs` replays every committed corpus and crash on the stable toolchain.
//! Each body panics only when the code under test breaks a promise: a panic inside it, or an
//! output that does not hold (e.g. a conversion line that is not JSON).

use crate::a2a::{convert, ConvertOptions, Mode};
use crate::migrate::{Choices, Direction, Migration};
use crate::profiles::{ProfileKind, ProfileOptions};

/// The one-pass raw reader and converter, both modes; every outcome serializes to JSON.
pub fn raw_convert(data: &[u8]) {
    for mode in [Mode::Strict, Mode::Lenient] {
        let options = ConvertOptions {
            mode,
            ..ConvertOptions::default()
        };
        let conversion = convert(data, &options);
        // The outcome must always be printable: serialization never fails.
        let _ = format!("{conversion:?}");
    }
}

/// The duplicate-key scanner: never panics, and finds nothing in text without a repeat of
/// any quoted string.
pub fn duplicate_keys(data: &[u8]) {
    let found = crate::json::scan_duplicate_keys(data);
    for duplicate in &found {
        assert!(duplicate.occurrences >= 2, "{duplicate:?}");
    }
}

/// The golden manifest parser: never panics; what it accepts renders and parses back equal.
pub fn manifest(data: &[u8]) {
    if let Ok(manifest) = crate::golden::parse_manifest(data) {
        let text = crate::golden::render_manifest(&manifest);
        let again = crate::golden::parse_manifest(text.as_bytes())
            .unwrap_or_else(|error| panic!("rendered manifest does not parse: {error:?}"));
        assert_eq!(
            again, manifest,
            "render/parse round trip changed the manifest"
        );
    }
}

/// A2A detection and migration, forward and reverse, on a tree given up (`Migration::run` of a
/// `Value`, as `migrate` runs) and on a shared one (of an `Arc`, the tree kept as it is: the
/// reference): both
/// record the same steps and result; the replays (streamed step diffs, one step's texts, the
/// result built again after `drop_result`) find the steps that were recorded and end with the
/// recorded result.
pub fn migrate(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let shared_input = std::sync::Arc::new(value.clone());
    for direction in [Direction::Forward, Direction::Reverse] {
        let owned = Migration::run(value.clone(), direction, &Choices::default());
        let shared = Migration::run(shared_input.clone(), direction, &Choices::default());
        let (mut migration, shared) = match (owned, shared) {
            (Ok(owned), Ok(shared)) => (owned, shared),
            (Err(_), Err(_)) => continue,
            (owned, shared) => panic!("owned ok: {}, shared ok: {}", owned.is_ok(), shared.is_ok()),
        };
        assert_eq!(
            migration.result, shared.result,
            "owned and shared results differ"
        );
        assert_eq!(*migration.input(), value, "the kept input is not the input");
        let steps = migration.steps.len();
        let _ = migration.step_diff(steps.saturating_sub(1), 2);
        if let Some(last) = steps.checked_sub(1) {
            assert!(
                migration.step_texts(last).is_some(),
                "step {last} not replayed"
            );
        }
        assert!(
            migration.step_texts(steps).is_none(),
            "a step past the last"
        );
        let _ = serde_json::to_string(&migration.report());
        let result = std::mem::take(&mut migration.result);
        migration.drop_result();
        let mut visited = 0;
        let replayed = migration.each_step_diff_then_result(2, |_, lines| {
            lines.for_each(drop);
            visited += 1;
        });
        assert_eq!(visited, steps, "the replay found other steps than the run");
        assert_eq!(replayed, result, "the replay does not end with the result");
    }
}

/// Every profile validator, detected and forced to each kind.
pub fn profiles(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let forced = [
        None,
        Some(ProfileKind::Ahc),
        Some(ProfileKind::CcMsg),
        Some(ProfileKind::CcContract),
        Some(ProfileKind::CcStore),
        Some(ProfileKind::Uaix),
    ];
    for force in forced {
        let options = ProfileOptions {
            force,
            // A fixed clock and a root with nothing in it: the target stays deterministic
            // and never looks at the machine's files.
            now: chrono::DateTime::from_timestamp(1_780_000_000, 0),
            artifact_root: Some(std::env::temp_dir().join("handoff-inspector-fuzz-empty")),
            ..ProfileOptions::default()
        };
        let report = crate::profiles::evaluate(&value, data, None, &options);
        let _ = crate::report::profile_text::render(&report);
    }
}

/// The TUI's `update` + `draw` driven by arbitrary keys, mouse events, resizes and file
/// changes over a small corpus the same bytes make: byte 0 says how many files (0-3), then
/// each file is a length byte and that many bytes; the rest are steps.
pub fn tui(data: &[u8]) {
    use crate::tui::runtime::drive::{steps_from_bytes, Driver};
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let (files, mut rest) = data.split_first().map_or((0, data), |(n, r)| (n % 4, r));
    for index in 0..files {
        let Some((&length, tail)) = rest.split_first() else {
            break;
        };
        let length = usize::from(length).min(tail.len());
        let name = ["a.json", "b.ndjson", "goldens.json"][usize::from(index) % 3];
        let _ = std::fs::write(dir.path().join(name), &tail[..length]);
        rest = &tail[length..];
    }
    let options = crate::corpus::CheckOptions::default();
    let mut driver = match Driver::new(vec![dir.path().to_path_buf()], options, (100, 30), false) {
        Ok(driver) => driver.with_scratch(dir.path().to_path_buf()),
        Err(error) => panic!("driver did not start: {error}"),
    };
    for (index, step) in steps_from_bytes(rest).iter().enumerate() {
        if let Err(error) = driver.apply(step) {
            panic!("step {index} {step:?}: {error}");
        }
        driver.app.should_quit = false;
    }
    if let Err(error) = driver.settle() {
        panic!("settle: {error}");
    }
}

/// The bundle reader + verifier (`open_bytes`, steps 1-26 and the lenient events read) under
/// upstream's default limits and under tight ones, and `verify`'s streaming reading of the
/// same bytes, which must agree with it. Byte 0 picks how the rest becomes a
/// bundle, so the fuzzer reaches past gzip's checksum: 0 = the rest is the `.tar.gz`; 1 = the
/// rest is the tar, gzipped here; 2 = the rest is `manifest.json`, a NUL, `events.ndjson`,
/// tarred and gzipped here.
pub fn bundle(data: &[u8]) {
    use crate::bundle::{open_bytes, verify_reader, Limits};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = match mode % 3 {
        0 => rest.to_vec(),
        1 => gzip(rest),
        _ => {
            let (manifest, events) = match rest.iter().position(|&b| b == 0) {
                Some(at) => (&rest[..at], &rest[at + 1..]),
                None => (rest, &[][..]),
            };
            gzip(&bundle_tar(manifest, events))
        }
    };
    let tight = Limits {
        max_bundle_bytes: 4096,
        max_decode_bytes: 8192,
        max_manifest_bytes: 1024,
        max_events_bytes: 2048,
        max_events: 3,
        max_line_bytes: 512,
        max_path_len: 16,
        max_json_depth: 4,
    };
    for limits in [Limits::default(), tight] {
        let opened = open_bytes(&bytes, &limits);
        match &opened.verdict {
            Ok(verified) => {
                assert_eq!(opened.event_count(), Some(verified.event_count));
                assert!(opened.run_root().is_some());
            }
            // Every refusal names itself: upstream's code and a message.
            Err(error) => assert!(!error.to_string().is_empty(), "{error:?}"),
        }
        // One verifier: `verify`'s streaming reading (counts only) and the reading that keeps
        // every line give the same verdict and the same counts.
        let counted = verify_reader(&bytes[..], &limits);
        assert_eq!(
            counted.verdict.as_ref().err(),
            opened.verdict.as_ref().err()
        );
        assert_eq!(
            counted.verdict.as_ref().ok().map(|v| &v.run_root),
            opened.verdict.as_ref().ok().map(|v| &v.run_root)
        );
        assert_eq!(
            (
                counted.event_count(),
                counted.a2a_events(),
                counted.handoff_visible_events()
            ),
            (
                opened.event_count(),
                opened.a2a_events(),
                opened.handoff_visible_events()
            )
        );
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing into a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// A GNU tar of `manifest.json` then `events.ndjson` with the given contents.
fn bundle_tar(manifest: &[u8], events: &[u8]) -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, content) in [("manifest.json", manifest), ("events.ndjson", events)] {
        let mut header = tar::Header::new_gnu();
        header.set_size(content.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        let _ = builder.append_data(&mut header, name, content);
    }
    builder.into_inner().unwrap_or_default()
}

/// A target body: any bytes in, a panic only when a promise is broken.
pub type Target = fn(&[u8]);

/// The targets by name, for the replay test and the fuzz/ binaries.
/// The attestation judge (`bundle::attest::verify_attestation`) over an envelope. Byte 0 picks
/// what the rest is, so the fuzzer reaches past the signature: 0 = the envelope file; 1 = the
/// signed payload, put in an envelope signed here with a fixed key (checks 7-15 then see it).
/// Each is judged without a bundle and with one that does not verify; a verdict is one of the
/// three states, a refusal names its check and a message.
pub fn attestation(data: &[u8]) {
    use crate::bundle::attest::{
        pae, verify_attestation, Check, Envelope, EnvelopeSignature, Outcome, TrustedKey,
        PAYLOAD_TYPE,
    };
    use base64::Engine;
    use ed25519_dalek::{Signer, SigningKey};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let key = SigningKey::from_bytes(&[0x11; 32]);
    let keys = [TrustedKey::new(key.verifying_key(), "fuzz")];
    let envelope = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let engine = base64::engine::general_purpose::STANDARD;
        let signature = key.sign(&pae(PAYLOAD_TYPE, rest));
        Envelope {
            payload: engine.encode(rest),
            payload_type: PAYLOAD_TYPE.into(),
            signatures: vec![EnvelopeSignature {
                keyid: String::new(),
                sig: engine.encode(signature.to_bytes()),
            }],
        }
        .to_text()
        .into_bytes()
    };
    for bundle in [None, Some(&b"not a bundle"[..])] {
        let mut reader = bundle;
        let offered = reader.as_mut().map(|bytes| bytes as &mut dyn std::io::Read);
        let judged = verify_attestation(&envelope, &keys, offered);
        match &judged.outcome {
            Outcome::Verified => panic!("a bundle that does not verify was matched"),
            Outcome::SignatureOnly => {
                assert!(bundle.is_none());
                assert_eq!(judged.signer, Some(0));
                assert!(judged.statement.is_some());
            }
            Outcome::Refused(refusal) => {
                assert!(!refusal.message.is_empty());
                if mode % 2 == 1 {
                    // Signed here: the signature itself never fails.
                    assert!(refusal.check > Check::Signature, "{refusal:?}");
                }
            }
        }
    }
}

pub const TARGETS: [(&str, Target); 8] = [
    ("raw_convert", raw_convert),
    ("duplicate_keys", duplicate_keys),
    ("manifest", manifest),
    ("migrate", migrate),
    ("profiles", profiles),
    ("tui", tui),
    ("bundle", bundle),
    ("attestation", attestation),
];
