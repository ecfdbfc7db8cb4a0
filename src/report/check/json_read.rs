//! Reading saved `check --format json` results back (for `report`): the opening line, then
//! one packet per line turned back into the `CheckItem` `check` wrote it from, so `report`
//! feeds the very writers `check` feeds and prints what `check` printed.
//!
//! What the saved line does not carry is not needed by any writer and is filled plainly:
//! a packet's byte offset (0), its lint rules' matching event positions (the count is kept:
//! positions 0..count), a bundle's manifest digest (the one its object golden records).

use crate::a2a::{CanonicalType, ErrorKind, Mode};
use crate::bundle::{
    BundleReport, Compared, ErrorClass, ErrorCode, LintOutcome, VerifiedFacts, VerifyError,
    A2A_LINT_TABLE,
};
use crate::corpus::{
    CheckFinding, CheckItem, DigestSet, FileFormat, FindingKind, GoldenVerdict, LoadError,
    ModeCheck, ModeResult, ModeSummary, PacketCheck, PacketKind, PacketSummary, PathList, Source,
    Status,
};
use crate::freeze::{HandoffState, RowSet, CONVERSION_TABLE};
use crate::golden::{ChangeKind, JsonDiff, PathChange};
use crate::json::{Digest, JsonPath};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The opening line of a saved result: `{"format":…,"modes":[…],…,"packets":[`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedHead {
    pub modes: Vec<Mode>,
    /// `None` in results saved before `check` wrote it.
    pub require_golden: Option<bool>,
    /// The PATHs `check` was given (`None` in results saved before `check` wrote them).
    pub paths: Option<Vec<String>>,
    /// `K/N` of a `check --shard` run.
    pub shard: Option<crate::corpus::Shard>,
    /// The digest of the shard plan a `check --shard` run made (`None` before runs wrote it).
    pub plan: Option<String>,
    /// The clock `--now` fixed for the run, as its head states it.
    pub clock: Option<String>,
}

pub fn read_head(line: &str) -> Result<SavedHead, String> {
    let text = line.trim_end().strip_suffix("\"packets\":[").ok_or(
        "the first line does not end with \"packets\":[ (not a saved `check --format json` result)",
    )?;
    let text = format!("{}\"packets\":[]}}", text);
    let head: Value = serde_json::from_str(&text)
        .map_err(|error| format!("the first line is not JSON: {error}"))?;
    if head["format"] != super::json::CHECK_JSON_FORMAT {
        return Err(format!(
            "format is {}, not {:?}",
            head["format"],
            super::json::CHECK_JSON_FORMAT
        ));
    }
    let modes = head["modes"]
        .as_array()
        .ok_or("modes is not a list")?
        .iter()
        .map(|mode| {
            mode.as_str()
                .and_then(Mode::parse)
                .ok_or_else(|| format!("mode {mode} is not strict or lenient"))
        })
        .collect::<Result<Vec<Mode>, String>>()?;
    let shard = match head.get("shard") {
        None => None,
        Some(shard) => Some(crate::corpus::Shard::parse(
            shard.as_str().ok_or("shard is not a string")?,
        )?),
    };
    let paths = match head.get("paths") {
        None => None,
        Some(paths) => Some(
            paths
                .as_array()
                .ok_or("paths is not a list")?
                .iter()
                .map(|path| {
                    path.as_str()
                        .map(str::to_owned)
                        .ok_or("a path is not a string")
                })
                .collect::<Result<Vec<String>, &str>>()?,
        ),
    };
    Ok(SavedHead {
        modes,
        paths,
        require_golden: head.get("require_golden").and_then(Value::as_bool),
        shard,
        plan: head.get("plan").and_then(Value::as_str).map(str::to_owned),
        clock: head.get("clock").and_then(Value::as_str).map(str::to_owned),
    })
}

/// Whether a line ends the packets (`],"summary":…`).
pub fn is_tail(line: &str) -> bool {
    line.starts_with("],\"summary\":")
}

/// `path` or `path:line`, as `Source` displays it. The line is split off only where a line
/// can be: after an NDJSON stream's or a bundle's name.
fn parse_source(text: &str) -> Source {
    if let Some((path, line)) = text.rsplit_once(':') {
        let lined = matches!(
            FileFormat::of(Path::new(path)),
            Some(FileFormat::Ndjson | FileFormat::Bundle)
        );
        if lined && !line.is_empty() && line.bytes().all(|byte| byte.is_ascii_digit()) {
            if let Ok(line) = line.parse() {
                return Source::line(Arc::from(PathBuf::from(path)), line);
            }
        }
    }
    Source::file(text)
}

