//! `diff` as text and markdown: the two sides and their run-scoped facts once, a summary,
//! then the changes grouped by state transition, most significant first. Every value taken
//! from a packet is shown terminal-safe and shortened.

use super::styled::{Style, StyledText, StyledWrite};
use crate::compare::{
    signer_change, state_name, AttestationFacts, Change, ChangeKind, Comparison, Side, SideShape,
    Significance, Transition,
};
use crate::json::safe_text;
use serde_json::Value;
use std::fmt::Write as _;
use std::io::Write;

/// Longest value shown in a line (the JSON format has them whole).
const VALUE_CHARS: usize = 96;

/// A value as compact JSON, terminal-safe, shortened; `(absent)` for none.
pub fn shown_value(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "(absent)".to_owned();
    };
    crate::json::shown_json(value, VALUE_CHARS)
}

fn shape_name(shape: SideShape) -> &'static str {
    match shape {
        SideShape::Directory => "directory",
        SideShape::Bundle => "bundle",
        SideShape::Stream => "NDJSON stream",
        SideShape::File => "file",
    }
}

/// `PATH (bundle, 10 packets; verdict valid; run a2a-run-02; run root sha256:…)`.
fn side_line(side: &Side) -> String {
    let mut line = format!(
        "{} ({}, {} packet{}",
        safe_text(&side.path.to_string_lossy()),
        shape_name(side.shape),
        side.packets,
        if side.packets == 1 { "" } else { "s" }
    );
    if !side.errors.is_empty() {
        let _ = write!(line, ", {} unreadable", side.errors.len());
    }
    if let Some(bundle) = &side.run.bundle {
        let _ = write!(line, "; verdict {}", safe_text(&bundle.verdict));
        if let Some(root) = &bundle.run_root {
            let _ = write!(line, "; run root {}", safe_text(root));
        }
        if let Some(attestation) = &bundle.attestation {
            let _ = write!(line, "; {}", attestation_text(attestation));
        }
    }
    if !side.run.run_ids.is_empty() {
        let ids: Vec<String> = side
            .run
            .run_ids
            .iter()
            .map(|id| safe_text(id).into_owned())
            .collect();
        let _ = write!(line, "; run {}", ids.join(", "));
        if side.run.more_run_ids > 0 {
            let _ = write!(line, " and {} more", side.run.more_run_ids);
        }
    }
    // Instants written by us in UTC: nothing of the packet's text is in them.
    if let Some((first, last)) = side.run.time_range() {
        if first == last {
            let _ = write!(line, "; time {first}");
        } else {
            let _ = write!(line, "; times {first} .. {last}");
        }
    }
    match side.run.times_not_rfc3339 {
        0 => {}
        1 => line.push_str("; 1 time not RFC 3339, not counted"),
        n => {
            let _ = write!(line, "; {n} times not RFC 3339, not counted");
        }
    }
    line.push(')');
    line
}

/// A bundle's attestation in a side's line: `attestation verified, signer keyid sha256:…`,
/// `attestation refused at check 6`, `not attested`.
pub fn attestation_text(facts: &AttestationFacts) -> String {
    match (&facts.signer, facts.refused_at) {
        (_, Some(check)) => format!("{} at check {check}", facts.state),
        (Some(signer), None) => format!("{}, signer keyid {}", facts.state, safe_text(signer)),
        (None, None) => facts.state.to_owned(),
    }
}

/// `signer: attestation verified, signer keyid A -> attestation refused at check 6`, when two
/// bundles' attestations differ against the same trusted keys.
pub fn signer_line(comparison: &Comparison) -> Option<String> {
    let (base, candidate) = signer_change(&comparison.base, &comparison.candidate)?;
    Some(format!(
        "signer changed: {} -> {}",
        attestation_text(base),
        attestation_text(candidate)
    ))
}

