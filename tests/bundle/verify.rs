//! `verify` against upstream's own verdicts for the upstream-written bundles
//! (tests/data/bundles/expected.json): valid, code, class, message, counts, run root.

use crate::common::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn bundles() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles")
}

fn expected() -> Vec<Value> {
    let text = std::fs::read_to_string(bundles().join("expected.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_upstream_bundle_gets_upstreams_verdict() {
    let cases = expected();
    assert_eq!(cases.len(), 11);
    for case in cases {
        let file = case["file"].as_str().unwrap();
        let path = bundles().join(file);
        let out = run(&["verify", "--format", "json", path.to_str().unwrap()]);
        let lines = out.json_lines();
        assert_eq!(lines.len(), 1, "{file}: {}", out.stdout);
        let got = &lines[0];
        let valid = case["valid"].as_bool().unwrap();
        assert_eq!(out.code, if valid { 0 } else { 1 }, "{file}");
        assert_eq!(got["valid"], case["valid"], "{file}");
        assert_eq!(got["source"], path.to_str().unwrap(), "{file}");
        for key in [
            "event_count",
            "run_root",
            "run_id",
            "a2a_events",
            "handoff_visible_events",
        ] {
            assert_eq!(got[key], case[key], "{file}: {key}");
        }
        if valid {
            assert!(got["error"].is_null(), "{file}");
        } else {
            assert_eq!(got["error"]["code"], case["error_code"], "{file}");
            assert_eq!(got["error"]["class"], case["error_class"], "{file}");
            assert_eq!(got["error"]["message"], case["message"], "{file}");
            assert!(got["error"]["step"].as_u64().is_some(), "{file}");
        }
    }
}

#[test]
fn text_output_names_the_check_and_the_compared_values() {
    let path = bundles().join("bad-events-edited-no-rehash.tar.gz");
    let out = run(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "FAIL  Integrity  IntegrityEventHash  Content hash mismatch at seq 1  {}",
            path.display()
        )
    );
    assert_eq!(lines[1], "  step 17: content hash recomputed equals stored");
    assert!(
        lines[2].starts_with("  content hash of event :1: expected sha256:7a2f6194"),
        "{}",
        lines[2]
    );
    assert!(lines[2].contains("found sha256:7e972c9d"), "{}", lines[2]);

    let valid = bundles().join("valid-02-two-events.tar.gz");
    let out = run(&["verify", valid.to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        format!(
            "OK  sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb  2 events  {}\n",
            valid.display()
        )
    );
}

#[test]
fn a_directory_stands_for_its_bundles_and_an_unreadable_path_exits_2() {
    let out = run(&["verify", "--format", "json", bundles().to_str().unwrap()]);
    assert_eq!(out.code, 1, "some bundles there fail");
    assert_eq!(out.json_lines().len(), 11);

    let missing = bundles().join("no-such.tar.gz");
    let valid = bundles().join("valid-01-one-event.tar.gz");
    let out = run(&["verify", missing.to_str().unwrap(), valid.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no-such.tar.gz"), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("OK  "),
        "the readable bundle is still reported"
    );
}

#[test]
fn a_path_without_a_bundle_exits_2_and_says_so() {
    let a2a = crate::common::fixtures().join("a2a");
    let out = run(&["verify", a2a.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stdout, "", "nothing was verified");
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "handoff-inspector: no evidence bundle (.tar.gz) found under {}",
            a2a.display()
        )
    );
    // One path without a bundle among others still exits 2; the bundles found are reported.
    let valid = bundles().join("valid-01-one-event.tar.gz");
    let out = run(&["verify", valid.to_str().unwrap(), a2a.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.starts_with("OK  "), "{}", out.stdout);
    assert!(out
        .stderr
        .contains("no evidence bundle (.tar.gz) found under"));
}

#[test]
fn limits_can_be_changed() {
    let path = bundles().join("valid-04-hundred.tar.gz");
    let out = run(&[
        "verify",
        "--format",
        "json",
        "--limit",
        "max_events=99",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
    assert_eq!(out.json_lines()[0]["error"]["code"], "LimitTotalEvents");
    let out = run(&[
        "verify",
        "--limit",
        "max_events=100",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0);
    let out = run(&["verify", "--limit", "max_evnts=1", path.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown limit"), "{}", out.stderr);
    let out = run(&[
        "verify",
        "--no-verify-limits",
        "--limit",
        "max_path_len=3",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
}

// ---------------------------------------------------------------------------------------
// Mutations: bundles changed at a fixed seed (a bit flipped, bytes cut, repeated or inserted,
// in the gzip stream, the tar stream, a member's text or a member's name and size), verified
// in one run of the binary, each outcome held to the spec's rules (a code of its vocabulary,
// with the class fixed for that code; a message of the spec's message set for that code, no
// parser detail where upstream words a constant; spec §15's counts, computed here from the
// bundle's bytes independently of the verifier) and, where upstream's verifier was run on the
// same bytes (tests/data/mutations/upstream.json, made by scripts/upstream-verify), to
// upstream's exact verdict: valid, code, class, message, run root.
//
// To record upstream's verdicts again after changing the generator or the bases:
//   MUTATIONS_OUT=/tmp/mutated cargo test --test bundle verify::mutated_bundles
//   scripts/upstream-verify/run.sh /tmp/mutated > tests/data/mutations/upstream.json
// ---------------------------------------------------------------------------------------

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};

/// How many mutations each base bundle gets.
const PER_BASE: usize = 50;
const SEED: u64 = 0x2326_2026;

/// SplitMix64: the mutations' randomness, fixed by `SEED`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The bases: the upstream-written samples and the bundles our writer wrote
/// (tests/data/mutations/*.tar.gz, kept as bytes so the mutations stay the same).
fn bases() -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    for dir in [bundles(), mutation_data()] {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".tar.gz"))
            .collect();
        names.sort();
        for path in names {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            found.push((name, std::fs::read(&path).unwrap()));
        }
    }
    found
}

fn mutation_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mutations")
}

fn gunzip_all(bytes: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    let ok = GzDecoder::new(bytes).read_to_end(&mut out).is_ok();
    (out, ok)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The members of a base: (name, data) in order, as far as they can be read whole.
fn members_of(tar_bytes: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut archive = tar::Archive::new(tar_bytes);
    let mut out = Vec::new();
    let Ok(entries) = archive.entries() else {
        return out;
    };
    for entry in entries {
        let Ok(mut entry) = entry else {
            break;
        };
        let name = entry.path_bytes().into_owned();
        let mut data = Vec::new();
        if entry.read_to_end(&mut data).is_err() || (data.len() as u64) < entry.size() {
            break;
        }
        out.push((name, data));
    }
    out
}

/// A GNU tar as upstream's writer lays it out: one header per member (raw name bytes, the
/// declared size given or the data's), data padded to 512, two zero blocks.
fn tar_of(members: &[(Vec<u8>, Vec<u8>, Option<u64>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data, declared) in members {
        let mut header = tar::Header::new_gnu();
        header.set_mode(0o644);
        header.set_size(declared.unwrap_or(data.len() as u64));
        header.set_mtime(0);
        let bytes = header.as_mut_bytes();
        if name.len() > 100 {
            // A GNU long name: an `L` member carrying it, then the member itself.
            let mut long = tar::Header::new_gnu();
            long.set_size(name.len() as u64 + 1);
            long.set_entry_type(tar::EntryType::GNULongName);
            long.as_mut_bytes()[..13].copy_from_slice(b"././@LongLink");
            long.set_cksum();
            out.extend_from_slice(long.as_bytes());
            let mut with_nul = name.clone();
            with_nul.push(0);
            out.extend_from_slice(&with_nul);
            out.resize(out.len().div_ceil(512) * 512, 0);
            bytes[..100].copy_from_slice(&name[..100]);
        } else {
            bytes[..name.len()].copy_from_slice(name);
        }
        header.set_cksum();
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend_from_slice(&[0; 1024]);
    out
}

/// What gets inserted: bytes and tokens that reach the strict pre-check's failures, serde's,
/// the line checks' and the limits'.
const TOKENS: &[&[u8]] = &[
    b"\\ud800",
    b"\\udc00",
    b"\\ud800\\u0041",
    b"\\u12",
    b"\\x",
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"1e400",
    b"01",
    b"-",
    b"\"a\":1,",
    b"\"type\":1,",
    b"\"time\":\"yesterday\",",
    b"\"time\":\"2026-02-27T10:05:00\",",
    b"\"assayseq\":7,",
    b"\"data\":{},",
    "\u{a0}".as_bytes(),
    b"\t",
    b"\r",
    b"\n",
    b"\n\n",
    b"\xff",
    b"\xef\xbb\xbf",
    b"\x01",
    b"null",
    b"tru",
    "Ω".as_bytes(),
];

/// Flip, cut, repeat or insert somewhere in `bytes`; says what it did.
fn edit(rng: &mut Rng, bytes: &mut Vec<u8>, structural: bool) -> String {
    let len = bytes.len().max(1);
    // Inside text, edits land on a structural character's neighbourhood half the time.
    let at = |rng: &mut Rng, bytes: &[u8]| -> usize {
        if structural && rng.below(2) == 0 {
            let marks: Vec<usize> = bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| matches!(b, b'{' | b',' | b':' | b'"' | b'\n' | b'['))
                .map(|(i, _)| i + 1)
                .collect();
            if !marks.is_empty() {
                return *rng.pick(&marks);
            }
        }
        rng.below(len + 1).min(bytes.len())
    };
    match rng.below(4) {
        0 => {
            let i = rng.below(len).min(bytes.len().saturating_sub(1));
            if bytes.is_empty() {
                return "flip nothing".into();
            }
            let old = bytes[i];
            bytes[i] = if rng.below(2) == 0 {
                old ^ (1 << rng.below(8))
            } else {
                rng.next() as u8
            };
            format!("flip byte {i} {old:#04x}->{:#04x}", bytes[i])
        }
        1 => {
            let from = at(rng, bytes);
            let n = [1, 2, 7, 64, 600][rng.below(5)].min(bytes.len() - from);
            bytes.drain(from..from + n);
            format!("cut {n} at {from}")
        }
        2 => {
            let from = at(rng, bytes);
            let n = [1, 3, 40, 512, 2000][rng.below(5)].min(bytes.len() - from);
            let copy = bytes[from..from + n].to_vec();
            bytes.splice(from..from, copy);
            format!("repeat {n} at {from}")
        }
        _ => {
            let from = at(rng, bytes);
            let token = *rng.pick(TOKENS);
            bytes.splice(from..from, token.iter().copied());
            format!("insert {:?} at {from}", String::from_utf8_lossy(token))
        }
    }
}

/// One mutation of a base bundle.
fn mutate(rng: &mut Rng, base: &[u8]) -> (String, Vec<u8>) {
    let (tar_bytes, _) = gunzip_all(base);
    let members = members_of(&tar_bytes);
    let with_sizes = |members: &[(Vec<u8>, Vec<u8>)]| -> Vec<(Vec<u8>, Vec<u8>, Option<u64>)> {
        members
            .iter()
            .map(|(n, d)| (n.clone(), d.clone(), None))
            .collect()
    };
    // A base whose two members cannot be read whole (the truncated sample) is edited as bytes.
    let choice = if members.len() >= 2 {
        rng.below(10)
    } else {
        rng.below(2)
    };
    match choice {
        0 => {
            let mut bytes = base.to_vec();
            let what = edit(rng, &mut bytes, false);
            (format!("gzip: {what}"), bytes)
        }
        1 => {
            let mut bytes = tar_bytes.clone();
            let what = edit(rng, &mut bytes, false);
            (format!("tar: {what}"), gzip(&bytes))
        }
        2 => {
            // Names, sizes and order of the members.
            let mut members = with_sizes(&members);
            let what = match rng.below(8) {
                0 => {
                    members[1].0 = vec![b'e'; 300];
                    "events member named with 300 bytes"
                }
                1 => {
                    members[1].0 = b"../events.ndjson".to_vec();
                    "events member named ../events.ndjson"
                }
                2 => {
                    members[0].0 = b"./manifest.json".to_vec();
                    "manifest named ./manifest.json"
                }
                3 => {
                    members.swap(0, 1);
                    "members swapped"
                }
                4 => {
                    let copy = members[1].clone();
                    members.push(copy);
                    "events member repeated"
                }
                5 => {
                    members.pop();
                    "events member dropped"
                }
                6 => {
                    members[1].2 = Some(600 * 1024 * 1024);
                    "events member declares 600 MiB"
                }
                _ => {
                    members[0].2 = Some(11 * 1024 * 1024);
                    "manifest declares 11 MiB"
                }
            };
            (format!("members: {what}"), gzip(&tar_of(&members)))
        }
        k => {
            // A member's text: the manifest a third of the time, else the events.
            let mut members = with_sizes(&members);
            let which = usize::from(k >= 5);
            let what = edit(rng, &mut members[which].1, true);
            let name = String::from_utf8_lossy(&members[which].0).into_owned();
            // Mostly with the manifest's file entry resealed, so the line checks are reached
            // (else a length change stops at step 9).
            let resealed = which == 1 && rng.below(4) > 0 && reseal(&mut members);
            let how = if resealed {
                ", file entry resealed"
            } else {
                ""
            };
            (format!("{name}: {what}{how}"), gzip(&tar_of(&members)))
        }
    }
}

/// Sets the manifest's `files["events.ndjson"]` to the events member's size and SHA-256;
/// false when the manifest is not an object with that entry.
fn reseal(members: &mut [(Vec<u8>, Vec<u8>, Option<u64>)]) -> bool {
    let events = &members[1].1;
    let digest = format!("sha256:{:x}", Sha256::digest(events));
    let size = events.len();
    let Ok(mut manifest) = serde_json::from_slice::<Value>(&members[0].1) else {
        return false;
    };
    let Some(entry) = manifest
        .pointer_mut("/files/events.ndjson")
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    entry.insert("bytes".into(), size.into());
    entry.insert("sha256".into(), digest.into());
    members[0].1 = serde_json::to_vec(&manifest).unwrap();
    true
}

/// Spec §15's counts for a bundle, from its bytes, without the verifier: the lines of the
/// first member named `events.ndjson` that parse as JSON objects, A2A among them, and
/// `data.handoff.visible == true` among them. `None` when no such member can be read.
fn counts_of(bytes: &[u8]) -> Option<(u64, u64, u64)> {
    let (tar_bytes, gzip_ok) = gunzip_all(bytes);
    let mut archive = tar::Archive::new(&tar_bytes[..]);
    for entry in archive.entries().ok()? {
        let mut entry = entry.ok()?;
        if entry.path_bytes().as_ref() != b"events.ndjson" {
            continue;
        }
        let declared = entry.size();
        let mut data = Vec::new();
        let read_ok = entry.read_to_end(&mut data).is_ok();
        // Cut short by a failed gzip stream: the last, incomplete line is not counted.
        let cut_short = !read_ok || (!gzip_ok && (data.len() as u64) < declared);
        let mut lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
        if cut_short && lines.last().is_some_and(|l| !l.ends_with(b"\n")) {
            lines.pop();
        }
        let mut counts = (0, 0, 0);
        for line in lines {
            let line = line.strip_suffix(b"\n").unwrap_or(line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            counts.0 += 1;
            let a2a = map
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with("assay.adapter.a2a."));
            counts.1 += u64::from(a2a);
            let visible = map.get("data").and_then(|d| d.pointer("/handoff/visible"));
            counts.2 += u64::from(visible == Some(&Value::Bool(true)));
        }
        return Some(counts);
    }
    None
}

/// The spec's message set (§7, §9, §4, §10): for each code, the messages upstream words it
/// with; `{n}` is a number, `{*}` any non-empty text (an io or serde text, a member name).
const MESSAGES: &[(&str, &str, &[&str])] = &[
    ("IntegrityGzip", "Integrity", &["Gzip trailer: {*}", "Bundle source: {*}"]),
    ("IntegrityTar", "Integrity", &["Entry #{n}: {*}"]),
    ("IntegrityManifestHash", "Integrity", &["events.ndjson hash mismatch"]),
    ("IntegrityEventHash", "Integrity", &["Content hash mismatch at seq {n}"]),
    (
        "IntegrityFileSizeMismatch",
        "Integrity",
        &[
            "events.ndjson size mismatch: expected {n}, got {n}",
            "events.ndjson byte mismatch: expected {n}, got {n}",
        ],
    ),
    ("IntegrityRunRootMismatch", "Integrity", &["Run root mismatch"]),
    ("IntegrityIo", "Integrity", &["{*}"]),
    (
        "ContractSchemaVersion",
        "Contract",
        &[
            "Unsupported schema version: {n}",
            "Invalid specversion",
            "Missing content_hash",
        ],
    ),
    ("ContractFileOrder", "Contract", &["First file must be 'manifest.json'"]),
    (
        "ContractMissingFile",
        "Contract",
        &["Manifest missing 'events.ndjson'", "Missing events.ndjson"],
    ),
    ("ContractDuplicateFile", "Contract", &["Duplicate file '{*}'"]),
    ("ContractUnexpectedFile", "Contract", &["Unexpected file '{*}'", "Unexpected file ''"]),
    ("ContractRunIdMismatch", "Contract", &["Inconsistent run_id"]),
    ("ContractBundleIdMismatch", "Contract", &["bundle_id must equal run_root"]),
    ("ContractSequenceGap", "Contract", &["Sequence gap", "Event count mismatch"]),
    ("ContractSequenceStart", "Contract", &["First event must have seq=0, got {n}"]),
    (
        "ContractInvalidJson",
        "Contract",
        &[
            "Manifest JSON contains a duplicate object key",
            "Event JSON contains a duplicate object key",
            "Manifest JSON contains an invalid unicode escape sequence",
            "Event JSON contains an invalid unicode escape sequence",
            "Manifest JSON contains an unpaired surrogate",
            "Event JSON contains an unpaired surrogate",
            "Manifest JSON object exceeds the maximum of 10000 keys",
            "Event JSON object exceeds the maximum of 10000 keys",
            "Manifest JSON contains a string longer than the maximum of 1048576 bytes",
            "Event JSON contains a string longer than the maximum of 1048576 bytes",
            "Manifest JSON is not well-formed",
            "Event JSON is not well-formed",
            "Invalid UTF-8 in manifest.json: {*}",
            "Invalid UTF-8 in event: {*}",
            "BOM not allowed in NDJSON",
            // serde_json's own, after the pre-check passed: always with its position.
            "{*} at line {n} column {n}",
        ],
    ),
    (
        "ContractInvalidEvent",
        "Contract",
        &[
            "Blank line in events.ndjson",
            "seq={n}: source must be a URI (e.g. urn:assay:..., https://...)",
            "seq={n}: all events must carry the same source",
            "run_id must not contain a colon; the id contract cannot be split unambiguously (seq={n})",
            "Event id does not match the run_id:seq contract at seq={n}",
            "a bundle must carry at least one event",
        ],
    ),
    ("LimitPathLength", "Limits", &["Entry path exceeds the configured maximum length of {n}"]),
    (
        "LimitFileSize",
        "Limits",
        &[
            "A declared member size exceeds the configured maximum of {n} bytes",
            "exceeded member bytes limit of {n}",
        ],
    ),
    ("LimitTotalEvents", "Limits", &["Event count exceeds the configured maximum of {n}"]),
    ("LimitLineBytes", "Limits", &["exceeded line bytes limit of {n}"]),
    (
        "LimitJsonDepth",
        "Limits",
        &[
            "Manifest JSON nesting exceeds the configured maximum depth of {n}",
            "Event JSON nesting exceeds the configured maximum depth of {n}",
        ],
    ),
    ("LimitBundleBytes", "Limits", &["Bundle source: exceeded source bytes limit of {n}"]),
    (
        "LimitDecodeBytes",
        "Limits",
        &[
            "exceeded decoded bytes limit of {n}",
            "Entry #{n}: exceeded decoded bytes limit of {n}",
            "Gzip trailer: exceeded decoded bytes limit of {n}",
        ],
    ),
    ("SecurityPathTraversal", "Security", &["Invalid path component in '{*}'"]),
];

/// Whether `text` fits `template` (`{n}`: one or more digits; `{*}`: one or more characters).
fn fits(template: &str, text: &str) -> bool {
    if let Some(rest) = template.strip_prefix("{n}") {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        return (1..=digits).any(|n| fits(rest, &text[n..]));
    }
    if let Some(rest) = template.strip_prefix("{*}") {
        return text
            .char_indices()
            .skip(1)
            .map(|(i, _)| i)
            .chain([text.len()])
            .filter(|&i| i > 0)
            .any(|i| fits(rest, &text[i..]));
    }
    match (template.chars().next(), text.chars().next()) {
        (None, None) => true,
        (Some(t), Some(c)) if t == c => fits(&template[t.len_utf8()..], &text[c.len_utf8()..]),
        _ => false,
    }
}

#[test]
fn message_templates_match_what_they_should() {
    assert!(fits(
        "Content hash mismatch at seq {n}",
        "Content hash mismatch at seq 12"
    ));
    assert!(!fits(
        "Content hash mismatch at seq {n}",
        "Content hash mismatch at seq x"
    ));
    assert!(fits(
        "{*} at line {n} column {n}",
        "missing field `data` at line 1 column 450"
    ));
    assert!(!fits(
        "{*} at line {n} column {n}",
        "Event: duplicate key 'a' at byte 3"
    ));
    assert!(!fits(
        "Event JSON is not well-formed",
        "Event JSON is not well-formed at byte 3"
    ));
}

#[test]
fn mutated_bundles_get_the_specs_verdicts_and_upstreams_where_recorded() {
    let dir = std::env::temp_dir().join(format!("mutated-bundles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(SEED);
    let mut made: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
    for (base_name, base) in bases() {
        for k in 0..PER_BASE {
            let (what, bytes) = mutate(&mut rng, &base);
            let name = format!("{}-{k:02}.tar.gz", base_name.trim_end_matches(".tar.gz"));
            std::fs::write(dir.join(&name), &bytes).unwrap();
            made.insert(name, (what, bytes));
        }
    }
    assert!(made.len() >= 600, "{}", made.len());
    if let Some(out) = std::env::var_os("MUTATIONS_OUT") {
        for (name, (_, bytes)) in &made {
            std::fs::create_dir_all(&out).unwrap();
            std::fs::write(Path::new(&out).join(name), bytes).unwrap();
        }
    }
    let upstream: BTreeMap<String, Value> =
        std::fs::read_to_string(mutation_data().join("upstream.json"))
            .unwrap()
            .lines()
            .map(|line| {
                let v: Value = serde_json::from_str(line).unwrap();
                let file = v["file"].as_str().unwrap();
                let name = Path::new(file)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (name, v)
            })
            .collect();

    let out = run(&["verify", "--format", "json", dir.to_str().unwrap()]);
    let lines = out.json_lines();
    assert_eq!(lines.len(), made.len());
    let mut codes: BTreeMap<String, usize> = BTreeMap::new();
    let mut compared = 0;
    for got in &lines {
        let source = got["source"].as_str().unwrap();
        let name = Path::new(source)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let (what, bytes) = &made[&name];
        let context = format!("{name} ({what})");
        // The spec's rules.
        let counts = counts_of(bytes);
        let error = &got["error"];
        if got["valid"] == true {
            assert!(error.is_null(), "{context}");
            let (objects, a2a, visible) = counts.expect("a valid bundle has events");
            assert_eq!(got["event_count"], objects, "{context}");
            assert_eq!(got["a2a_events"], a2a, "{context}");
            assert_eq!(got["handoff_visible_events"], visible, "{context}");
            *codes.entry("valid".into()).or_default() += 1;
        } else {
            let code = error["code"].as_str().unwrap();
            let message = error["message"].as_str().unwrap();
            let Some((_, class, templates)) = MESSAGES.iter().find(|(c, _, _)| *c == code) else {
                panic!("{context}: {code} is not a code verify_bundle emits");
            };
            assert_eq!(error["class"], *class, "{context}");
            assert!(
                templates.iter().any(|t| fits(t, message)),
                "{context}: {code} {message:?} is not one of the spec's messages for it"
            );
            let expected = counts.map(|c| (Value::from(c.0), Value::from(c.1), Value::from(c.2)));
            let got_counts = (
                got["event_count"].clone(),
                got["a2a_events"].clone(),
                got["handoff_visible_events"].clone(),
            );
            match expected {
                Some(expected) => assert_eq!(got_counts, expected, "{context}: counts"),
                None => assert_eq!(
                    got_counts,
                    (Value::Null, Value::Null, Value::Null),
                    "{context}"
                ),
            }
            *codes.entry(code.into()).or_default() += 1;
        }
        // Upstream's verdict on the same bytes, where it was recorded.
        let Some(theirs) = upstream.get(&name) else {
            continue;
        };
        let digest = format!("{:x}", Sha256::digest(bytes));
        assert_eq!(
            theirs["sha256"], digest,
            "{context}: upstream's verdict was recorded for other bytes (record again, see above)"
        );
        compared += 1;
        assert_eq!(got["valid"], theirs["valid"], "{context}");
        assert_eq!(got["run_root"], theirs["run_root"], "{context}");
        if theirs["valid"] == false {
            assert_eq!(error["code"], theirs["code"], "{context}");
            assert_eq!(error["class"], theirs["class"], "{context}");
            assert_eq!(error["message"], theirs["message"], "{context}");
        } else {
            assert_eq!(got["event_count"], theirs["event_count"], "{context}");
        }
    }
    assert_eq!(
        compared,
        made.len(),
        "upstream's verdict recorded for every mutation"
    );
    // The mutations reach far: many codes, both outcomes.
    assert!(codes.len() >= 15, "{codes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
