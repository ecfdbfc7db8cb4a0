//! The `explain` report: a raw packet's handoff flags with their deciding rows and evidence,
//! or the audit findings of canonical input.

use super::styled::{Style, StyledText};
use crate::a2a::Converted;
use crate::corpus::PacketKind;
use crate::freeze::{
    Audit, Explanation, HandoffState, CONVERSION_TABLE, GUARDRAIL, HANDOFF_FIELDS, K1A_TABLE,
};
use crate::json::{safe_text, DuplicateKey, DuplicateKeysIn};
use crate::rules::{Evidence, Finding, RuleOutcome, Verdict};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write as _;

/// `e478af7359a2… typed positive: task + message refs`, or the note that it is not legal.
fn handoff_digest_label(handoff: &Value) -> String {
    let digest = crate::json::digest_value(handoff);
    match crate::freeze::handoff_state(handoff) {
        Some(state) => format!("{digest} {}", state.name()),
        None => format!("{digest} NOT one of the five legal handoff states"),
    }
}

fn row_title(id: &str) -> &'static str {
    K1A_TABLE
        .row(id)
        .or_else(|| CONVERSION_TABLE.row(id))
        .map(|row| row.title)
        .unwrap_or("")
}

/// The evidence described, `; `-separated, written into one text (a row may look at 200k
/// unmapped keys: a string each, then joined, held them twice). The inspector's Handoff tab
/// writes it the same way.
pub fn evidence_list(
    evidence: impl IntoIterator<Item = impl std::borrow::Borrow<Evidence>>,
) -> String {
    let mut out = String::new();
    for (index, evidence) in evidence.into_iter().enumerate() {
        if index > 0 {
            out.push_str("; ");
        }
        out.push_str(&evidence.borrow().describe());
    }
    out
}

/// A row's evidence as a screen shows it: the first `listed` items, then how many more
/// (`explain` lists every one). A line of 200k unmapped keys, 4 MB, wrapped by the
/// inspector cost 240 MB.
pub fn evidence_listed(explanation: &Explanation, row: &RuleOutcome, listed: usize) -> String {
    let mut text = evidence_list(explanation.evidence(row).take(listed));
    let count = explanation.evidence_count(row);
    if count > listed {
        text.push_str(&format!("; and {} more", count - listed));
    }
    text
}

/// The first line `explain` writes for every file: its source and its kind's one name (from
/// the kind table), with what was done to it when that says more.
pub fn heading(source: &str, kind: PacketKind, detail: Option<&str>) -> String {
    styled_heading(source, kind, detail).into_string()
}

/// [`heading`], the source styled as a path.
pub(crate) fn styled_heading(source: &str, kind: PacketKind, detail: Option<&str>) -> StyledText {
    let mut out = StyledText::new();
    out.push_styled(Style::Path, &safe_text(source));
    match detail {
        Some(detail) => {
            let _ = write!(out, "  ({}, {detail})", kind.name());
        }
        None => {
            let _ = write!(out, "  ({})", kind.name());
        }
    }
    out
}

/// Rule ids separated by spaces, each styled, padded with spaces to `width` characters (as
/// `{:<width}` pads their plain join).
fn push_rule_ids(out: &mut StyledText, ids: &[&str], width: usize) {
    for (index, id) in ids.iter().enumerate() {
        if index > 0 {
            out.push(" ");
        }
        out.push_styled(Style::Rule, id);
    }
    let written =
        ids.iter().map(|id| id.chars().count()).sum::<usize>() + ids.len().saturating_sub(1);
    out.push(&" ".repeat(width.saturating_sub(written)));
}

/// Human-readable explanation of one packet handed to the adapter (`kind`: a raw packet, or
/// bytes that are not JSON): the verdict styled as passing or failing, rule ids as rule ids.
pub fn explanation_text(source: &str, kind: PacketKind, explanation: &Explanation) -> StyledText {
    let mut out = StyledText::new();
    let mode = explanation.mode();
    let detail = format!("{mode} mode");
    out.append(&styled_heading(source, kind, Some(&detail)));
    out.push("\n");
    match &explanation.conversion.result {
        Err(error) => {
            out.push_styled(Style::Fail, "rejected");
            let _ = writeln!(out, ": {error}");
            if let Some(row) = CONVERSION_TABLE.row(error.rule) {
                out.push("  ");
                out.push_styled(Style::Rule, row.id);
                let _ = writeln!(out, " {}: {}", row.title, row.condition);
            }
            if let Some(n3) = explanation
                .row("N3")
                .filter(|row| row.verdict == Verdict::Matched)
            {
                out.push("  ");
                out.push_styled(Style::Rule, "N3");
                let _ = writeln!(
                    out,
                    " {}: {}",
                    row_title("N3"),
                    K1A_TABLE.row("N3").map(|row| row.result).unwrap_or("")
                );
                let _ = writeln!(
                    out,
                    "     evidence: {}",
                    evidence_list(explanation.evidence(n3))
                );
            }
            let _ = writeln!(
                out,
                "no canonical packet was emitted, so there is no handoff object to explain."
            );
        }
        Ok(converted) => converted_text(&mut out, explanation, converted),
    }
    let _ = writeln!(out, "\n{GUARDRAIL}");
    out
}

