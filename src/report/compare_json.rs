//! `diff --format json`: one document, written a change at a time (a million pairs never sit
//! in memory as one tree):
//! `{"base","candidate","mode","header","summary":{...},"changes":[...]}`; each change
//! `{"change","base","candidate","kind","state":{"base","candidate"},"flags":[{"path","base",
//! "candidate","rule":{"base","candidate"}}],"fields":[{"path","base","candidate"}]}` with
//! `base`/`candidate` the packet's SOURCE (or null). Unchanged pairs are counted, not listed.

use crate::compare::{Change, Comparison, Side};
use crate::json::to_safe_json;
use serde_json::{json, Value};
use std::io::Write;

/// A side's header: what it is and its run-scoped facts.
fn side_header(side: &Side) -> Value {
    let range = side.run.time_range();
    json!({
        "path": side.path.to_string_lossy(),
        "shape": side.shape,
        "packets": side.packets,
        "errors": side.errors,
        "run_ids": side.run.run_ids,
        "more_run_ids": side.run.more_run_ids,
        "first_time": range.as_ref().map(|range| &range.0),
        "last_time": range.as_ref().map(|range| &range.1),
        "times_not_rfc3339": side.run.times_not_rfc3339,
        "bundle": side.run.bundle,
    })
}

/// One change as JSON.
fn change_json(change: &Change) -> Value {
    let source =
        |source: &Option<crate::corpus::Source>| source.as_ref().map(|source| source.to_string());
    let mut value = json!({
        "change": change.change.key(),
        "base": source(&change.base),
        "candidate": source(&change.candidate),
        "kind": change.kind.tag(),
        "state": {
            "base": change.state.0.map(|state| state.key()),
            "candidate": change.state.1.map(|state| state.key()),
        },
        "flags": change.flags.iter().map(|flag| json!({
            "path": flag.path,
            "base": flag.base,
            "candidate": flag.candidate,
            "rule": {"base": flag.rule.0, "candidate": flag.rule.1},
        })).collect::<Vec<_>>(),
        "fields": change.fields.iter().map(|field| json!({
            "path": field.path,
            "base": field.base,
            "candidate": field.candidate,
        })).collect::<Vec<_>>(),
    });
    if change.more_fields > 0 {
        value["more_fields"] = json!(change.more_fields);
    }
    if !change.errors.is_empty() {
        value["errors"] = json!(change.errors);
    }
    value
}

/// Writes the document.
pub fn write_json(comparison: &Comparison, out: &mut dyn Write) -> std::io::Result<()> {
    let encode = |value: &Value| {
        to_safe_json(value).map_err(|error| std::io::Error::other(error.to_string()))
    };
    let head = json!({
        "base": comparison.base.path.to_string_lossy(),
        "candidate": comparison.candidate.path.to_string_lossy(),
        "mode": comparison.mode.name(),
        "header": {
            "base": side_header(&comparison.base),
            "candidate": side_header(&comparison.candidate),
            "not_compared": crate::compare::RUN_SCOPED,
        },
        "summary": comparison.summary,
    });
    let head = encode(&head)?;
    // The head without its closing brace; the changes follow as its last member.
    write!(out, "{},\"changes\":[", &head[..head.len() - 1])?;
    let mut first = true;
    for pair in comparison
        .pairs
        .iter()
        .filter(|pair| pair.change != crate::compare::ChangeKind::Unchanged)
    {
        let text = encode(&change_json(&comparison.change(pair)))?;
        write!(out, "{}\n{text}", if first { "" } else { "," })?;
        first = false;
    }
    writeln!(out, "]}}")
}
