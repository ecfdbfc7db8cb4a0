//! `explain BUNDLE`: upstream's verdict, every check of the spec's §9 in order with its
//! outcome, a short line per event (its content hash recomputed vs stored, its named handoff
//! state and audit outcome, as `check` gives them) and upstream's A2A lint rules.
//! `explain BUNDLE:SEQ` is an ordinary event explanation (`report::explain`).

use super::check::json::bundle_json;
use super::styled::{Style, StyledText};
use crate::bundle::steps::outcomes;
use crate::corpus::BundlePackets;
use crate::corpus::{classify_bundle, summarize, EvaluateOptions, PacketSummary, Status};
use crate::json::safe_text;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

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

    /// The explanation as text: the verdict, each check's outcome and each event's hash
    /// styled as passing or failing, lint rules as rule ids.
    pub fn text(&self) -> StyledText {
        let mut out: Vec<StyledText> = Vec::new();
        out.push(super::explain::styled_heading(
            &self.source,
            crate::corpus::PacketKind::Bundle,
            None,
        ));
        out.push(safe_text(&self.reason).as_ref().into());
        let error = &self.report["error"];
        if error.is_null() {
            let mut line = StyledText::from("verdict: ");
            line.push_styled(Style::Pass, "OK");
            let _ = write!(
                line,
                ": upstream's verifier accepts it; run id {}, run root {}",
                safe_text(self.report["run_id"].as_str().unwrap_or("?")),
                safe_text(self.report["run_root"].as_str().unwrap_or("?"))
            );
            out.push(line);
        } else {
            let mut line = StyledText::from("verdict: ");
            line.push_styled(Style::Fail, "FAIL");
            let _ = write!(line, "  {}  ", text_of(&error["class"]));
            line.push_styled(Style::Rule, &text_of(&error["code"]));
            let _ = write!(line, "  {}", text_of(&error["message"]));
            out.push(line);
            if let Some(compared) = error["compared"].as_object() {
                out.push(StyledText::from(format!(
                    "  compared {}: expected {}, found {}",
                    text_of(&compared["what"]),
                    text_of(&compared["expected"]),
                    text_of(&compared["found"])
                )));
            }
        }
        out.push(StyledText::from(if error.is_null() {
            crate::bundle::VERIFIED_SHOWS
        } else {
            crate::bundle::UNVERIFIED_SHOWS
        }));
        out.push("checks (spec §9, in order; the first failure wins):".into());
        for (step, title, outcome) in &self.checks {
            let mut line = StyledText::from("  ");
            let style = match *outcome {
                "pass" => Some(Style::Pass),
                "FAIL" => Some(Style::Fail),
                _ => None,
            };
            line.push_maybe(style, outcome);
            let _ = write!(
                line,
                "{}{step:>2}  {title}",
                " ".repeat(12usize.saturating_sub(outcome.chars().count()))
            );
            out.push(line);
        }
        out.push(StyledText::from(format!(
            "events: {} readable of {} line(s) (SEQ  TYPE  CONTENT-HASH  STATE  AUDIT)",
            self.events.len(),
            self.lines
        )));
        for event in &self.events {
            let (hash, hash_style) = match event.content_hash_matches {
                Some(true) => ("hash ok", None),
                Some(false) => ("hash MISMATCH", Some(Style::Fail)),
                None => ("hash ?", None),
            };
            let (audit, audit_style) = match event.audit {
                "finding" => (
                    format!(
                        "finding ({} error(s), {} warning(s))",
                        event.audit_errors, event.audit_warnings
                    ),
                    Some(Style::Fail),
                ),
                other => (other.replace('_', " "), None),
            };
            let mut line = StyledText::from(format!(
                "  {:>4}  {}  ",
                event.seq,
                safe_text(event.type_.as_deref().unwrap_or("?")),
            ));
            line.push_maybe(hash_style, hash);
            let _ = write!(line, "  {}  ", event.state.unwrap_or("-"));
            line.push_maybe(audit_style, &audit);
            out.push(line);
        }
        out.push(
            "upstream's A2A lint rules (pass when one event matches; warnings upstream):".into(),
        );
        match self.report["lint"].as_array() {
            Some(lint) => {
                for rule in lint {
                    let passes = rule["passes"] == Value::Bool(true);
                    let id = text_of(&rule["rule"]);
                    let mut line = StyledText::from("  ");
                    line.push_styled(Style::Rule, &id);
                    line.push(&" ".repeat(11usize.saturating_sub(id.chars().count())));
                    line.push(" ");
                    if passes {
                        line.push_styled(Style::Pass, "pass");
                    } else {
                        line.push_styled(Style::Warn, "finding");
                    }
                    let _ = write!(line, "  ({} matching event(s))", rule["matched_events"]);
                    out.push(line);
                }
            }
            None => out.push(StyledText::from(format!(
                "  {}",
                crate::bundle::LINT_NOT_EVALUATED
            ))),
        }
        let mut joined = StyledText::new();
        for (index, line) in out.iter().enumerate() {
            if index > 0 {
                joined.push("\n");
            }
            joined.append(line);
        }
        joined
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
