//! What is still read from lines without verifying them: for the lines after a failure, and
//! for views that show a line whatever its verdict.

use crate::bundle::event::a2a_and_flags;
use crate::bundle::hash::content_hash;
use crate::bundle::limits::Limits;
use crate::bundle::lines::{strip_terminator, EventLines, LineFacts, LineReader};
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

/// After a failure inside the member: the remaining lines, leniently, within the limits.
pub fn collect_rest(reader: &mut LineReader<impl Read>, limits: &Limits, lines: &mut EventLines) {
    while (lines.len() as u64) < limits.max_events {
        match reader.next_line(&mut lines.text, limits.max_line_bytes) {
            Ok(None) => {
                lines.complete = true;
                break;
            }
            Ok(Some(span)) => {
                let facts = lenient_facts(&lines.text[span.clone()]);
                lines.spans.push(span);
                lines.facts.push(facts);
            }
            Err(_) => break,
        }
    }
    lines.drop_read_ahead();
}
