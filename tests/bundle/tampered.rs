//! The project's own tampered bundles: every reachable check of the spec's §9, every limit at
//! its value and one past it, the archive edges of §1, the line edges of §3 and the strict
//! JSON edges of §7. Each is built from an upstream-written bundle's lines (resealed where the
//! case needs it) with a hand-made tar and gzip, and `verify --format json` must give the
//! code and step (or pass). Bad archives must give a verdict or a load error, never a panic.

use crate::common::run;
use flate2::write::GzEncoder;
use flate2::Compression;
use handoff_inspector::bundle::hash::{run_root, sha256_text};
use handoff_inspector::bundle::verify::lenient_facts;
use handoff_inspector::bundle::{open_path, Limits};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

// ---------- building blocks ----------

/// The ten lines of the upstream-written `valid-03-ten-mixed` bundle (without `\n`).
fn base_lines() -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles/valid-03-ten-mixed.tar.gz");
    let bundle = open_path(&path, &Limits::default()).unwrap();
    let lines = bundle.events.unwrap();
    (0..lines.len())
        .map(|i| String::from_utf8(lines.content(i).to_vec()).unwrap())
        .collect()
}

fn edit(line: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value = serde_json::from_str(line).unwrap();
    change(&mut value);
    serde_json::to_string(&value).unwrap()
}