fn converted_text(out: &mut StyledText, explanation: &Explanation, converted: &Converted) {
    let lossiness = &converted.lossiness;
    out.push_styled(Style::Pass, "emitted");
    let _ = writeln!(
        out,
        ": {}  subject {}  lossiness {} ({} unmapped)",
        converted.canonical_type.name(),
        safe_text(converted.subject()),
        lossiness.level(),
        lossiness.unmapped_fields_count
    );
    for substitution in &lossiness.substitutions {
        out.push("  note [");
        out.push_styled(Style::Rule, substitution.rule());
        let _ = writeln!(out, "]: {}", substitution.note());
    }
    let _ = writeln!(
        out,
        "\nhandoff field          value            decided by   evidence"
    );
    for field in &explanation.fields {
        let value = serde_json::to_string(&field.value).unwrap_or_default();
        let _ = write!(out, "  {:<20} {:<16} ", field.field, value);
        push_rule_ids(out, &field.decided_by, 12);
        let _ = writeln!(out, " {}", evidence_list(&field.evidence));
    }
    let _ = writeln!(out, "state: {}", handoff_digest_label(converted.handoff()));
    let matched: Vec<&str> = explanation.matched().collect();
    out.push("\nrows matched: ");
    if matched.is_empty() {
        out.push("none");
    } else {
        push_rule_ids(out, &matched, 0);
    }
    out.push("\n");
    for row in explanation
        .rows
        .iter()
        .filter(|row| row.verdict == Verdict::Matched)
    {
        out.push("  ");
        push_rule_ids(out, &[row.rule], 4);
        let _ = writeln!(
            out,
            " {:<38} {}",
            row_title(row.rule),
            evidence_list(explanation.evidence(row))
        );
    }
    let ignored = ignored_signals(explanation);
    if !ignored.is_empty() {
        let _ = writeln!(
            out,
            "present but never a handoff source: {}",
            ignored.join("; ")
        );
    }
    let _ = writeln!(out, "\nwhat each flag may and must not be read as:");
    for field in &HANDOFF_FIELDS {
        let _ = writeln!(out, "  {:<20} may imply: {}", field.name, field.may_imply);
        let _ = writeln!(out, "  {:<20} must not imply: {}", "", field.must_not_imply);
    }
}

/// On a positive packet, the weak signals (X6-X9) that were present but played no part.
fn ignored_signals(explanation: &Explanation) -> Vec<String> {
    if explanation
        .row("P")
        .is_none_or(|row| row.verdict != Verdict::Matched)
    {
        return Vec::new();
    }
    let Some(packet) = explanation.members() else {
        return Vec::new();
    };
    let mut shown = Vec::new();
    for (id, keys) in [("X6", &["agent", "role"][..]), ("X7", &["attributes"][..])] {
        let evidence = Evidence::at(crate::json::JsonPath::keys(keys), packet);
        if evidence.seen.is_some() {
            shown.push(format!("{} ({id})", evidence.describe()));
        }
    }
    shown
}

/// The warning line for one repeated key: `explain` prints them under the heading as the
/// scan finds them, where a packet may repeat a million keys.
pub fn duplicate_line(duplicate: &DuplicateKey) -> StyledText {
    let mut line = StyledText::new();
    line.push_styled(Style::Warn, "warning");
    let _ = write!(
        line,
        ": duplicate key {} appears {} times; the last value is the one converted",
        duplicate.path, duplicate.occurrences
    );
    line
}

/// Human-readable audit of canonical input: no findings as passing, errors as failures,
/// warnings as warnings.
pub fn audit_text(source: &str, kind: PacketKind, audit: &Audit) -> StyledText {
    let mut out = styled_heading(source, kind, Some("audited against the K1-A freeze"));
    out.push("\n");
    for (index, state) in audit.states.iter().enumerate() {
        let label = state
            .map(HandoffState::name)
            .unwrap_or("not one of the five legal handoff states");
        let _ = writeln!(out, "handoff #{}: {label}", index + 1);
    }
    if audit.findings.is_empty() {
        out.push_styled(Style::Pass, "no findings");
        let _ = writeln!(
            out,
            ": the handoff objects follow the freeze's shape and source rules."
        );
    } else {
        let _ = writeln!(out, "{} finding(s):", audit.findings.len());
        for finding in &audit.findings {
            out.push("  ");
            out.append(&styled_finding_line(finding));
            out.push("\n");
        }
    }
    let _ = writeln!(out, "\n{GUARDRAIL}");
    out
}

pub fn finding_line(finding: &Finding) -> String {
    styled_finding_line(finding).into_string()
}

