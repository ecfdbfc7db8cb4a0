//! The rule catalogue `check --format sarif` declares: every rule id a `check` finding can
//! carry, taken from the rule tables themselves (one definition, as for the other formats),
//! then one rule per finding kind for findings that carry no row id (drift, load errors...).

use crate::bundle::error::ErrorCode;
use crate::corpus::{CheckFinding, FindingKind};
use crate::rules::RuleTable;
use serde_json::{json, Value};
use std::collections::HashMap;

/// One declared rule: its id, a short and a full description, and help text.
pub struct SarifRule {
    pub id: String,
    pub short: String,
    pub full: String,
    pub help: String,
}

/// The tables whose rows findings name by id.
fn tables() -> [&'static RuleTable; 9] {
    [
        &crate::freeze::K1A_TABLE,
        &crate::freeze::CONVERSION_TABLE,
        &crate::profiles::AHC_TABLE,
        &crate::profiles::AHC_VIOLATIONS_TABLE,
        &crate::profiles::CC_TABLE,
        &crate::profiles::UAIX_TABLE,
        &crate::migrate::check::V03_CHECKS,
        &crate::migrate::check::V10_CHECKS,
        &crate::bundle::A2A_LINT_TABLE,
    ]
}

/// Every rule, in a fixed order: table rows (first table wins a repeated id), upstream's
/// bundle error codes, the migration's mixed-versions signal, then the finding kinds.
pub fn catalogue() -> Vec<SarifRule> {
    let mut rules: Vec<SarifRule> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for table in tables() {
        for row in table.rows {
            if !seen.insert(row.id.to_owned()) {
                continue;
            }
            let mut help = format!("When: {}\nResult: {}", row.condition, row.result);
            if !row.may_imply.is_empty() {
                help.push_str(&format!("\nMay be read as: {}", row.may_imply));
            }
            if !row.must_not_imply.is_empty() {
                help.push_str(&format!("\nMust not be read as: {}", row.must_not_imply));
            }
            help.push_str(&format!("\nSource: {}", row.source));
            rules.push(SarifRule {
                id: row.id.to_owned(),
                short: format!("{} ({})", row.title, table.name),
                full: format!("{}: {}", row.title, row.condition),
                help,
            });
        }
    }
    for code in ErrorCode::ALL {
        let id = code.as_str();
        if !seen.insert(id.clone()) {
            continue;
        }
        rules.push(SarifRule {
            short: format!(
                "evidence bundle fails upstream's verification: {} ({})",
                id,
                code.class().as_str()
            ),
            full: format!(
                "Upstream's bundle verifier stops at its first failing check with the code {id}, class {}.",
                code.class().as_str()
            ),
            help: "The finding's message gives upstream's message, the spec step and what was compared (assay-evidence-bundle.md, section 9).".to_owned(),
            id,
        });
    }
    // A refused attestation: one rule per check of upstream's table, and the envelope that
    // could not be read.
    let attestation_rules = crate::bundle::attest::CHECKS
        .iter()
        .map(|row| (row.id, row.check.number().to_string(), row.title))
        .chain([(
            "unreadable",
            "-".to_owned(),
            "the envelope beside the bundle can be read",
        )]);
    for (id, number, title) in attestation_rules {
        let id = format!("attestation-{id}");
        if !seen.insert(id.clone()) {
            continue;
        }
        rules.push(SarifRule {
            short: format!("attestation refused: {title}"),
            full: format!(
                "The bundle's attestation fails upstream's attestation check {number}: {title}."
            ),
            help: format!(
                "The finding's message gives upstream's message. {}",
                crate::bundle::attest::ATTESTATION_SHOWS
            ),
            id,
        });
    }
    if seen.insert("mixed-versions".to_owned()) {
        rules.push(SarifRule {
            id: "mixed-versions".to_owned(),
            short: "A2A object mixes v0.3 and v1.0 signals".to_owned(),
            full: "The A2A protocol object carries members of both v0.3 and v1.0, so its version cannot be told and it is migrated from neither.".to_owned(),
            help: "See `handoff-inspector migrate FILE` for the signals found and their paths.".to_owned(),
        });
    }
    for kind in FindingKind::ALL {
        if !seen.insert(kind.key().to_owned()) {
            continue;
        }
        rules.push(SarifRule {
            id: kind.key().to_owned(),
            short: kind.title().to_owned(),
            full: kind.description().to_owned(),
            help: format!(
                "A `{}` finding of `handoff-inspector check`; `handoff-inspector explain FILE` shows the packet's whole explanation.",
                kind.key()
            ),
        });
    }
    rules
}

/// The declared rules and where each sits in the catalogue (`ruleIndex`).
pub struct RuleIndex {
    rules: Vec<SarifRule>,
    positions: HashMap<String, usize>,
}

impl RuleIndex {
    pub fn new() -> RuleIndex {
        let rules = catalogue();
        let positions = rules
            .iter()
            .enumerate()
            .map(|(index, rule)| (rule.id.clone(), index))
            .collect();
        RuleIndex { rules, positions }
    }

    /// The rule a finding is reported under: its row id when the catalogue declares it,
    /// else its kind (always declared), so every result names a declared rule.
    pub(crate) fn rule_of(&self, finding: &CheckFinding) -> (&str, usize) {
        let by_row = finding
            .rule
            .as_deref()
            .and_then(|rule| self.positions.get_key_value(rule));
        let (id, index) = by_row
            .or_else(|| self.positions.get_key_value(finding.kind.key()))
            .map(|(id, index)| (id.as_str(), *index))
            .unwrap_or((finding.kind.key(), 0));
        (id, index)
    }

    /// `tool.driver.rules`.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.rules
                .iter()
                .map(|rule| {
                    json!({
                        "id": rule.id,
                        "shortDescription": {"text": rule.short},
                        "fullDescription": {"text": rule.full},
                        "help": {"text": rule.help},
                    })
                })
                .collect(),
        )
    }
}

impl Default for RuleIndex {
    fn default() -> Self {
        RuleIndex::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finding_kind_and_table_row_is_declared_once() {
        let rules = catalogue();
        let mut ids: Vec<&str> = rules.iter().map(|rule| rule.id.as_str()).collect();
        for kind in FindingKind::ALL {
            assert!(ids.contains(&kind.key()), "{}", kind.key());
        }
        for id in [
            "P",
            "N7",
            "X10",
            "HP",
            "ET",
            "C7",
            "S4",
            "UAIX-03",
            "IntegrityEventHash",
        ] {
            assert!(ids.contains(&id), "{id}");
        }
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "a rule id is declared twice");
    }

    #[test]
    fn an_undeclared_row_id_falls_back_to_its_kind() {
        let index = RuleIndex::new();
        let finding = CheckFinding::new(FindingKind::AuditError, None, "x").with_rule("ZZ-9");
        assert_eq!(index.rule_of(&finding).0, "audit_error");
        let finding = CheckFinding::new(FindingKind::AuditError, None, "x").with_rule("N7");
        assert_eq!(index.rule_of(&finding).0, "N7");
    }
}
