//! The `serde` oracle for `check --format json` packet lines (tests only): the same line
//! built the obvious way, through `serde` structs, against which the direct writer
//! (`json_line.rs`) is held byte-identical by the tests here.

use super::json::bundle_json;
use crate::a2a::Mode;
use crate::corpus::{
    CheckFinding, CheckItem, FindingKind, GoldenVerdict, ModeResult, PacketCheck, Source, Status,
};
use crate::json::{to_safe_json, Digest};
use serde::Serialize;
use serde_json::Value;

#[derive(Serialize)]
struct DigestsJson {
    payload: Digest,
    handoff: Digest,
    discovery: Digest,
}

#[derive(Serialize)]
struct ModeJson {
    mode: Mode,
    status: Status,
    golden: GoldenVerdict,
    /// `converted` or `rejected`.
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digests: Option<DigestsJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
    rows: Vec<&'static str>,
}

#[derive(Serialize)]
struct AuditJson {
    errors: u32,
    warnings: u32,
    state: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    supports: Vec<&'static str>,
}

#[derive(Serialize)]
struct PacketJson<'a> {
    source: &'a Source,
    /// The packet kind's tag (`raw`, `payload`, ...), or `load_error`.
    kind: &'static str,
    status: Status,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    modes: Vec<ModeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<AuditJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicate_keys: Option<&'a crate::corpus::PathList>,
    findings: &'a [CheckFinding],
    /// Findings the manifest records as expected (not counted against the packet).
    #[serde(skip_serializing_if = "<[CheckFinding]>::is_empty")]
    recorded_findings: &'a [CheckFinding],
    /// What `check` concluded for a kind that is not converted, in the manifest's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<Value>,
    /// Evidence bundles: upstream's verdict and the counts `verify --format json` gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle: Option<Value>,
}

fn modes_json(check: &PacketCheck) -> Vec<ModeJson> {
    check
        .summary
        .evaluated_modes()
        .filter_map(|summary| {
            let verdict = check.mode(summary.mode)?;
            let rows = summary.rows.ids().collect();
            Some(match summary.result {
                ModeResult::Converted {
                    canonical_type,
                    state,
                    digests,
                } => ModeJson {
                    mode: summary.mode,
                    status: verdict.status,
                    golden: verdict.golden,
                    outcome: "converted",
                    event: Some(canonical_type.short_name()),
                    state: state.map(|state| state.key()),
                    digests: Some(DigestsJson {
                        payload: digests.payload,
                        handoff: digests.handoff,
                        discovery: digests.discovery,
                    }),
                    error: None,
                    rule: None,
                    rows,
                },
                ModeResult::Rejected { kind, rule } => ModeJson {
                    mode: summary.mode,
                    status: verdict.status,
                    golden: verdict.golden,
                    outcome: "rejected",
                    event: None,
                    state: None,
                    digests: None,
                    error: Some(kind.name()),
                    rule: Some(rule),
                    rows,
                },
            })
        })
        .collect()
}

/// The same line built through `serde` structs: the oracle `packet_json` is tested against.
pub(super) fn packet_json_via_serde(item: &CheckItem) -> serde_json::Result<String> {
    match item {
        CheckItem::Packet(check) => to_safe_json(&PacketJson {
            source: &check.summary.source,
            kind: check.summary.kind.tag(),
            status: check.status,
            modes: modes_json(check),
            audit: check.summary.kind.canonical_shape().map(|_| AuditJson {
                errors: check.summary.audit_errors,
                warnings: check.summary.audit_warnings,
                state: check.summary.canonical_state.map(|state| state.key()),
                supports: check.summary.audit_supports.keys(),
            }),
            duplicate_keys: Some(&check.duplicate_key_paths).filter(|paths| !paths.is_empty()),
            findings: &check.findings,
            recorded_findings: &check.recorded_findings,
            object: check.object.as_ref().map(|object| object.to_json()),
            bundle: check.bundle.as_deref().map(bundle_json),
        }),
        CheckItem::LoadError(error) => {
            let findings = [CheckFinding::new(
                FindingKind::LoadError,
                None,
                error.reason.clone(),
            )];
            to_safe_json(&PacketJson {
                source: &error.source,
                kind: "load_error",
                status: Status::Error,
                modes: Vec::new(),
                audit: None,
                duplicate_keys: None,
                findings: &findings,
                recorded_findings: &[],
                object: None,
                bundle: None,
            })
        }
    }
}