/// A manifest that agrees with `text` (file hash, size, count, run root from the lines'
/// recomputed content hashes), as a resealing editor would write it.
fn manifest_for(text: &[u8]) -> Value {
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let hashes: Vec<String> = lines
        .iter()
        .filter_map(|l| lenient_facts(l).computed_hash)
        .collect();
    let root = run_root(hashes.iter().map(String::as_str));
    let run_id = lines
        .first()
        .and_then(|l| serde_json::from_slice::<Value>(l).ok())
        .and_then(|v| v["assayrunid"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "a2a-run-03".into());
    json!({
        "algorithms": {"canon": "jcs-rfc8785", "hash": "sha256", "root": "sha256(concat(content_hash + \"\\n\"))"},
        "bundle_id": root, "event_count": lines.len(),
        "files": {"events.ndjson": {"bytes": text.len(), "path": "events.ndjson", "sha256": sha256_text(text)}},
        "producer": {"name": "assay", "version": "5.4.0"},
        "run_id": run_id, "run_root": root, "schema_version": 1,
    })
}

fn joined(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect()
}

/// One tar member as a hand-made header: raw name bytes, typeflag, data, and the size the
/// header declares (the data's own length unless told).
struct Member {
    name: Vec<u8>,
    typeflag: u8,
    data: Vec<u8>,
    declared: Option<u64>,
}

fn member(name: &str, data: &[u8]) -> Member {
    Member {
        name: name.as_bytes().to_vec(),
        typeflag: 0,
        data: data.to_vec(),
        declared: None,
    }
}

fn header(name: &[u8], typeflag: u8, size: u64) -> [u8; 512] {
    let mut header = tar::Header::new_gnu();
    header.set_mode(0o644);
    header.set_size(size);
    header.set_mtime(0);
    let bytes = header.as_mut_bytes();
    let n = name.len().min(100);
    bytes[..n].copy_from_slice(&name[..n]);
    bytes[156] = typeflag;
    header.set_cksum();
    *header.as_bytes()
}

fn padded(data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    out.resize(data.len().div_ceil(512) * 512, 0);
    out
}

fn tar_of(members: &[Member]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in members {
        out.extend_from_slice(&header(
            &m.name,
            m.typeflag,
            m.declared.unwrap_or(m.data.len() as u64),
        ));
        out.extend_from_slice(&padded(&m.data));
    }
    out.extend_from_slice(&[0; 1024]);
    out
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A bundle whose manifest agrees with `events` (after `change`).
fn sealed_with(events: &[u8], change: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut manifest = manifest_for(events);
    change(&mut manifest);
    gz(&tar_of(&[
        member("manifest.json", manifest.to_string().as_bytes()),
        member("events.ndjson", events),
    ]))
}

fn sealed(events: &[u8]) -> Vec<u8> {
    sealed_with(events, |_| {})
}

fn lines_with(index: usize, change: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut lines = base_lines();
    lines[index] = edit(&lines[index], change);
    joined(&lines)
}

fn pax(records: &[(&str, &str)]) -> Member {
    let mut data = Vec::new();
    for (key, value) in records {
        let body = format!(" {key}={value}\n");
        let mut len = body.len() + 1;
        while format!("{len}{body}").len() != len {
            len += 1;
        }
        data.extend_from_slice(format!("{len}{body}").as_bytes());
    }
    Member {
        name: b"PaxHeader".to_vec(),
        typeflag: b'x',
        data,
        declared: None,
    }
}

// ---------- running ----------

struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    args: Vec<String>,
    /// `None`: passes; else (code, step).
    expect: Option<(&'static str, u64)>,
}

fn case(name: &'static str, bytes: Vec<u8>, expect: Option<(&'static str, u64)>) -> Case {
    Case {
        name,
        bytes,
        args: Vec::new(),
        expect,
    }
}

fn limited(
    name: &'static str,
    bytes: Vec<u8>,
    limit: String,
    expect: Option<(&'static str, u64)>,
) -> Case {
    Case {
        name,
        bytes,
        args: vec!["--limit".into(), limit],
        expect,
    }
}

fn check(cases: Vec<Case>) {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let path = dir.path().join(format!("{}.tar.gz", case.name));
        std::fs::write(&path, &case.bytes).unwrap();
        let mut args = vec!["verify".to_string(), "--format".into(), "json".into()];
        args.extend(case.args.iter().cloned());
        args.push(path.to_str().unwrap().into());
        let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let lines = out.json_lines();
        let got = match lines.first() {
            Some(line) if line["valid"] == true => None,
            Some(line) => Some((
                line["error"]["code"].as_str().unwrap_or("?").to_string(),
                line["error"]["step"].as_u64().unwrap_or(99),
            )),
            None => Some(("no output".into(), 99)),
        };
        let want = case.expect.map(|(code, step)| (code.to_string(), step));
        let exit = if want.is_none() { 0 } else { 1 };
        if got != want || out.code != exit {
            failures.push(format!(
                "{}: want {want:?} exit {exit}, got {got:?} exit {} {}",
                case.name, out.code, out.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Nesting as upstream counts it: each object or array one level.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn with_limit(name: &str, value: usize) -> String {
    format!("{name}={value}")
}

// ---------- the cases ----------

#[test]
fn resealed_base_verifies() {
    // The hand-made tar and gzip (other header fields than upstream's) verify: the verifier
    // reads names and sizes only.
    check(vec![case("base", sealed(&joined(&base_lines())), None)]);
}

#[test]
fn archive_level_checks() {
    let events = joined(&base_lines());
    let manifest = manifest_for(&events).to_string().into_bytes();
    let good_tar = tar_of(&[
        member("manifest.json", &manifest),
        member("events.ndjson", &events),
    ]);
    let good = gz(&good_tar);
    let mut bad_checksum = good_tar.clone();
    bad_checksum[148] = b'7';
    let mut bad_crc = good.clone();
    let crc_at = bad_crc.len() - 8;
    bad_crc[crc_at] ^= 0xff;
    let mut trailing = good.clone();
    trailing.extend_from_slice(&gz(b"second member, never decoded"));
    let mut after_zero = good_tar[..good_tar.len() - 1024].to_vec();
    after_zero.extend_from_slice(&[0; 512]);
    after_zero.extend_from_slice(&tar_of(&[member("evil.sh", b"x")]));
    let symlink_events = Member {
        typeflag: b'2',
        ..member("events.ndjson", &events)
    };
    let empty_symlink = Member {
        typeflag: b'2',
        ..member("events.ndjson", b"")
    };
    let events_first = vec![
        member("events.ndjson", &events),
        member("manifest.json", &manifest),
    ];
    let only_manifest = vec![member("manifest.json", &manifest)];
    check(vec![
        case(
            "not-gzip",
            b"plain text, not gzip".to_vec(),
            Some(("IntegrityTar", 1)),
        ),
        case("empty", Vec::new(), Some(("IntegrityTar", 1))),
        case(
            "gzip-of-nothing",
            gz(b""),
            Some(("ContractMissingFile", 25)),
        ),
        case(
            "truncated-in-header",
            good[..40].to_vec(),
            Some(("IntegrityTar", 1)),
        ),
        case("tar-checksum", gz(&bad_checksum), Some(("IntegrityTar", 1))),
        case(
            "truncated-in-events",
            good[..good.len() * 3 / 4].to_vec(),
            Some(("IntegrityIo", 10)),
        ),
        case(
            "truncated-trailer",
            good[..good.len() - 4].to_vec(),
            Some(("IntegrityGzip", 25)),
        ),
        case("bad-crc", bad_crc, Some(("IntegrityGzip", 25))),
        case("second-gzip-member-ignored", trailing, None),
        case("member-after-zero-block-ignored", gz(&after_zero), None),
        case(
            "symlink-carrying-data",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                symlink_events,
            ])),
            None,
        ),
        case(
            "symlink-empty",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                empty_symlink,
            ])),
            Some(("IntegrityFileSizeMismatch", 9)),
        ),
        case(
            "events-first",
            gz(&tar_of(&events_first)),
            Some(("ContractFileOrder", 7)),
        ),
        case(
            "only-manifest",
            gz(&tar_of(&only_manifest)),
            Some(("ContractMissingFile", 25)),
        ),
        case(
            "traversal",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("../events.ndjson", &events),
            ])),
            Some(("SecurityPathTraversal", 4)),
        ),
        case(
            "absolute",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("/events.ndjson", &events),
            ])),
            Some(("SecurityPathTraversal", 4)),
        ),
        case(
            "dot-slash",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("./events.ndjson", &events),
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "capital",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("Events.ndjson", &events),
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "trailing-slash",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("events.ndjson/", &events),
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "extra-file",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("events.ndjson", &events),
                member("notes.txt", b"x"),
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "non-utf8-name",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                Member {
                    name: b"ev\xffnts".to_vec(),
                    ..member("", &events)
                },
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "duplicate-events",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("events.ndjson", &events),
                member("events.ndjson", &events),
            ])),
            Some(("ContractDuplicateFile", 6)),
        ),
        case(
            "duplicate-manifest",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                member("manifest.json", &manifest),
            ])),
            Some(("ContractDuplicateFile", 6)),
        ),
        case(
            "pax-global-header",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                Member {
                    typeflag: b'g',
                    ..pax(&[("comment", "x")])
                },
                member("events.ndjson", &events),
            ])),
            Some(("ContractUnexpectedFile", 5)),
        ),
        case(
            "pax-path-names-events",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                pax(&[("path", "events.ndjson")]),
                member("placeholder.bin", &events),
            ])),
            None,
        ),
        case(
            "pax-path-traversal",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                pax(&[("path", "../events.ndjson")]),
                member("events.ndjson", &events),
            ])),
            Some(("SecurityPathTraversal", 4)),
        ),
        case(
            "pax-size-shorter",
            gz(&tar_of(&[
                member("manifest.json", &manifest),
                pax(&[("size", &(events.len() - 1).to_string())]),
                member("events.ndjson", &events),
            ])),
            Some(("IntegrityFileSizeMismatch", 23)),
        ),
    ]);
}