type Fields<'a> = &'a Map<String, Value>;

fn str_of<'a>(map: Fields<'a>, key: &str) -> Result<&'a str, String> {
    map.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{key} is missing or not a string"))
}

fn opt_str<'a>(map: Fields<'a>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

fn u64_of(map: Fields, key: &str) -> Result<u64, String> {
    map.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("{key} is missing or not a count"))
}

fn digest_of(map: Fields, key: &str) -> Result<Digest, String> {
    Digest::from_hex(str_of(map, key)?).ok_or_else(|| format!("{key} is not a SHA-256 digest"))
}

fn status_of(text: &str) -> Result<Status, String> {
    Status::ALL
        .into_iter()
        .find(|status| status.key() == text)
        .ok_or_else(|| format!("status {text:?} is unknown"))
}

/// `audit.supports`: the freeze negatives the audited payloads show holding (absent: none).
fn supports_of(
    audit: Option<&serde_json::Map<String, Value>>,
) -> Result<crate::freeze::AuditSupport, String> {
    let mut supports = crate::freeze::AuditSupport::default();
    let Some(list) = audit.and_then(|audit| audit.get("supports")) else {
        return Ok(supports);
    };
    for key in list.as_array().ok_or("audit.supports is not a list")? {
        match key.as_str() {
            Some(crate::freeze::AuditSupport::SYNTHETIC) => {
                supports.synthetic_task_not_counted = true
            }
            Some(crate::freeze::AuditSupport::TASK_UPDATED) => {
                supports.task_updated_not_promoted = true
            }
            _ => return Err(format!("audit.supports: {key} is unknown")),
        }
    }
    Ok(supports)
}

fn state_of(text: Option<&str>) -> Result<Option<HandoffState>, String> {
    text.map(|key| HandoffState::from_key(key).ok_or_else(|| format!("state {key:?} is unknown")))
        .transpose()
}

fn class_of(text: &str) -> Option<&'static str> {
    [
        ErrorClass::Integrity,
        ErrorClass::Contract,
        ErrorClass::Security,
        ErrorClass::Limits,
    ]
    .into_iter()
    .map(ErrorClass::as_str)
    .find(|class| *class == text)
}