mod tests {
    // `check --format json` packet lines are written directly (src/report/check/json_line.rs);
    // they must be byte-identical to the lines the `serde` oracle builds, on every fixture
    // directory (goldens matching and drifted, recorded negatives, object goldens, bundles), on
    // load errors and on the 20,000 packets of the realistic upstream mix.

    use super::packet_json_via_serde;
    use crate::corpus::{CheckItem, CheckOptions, Collect, CorpusCheck, ManifestOptions};
    use crate::report::check::json::packet_json;
    use flate2::read::GzDecoder;
    use std::io::Read;
    use std::path::{Path, PathBuf};

    fn manifest_dir() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
    }

    fn lines_of(paths: &[PathBuf]) -> Vec<(String, String)> {
        let mut lines = Vec::new();
        CorpusCheck::new(paths, &CheckOptions::default())
            .manifests(ManifestOptions::AnyOptions)
            .run(&mut Collect(|item: CheckItem| {
                let direct = String::from_utf8(packet_json(&item).unwrap()).unwrap();
                lines.push((direct, packet_json_via_serde(&item).unwrap()));
            }))
            .unwrap();
        lines
    }

    fn assert_identical(lines: &[(String, String)], at_least: usize) {
        assert!(lines.len() >= at_least, "only {} lines", lines.len());
        for (direct, oracle) in lines {
            assert_eq!(direct, oracle);
        }
    }

    #[test]
    fn fixture_lines_equal_the_serde_lines() {
        let lines = lines_of(&[manifest_dir().join("fixtures")]);
        assert_identical(&lines, 200);
        // The fixtures hold what the rare parts are made of.
        assert!(lines
            .iter()
            .any(|(line, _)| line.contains("\"recorded_findings\"")));
        assert!(lines.iter().any(|(line, _)| line.contains("\"object\"")));
        assert!(lines.iter().any(|(line, _)| line.contains("\"audit\"")));
    }

    #[test]
    fn drifted_goldens_load_errors_and_unsafe_names_equal_the_serde_lines() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for entry in std::fs::read_dir(manifest_dir().join("fixtures/a2a")).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, root.join(path.file_name().unwrap())).unwrap();
            }
        }
        // A drifted digest (a golden diff in the finding) and an unsafe, quoted file name.
        let goldens = std::fs::read_to_string(root.join("goldens.json")).unwrap();
        let drifted = goldens.replacen(
            "ceef933219a7e44fd8d2f74ba74dd2fa9191b801922b987ddf7423b198892bfc",
            "0eef933219a7e44fd8d2f74ba74dd2fa9191b801922b987ddf7423b198892bfc",
            1,
        );
        assert_ne!(drifted, goldens);
        std::fs::write(root.join("goldens.json"), drifted).unwrap();
        // A paired expected payload that differs (a structural diff in the finding).
        let paired = root.join("happy_artifact_shared.strict.payload.json");
        let payload = std::fs::read_to_string(&paired).unwrap();
        let edited = payload.replacen("agent://worker", "agent://someone-else", 1);
        assert_ne!(edited, payload);
        std::fs::write(&paired, edited).unwrap();
        std::fs::write(
            root.join("odd \u{202e}\"name\u{1b}.json"),
            br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a\u009b"},"task":{"kind":"delegation"},"message":{"id":"m"},"attributes":{"k":"\u202e"}}"#,
        )
        .unwrap();
        std::fs::write(root.join("empty.json"), b"").unwrap();
        let lines = lines_of(&[root.to_path_buf(), root.join("missing.json")]);
        assert_identical(&lines, 30);
        assert!(lines.iter().any(|(line, _)| line.contains("\"diff\"")));
        assert!(lines.iter().any(|(line, _)| line.contains("load_error")));
        assert!(lines.iter().any(|(line, _)| line.contains("odd ")));
        assert!(!lines.iter().any(|(line, _)| line.contains('\u{202e}')));
    }

    #[test]
    fn realistic_mix_lines_equal_the_serde_lines() {
        let mut text = Vec::new();
        GzDecoder::new(
            std::fs::File::open(manifest_dir().join("tests/data/oracle/a2a-mixed-20k.ndjson.gz"))
                .unwrap(),
        )
        .read_to_end(&mut text)
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let stream = dir.path().join("mix.ndjson");
        std::fs::write(&stream, text).unwrap();
        assert_identical(&lines_of(&[stream]), 20_000);
    }
}