#[test]
fn manifest_checks() {
    let events = joined(&base_lines());
    let with_manifest = |text: &[u8]| {
        gz(&tar_of(&[
            member("manifest.json", text),
            member("events.ndjson", &events),
        ]))
    };
    let manifest = manifest_for(&events);
    let pretty = serde_json::to_string_pretty(&manifest).unwrap();
    let mut deep = manifest.clone();
    deep["extra"] = serde_json::from_str(&format!("{}{}", "[".repeat(63), "]".repeat(63))).unwrap();
    let mut too_deep = manifest.clone();
    too_deep["extra"] =
        serde_json::from_str(&format!("{}{}", "[".repeat(64), "]".repeat(64))).unwrap();
    let text = manifest.to_string();
    let with_extra = |extra: Value| {
        let mut m = manifest.clone();
        m["extra"] = extra;
        with_manifest(m.to_string().as_bytes())
    };
    let keys = |n: usize| Value::Object((0..n).map(|i| (format!("k{i}"), json!(0))).collect());
    // Incompressible filler, so that cutting the gzip in half cuts inside the manifest.
    let mut seed = 7u64;
    let noise: String = (0..400_000)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            char::from(b"0123456789abcdef"[(seed >> 60) as usize])
        })
        .collect();
    let big = with_extra(json!(noise));
    check(vec![
        case("manifest-10000-keys", with_extra(keys(10_000)), None),
        case(
            "manifest-10001-keys",
            with_extra(keys(10_001)),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-string-at",
            with_extra(json!("é".repeat(1_048_576))),
            None,
        ),
        case(
            "manifest-string-past",
            with_extra(json!("é".repeat(1_048_577))),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-truncated",
            big[..big.len() / 2].to_vec(),
            Some(("IntegrityIo", 8)),
        ),
        case("pretty-manifest", with_manifest(pretty.as_bytes()), None),
        case(
            "manifest-depth-64",
            with_manifest(deep.to_string().as_bytes()),
            None,
        ),
        case(
            "manifest-depth-65",
            with_manifest(too_deep.to_string().as_bytes()),
            Some(("LimitJsonDepth", 8)),
        ),
        case(
            "manifest-not-utf8",
            with_manifest(b"{\"a\":\"\xff\"}"),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-not-json",
            with_manifest(b"{"),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-duplicate-key",
            with_manifest(text.replacen('{', "{\"run_id\":\"x\",", 1).as_bytes()),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-version-string",
            with_manifest(
                text.replace("\"schema_version\":1", "\"schema_version\":\"1\"")
                    .as_bytes(),
            ),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-version-2",
            with_manifest(
                text.replace("\"schema_version\":1", "\"schema_version\":2")
                    .as_bytes(),
            ),
            Some(("ContractSchemaVersion", 8)),
        ),
        case(
            "manifest-missing-field",
            sealed_with(&events, |m| {
                m.as_object_mut().unwrap().remove("algorithms");
            }),
            Some(("ContractInvalidJson", 8)),
        ),
        case(
            "manifest-without-events-file",
            sealed_with(&events, |m| m["files"] = json!({})),
            Some(("ContractMissingFile", 9)),
        ),
        case(
            "manifest-size-differs",
            sealed_with(&events, |m| {
                m["files"]["events.ndjson"]["bytes"] = json!(events.len() + 1)
            }),
            Some(("IntegrityFileSizeMismatch", 9)),
        ),
        case(
            "manifest-bare-hex",
            sealed_with(&events, |m| {
                let h = m["files"]["events.ndjson"]["sha256"].as_str().unwrap()[7..].to_string();
                m["files"]["events.ndjson"]["sha256"] = json!(h);
            }),
            None,
        ),
        case(
            "manifest-upper-hex",
            sealed_with(&events, |m| {
                let h = m["files"]["events.ndjson"]["sha256"]
                    .as_str()
                    .unwrap()
                    .to_uppercase()
                    .replace("SHA256:", "sha256:");
                m["files"]["events.ndjson"]["sha256"] = json!(h);
            }),
            Some(("IntegrityManifestHash", 23)),
        ),
        case(
            "manifest-stale-file-hash",
            sealed_with(&events, |m| {
                m["files"]["events.ndjson"]["sha256"] = json!(sha256_text(b"other"))
            }),
            Some(("IntegrityManifestHash", 23)),
        ),
        case(
            "event-count-wrong",
            sealed_with(&events, |m| m["event_count"] = json!(11)),
            Some(("ContractSequenceGap", 24)),
        ),
        case(
            "run-root-wrong",
            sealed_with(&events, |m| {
                m["run_root"] = json!(sha256_text(b"x"));
                m["bundle_id"] = json!(sha256_text(b"x"));
            }),
            Some(("IntegrityRunRootMismatch", 24)),
        ),
        case(
            "bundle-id-wrong",
            sealed_with(&events, |m| m["bundle_id"] = json!(sha256_text(b"x"))),
            Some(("ContractBundleIdMismatch", 24)),
        ),
        case(
            "run-id-differs",
            sealed_with(&events, |m| m["run_id"] = json!("other")),
            Some(("ContractRunIdMismatch", 19)),
        ),
        case(
            "no-events",
            sealed_with(b"", |m| m["run_id"] = json!("a2a-run-03")),
            Some(("ContractInvalidEvent", 24)),
        ),
    ]);
}