/// `1 added, 1 removed, 2 changed (1 with a new handoff state), 3 unchanged`.
fn summary_line(comparison: &Comparison) -> String {
    let summary = &comparison.summary;
    format!(
        "{} added, {} removed, {} changed ({} with another handoff state), {} unchanged",
        summary.added, summary.removed, summary.changed, summary.state_changes, summary.unchanged
    )
}

/// A group's heading.
pub fn transition_title(transition: &Transition) -> String {
    let (base, candidate) = (
        state_name(transition.base),
        state_name(transition.candidate),
    );
    match transition.significance {
        Significance::VisibilityChanged | Significance::StateChanged => {
            format!("{base} -> {candidate}")
        }
        Significance::FieldsChanged => format!("same state ({base}), other fields changed"),
        Significance::VisibleAddedOrRemoved | Significance::AddedOrRemoved => {
            match (transition.base.is_some(), transition.candidate.is_some()) {
                (false, true) => format!("added: {candidate}"),
                (true, false) => format!("removed: {base}"),
                // Neither side has a named state: kind alone.
                _ => "added or removed: no named handoff state".to_owned(),
            }
        }
        Significance::Unchanged => "unchanged".to_owned(),
    }
}

/// A pair's first line: `changed  BASE -> CANDIDATE  [kind]`.
fn pair_line(change: &Change) -> String {
    styled_pair_line(change).into_string()
}

/// How a pair's change is styled: added and removed as a line diff's lines, changed as a
/// warning.
fn change_style(change: ChangeKind) -> Option<Style> {
    match change {
        ChangeKind::Added => Some(Style::Added),
        ChangeKind::Removed => Some(Style::Removed),
        ChangeKind::Changed => Some(Style::Warn),
        ChangeKind::Unchanged => None,
    }
}

/// [`pair_line`] with the change styled and the sources as paths.
fn styled_pair_line(change: &Change) -> StyledText {
    let mut line = StyledText::new();
    let key = change.change.key();
    line.push_maybe(change_style(change.change), key);
    // Padded to 9 as `{:<9}` pads, outside the style.
    line.push(&" ".repeat(10usize.saturating_sub(key.len()).max(1)));
    let source = |line: &mut StyledText, source: &Option<crate::corpus::Source>| match source {
        Some(source) => line.push_styled(Style::Path, &source.to_string()),
        None => line.push("-"),
    };
    match change.change {
        ChangeKind::Added => source(&mut line, &change.candidate),
        ChangeKind::Removed => source(&mut line, &change.base),
        _ => {
            source(&mut line, &change.base);
            line.push(" -> ");
            source(&mut line, &change.candidate);
        }
    }
    let _ = write!(line, "  [{}]", change.kind.tag());
    line
}

/// The lines under a pair: state, flags with their rows, other fields.
fn detail_lines(change: &Change) -> Vec<String> {
    styled_detail_lines(change)
        .into_iter()
        .map(StyledText::into_string)
        .collect()
}

/// [`detail_lines`] with the rule rows styled as rule ids.
fn styled_detail_lines(change: &Change) -> Vec<StyledText> {
    let mut lines = Vec::new();
    if change.change == ChangeKind::Changed && change.state_changed() {
        lines.push(StyledText::from(format!(
            "state: {} -> {}",
            state_name(change.state.0),
            state_name(change.state.1)
        )));
    } else if change.change != ChangeKind::Changed {
        lines.push(StyledText::from(format!(
            "state: {}",
            state_name(change.state.1.or(change.state.0))
        )));
    }
    let rule = |line: &mut StyledText, rule: &Option<String>| match rule {
        Some(rule) => line.push_styled(Style::Rule, &safe_text(rule)),
        None => line.push("-"),
    };
    for flag in &change.flags {
        let mut line = StyledText::from(format!(
            "{}: {} -> {}   rule ",
            flag.path,
            shown_value(flag.base.as_ref()),
            shown_value(flag.candidate.as_ref()),
        ));
        rule(&mut line, &flag.rule.0);
        line.push(" -> ");
        rule(&mut line, &flag.rule.1);
        lines.push(line);
    }
    for field in &change.fields {
        lines.push(StyledText::from(format!(
            "{}: {} -> {}",
            safe_text(&field.path),
            shown_value(field.base.as_ref()),
            shown_value(field.candidate.as_ref())
        )));
    }
    if change.more_fields > 0 {
        lines.push(StyledText::from(format!(
            "... and {} more paths",
            change.more_fields
        )));
    }
    for error in &change.errors {
        let mut line = StyledText::new();
        line.push_styled(Style::Fail, "cannot read again");
        let _ = write!(line, ": {}", safe_text(error));
        lines.push(line);
    }
    lines
}

