//! `check --format json`: one JSON object, written as it streams:
//! `{"format":…,"modes":[…],"packets":[` then one packet per line, then `],"summary":{…}}`.
//! Field names are stable and documented in docs/check.md. Packet lines are written directly
//! (`json_line.rs`); `json_oracle.rs` (tests only) builds them through `serde`.

use crate::a2a::Mode;
use crate::corpus::{CheckItem, FindingKind, PacketKind, Status};
use crate::freeze::{unreachable_reason, COVERAGE_ROW_IDS, REVIEW_CHECKLIST};
use crate::report::tally::{Answer, CheckTally};
use serde_json::{json, Map, Value};

pub const CHECK_JSON_FORMAT: &str = "handoff-inspector check v1";

/// A bundle's report in the terms of `verify --format json`, plus the A2A lint rules.
pub(crate) fn bundle_json(report: &crate::bundle::BundleReport) -> Value {
    let error = report.error().map(|error| {
        json!({
            "code": error.code.as_str(),
            "class": error.class().as_str(),
            "message": error.message,
            "step": error.step,
            "compared": error.compared,
        })
    });
    // Null for a rejected bundle: upstream lints only a bundle that verifies.
    let lint: Option<Vec<Value>> = report.evaluated_lint().map(|lint| {
        lint.iter()
            .map(|outcome| {
                json!({
                    "rule": outcome.rule,
                    "passes": outcome.passes(),
                    "matched_events": outcome.matched.len(),
                })
            })
            .collect()
    });
    json!({
        "valid": report.is_valid(),
        "error": error,
        "event_count": report.event_count,
        "run_id": report.verdict.as_ref().ok().map(|facts| facts.run_id.as_str()),
        "run_root": report.run_root(),
        "a2a_events": report.a2a_events,
        "handoff_visible_events": report.handoff_visible_events,
        "lint": lint,
    })
}

/// One packet (or load error) as a single JSON line: terminal-safe UTF-8 JSON bytes, written
/// directly (`json_line.rs`).
pub fn packet_json(item: &CheckItem) -> serde_json::Result<Vec<u8>> {
    super::json_line::write_packet_line(item)
}

/// Writes the JSON object as packets arrive, so a million packets never sit in memory.
pub struct JsonStream {
    pending: Option<Vec<u8>>,
}

impl JsonStream {
    /// The opening line.
    /// The opening line names what `report` needs to render saved results as `check` would:
    /// the modes, `--require-golden`, and the shard of a `--shard` run with its plan's digest.
    pub fn start(
        modes: &[Mode],
        require_golden: bool,
        paths: &[String],
        shard: Option<(crate::corpus::Shard, Option<&str>)>,
        clock: Option<&str>,
    ) -> (JsonStream, String) {
        let modes: Vec<&str> = modes.iter().map(|mode| mode.name()).collect();
        let shard = shard.map_or(String::new(), |(shard, plan)| {
            // The digest is lowercase hex: nothing in it needs escaping.
            let plan = plan.map_or(String::new(), |plan| format!(",\"plan\":\"{plan}\""));
            format!(",\"shard\":\"{shard}\"{plan}")
        });
        // The clock `--now` fixed, stated once here (never inside a finding); the system
        // clock is not written, so two runs write the same bytes.
        let clock = clock.map_or(String::new(), |clock| {
            format!(
                ",\"clock\":{}",
                serde_json::to_string(&crate::json::safe_text(clock)).unwrap_or_default()
            )
        });
        let paths: Vec<String> = paths
            .iter()
            .map(|path| crate::json::safe_text(path).into_owned())
            .collect();
        let head = format!(
            "{{\"format\":\"{CHECK_JSON_FORMAT}\",\"modes\":{},\"require_golden\":{require_golden},\"paths\":{}{shard}{clock},\"packets\":[",
            serde_json::to_string(&modes).unwrap_or_else(|_| "[]".to_owned()),
            serde_json::to_string(&paths).unwrap_or_else(|_| "[]".to_owned())
        );
        (JsonStream { pending: None }, head)
    }

    /// The line to write before this packet's, if any (the previous packet, with its comma).
    pub fn push(&mut self, line: Vec<u8>) -> Option<Vec<u8>> {
        self.pending.replace(line).map(|mut previous| {
            previous.push(b',');
            previous
        })
    }