#[test]
fn line_checks() {
    let lines = base_lines();
    let crlf = lines
        .iter()
        .flat_map(|l| format!("{l}\r\n").into_bytes())
        .collect::<Vec<u8>>();
    let no_final_newline = {
        let mut t = joined(&lines);
        t.pop();
        t
    };
    let blank_inside = {
        let mut l = lines.clone();
        l.insert(3, String::new());
        joined(&l)
    };
    let blank_at_end = {
        let mut t = joined(&lines);
        t.push(b'\n');
        t
    };
    let bom = {
        let mut t = b"\xEF\xBB\xBF".to_vec();
        t.extend_from_slice(&joined(&lines));
        t
    };
    let not_utf8 = {
        let mut t = joined(&lines);
        let at = t.iter().position(|&b| b == b'"').unwrap() + 1;
        t[at] = 0xff;
        t
    };
    let spaced = {
        let mut l = lines.clone();
        l[2] = l[2].replace("\",\"", "\", \"");
        joined(&l)
    };
    let reordered = {
        let mut l = lines.clone();
        l.swap(1, 2);
        joined(&l)
    };
    let edited_no_reseal = {
        let mut l = lines.clone();
        l[1] = l[1].replace("agent://", "agent:/X");
        joined(&l)
    };
    let colon_lines: Vec<String> = lines
        .iter()
        .map(|l| {
            edit(l, |v| {
                let seq = v["assayseq"].as_u64().unwrap();
                v["assayrunid"] = json!("a:b");
                v["id"] = json!(format!("a:b:{seq}"));
            })
        })
        .collect();
    let deep = |levels: usize| {
        lines_with(0, |v| {
            // The line is level 1, data level 2: data may hold `levels - 2` more.
            let inner: Value = serde_json::from_str(&format!(
                "{}{}",
                "[".repeat(levels - 2),
                "]".repeat(levels - 2)
            ))
            .unwrap();
            v["data"]["nest"] = inner;
        })
    };
    // Hashes: the edited line's content hash must be recomputed where the case is not about it.
    let rehash = |text: Vec<u8>| -> Vec<u8> {
        let lines: Vec<String> = String::from_utf8(text)
            .unwrap()
            .lines()
            .map(|l| {
                let facts = lenient_facts(l.as_bytes());
                match facts.computed_hash {
                    Some(h) => edit(l, |v| v["assaycontenthash"] = json!(h)),
                    None => l.to_string(),
                }
            })
            .collect();
        joined(&lines)
    };
    let mut cases = vec![
        case("crlf", sealed(&crlf), None),
        case("no-final-newline", sealed(&no_final_newline), None),
        case("non-canonical-line", sealed(&spaced), None),
        case(
            "time-edited-resealed",
            sealed(&lines_with(2, |v| {
                v["time"] = json!("2030-01-01 00:00:00.5+02:00")
            })),
            None,
        ),
        case(
            "source-of-all-edited-resealed",
            sealed(&joined(
                &lines
                    .iter()
                    .map(|l| edit(l, |v| v["source"] = json!("urn:other")))
                    .collect::<Vec<_>>(),
            )),
            None,
        ),
        case(
            "unknown-key-resealed",
            sealed(&lines_with(4, |v| v["zzz"] = json!(1))),
            None,
        ),
        case(
            "blank-inside",
            sealed(&blank_inside),
            Some(("ContractInvalidEvent", 13)),
        ),
        case(
            "blank-at-end",
            sealed(&blank_at_end),
            Some(("ContractInvalidEvent", 13)),
        ),
        case("bom", sealed(&bom), Some(("ContractInvalidJson", 11))),
        case(
            "not-utf8",
            sealed(&not_utf8),
            Some(("ContractInvalidJson", 14)),
        ),
        case("data-depth-64", sealed(&rehash(deep(64))), None),
        case(
            "data-depth-65",
            sealed(&rehash(deep(65))),
            Some(("LimitJsonDepth", 14)),
        ),
        case(
            "duplicate-key",
            sealed(&joined(&{
                let mut l = lines.clone();
                l[0] = l[0].replacen('{', "{\"type\":\"x\",", 1);
                l
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "escaped-duplicate-key",
            sealed(&joined(&{
                let mut l = lines.clone();
                l[0] = l[0].replacen('{', "{\"\\u0074ype\":\"x\",", 1);
                l
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "lone-surrogate",
            sealed(
                &lines_with(0, |v| v["data"]["s"] = json!("PLACEHOLDER"))
                    .pipe_replace(b"PLACEHOLDER", b"\\ud800"),
            ),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "time-without-offset",
            sealed(&lines_with(0, |v| v["time"] = json!("2026-02-27T10:05:00"))),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "seq-as-float",
            sealed(&joined(&{
                let mut l = lines.clone();
                l[0] = l[0].replace("\"assayseq\":0", "\"assayseq\":0.0");
                l
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "missing-data",
            sealed(&lines_with(0, |v| {
                v.as_object_mut().unwrap().remove("data");
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "not-an-object",
            sealed(&joined(&{
                let mut l = lines.clone();
                l[0] = "[]".into();
                l
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "trailing-content",
            sealed(&joined(&{
                let mut l = lines.clone();
                l[0] = format!("{} x", l[0]);
                l
            })),
            Some(("ContractInvalidJson", 14)),
        ),
        case(
            "specversion",
            sealed(&rehash(lines_with(0, |v| v["specversion"] = json!("1.1")))),
            Some(("ContractSchemaVersion", 15)),
        ),
        case(
            "no-content-hash",
            sealed(&lines_with(0, |v| {
                v.as_object_mut().unwrap().remove("assaycontenthash");
            })),
            Some(("ContractSchemaVersion", 16)),
        ),
        case(
            "null-content-hash",
            sealed(&lines_with(0, |v| v["assaycontenthash"] = Value::Null)),
            Some(("ContractSchemaVersion", 16)),
        ),
        case(
            "edited-not-rehashed",
            sealed(&edited_no_reseal),
            Some(("IntegrityEventHash", 17)),
        ),
        case(
            "subject-edited",
            sealed(&lines_with(0, |v| v["subject"] = json!("other"))),
            Some(("IntegrityEventHash", 17)),
        ),
        case(
            "seq-starts-at-1",
            sealed(&joined(
                &lines
                    .iter()
                    .map(|l| {
                        edit(l, |v| {
                            let s = v["assayseq"].as_u64().unwrap() + 1;
                            v["assayseq"] = json!(s);
                            v["id"] = json!(format!("a2a-run-03:{s}"));
                        })
                    })
                    .collect::<Vec<_>>(),
            )),
            Some(("ContractSequenceStart", 18)),
        ),
        case(
            "reordered",
            sealed(&reordered),
            Some(("ContractSequenceGap", 18)),
        ),
        case(
            "source-not-uri",
            sealed(&joined(
                &lines
                    .iter()
                    .map(|l| edit(l, |v| v["source"] = json!("nocolon")))
                    .collect::<Vec<_>>(),
            )),
            Some(("ContractInvalidEvent", 20)),
        ),
        case(
            "source-leading-colon",
            sealed(&joined(
                &lines
                    .iter()
                    .map(|l| edit(l, |v| v["source"] = json!(":x")))
                    .collect::<Vec<_>>(),
            )),
            Some(("ContractInvalidEvent", 20)),
        ),
        case(
            "source-differs",
            sealed(&lines_with(3, |v| v["source"] = json!("urn:other"))),
            Some(("ContractInvalidEvent", 20)),
        ),
        case(
            "run-id-with-colon",
            sealed(&joined(&colon_lines)),
            Some(("ContractInvalidEvent", 21)),
        ),
        case(
            "id-mismatch",
            sealed(&lines_with(2, |v| v["id"] = json!("a2a-run-03:7"))),
            Some(("ContractInvalidEvent", 22)),
        ),
        case(
            "length-edit-stale-manifest",
            sealed_with(
                &lines_with(2, |v| v["time"] = json!("2026-02-27T10:05:00.123Z")),
                |m| m["files"]["events.ndjson"]["bytes"] = json!(joined(&lines).len()),
            ),
            Some(("IntegrityFileSizeMismatch", 9)),
        ),
    ];
    // A stale manifest with a same-length edit: the per-line check beats the file hash.
    let same_length = lines_with(1, |v| {
        v["data"]["agent"]["id"] =
            json!(v["data"]["agent"]["id"].as_str().unwrap().replace('a', "b"))
    });
    let stale = manifest_for(&joined(&lines)).to_string();
    cases.push(case(
        "per-line-before-file-hash",
        gz(&tar_of(&[
            member("manifest.json", stale.as_bytes()),
            member("events.ndjson", &same_length),
        ])),
        Some(("IntegrityEventHash", 17)),
    ));
    check(cases);
}

/// Replaces the first occurrence of a byte pattern (tests build some lines as bytes).
trait PipeReplace {
    fn pipe_replace(self, from: &[u8], to: &[u8]) -> Vec<u8>;
}

impl PipeReplace for Vec<u8> {
    fn pipe_replace(self, from: &[u8], to: &[u8]) -> Vec<u8> {
        match self.windows(from.len()).position(|w| w == from) {
            Some(at) => [&self[..at], to, &self[at + from.len()..]].concat(),
            None => self,
        }
    }
}

#[test]
fn limits_at_their_value_and_one_past() {
    let lines = base_lines();
    let events = joined(&lines);
    let bundle = sealed(&events);
    let manifest_len = manifest_for(&events).to_string().len();
    let line_depth = lines
        .iter()
        .map(|l| depth(&serde_json::from_str(l).unwrap()))
        .max()
        .unwrap();
    assert!(line_depth > 3, "deeper than the manifest's 3 levels");
    let longest_line = lines.iter().map(String::len).max().unwrap();
    let tar_len = tar_of(&[
        member(
            "manifest.json",
            manifest_for(&events).to_string().as_bytes(),
        ),
        member("events.ndjson", &events),
    ])
    .len();
    let crlf_one = {
        let mut l = lines.clone();
        l.truncate(1);
        format!("{}\r\n", l[0]).into_bytes()
    };
    let crlf_bundle = sealed(&crlf_one);
    let crlf_len = crlf_one.len() - 1; // the \r counts, the \n does not
    let mut cases = vec![
        limited(
            "bundle-bytes-at",
            bundle.clone(),
            with_limit("max_bundle_bytes", bundle.len()),
            None,
        ),
        limited(
            "bundle-bytes-past",
            bundle.clone(),
            with_limit("max_bundle_bytes", bundle.len() - 1),
            Some(("LimitBundleBytes", 0)),
        ),
        limited(
            "decode-bytes-at",
            bundle.clone(),
            with_limit("max_decode_bytes", tar_len),
            None,
        ),
        limited(
            "decode-bytes-past",
            bundle.clone(),
            with_limit("max_decode_bytes", tar_len - 1),
            Some(("LimitDecodeBytes", 25)),
        ),
        limited(
            "decode-bytes-early",
            bundle.clone(),
            with_limit("max_decode_bytes", 100),
            Some(("LimitDecodeBytes", 1)),
        ),
        limited(
            "manifest-bytes-at",
            bundle.clone(),
            with_limit("max_manifest_bytes", manifest_len),
            None,
        ),
        limited(
            "manifest-bytes-past",
            bundle.clone(),
            with_limit("max_manifest_bytes", manifest_len - 1),
            Some(("LimitFileSize", 3)),
        ),
        limited(
            "events-bytes-at",
            bundle.clone(),
            with_limit("max_events_bytes", events.len()),
            None,
        ),
        limited(
            "events-bytes-past",
            bundle.clone(),
            with_limit("max_events_bytes", events.len() - 1),
            Some(("LimitFileSize", 3)),
        ),
        limited(
            "events-at",
            bundle.clone(),
            with_limit("max_events", 10),
            None,
        ),
        limited(
            "events-past",
            bundle.clone(),
            with_limit("max_events", 9),
            Some(("LimitTotalEvents", 12)),
        ),
        limited(
            "line-bytes-at",
            bundle.clone(),
            with_limit("max_line_bytes", longest_line),
            None,
        ),
        limited(
            "line-bytes-past",
            bundle.clone(),
            with_limit("max_line_bytes", longest_line - 1),
            Some(("LimitLineBytes", 10)),
        ),
        limited(
            "line-bytes-cr-at",
            crlf_bundle.clone(),
            with_limit("max_line_bytes", crlf_len),
            None,
        ),
        limited(
            "line-bytes-cr-past",
            crlf_bundle,
            with_limit("max_line_bytes", crlf_len - 1),
            Some(("LimitLineBytes", 10)),
        ),
        limited(
            "path-len-at",
            bundle.clone(),
            with_limit("max_path_len", 13),
            None,
        ),
        limited(
            "path-len-past",
            bundle.clone(),
            with_limit("max_path_len", 12),
            Some(("LimitPathLength", 2)),
        ),
        limited(
            "json-depth-at",
            bundle.clone(),
            with_limit("max_json_depth", line_depth),
            None,
        ),
        limited(
            "json-depth-past",
            bundle.clone(),
            with_limit("max_json_depth", line_depth - 1),
            Some(("LimitJsonDepth", 14)),
        ),
        limited(
            "json-depth-manifest",
            bundle.clone(),
            with_limit("max_json_depth", 2),
            Some(("LimitJsonDepth", 8)),
        ),
    ];
    // Default limits, no flag: 1 MiB lines and the 256-byte name.
    let line_of = |extra: usize| {
        let base = edit(&lines[0], |v| v["data"]["pad"] = json!(""));
        let pad = (1_048_576 - base.len()) + extra;
        let line = edit(&lines[0], |v| v["data"]["pad"] = json!("x".repeat(pad)));
        let hash = lenient_facts(line.as_bytes()).computed_hash.unwrap();
        let line = edit(&line, |v| v["assaycontenthash"] = json!(hash));
        let mut all = vec![line];
        all.extend(lines[1..].iter().cloned());
        joined(&all)
    };
    let at = line_of(0);
    let at_len = at.split(|&b| b == b'\n').next().unwrap().len();
    assert_eq!(at_len, 1_048_576);
    cases.push(case("line-1mib-default", sealed(&at), None));
    cases.push(case(
        "line-past-1mib-default",
        sealed(&line_of(1)),
        Some(("LimitLineBytes", 10)),
    ));
    let long_name = |n: usize| {
        // A GNU long name member: name 'L', data the name.
        let name = "a".repeat(n);
        let mut tar = Vec::new();
        tar.extend_from_slice(&header(b"././@LongLink", b'L', n as u64 + 1));
        tar.extend_from_slice(&padded(format!("{name}\0").as_bytes()));
        tar.extend_from_slice(&header(b"x", 0, 1));
        tar.extend_from_slice(&padded(b"x"));
        let mut whole = tar_of(&[member(
            "manifest.json",
            manifest_for(&events).to_string().as_bytes(),
        )]);
        whole.truncate(whole.len() - 1024);
        whole.extend_from_slice(&tar);
        whole.extend_from_slice(&[0; 1024]);
        gz(&whole)
    };
    cases.push(case(
        "name-256",
        long_name(256),
        Some(("ContractUnexpectedFile", 5)),
    ));
    cases.push(case(
        "name-257",
        long_name(257),
        Some(("LimitPathLength", 2)),
    ));
    check(cases);
}

#[test]
fn gzip_bomb_stays_bounded() {
    // 64 MiB of zeros in the events member (no newline): the line ceiling stops it at 1 MiB
    // under default limits; the decode ceiling stops it when lowered.
    let zeros = vec![0u8; 64 << 20];
    let events_header = header(b"events.ndjson", 0, zeros.len() as u64);
    let manifest = manifest_for(&zeros).to_string();
    let mut tar = tar_of(&[member("manifest.json", manifest.as_bytes())]);
    tar.truncate(tar.len() - 1024);
    tar.extend_from_slice(&events_header);
    tar.extend_from_slice(&zeros);
    tar.extend_from_slice(&[0; 1024]);
    let bomb = gz(&tar);
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    check(vec![
        case("bomb-default", bomb.clone(), Some(("LimitLineBytes", 10))),
        Case {
            name: "bomb-decode",
            bytes: bomb,
            args: [
                "--limit",
                "max_decode_bytes=10485760",
                "--limit",
                "max_line_bytes=104857600",
            ]
            .map(String::from)
            .to_vec(),
            expect: Some(("LimitDecodeBytes", 10)),
        },
    ]);
}

#[test]
fn unreadable_and_odd_inputs_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let fifo_free_dir = dir.path().join("sub.tar.gz");
    std::fs::create_dir(&fifo_free_dir).unwrap();
    // A directory named like a bundle is walked for bundles (none: said so, exit 2).
    let out = run(&["verify", fifo_free_dir.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("no evidence bundle (.tar.gz) found under"),
        "{}",
        out.stderr
    );
    // A FIFO named like a bundle is refused before it is opened for reading (never waited on).
    #[cfg(unix)]
    {
        let fifo = dir.path().join("fifo.tar.gz");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let out = run(&["verify", fifo.to_str().unwrap()]);
            assert_eq!(out.code, 2);
            assert!(out.stderr.contains("not a regular file"), "{}", out.stderr);
        }
    }
    // Random bytes of every small length: a verdict, never a crash.
    let mut seed = 12345u64;
    for len in 0..200usize {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                (seed >> 33) as u8
            })
            .collect();
        let bundle = handoff_inspector::bundle::open_bytes(&bytes, &Limits::default());
        assert!(!bundle.is_valid());
    }
    // Every truncation of a real bundle: a verdict, never a crash.
    let good = sealed(&joined(&base_lines()));
    for cut in 0..good.len() {
        let bundle = handoff_inspector::bundle::open_bytes(&good[..cut], &Limits::default());
        assert!(!bundle.is_valid(), "cut at {cut}");
    }
}

/// Spec §15: a rejected bundle's counts are the lines that parse as JSON objects, past the
/// limits too: a line over `max_line_bytes` that parses counts, and so do the lines past
/// `max_events`. `verify` (which streams and keeps nothing), `check` (default limits) and the
/// reading that keeps every line within the limits (`open_path`) count alike.
#[test]
fn counts_go_past_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let counts = |limit: Option<&str>, bytes: &[u8]| -> Value {
        let path = dir.path().join("b.tar.gz");
        std::fs::write(&path, bytes).unwrap();
        let mut args = vec!["verify", "--format", "json"];
        let mut limits = Limits::default();
        if let Some(limit) = limit {
            args.extend(["--limit", limit]);
            limits.set(limit).unwrap();
        }
        args.push(path.to_str().unwrap());
        let line = run(&args).json_lines().remove(0);
        let got = json!([
            line["error"]["code"],
            line["event_count"],
            line["a2a_events"],
            line["handoff_visible_events"]
        ]);
        let kept = open_path(&path, &limits).unwrap();
        let kept = json!([
            kept.error().map(|e| e.code.as_str()),
            kept.event_count(),
            kept.a2a_events(),
            kept.handoff_visible_events()
        ]);
        assert_eq!(
            kept, got,
            "the reading that keeps lines counts as verify does"
        );
        if limit.is_none() {
            let checked = run(&["check", "--format", "json", path.to_str().unwrap()]);
            let report: Value = serde_json::from_str(&checked.stdout).unwrap();
            let line = report["packets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["bundle"].is_object())
                .unwrap_or_else(|| panic!("{}", checked.stdout))
                .clone();
            let b = &line["bundle"];
            let checked = json!([
                b["error"]["code"],
                b["event_count"],
                b["a2a_events"],
                b["handoff_visible_events"]
            ]);
            assert_eq!(checked, got, "check counts as verify does");
        }
        got
    };
    let base = base_lines();
    let whole = counts(None, &sealed(&joined(&base)));
    assert!(whole[0].is_null());
    let (objects, a2a, visible) = (&whole[1], &whole[2], &whole[3]);
    assert_eq!(objects, 10);

    // Line 3 made longer than 1 MiB (the default limit), still a JSON object; a line that is
    // not an object (`[1]`) after it, then the rest.
    let mut lines = base.clone();
    lines[2] = edit(&lines[2], |v| v["pad"] = json!("x".repeat(1_100_000)));
    lines.insert(3, "[1]".into());
    let got = counts(None, &sealed(&joined(&lines)));
    assert_eq!(got, json!(["LimitLineBytes", objects, a2a, visible]));

    // Past `max_events`: the line that trips it and the ones after it count.
    let got = counts(Some("max_events=4"), &sealed(&joined(&base)));
    assert_eq!(got, json!(["LimitTotalEvents", objects, a2a, visible]));

    // Lines over a lowered line limit that parse, wherever they are.
    let longest = base.iter().map(String::len).max().unwrap();
    let limit = format!("max_line_bytes={}", longest - 1);
    let got = counts(Some(&limit), &sealed(&joined(&base)));
    assert_eq!(got, json!(["LimitLineBytes", objects, a2a, visible]));
}
