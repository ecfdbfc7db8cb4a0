//! Collects verdicts row by row while an evaluator walks a packet, then turns them into one
//! `RuleOutcome` per table row (in table order) plus one `Finding` per problem seen.
//!
//! A row can be touched many times (one artifact fails, another passes); the strongest
//! verdict wins: Fail > Warn > Unverifiable > NotChecked > Pass > NotApplicable. A row no
//! evaluator touched comes out NotChecked, never Pass, so a forgotten branch cannot look
//! like a clean result.

use crate::json::JsonPath;
use crate::rules::{Evidence, Finding, RuleOutcome, RuleTable, Severity, Verdict};
use serde_json::Value;

/// At most this many evidence entries and findings per row; the rest are counted.
const PER_ROW_LIMIT: usize = 100;
/// Strings longer than this are shortened in evidence and messages.
const SHOWN_CHARS: usize = 200;
/// Containers whose compact JSON is longer than this are summarised in evidence.
const SHOWN_CONTAINER_BYTES: usize = 600;

pub(crate) fn strength(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Fail => 7,
        Verdict::Warn => 6,
        Verdict::Unverifiable => 5,
        Verdict::NotChecked => 4,
        Verdict::Pass | Verdict::Matched => 3,
        Verdict::NotApplicable | Verdict::NotMatched => 2,
    }
}

struct RowState {
    rule: &'static str,
    verdict: Option<Verdict>,
    evidence: Vec<Evidence>,
    messages: Vec<String>,
    dropped: usize,
}

pub(crate) struct Rows {
    states: Vec<RowState>,
    findings: Vec<Finding>,
}

impl Rows {
    pub(crate) fn new(table: &'static RuleTable) -> Rows {
        Rows {
            states: table
                .rows
                .iter()
                .map(|row| RowState {
                    rule: row.id,
                    verdict: None,
                    evidence: Vec::new(),
                    messages: Vec::new(),
                    dropped: 0,
                })
                .collect(),
            findings: Vec::new(),
        }
    }

    fn state(&mut self, rule: &str) -> Option<&mut RowState> {
        let found = self.states.iter_mut().find(|state| state.rule == rule);
        debug_assert!(found.is_some(), "rule {rule} is not in this table");
        found
    }

    /// Records `verdict` for `rule` with the evidence seen at `path` in `root` and, for
    /// anything but a pass, a message that also becomes a finding.
    pub(crate) fn record(
        &mut self,
        rule: &str,
        verdict: Verdict,
        evidence: Option<Evidence>,
        message: Option<String>,
    ) {
        let path = evidence
            .as_ref()
            .map(|e| e.path.clone())
            .unwrap_or_default();
        let Some(state) = self.state(rule) else {
            return;
        };
        if state
            .verdict
            .is_none_or(|old| strength(verdict) > strength(old))
        {
            state.verdict = Some(verdict);
        }
        if let Some(evidence) = evidence {
            if state.evidence.len() < PER_ROW_LIMIT && !state.evidence.contains(&evidence) {
                state.evidence.push(evidence);
            }
        }
        let Some(message) = message else {
            return;
        };
        let rule = state.rule;
        let seen_before = state.messages.contains(&message);
        if !seen_before {
            if state.messages.len() >= PER_ROW_LIMIT {
                state.dropped += 1;
                return;
            }
            state.messages.push(message.clone());
        }
        // The same message at another path is another finding (e.g. one type error per field).
        let findings_for_rule = self.findings.iter().filter(|f| f.rule == rule).count();
        if findings_for_rule >= PER_ROW_LIMIT
            || self
                .findings
                .iter()
                .any(|f| f.rule == rule && f.path == path && f.message == message)
        {
            return;
        }
        let severity = match verdict {
            Verdict::Fail => Severity::Error,
            Verdict::Warn => Severity::Warning,
            Verdict::Unverifiable | Verdict::NotChecked => Severity::Note,
            _ => return,
        };
        self.findings
            .push(Finding::new(rule, severity, path, message));
    }

    pub(crate) fn pass(&mut self, rule: &str, evidence: Evidence) {
        self.record(rule, Verdict::Pass, Some(evidence), None);
    }

    pub(crate) fn fail(&mut self, rule: &str, evidence: Evidence, message: impl Into<String>) {
        self.record(rule, Verdict::Fail, Some(evidence), Some(message.into()));
    }

    pub(crate) fn warn(&mut self, rule: &str, evidence: Evidence, message: impl Into<String>) {
        self.record(rule, Verdict::Warn, Some(evidence), Some(message.into()));
    }

    /// NotApplicable / NotChecked / Unverifiable with a reason (kept as the row's message).
    pub(crate) fn mark(
        &mut self,
        rule: &str,
        verdict: Verdict,
        evidence: Option<Evidence>,
        reason: impl Into<String>,
    ) {
        self.record(rule, verdict, evidence, Some(reason.into()));
    }

    /// Marks every row not yet touched with `verdict` and `reason`.
    pub(crate) fn mark_untouched(&mut self, verdict: Verdict, reason: &str) {
        let rules: Vec<&'static str> = self
            .states
            .iter()
            .filter(|state| state.verdict.is_none())
            .map(|state| state.rule)
            .collect();
        for rule in rules {
            self.mark(rule, verdict, None, reason);
        }
    }

    pub(crate) fn verdict(&self, rule: &str) -> Option<Verdict> {
        self.states
            .iter()
            .find(|state| state.rule == rule)
            .and_then(|state| state.verdict)
    }

