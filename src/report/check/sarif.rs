//! `check --format sarif`: SARIF 2.1.0, the format code-scanning views and pull-request
//! annotations read. One run; `tool.driver.rules` declares every rule a finding can name
//! (`sarif_rules`); every finding of a packet that fails or warns is a result, in walk order,
//! with its file (relative paths as written, against `%SRCROOT%`), the NDJSON line as a region
//! or the bundle event as a logical location, and a partial fingerprint so a rerun's results
//! match the previous run's. Results stream: the head (with the rules) is written first, each
//! packet's results as it passes, so memory does not grow with the corpus.

use super::sarif_rules::RuleIndex;
use crate::corpus::{CheckFinding, CheckItem, FindingKind, Source, Status};
use crate::json::safe_text;
use serde_json::{json, Map, Value};
use sha2::{Digest as _, Sha256};
use std::collections::HashMap;

pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// Where people read about the tool: the crate's homepage from Cargo.toml.
const INFORMATION_URI: &str = env!("CARGO_PKG_HOMEPAGE");

pub struct SarifWriter {
    rules: RuleIndex,
    require_golden: bool,
    /// The clock `--now` fixed, stated once in the run's properties.
    clock: Option<String>,
    /// The previous result, written with its comma once the next one comes.
    pending: Option<String>,
}

/// `level` of a finding: warnings warn, findings recorded as expected are notes, the rest
/// fail the check.
fn level(kind: FindingKind, recorded: bool) -> &'static str {
    if recorded {
        "note"
    } else if matches!(
        kind,
        FindingKind::AuditWarning | FindingKind::ProfileWarning
    ) {
        "warning"
    } else {
        "error"
    }
}

/// A path as a URI reference: unreserved characters and `/` kept, the rest percent-encoded
/// (UTF-8 bytes), so spaces, `#`, `?` and non-ASCII names stay one valid reference.
fn path_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

fn location(source: &Source) -> Value {
    let path = source.path.to_string_lossy();
    let mut artifact = Map::new();
    if source.path.is_absolute() {
        artifact.insert("uri".into(), json!(format!("file://{}", path_uri(&path))));
    } else {
        // `./x` and `x` name one file; code-scanning matches the plain form.
        let mut relative: &str = &path;
        while let Some(rest) = relative.strip_prefix("./") {
            relative = rest;
        }
        artifact.insert("uri".into(), json!(path_uri(relative)));
        artifact.insert("uriBaseId".into(), json!("%SRCROOT%"));
    }
    let mut location = Map::new();
    let mut physical = Map::new();
    physical.insert("artifactLocation".into(), Value::Object(artifact));
    match source.line {
        Some(seq) if source.is_bundle_event() => {
            location.insert(
                "logicalLocations".into(),
                json!([{
                    "name": format!("seq {seq}"),
                    "fullyQualifiedName": safe_text(&source.to_string()),
                    "kind": "object",
                }]),
            );
        }
        Some(line) => {
            physical.insert("region".into(), json!({ "startLine": line }));
        }
        None => {}
    }
    location.insert("physicalLocation".into(), Value::Object(physical));
    Value::Object(location)
}

impl SarifWriter {
    pub fn new(options: &super::writer::CheckOutputOptions) -> SarifWriter {
        SarifWriter {
            rules: RuleIndex::new(),
            require_golden: options.require_golden,
            clock: options.clock.clone(),
            pending: None,
        }
    }

