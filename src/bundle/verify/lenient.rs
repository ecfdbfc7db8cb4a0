//! What is still read from lines without verifying them: for the lines after a failure, and
//! for views that show a line whatever its verdict.

use super::outcome::Keep;
use crate::bundle::event::a2a_and_flags;
use crate::bundle::hash::content_hash;
use crate::bundle::limits::Limits;
use crate::bundle::lines::{strip_terminator, EventLines, LineError, LineFacts, LineReader};
use crate::bundle::summary::summary_of_slice;
use serde_json::Value;
use std::io::Read;

/// What can be read from a line without verifying it: JSON object or not, its type, seq,
/// A2A-ness, handoff visibility, stored and recomputed content hash.
pub fn lenient_facts(line: &[u8]) -> LineFacts {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(strip_terminator(line)) else {
        return LineFacts::default();
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str);
    let (a2a, data) = a2a_and_flags(text("type"), map.get("data"));
    let subject = match map.get("subject") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(()),
    };
    let computed_hash = match (
        map.get("data"),
        text("datacontenttype"),
        text("specversion"),
        subject,
        text("type"),
    ) {
        (Some(data), Some(dct), Some(spec), Ok(subject), Some(type_)) => {
            Some(content_hash(data, dct, spec, subject, type_))
        }
        _ => None,
    };
    LineFacts {
        object: true,
        type_: text("type").map(str::to_owned),
        seq: map.get("assayseq").and_then(Value::as_u64),
        a2a,
        data,
        stored_hash: text("assaycontenthash").map(str::to_owned),
        computed_hash,
    }
}

/// The lines of an events member from the reader's place on, read leniently (no check, no
/// limit but the decode ceiling): kept with their facts under `Keep::Lines` up to
/// `max_events` lines of at most `max_line_bytes`, counted all (spec §15). `long_line`: the
/// reader stands inside a line found too long, to be read through first. Stops at the
/// member's end (`complete`) or at a read error.
pub fn read_rest(
    reader: &mut LineReader<impl Read>,
    limits: &Limits,
    keep: Keep,
    long_line: bool,
    lines: &mut EventLines,
) {
    let mut long_line = long_line;
    loop {
        if std::mem::take(&mut long_line) {
            match reader.long_line(&mut lines.text) {
                Ok(summary) => lines.counts.add(summary),
                Err(_) => return,
            }
        }
        match reader.next_line(&mut lines.text, limits.max_line_bytes) {
            Ok(None) => {
                lines.complete = true;
                return;
            }
            Ok(Some(span)) => {
                if keep == Keep::Lines && lines.counts.lines < limits.max_events {
                    let facts = lenient_facts(&lines.text[span.clone()]);
                    lines.keep(span, facts);
                } else {
                    let content = strip_terminator(&lines.text[span.clone()]);
                    lines.counts.add(summary_of_slice(content));
                    match keep {
                        Keep::Lines => reader.drop_line(&mut lines.text, span),
                        Keep::Counts => reader.forget(&mut lines.text),
                    }
                }
            }
            Err(LineError::TooLong) => long_line = true,
            Err(LineError::Io(_)) => return,
        }
    }
}

/// The lines of an events member that verification did not reach, read leniently from its
/// start (see `read_rest`).
pub fn collect_rest(
    reader: &mut LineReader<impl Read>,
    limits: &Limits,
    keep: Keep,
    lines: &mut EventLines,
) {
    read_rest(reader, limits, keep, false, lines);
    match keep {
        Keep::Lines => lines.drop_read_ahead(),
        Keep::Counts => lines.text = Vec::new(),
    }
}
