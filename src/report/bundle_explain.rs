//! `explain BUNDLE`: upstream's verdict, every check of the spec's §9 in order with its
//! outcome, a short line per event (its content hash recomputed vs stored, its named handoff
//! state and audit outcome, as `check` gives them) and upstream's A2A lint rules.
//! `explain BUNDLE:SEQ` is an ordinary event explanation (`report::explain`).

use super::check_json::bundle_json;
use crate::bundle::steps::outcomes;
use crate::corpus::BundlePackets;
use crate::corpus::{classify_bundle, summarize, EvaluateOptions, PacketSummary, Status};
use crate::json::safe_text;
use serde::Serialize;
use serde_json::Value;

/// One event of a bundle, in a few words.
#[derive(Clone, Debug, Serialize)]
pub struct EventRow {
    pub source: String,
    pub seq: usize,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    pub a2a: bool,
    /// Recomputed content hash equals the stored one (`None` when either is missing).
    pub content_hash_matches: Option<bool>,
    pub state: Option<&'static str>,
    /// `conforms`, `finding` (audit errors) or `not_checked` (not an A2A event).
    pub audit: &'static str,
    pub audit_errors: u32,
    pub audit_warnings: u32,
}

/// What `explain` says about a bundle.
pub struct BundleExplanation {
    pub source: String,
    pub reason: String,
    pub report: Value,
    pub checks: Vec<(u8, &'static str, &'static str)>,
    pub events: Vec<EventRow>,
    pub lines: usize,
}

impl BundleExplanation {
    pub fn new(opened: &BundlePackets, options: &EvaluateOptions) -> BundleExplanation {
        let report = &opened.report;
        let facts = opened.bundle.events.as_ref().map(|lines| &lines.facts);
        let events = opened
            .events
            .iter()
            .map(|packet| {
                let seq = packet.offset as usize;
                let line = facts.and_then(|facts| facts.get(seq));
                let summary = summarize(packet, options);
                EventRow {
                    source: packet.source.to_string(),
                    seq,
                    type_: line.and_then(|line| line.type_.clone()),
                    a2a: line.is_some_and(|line| line.a2a),
                    content_hash_matches: line.and_then(|line| {
                        Some(line.stored_hash.as_ref()? == line.computed_hash.as_ref()?)
                    }),
                    state: summary.canonical_state.map(|state| state.key()),
                    audit: audit_outcome(&summary, line.is_some_and(|line| line.a2a)),
                    audit_errors: summary.audit_errors,
                    audit_warnings: summary.audit_warnings,
                }
            })
            .collect();
        BundleExplanation {
            source: opened.packet.source.to_string(),
            reason: classify_bundle(report).reason,
            report: bundle_json(report),
            checks: outcomes(report.verdict.as_ref().map(|_| ()))
                .into_iter()
                .map(|(step, outcome)| (step.step, step.title, outcome.label()))
                .collect(),
            events,
            lines: report.lines,
        }
    }

    /// Valid, and no event has an audit error.
    pub fn conforms(&self) -> bool {
        self.report["valid"] == Value::Bool(true)
            && self.events.iter().all(|event| event.audit_errors == 0)
    }

    pub fn json(&self) -> Value {
        let mut value = serde_json::json!({
            "source": self.source,
            "kind": "bundle",
            "reason": self.reason,
            "checks": self.checks.iter().map(|(step, title, outcome)| serde_json::json!({
                "step": step, "title": title, "outcome": outcome,
            })).collect::<Vec<Value>>(),
            "events": self.events,
            "lines": self.lines,
        });
        if let (Some(map), Value::Object(report)) = (value.as_object_mut(), &self.report) {
            for (key, field) in report {
                map.insert(key.clone(), field.clone());
            }
        }
        value
    }

    pub fn text(&self) -> String {
        let mut out = Vec::new();
        out.push(super::explain::heading(
            &self.source,
            crate::corpus::PacketKind::Bundle,
            None,
        ));
        out.push(safe_text(&self.reason).into_owned());
        let error = &self.report["error"];
        if error.is_null() {
            out.push(format!(
                "verdict: OK: upstream's verifier accepts it; run id {}, run root {}",
                safe_text(self.report["run_id"].as_str().unwrap_or("?")),
                safe_text(self.report["run_root"].as_str().unwrap_or("?"))
            ));
        } else {
            out.push(format!(
                "verdict: FAIL  {}  {}  {}",
                text_of(&error["class"]),
                text_of(&error["code"]),
                text_of(&error["message"])
            ));
            if let Some(compared) = error["compared"].as_object() {
                out.push(format!(
                    "  compared {}: expected {}, found {}",
                    text_of(&compared["what"]),
                    text_of(&compared["expected"]),
                    text_of(&compared["found"])
                ));
            }
        }
        out.push(if error.is_null() {
            crate::bundle::VERIFIED_SHOWS.to_owned()
        } else {
            crate::bundle::UNVERIFIED_SHOWS.to_owned()
        });
        out.push("checks (spec §9, in order; the first failure wins):".to_owned());
        for (step, title, outcome) in &self.checks {
            out.push(format!("  {outcome:<12}{step:>2}  {title}"));
        }
        out.push(format!(
            "events: {} readable of {} line(s) (SEQ  TYPE  CONTENT-HASH  STATE  AUDIT)",
            self.events.len(),
            self.lines
        ));
        for event in &self.events {
            let hash = match event.content_hash_matches {
                Some(true) => "hash ok",
                Some(false) => "hash MISMATCH",
                None => "hash ?",
            };
            let audit = match event.audit {
                "finding" => format!(
                    "finding ({} error(s), {} warning(s))",
                    event.audit_errors, event.audit_warnings
                ),
                other => other.replace('_', " "),
            };
            out.push(format!(
                "  {:>4}  {}  {hash}  {}  {audit}",
                event.seq,
                safe_text(event.type_.as_deref().unwrap_or("?")),
                event.state.unwrap_or("-"),
            ));
        }
        out.push(
            "upstream's A2A lint rules (pass when one event matches; warnings upstream):"
                .to_owned(),
        );
        match self.report["lint"].as_array() {
            Some(lint) => {
                for rule in lint {
                    let passes = rule["passes"] == Value::Bool(true);
                    out.push(format!(
                        "  {:<11} {}  ({} matching event(s))",
                        text_of(&rule["rule"]),
                        if passes { "pass" } else { "finding" },
                        rule["matched_events"]
                    ));
                }
            }
            None => out.push(format!("  {}", crate::bundle::LINT_NOT_EVALUATED)),
        }
        out.join("\n")
    }
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => safe_text(text).into_owned(),
        other => other.to_string(),
    }
}

fn audit_outcome(summary: &PacketSummary, a2a: bool) -> &'static str {
    if !a2a {
        Status::NotChecked.key()
    } else if summary.audit_errors > 0 {
        Status::Finding.key()
    } else {
        Status::Conforms.key()
    }
}
