//! The shape every rule table shares (K1-A, master/sub, ContextCore, UAIX) and the shape of
//! what evaluating a row returns. Tables are `static` data: explanations, audits, coverage
//! matrices, help text and docs are all generated from the same rows, so they cannot drift.

use crate::json::JsonPath;
use serde::Serialize;
use serde_json::Value;

/// One row of a rule table.
#[derive(Debug, Serialize)]
pub struct RuleRow {
    /// Stable id, e.g. `N5`, `AHC-07`, `UAIX-03`.
    pub id: &'static str,
    /// A few words naming the row.
    pub title: &'static str,
    /// When the row applies (the condition, in the source's terms).
    pub condition: &'static str,
    /// What the row decides, or the exact message the source gives.
    pub result: &'static str,
    /// What a match may be read as (visibility / presence only); empty when the source says nothing.
    pub may_imply: &'static str,
    /// What a match must not be read as.
    pub must_not_imply: &'static str,
    /// Where the row comes from (document and section).
    pub source: &'static str,
}

/// A named rule table.
#[derive(Debug, Serialize)]
pub struct RuleTable {
    /// Short id of the table, e.g. `k1a`, `ahc`, `cc`, `uaix`.
    pub id: &'static str,
    pub name: &'static str,
    pub rows: &'static [RuleRow],
}

impl RuleTable {
    pub fn row(&self, id: &str) -> Option<&'static RuleRow> {
        self.rows.iter().find(|row| row.id == id)
    }
}

/// The longest value an evidence line shows (`shown_json`'s cut).
pub const EVIDENCE_VALUE_CHARS: usize = 80;

/// What a piece of input showed: the JSON path looked at and the value seen there
/// (`None` when the path was absent).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub path: JsonPath,
    pub seen: Option<Value>,
}

impl Evidence {
    pub fn at(path: JsonPath, root: &Value) -> Evidence {
        let seen = path.lookup(root).cloned();
        Evidence { path, seen }
    }

    /// `$.task.kind = "analysis"`, or `$.task.kind absent`; terminal-safe.
    pub fn describe(&self) -> String {
        match &self.seen {
            Some(value) => format!(
                "{} = {}",
                self.path,
                crate::json::shown_json(value, EVIDENCE_VALUE_CHARS)
            ),
            None => format!("{} absent", self.path),
        }
    }
}

/// The outcome of evaluating one row on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The row's case applies to this input (decision tables such as K1-A).
    Matched,
    /// The row's case does not apply.
    NotMatched,
    /// A check row held.
    Pass,
    /// A check row was broken.
    Fail,
    /// A check row raised a warning only.
    Warn,
    /// The row does not apply to this input (e.g. a v1.2.7 rule under v1.0).
    NotApplicable,
    /// The row cannot be checked by a machine; shown, never as passed.
    NotChecked,
    /// The input carries nothing that can be checked (e.g. a placeholder checksum).
    Unverifiable,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Matched => "matched",
            Verdict::NotMatched => "not matched",
            Verdict::Pass => "pass",
            Verdict::Fail => "FAIL",
            Verdict::Warn => "warn",
            Verdict::NotApplicable => "n/a",
            Verdict::NotChecked => "not machine-checked",
            Verdict::Unverifiable => "unverifiable",
        }
    }
}

/// One evaluated row with its evidence and, where the source gives one, the message.
#[derive(Clone, Debug, Serialize)]
pub struct RuleOutcome {
    pub rule: &'static str,
    pub verdict: Verdict,
    pub evidence: Vec<Evidence>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

/// Something a reviewer must look at, tied to a rule id and a JSON path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    pub path: JsonPath,
    pub message: String,
}

impl Finding {
    pub fn new(
        rule: impl Into<String>,
        severity: Severity,
        path: JsonPath,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            rule: rule.into(),
            severity,
            path,
            message: message.into(),
        }
    }
}