    /// Everything before the first result.
    pub fn head(&self) -> String {
        let driver = json!({
            "name": "handoff-inspector",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": INFORMATION_URI,
            "rules": self.rules.to_json(),
        });
        // The clock `--now` fixed, once, in the run's property bag (never in a result).
        let properties = self.clock.as_deref().map_or(String::new(), |clock| {
            format!("\"properties\":{},", json!({ "clock": safe_text(clock) }))
        });
        format!(
            "{{\"$schema\":\"{SARIF_SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":{}}},{properties}\"columnKind\":\"unicodeCodePoints\",\"results\":[",
            serde_json::to_string(&driver).unwrap_or_else(|_| "{}".to_owned())
        )
    }

    /// The packet's results, one JSON line each; returns the lines ready to write (each
    /// result but the newest, which waits for its comma).
    pub fn add(&mut self, item: &CheckItem) -> Vec<String> {
        let mut lines = Vec::new();
        for result in self.results(item) {
            if let Some(mut previous) = self.pending.replace(result) {
                previous.push(',');
                lines.push(previous);
            }
        }
        lines
    }

    /// The last result and the closing brackets.
    pub fn finish(self) -> Vec<String> {
        let mut lines: Vec<String> = self.pending.into_iter().collect();
        lines.push("]}]}".to_owned());
        lines
    }

    fn results(&self, item: &CheckItem) -> Vec<String> {
        match item {
            CheckItem::LoadError(error) => {
                let finding = CheckFinding::new(FindingKind::LoadError, None, error.reason.clone());
                let mut seen = HashMap::new();
                vec![self.result(&error.source, &finding, false, &mut seen)]
            }
            CheckItem::Packet(check) => {
                let mut seen = HashMap::new();
                let mut out = Vec::new();
                // A packet not checked has no failing findings to report.
                let checked = if check.status == Status::NotChecked {
                    &[][..]
                } else {
                    &check.findings[..]
                };
                for finding in checked {
                    // A packet without a golden fails only under --require-golden; otherwise
                    // it is no result at all (a corpus without goldens is not a million notes).
                    if finding.kind == FindingKind::NoGolden && !self.require_golden {
                        continue;
                    }
                    out.push(self.result(&check.summary.source, finding, false, &mut seen));
                }
                for finding in &check.recorded_findings {
                    out.push(self.result(&check.summary.source, finding, true, &mut seen));
                }
                out
            }
        }
    }

    /// One result. `seen` counts identical (rule, mode) pairs in this packet, so two findings
    /// of one rule keep apart fingerprints that are stable from run to run.
    fn result(
        &self,
        source: &Source,
        finding: &CheckFinding,
        recorded: bool,
        seen: &mut HashMap<(String, Option<&'static str>), usize>,
    ) -> String {
        let (rule_id, rule_index) = self.rules.rule_of(finding);
        let mode = finding.mode.map(|mode| mode.name());
        let occurrence = seen.entry((rule_id.to_owned(), mode)).or_insert(0);
        *occurrence += 1;
        let source_text = source.to_string();
        let mut hasher = Sha256::new();
        for part in [
            rule_id,
            finding.kind.key(),
            &source_text,
            mode.unwrap_or("-"),
            &occurrence.to_string(),
        ] {
            hasher.update(part.as_bytes());
            hasher.update([0]);
        }
        let fingerprint: String = hasher
            .finalize()
            .iter()
            .take(16)
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let mut text = String::new();
        if recorded {
            text.push_str("recorded as expected: ");
        }
        if let Some(mode) = mode {
            text.push_str(&format!("[{mode}] "));
        }
        text.push_str(&safe_text(&finding.message));
        if let Some(diff) = &finding.diff {
            for change in &diff.changes {
                text.push_str("\n  ");
                text.push_str(&change.describe());
            }
            if diff.total_changes > diff.changes.len() {
                text.push_str(&format!(
                    "\n  ... and {} more changed path(s)",
                    diff.total_changes - diff.changes.len()
                ));
            }
        }
        let mut properties = Map::new();
        properties.insert("findingKind".into(), json!(finding.kind.key()));
        if let Some(mode) = mode {
            properties.insert("mode".into(), json!(mode));
        }
        if let Some(class) = finding.class {
            properties.insert("class".into(), json!(class));
        }
        let result = json!({
            "ruleId": rule_id,
            "ruleIndex": rule_index,
            "level": level(finding.kind, recorded),
            "message": {"text": text},
            "locations": [location(source)],
            "partialFingerprints": {"handoffInspector/v1": fingerprint},
            "properties": Value::Object(properties),
        });
        serde_json::to_string(&result).unwrap_or_default()
    }
}

impl super::writer::CheckWriter for SarifWriter {
    fn start(&mut self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        super::writer::line(out, self.head().as_bytes())
    }

    fn item(
        &mut self,
        item: &CheckItem,
        _line: Option<Result<Vec<u8>, String>>,
        out: &mut dyn std::io::Write,
    ) -> Result<(), super::writer::OutputError> {
        for result in self.add(item) {
            super::writer::line(out, result.as_bytes())?;
        }
        Ok(())
    }

    fn finish(
        self: Box<Self>,
        _tally: &crate::report::tally::CheckTally,
        out: &mut dyn crate::report::styled::StyledWrite,
    ) -> std::io::Result<()> {
        for sarif_line in SarifWriter::finish(*self) {
            super::writer::line(out, sarif_line.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_options() -> crate::report::check::output::CheckOutputOptions {
        crate::report::check::output::CheckOutputOptions {
            format: crate::report::check::output::CheckFormat::Sarif,
            modes: crate::a2a::Mode::BOTH.to_vec(),
            require_golden: false,
            limit: 20,
            inputs: Vec::new(),
            shard: None,
            plan: None,
            clock: None,
        }
    }

    #[test]
    fn uris_are_percent_encoded_references() {
        assert_eq!(path_uri("a b/c#d?.json"), "a%20b/c%23d%3F.json");
        assert_eq!(path_uri("é.json"), "%C3%A9.json");
    }

    #[test]
    fn a_load_error_is_an_error_result_with_its_line() {
        let mut writer = SarifWriter::new(&test_options());
        let item = CheckItem::LoadError(crate::corpus::LoadError {
            source: Source::line(std::sync::Arc::from(std::path::Path::new("d/s.ndjson")), 3),
            reason: "empty line".into(),
        });
        assert!(writer.add(&item).is_empty());
        let lines = writer.finish();
        let result: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(result["ruleId"], "load_error");
        assert_eq!(result["level"], "error");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "d/s.ndjson");
        assert_eq!(location["region"]["startLine"], 3);
    }
}