/// [`finding_line`], the severity styled and the rule as a rule id.
fn styled_finding_line(finding: &Finding) -> StyledText {
    let (severity, style) = match finding.severity {
        crate::rules::Severity::Error => ("error", Some(Style::Fail)),
        crate::rules::Severity::Warning => ("warning", Some(Style::Warn)),
        crate::rules::Severity::Note => ("note", None),
    };
    let mut line = StyledText::new();
    line.push_maybe(style, severity);
    line.push(" [");
    line.push_styled(Style::Rule, &finding.rule);
    let _ = write!(line, "] {}: {}", finding.path, safe_text(&finding.message));
    line
}

/// `explain --format json` for a raw packet.
#[derive(Serialize)]
pub struct ExplanationJson<'a> {
    pub source: &'a str,
    /// The kind's tag, as `ls` prints it.
    pub kind: &'static str,
    pub mode: crate::a2a::Mode,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a crate::a2a::ConversionError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<&'static str>,
    pub fields: &'a [crate::freeze::FieldDecision],
    pub rows: Vec<RowJson<'a>>,
    pub conversion_rows: &'a [&'static str],
    /// The packet's repeated keys, written as they are scanned from its text.
    pub duplicate_keys: DuplicateKeysIn<'a>,
}

#[derive(Serialize)]
pub struct RowJson<'a> {
    pub id: &'static str,
    pub matched: bool,
    pub evidence: RowEvidence<'a>,
}

/// A row's evidence as [`Explanation::evidence`] gives it, written as it is read.
pub struct RowEvidence<'a> {
    explanation: &'a Explanation,
    row: &'a RuleOutcome,
}

impl Serialize for RowEvidence<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.explanation.evidence(self.row))
    }
}

impl<'a> ExplanationJson<'a> {
    pub fn new(
        source: &'a str,
        kind: PacketKind,
        explanation: &'a Explanation,
        text: &'a [u8],
    ) -> Self {
        let converted = explanation.conversion.converted();
        ExplanationJson {
            source,
            kind: kind.tag(),
            mode: explanation.mode(),
            ok: converted.is_some(),
            error: explanation.conversion.error(),
            canonical_type: converted.map(|converted| converted.canonical_type.name()),
            handoff: converted.map(Converted::handoff),
            state: explanation.state.map(HandoffState::name),
            fields: &explanation.fields,
            rows: explanation
                .rows
                .iter()
                .map(|row| row_json(explanation, row))
                .collect(),
            conversion_rows: &explanation.conversion_rows,
            duplicate_keys: DuplicateKeysIn(text),
        }
    }
}

fn row_json<'a>(explanation: &'a Explanation, row: &'a RuleOutcome) -> RowJson<'a> {
    RowJson {
        id: row.rule,
        matched: row.verdict == Verdict::Matched,
        evidence: RowEvidence { explanation, row },
    }
}

/// `explain --format json` for canonical input.
#[derive(Serialize)]
pub struct AuditJson<'a> {
    pub source: &'a str,
    /// The kind's tag, as `ls` prints it.
    pub kind: &'static str,
    pub conforms: bool,
    pub states: Vec<Option<&'static str>>,
    pub findings: &'a [Finding],
    /// The packet's repeated keys, written as they are scanned from its text.
    pub duplicate_keys: DuplicateKeysIn<'a>,
}

impl<'a> AuditJson<'a> {
    pub fn new(source: &'a str, kind: PacketKind, audit: &'a Audit, text: &'a [u8]) -> Self {
        AuditJson {
            source,
            kind: kind.tag(),
            conforms: audit.conforms(),
            states: audit
                .states
                .iter()
                .map(|state| state.map(HandoffState::name))
                .collect(),
            findings: &audit.findings,
            duplicate_keys: DuplicateKeysIn(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::ConvertOptions;

    #[test]
    fn a_screen_lists_the_first_items_of_a_rows_evidence_and_counts_the_rest() {
        let keys: Vec<String> = (0..30)
            .map(|index| format!(r#","k{index:02}":{index}"#))
            .collect();
        let packet = format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}}{}}}"#,
            keys.concat()
        );
        let options = ConvertOptions::default().with_mode(crate::a2a::Mode::Lenient);
        let explanation = crate::freeze::explain(packet.as_bytes(), &options);
        let x9 = explanation.row("X9").unwrap();
        assert_eq!(x9.verdict, Verdict::Matched);
        let all = evidence_list(explanation.evidence(x9));
        assert!(
            all.starts_with("$.k00 = 0; $.k01 = 1") && all.ends_with("$.k29 = 29"),
            "{all}"
        );
        let listed = evidence_listed(&explanation, x9, 20);
        assert!(listed.ends_with("$.k19 = 19; and 10 more"), "{listed}");
        assert_eq!(evidence_listed(&explanation, x9, 30), all);
        // N6 names `agent.role` and `attributes` before the keys.
        let n6 = evidence_listed(&explanation, explanation.row("N6").unwrap(), 3);
        assert_eq!(
            n6,
            "$.agent.role absent; $.attributes absent; $.k00 = 0; and 29 more"
        );
    }
}