/// Writes the text report, styled (headings, changes, paths, rule ids) for a face to draw.
pub fn write_text(comparison: &Comparison, out: &mut dyn StyledWrite) -> std::io::Result<()> {
    writeln!(out, "base:      {}", side_line(&comparison.base))?;
    writeln!(out, "candidate: {}", side_line(&comparison.candidate))?;
    writeln!(
        out,
        "mode {}; run-scoped, not compared: event ids, times, run ids, content hashes, sequence numbers",
        comparison.mode
    )?;
    writeln!(out, "summary: {}", summary_line(comparison))?;
    if let Some(line) = signer_line(comparison) {
        writeln!(out, "{line}")?;
    }
    for (transition, members) in comparison.by_transition() {
        writeln!(out)?;
        let mut heading = StyledText::new();
        heading.push_styled(
            Style::Heading,
            &format!("== {}", transition_title(&transition)),
        );
        let _ = writeln!(heading, " ({})", members.len());
        out.write_styled(&heading)?;
        for index in members {
            let change = comparison.change(&comparison.pairs[index]);
            let mut lines = styled_pair_line(&change);
            lines.push("\n");
            for line in styled_detail_lines(&change) {
                lines.push("    ");
                lines.append(&line);
                lines.push("\n");
            }
            out.write_styled(&lines)?;
        }
    }
    Ok(())
}

/// Most changes a markdown comment lists (a pull-request comment has a size limit).
const MARKDOWN_CHANGES: usize = 100;

/// Inline code that holds any text (a fence longer than any run of backticks inside).
fn code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Writes the markdown report (for a pull-request comment).
pub fn write_markdown(comparison: &Comparison, out: &mut dyn Write) -> std::io::Result<()> {
    let summary = &comparison.summary;
    writeln!(out, "### Handoff diff")?;
    writeln!(out)?;
    writeln!(out, "- base: {}", code(&side_line(&comparison.base)))?;
    writeln!(
        out,
        "- candidate: {}",
        code(&side_line(&comparison.candidate))
    )?;
    writeln!(
        out,
        "- mode {}; event ids, times, run ids, content hashes and sequence numbers are not compared",
        comparison.mode
    )?;
    if let Some(line) = signer_line(comparison) {
        writeln!(out, "- {}", code(&line))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "| added | removed | changed | handoff state changed | unchanged |"
    )?;
    writeln!(out, "|---:|---:|---:|---:|---:|")?;
    writeln!(
        out,
        "| {} | {} | {} | {} | {} |",
        summary.added, summary.removed, summary.changed, summary.state_changes, summary.unchanged
    )?;
    let mut listed = 0;
    for (transition, members) in comparison.by_transition() {
        writeln!(out)?;
        writeln!(
            out,
            "#### {} ({})",
            code(&transition_title(&transition)),
            members.len()
        )?;
        writeln!(out)?;
        for index in members {
            if listed == MARKDOWN_CHANGES {
                break;
            }
            listed += 1;
            let change = comparison.change(&comparison.pairs[index]);
            writeln!(out, "- {}", code(&pair_line(&change)))?;
            for line in detail_lines(&change) {
                writeln!(out, "  - {}", code(&line))?;
            }
        }
    }
    let total = summary.added + summary.removed + summary.changed;
    if total > listed {
        writeln!(out)?;
        writeln!(
            out,
            "{} more not listed; `handoff-inspector diff --format text` lists them all.",
            total - listed
        )?;
    }
    Ok(())
}
