//! The selected pair's two columns: each side's handoff explanation and compared document,
//! the lines that differ from the other side marked.

use crate::compare::{state_name, ChangeKind, Explained};
use crate::json::safe_text;
use crate::tui::compare::{Columns, CompareApp};

/// Most lines of a document shown per side (the JSON format has them all).
const DOCUMENT_LINES: usize = 2_000;

impl CompareApp {
    /// Builds the selected pair's columns (once per selection).
    pub fn prepare(&mut self) {
        let Some(&index) = self.shown.get(self.selected) else {
            self.columns = None;
            return;
        };
        if matches!(&self.columns, Some((built, _)) if *built == index) {
            return;
        }
        let pair = self.comparison.pairs[index];
        let side = |candidate: bool, at: Option<u32>| match at {
            None => vec![(false, "(no packet on this side)".to_owned())],
            Some(at) => match self.comparison.explain(candidate, at) {
                Ok((source, kind, explained)) => {
                    let state = if candidate {
                        self.comparison.states(&pair).1
                    } else {
                        self.comparison.states(&pair).0
                    };
                    side_lines(&source.to_string(), kind.tag(), state, &explained)
                }
                Err(error) => vec![(
                    false,
                    format!("cannot read again: {}", safe_text(&error.to_string())),
                )],
            },
        };
        let (mut base, mut candidate) = (side(false, pair.base), side(true, pair.candidate));
        if pair.change == ChangeKind::Changed {
            // The other paths that changed, before the documents (they may be far down).
            let change = self.comparison.change(&pair);
            for (lines, candidate_side) in [(&mut base, false), (&mut candidate, true)] {
                let at = lines
                    .iter()
                    .position(|(_, text)| text == "Payload")
                    .unwrap_or(lines.len());
                let mut changed = vec![(false, "Other paths changed".to_owned())];
                for field in &change.fields {
                    let value = if candidate_side {
                        field.candidate.as_ref()
                    } else {
                        field.base.as_ref()
                    };
                    changed.push((
                        false,
                        format!(
                            "  {} = {}",
                            safe_text(&field.path),
                            crate::report::compare_text::shown_value(value)
                        ),
                    ));
                }
                if change.more_fields > 0 {
                    changed.push((false, format!("  ... and {} more", change.more_fields)));
                }
                if change.fields.is_empty() {
                    changed.push((false, "  (none)".to_owned()));
                }
                lines.splice(at..at, changed);
            }
        }
        if pair.base.is_some() && pair.candidate.is_some() {
            mark_differences(&mut base, &mut candidate);
        }
        self.columns = Some((index, Columns { base, candidate }));
    }
}

/// One side's lines: source, kind, state, the handoff flags with their deciding rows, the
/// discovery flags, then the compared document (pretty JSON, terminal-safe).
fn side_lines(
    source: &str,
    kind: &str,
    state: Option<crate::freeze::HandoffState>,
    explained: &Explained,
) -> Vec<(bool, String)> {
    let mut lines = vec![
        safe_text(source).into_owned(),
        format!("kind: {kind}"),
        format!("state: {}", state_name(state)),
        "Handoff".to_owned(),
    ];
    let payload = crate::compare::payload_of(&explained.document);
    for field in [
        "visible",
        "source_kind",
        "task_ref_visible",
        "message_ref_visible",
    ] {
        let value = payload
            .get("handoff")
            .and_then(|handoff| handoff.get(field));
        let rows = explained
            .deciders
            .iter()
            .find(|decision| decision.field == field)
            .map(|decision| decision.decided_by.join(" "))
            .unwrap_or_default();
        lines.push(format!(
            "  {field} = {}  [{}]",
            crate::report::compare_text::shown_value(value),
            if rows.is_empty() { "-" } else { &rows }
        ));
    }
    if let Some(discovery) = payload
        .get("discovery")
        .and_then(serde_json::Value::as_object)
    {
        lines.push("Discovery".to_owned());
        for (name, value) in discovery {
            lines.push(format!(
                "  {} = {}",
                safe_text(name),
                crate::report::compare_text::shown_value(Some(value))
            ));
        }
    }
    lines.push("Payload".to_owned());
    let pretty = serde_json::to_string_pretty(&explained.document).unwrap_or_default();
    for (shown, line) in pretty.lines().enumerate() {
        if shown == DOCUMENT_LINES {
            lines.push("… (longer: see diff --format json)".to_owned());
            break;
        }
        lines.push(format!("  {}", safe_text(line)));
    }
    // The first line (source) always differs between runs; it is not a change.
    lines.into_iter().map(|line| (false, line)).collect()
}

/// Marks the lines of each side that the other side does not have (a line diff, Myers).
fn mark_differences(base: &mut [(bool, String)], candidate: &mut [(bool, String)]) {
    let old: Vec<&str> = base.iter().map(|(_, text)| text.as_str()).collect();
    let new: Vec<&str> = candidate.iter().map(|(_, text)| text.as_str()).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let mut old_marks = vec![false; old.len()];
    let mut new_marks = vec![false; new.len()];
    for op in ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag != similar::DiffTag::Equal {
            old_range.for_each(|index| old_marks[index] = true);
            new_range.for_each(|index| new_marks[index] = true);
        }
    }
    // Line 0 is the source: two runs always name different files or bundles.
    for (index, (mark, _)) in base.iter_mut().enumerate() {
        *mark = index > 0 && old_marks[index];
    }
    for (index, (mark, _)) in candidate.iter_mut().enumerate() {
        *mark = index > 0 && new_marks[index];
    }
}