    pub(crate) fn finish(self) -> (Vec<RuleOutcome>, Vec<Finding>) {
        let outcomes = self
            .states
            .into_iter()
            .map(|mut state| {
                if state.dropped > 0 {
                    state
                        .messages
                        .push(format!("... and {} more not listed", state.dropped));
                }
                RuleOutcome {
                    rule: state.rule,
                    verdict: state.verdict.unwrap_or(Verdict::NotChecked),
                    evidence: state.evidence,
                    message: if state.messages.is_empty() {
                        None
                    } else {
                        Some(state.messages.join("; "))
                    },
                }
            })
            .collect();
        (outcomes, self.findings)
    }
}

/// Evidence at `path`, with the value seen there cut down to a size a report can show.
pub(crate) fn evidence(path: &JsonPath, root: &Value) -> Evidence {
    Evidence {
        path: path.clone(),
        seen: path.lookup(root).map(bounded),
    }
}

/// Evidence for a check that looked at the whole packet (a scan, or a schema as a whole).
pub(crate) fn whole_packet() -> Evidence {
    Evidence {
        path: JsonPath::root(),
        seen: Some(Value::String("<whole packet>".into())),
    }
}

/// Evidence whose value must not be shown (a secret-like string).
pub(crate) fn redacted_evidence(path: &JsonPath, chars: usize) -> Evidence {
    Evidence {
        path: path.clone(),
        seen: Some(Value::String(format!("<redacted: {chars} chars>"))),
    }
}

/// A copy of `value` small enough for a report: long strings are shortened and large
/// containers are replaced by a one-line summary.
pub(crate) fn bounded(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(clip(text)),
        Value::Array(items) => {
            if compact_len_exceeds(value, SHOWN_CONTAINER_BYTES) {
                Value::String(format!("<array of {} items>", items.len()))
            } else {
                value.clone()
            }
        }
        Value::Object(map) => {
            if compact_len_exceeds(value, SHOWN_CONTAINER_BYTES) {
                Value::String(format!("<object with {} members>", map.len()))
            } else {
                value.clone()
            }
        }
        other => other.clone(),
    }
}

/// Whether the compact JSON of `value` is longer than `limit` bytes, without building it
/// for huge values.
fn compact_len_exceeds(value: &Value, limit: usize) -> bool {
    fn walk(value: &Value, budget: &mut isize) {
        if *budget < 0 {
            return;
        }
        match value {
            Value::String(text) => *budget -= text.len() as isize + 2,
            Value::Array(items) => {
                *budget -= 2;
                for item in items {
                    walk(item, budget);
                    if *budget < 0 {
                        return;
                    }
                }
            }
            Value::Object(map) => {
                *budget -= 2;
                for (key, item) in map {
                    *budget -= key.len() as isize + 3;
                    walk(item, budget);
                    if *budget < 0 {
                        return;
                    }
                }
            }
            other => *budget -= other.to_string().len() as isize,
        }
    }
    let mut budget = limit as isize;
    walk(value, &mut budget);
    budget < 0
}

/// `text` shortened to a length a message can show: its first characters, then the cut mark
/// and the whole length (`…(1234 chars)`); the message is made terminal-safe where shown.
pub(crate) fn clip(text: &str) -> String {
    let count = text.chars().count();
    if count <= SHOWN_CHARS {
        text.to_owned()
    } else {
        let head = crate::json::char_prefix(text, SHOWN_CHARS);
        format!("{head}{}({count} chars)", crate::json::CUT_MARK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RuleRow, RuleTable};
    use serde_json::json;

    static ROWS: [RuleRow; 2] = [
        RuleRow {
            id: "T-01",
            title: "",
            condition: "",
            result: "",
            may_imply: "",
            must_not_imply: "x",
            source: "test",
        },
        RuleRow {
            id: "T-02",
            title: "",
            condition: "",
            result: "",
            may_imply: "",
            must_not_imply: "x",
            source: "test",
        },
    ];
    static TABLE: RuleTable = RuleTable {
        id: "t",
        name: "test",
        rows: &ROWS,
    };

    #[test]
    fn strongest_verdict_wins_and_untouched_rows_are_not_passed() {
        let root = json!({"a": [1, 2]});
        let mut rows = Rows::new(&TABLE);
        let path = JsonPath::keys(&["a"]);
        rows.pass("T-01", evidence(&path.index(0), &root));
        rows.fail("T-01", evidence(&path.index(1), &root), "second is bad");
        rows.pass("T-01", evidence(&path.index(0), &root));
        let (outcomes, findings) = rows.finish();
        assert_eq!(outcomes[0].verdict, Verdict::Fail);
        assert_eq!(outcomes[0].evidence.len(), 2);
        assert_eq!(outcomes[0].message.as_deref(), Some("second is bad"));
        assert_eq!(outcomes[1].verdict, Verdict::NotChecked);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].path.to_string(), "$.a[1]");
        assert_eq!(findings[0].severity, Severity::Error);
    }

    #[test]
    fn many_problems_are_capped_and_counted() {
        let root = json!(null);
        let mut rows = Rows::new(&TABLE);
        for i in 0..500 {
            rows.fail(
                "T-02",
                evidence(&JsonPath::root().index(i), &root),
                format!("bad {i}"),
            );
        }
        let (outcomes, findings) = rows.finish();
        assert!(outcomes[1].evidence.len() <= PER_ROW_LIMIT);
        assert!(findings.len() <= PER_ROW_LIMIT);
        assert!(outcomes[1]
            .message
            .as_deref()
            .unwrap_or("")
            .ends_with("more not listed"));
    }

    #[test]
    fn bounded_values_stay_small() {
        let long = "x".repeat(10_000);
        assert!(bounded(&json!(long)).as_str().unwrap().len() < 300);
        let big = json!((0..1000).collect::<Vec<_>>());
        assert_eq!(bounded(&big), json!("<array of 1000 items>"));
        let small = json!({"a": [1, 2]});
        assert_eq!(bounded(&small), small);
    }
}