fn finding_of(value: &Value) -> Result<CheckFinding, String> {
    let map = value.as_object().ok_or("a finding is not an object")?;
    let kind_key = str_of(map, "kind")?;
    let kind = FindingKind::ALL
        .into_iter()
        .find(|kind| kind.key() == kind_key)
        .ok_or_else(|| format!("finding kind {kind_key:?} is unknown"))?;
    let mode = opt_str(map, "mode")
        .map(|mode| Mode::parse(mode).ok_or_else(|| format!("mode {mode:?} is unknown")))
        .transpose()?;
    let mut finding = CheckFinding::new(kind, mode, str_of(map, "message")?);
    finding.rule = opt_str(map, "rule").map(str::to_owned);
    finding.class = opt_str(map, "class").and_then(class_of);
    if let Some(diff) = map.get("diff").and_then(Value::as_object) {
        let changes = diff
            .get("changes")
            .and_then(Value::as_array)
            .ok_or("diff.changes is not a list")?
            .iter()
            .map(|change| {
                let change = change.as_object().ok_or("a change is not an object")?;
                let path = str_of(change, "path")?;
                Ok(PathChange {
                    path: JsonPath::parse(path)
                        .ok_or_else(|| format!("path {path:?} is not a JSON path"))?,
                    change: match str_of(change, "change")? {
                        "added" => ChangeKind::Added,
                        "removed" => ChangeKind::Removed,
                        "changed" => ChangeKind::Changed,
                        other => return Err(format!("change {other:?} is unknown")),
                    },
                    expected: change.get("expected").cloned(),
                    actual: change.get("actual").cloned(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        finding.diff = Some(Box::new(JsonDiff {
            changes,
            total_changes: u64_of(diff, "total_changes")? as usize,
            lines: str_of(diff, "lines")?.to_owned(),
        }));
    }
    Ok(finding)
}

fn findings_of(map: Fields, key: &str) -> Result<Vec<CheckFinding>, String> {
    match map.get(key) {
        None => Ok(Vec::new()),
        Some(list) => list
            .as_array()
            .ok_or_else(|| format!("{key} is not a list"))?
            .iter()
            .map(finding_of)
            .collect(),
    }
}

fn mode_of(value: &Value) -> Result<(ModeSummary, ModeCheck), String> {
    let map = value.as_object().ok_or("a mode is not an object")?;
    let mode = Mode::parse(str_of(map, "mode")?).ok_or("mode is not strict or lenient")?;
    let mut rows = RowSet::default();
    for id in map
        .get("rows")
        .and_then(Value::as_array)
        .ok_or("rows is not a list")?
    {
        rows.insert(id.as_str().ok_or("a row id is not a string")?);
    }
    let result = match str_of(map, "outcome")? {
        "converted" => {
            let event = str_of(map, "event")?;
            let digests = map
                .get("digests")
                .and_then(Value::as_object)
                .ok_or("digests is missing")?;
            ModeResult::Converted {
                canonical_type: CanonicalType::parse(&format!("assay.adapter.a2a.{event}"))
                    .ok_or_else(|| format!("event {event:?} is unknown"))?,
                state: state_of(opt_str(map, "state"))?,
                digests: DigestSet {
                    payload: digest_of(digests, "payload")?,
                    handoff: digest_of(digests, "handoff")?,
                    discovery: digest_of(digests, "discovery")?,
                },
            }
        }
        "rejected" => {
            let error = str_of(map, "error")?;
            let rule = str_of(map, "rule")?;
            ModeResult::Rejected {
                kind: ErrorKind::parse(error)
                    .ok_or_else(|| format!("error {error:?} is unknown"))?,
                rule: CONVERSION_TABLE
                    .row(rule)
                    .map(|row| row.id)
                    .ok_or_else(|| format!("rule {rule:?} is not a conversion row"))?,
            }
        }
        other => return Err(format!("outcome {other:?} is unknown")),
    };
    let golden = match str_of(map, "golden")? {
        "matches" => GoldenVerdict::Matches,
        "differs" => GoldenVerdict::Differs,
        "missing" => GoldenVerdict::Missing,
        other => return Err(format!("golden {other:?} is unknown")),
    };
    Ok((
        ModeSummary { mode, result, rows },
        ModeCheck {
            mode,
            status: status_of(str_of(map, "status")?)?,
            golden,
        },
    ))
}

fn bundle_of(value: &Value, manifest_digest: Digest) -> Result<BundleReport, String> {
    let map = value.as_object().ok_or("bundle is not an object")?;
    let count = |key: &str| map.get(key).and_then(Value::as_u64);
    let verdict = match map.get("error").filter(|error| !error.is_null()) {
        None => Ok(VerifiedFacts {
            run_id: str_of(map, "run_id")?.to_owned(),
            run_root: str_of(map, "run_root")?.to_owned(),
            event_count: count("event_count").ok_or("event_count is missing")?,
        }),
        Some(error) => {
            let error = error.as_object().ok_or("bundle.error is not an object")?;
            let code = str_of(error, "code")?;
            let compared = match error.get("compared").and_then(Value::as_object) {
                None => None,
                Some(compared) => Some(Compared {
                    what: str_of(compared, "what")?.to_owned(),
                    expected: str_of(compared, "expected")?.to_owned(),
                    found: str_of(compared, "found")?.to_owned(),
                }),
            };
            Err(VerifyError {
                code: ErrorCode::ALL
                    .into_iter()
                    .find(|known| known.as_str() == code)
                    .ok_or_else(|| format!("bundle error code {code:?} is unknown"))?,
                message: str_of(error, "message")?.to_owned(),
                step: u64_of(error, "step")? as u8,
                compared,
            })
        }
    };
    // Null for a bundle that fails verification: upstream lints only a verified one, and no
    // face shows a rejected bundle's rules.
    let no_lint = Vec::new();
    let lint = match map.get("lint") {
        Some(Value::Null) => &no_lint,
        lint => lint
            .and_then(Value::as_array)
            .ok_or("bundle.lint is not a list")?,
    };
    let lint = lint
        .iter()
        .map(|outcome| {
            let outcome = outcome
                .as_object()
                .ok_or("a lint outcome is not an object")?;
            let rule = str_of(outcome, "rule")?;
            Ok(LintOutcome {
                rule: A2A_LINT_TABLE
                    .row(rule)
                    .map(|row| row.id)
                    .ok_or_else(|| format!("lint rule {rule:?} is unknown"))?,
                matched: (0..u64_of(outcome, "matched_events")? as usize).collect(),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let events = count("event_count");
    Ok(BundleReport {
        verdict,
        manifest_digest,
        has_manifest: true,
        lines: events.unwrap_or(0) as usize,
        event_packets: events.unwrap_or(0) as usize,
        event_count: events,
        a2a_events: count("a2a_events"),
        handoff_visible_events: count("handoff_visible_events"),
        lint,
        // A saved event's hash mismatch is in its own saved findings, not in the bundle's.
        hash_mismatches: Vec::new(),
    })
}

/// One saved packet line (without its trailing comma) back as the item it was written from.
pub fn read_packet(line: &str) -> Result<CheckItem, String> {
    let line = line.trim_end();
    let line = line.strip_suffix(',').unwrap_or(line);
    let value: Value = serde_json::from_str(line).map_err(|error| format!("not JSON: {error}"))?;
    let map = value.as_object().ok_or("a packet is not a JSON object")?;
    let source = parse_source(str_of(map, "source")?);
    let kind_tag = str_of(map, "kind")?;
    let findings = findings_of(map, "findings")?;
    if kind_tag == "load_error" {
        let reason = findings
            .into_iter()
            .next()
            .map(|finding| finding.message)
            .ok_or("a load error without its finding")?;
        return Ok(CheckItem::LoadError(LoadError { source, reason }));
    }
    let kind =
        PacketKind::from_tag(kind_tag).ok_or_else(|| format!("kind {kind_tag:?} is unknown"))?;
    let mut modes_summary: [Option<ModeSummary>; 2] = [None, None];
    let mut modes_check: [Option<ModeCheck>; 2] = [None, None];
    if let Some(modes) = map.get("modes") {
        for mode in modes.as_array().ok_or("modes is not a list")? {
            let (summary, check) = mode_of(mode)?;
            modes_summary[summary.mode.index()] = Some(summary);
            modes_check[check.mode.index()] = Some(check);
        }
    }
    let audit = map.get("audit").and_then(Value::as_object);
    let audit_count = |key: &str| -> Result<u32, String> {
        audit.map_or(Ok(0), |audit| u64_of(audit, key).map(|count| count as u32))
    };
    let mut duplicate_key_paths = PathList::new();
    if let Some(paths) = map.get("duplicate_keys") {
        for path in paths.as_array().ok_or("duplicate_keys is not a list")? {
            duplicate_key_paths.push(
                path.as_str()
                    .ok_or("a duplicate key path is not a string")?,
            );
        }
    }
    let count_of = |kind: FindingKind| findings.iter().filter(|f| f.kind == kind).count() as u32;
    let object = map
        .get("object")
        .map(|object| {
            crate::golden::parse_object_golden(object).map_err(|error| format!("object: {error}"))
        })
        .transpose()?;
    let bundle = match map.get("bundle") {
        None => None,
        Some(bundle) => {
            let digest = object
                .as_ref()
                .map_or(Digest([0; 32]), |object| object.object);
            Some(Arc::new(bundle_of(bundle, digest)?))
        }
    };
    let summary = PacketSummary {
        source,
        offset: 0,
        kind,
        duplicate_keys: duplicate_key_paths.len() as u32,
        audit_errors: audit_count("errors")?,
        audit_warnings: audit_count("warnings")?,
        canonical_state: state_of(audit.and_then(|audit| opt_str(audit, "state")))?,
        audit_supports: supports_of(audit)?,
        profile_failures: count_of(FindingKind::ProfileFailure),
        profile_warnings: count_of(FindingKind::ProfileWarning),
        migration_findings: count_of(FindingKind::MigrationFinding),
        modes: modes_summary,
    };
    Ok(CheckItem::Packet(Box::new(PacketCheck {
        summary,
        status: status_of(str_of(map, "status")?)?,
        modes: modes_check,
        findings,
        duplicate_key_paths,
        object: object.map(Box::new),
        recorded_findings: findings_of(map, "recorded_findings")?,
        bundle,
        content: None,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_split_lines_only_off_streams_and_bundles() {
        assert_eq!(parse_source("a/b.json"), Source::file("a/b.json"));
        assert_eq!(
            parse_source("a/s.ndjson:12"),
            Source::line(Arc::from(Path::new("a/s.ndjson")), 12)
        );
        assert_eq!(
            parse_source("b.tar.gz:3"),
            Source::line(Arc::from(Path::new("b.tar.gz")), 3)
        );
        assert_eq!(parse_source("odd:12"), Source::file("odd:12"));
    }

    #[test]
    fn heads_name_their_modes_and_shard() {
        let head = read_head(
            r#"{"format":"handoff-inspector check v1","modes":["strict"],"require_golden":true,"shard":"2/3","packets":["#,
        )
        .unwrap();
        assert_eq!(head.modes, vec![Mode::Strict]);
        assert_eq!(head.require_golden, Some(true));
        assert_eq!(
            head.shard.map(|shard| shard.to_string()),
            Some("2/3".into())
        );
        assert!(read_head(r#"{"format":"other","modes":[],"packets":["#).is_err());
        assert!(read_head("hello").is_err());
    }
}