    /// The last packet line (if any) and the closing summary line.
    pub fn finish(self, tally: &CheckTally) -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = self.pending.into_iter().collect();
        lines.push(format!("],\"summary\":{}}}", summary_json(tally)).into_bytes());
        lines
    }
}

fn status_counts(count: impl Fn(Status) -> u64) -> Value {
    let mut map = Map::new();
    for status in Status::ALL {
        map.insert(status.key().to_owned(), json!(count(status)));
    }
    Value::Object(map)
}

/// The `summary` object.
fn summary_json(tally: &CheckTally) -> Value {
    let mut by_kind = Map::new();
    for kind in PacketKind::ALL {
        by_kind.insert(kind.tag().to_owned(), json!(tally.kind_count(kind)));
    }
    let mut by_finding = Map::new();
    for kind in FindingKind::ALL {
        by_finding.insert(kind.key().to_owned(), json!(tally.group(kind).count));
    }
    let mut modes = Map::new();
    for &mode in &tally.modes {
        modes.insert(
            mode.name().to_owned(),
            status_counts(|status| tally.mode_status_count(mode, status)),
        );
    }
    let mut coverage = Map::new();
    for id in COVERAGE_ROW_IDS {
        let mut cells = Map::new();
        for mode in Mode::BOTH {
            let value = match (unreachable_reason(id, mode), tally.cell(id, mode)) {
                (Some(_), _) => Value::Null,
                (None, Some(cell)) => json!(cell.packets),
                (None, None) => json!(0),
            };
            cells.insert(mode.name().to_owned(), value);
        }
        coverage.insert(id.to_owned(), Value::Object(cells));
    }
    let checklist: Vec<Value> = REVIEW_CHECKLIST
        .iter()
        .zip(&tally.checklist)
        .map(|(question, evidence)| {
            json!({
                "id": question.id,
                "question": question.question,
                "expected": question.expected,
                "answer": match evidence.answer() {
                    Answer::Yes => "yes",
                    Answer::No => "no",
                    Answer::NotEvidenced => "not_evidenced",
                },
                "support": evidence.support,
                "counter": evidence.counter,
            })
        })
        .collect();
    json!({
        "packets": tally.packets,
        "load_errors": tally.load_errors,
        "failing": tally.failing,
        "recorded_packets": tally.recorded_packets,
        "recorded_findings": tally.recorded_findings,
        "require_golden": tally.require_golden,
        "exit_code": tally.exit_code(),
        "by_status": status_counts(|status| tally.status_count(status)),
        "by_kind": by_kind,
        "by_finding": by_finding,
        "modes": modes,
        "coverage": coverage,
        "checklist": checklist,
    })
}

/// `check --format json`: the head first, each packet's line as it comes (made on the run's
/// worker threads), the summary at the end.
pub struct JsonWriter {
    stream: JsonStream,
    head: String,
}

impl JsonWriter {
    pub fn new(options: &super::writer::CheckOutputOptions) -> JsonWriter {
        let (stream, head) = JsonStream::start(
            &options.modes,
            options.require_golden,
            &options.inputs,
            options.shard.map(|shard| (shard, options.plan.as_deref())),
            options.clock.as_deref(),
        );
        JsonWriter { stream, head }
    }
}

fn packet_line(item: &CheckItem) -> Result<Vec<u8>, String> {
    packet_json(item).map_err(|error| error.to_string())
}

impl super::writer::CheckWriter for JsonWriter {
    fn line_maker(&self) -> Option<super::writer::LineMaker> {
        Some(packet_line)
    }

    fn start(&mut self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        super::writer::line(out, self.head.as_bytes())
    }

    fn item(
        &mut self,
        item: &CheckItem,
        line: Option<Result<Vec<u8>, String>>,
        out: &mut dyn std::io::Write,
    ) -> Result<(), super::writer::OutputError> {
        let line = line
            .unwrap_or_else(|| packet_line(item))
            .map_err(super::writer::OutputError::Encode)?;
        if let Some(previous) = self.stream.push(line) {
            super::writer::line(out, &previous)?;
        }
        Ok(())
    }

    fn finish(
        self: Box<Self>,
        tally: &CheckTally,
        out: &mut dyn crate::report::styled::StyledWrite,
    ) -> std::io::Result<()> {
        for json_line in self.stream.finish(tally) {
            super::writer::line(out, &json_line)?;
        }
        Ok(())
    }
}
