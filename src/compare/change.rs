//! What changed in one pair, derived again from both packets' bytes: the named handoff state
//! on each side, each `handoff.*` and `discovery.*` flag that changed with the rule row that
//! decided it on each side, and the other paths of the compared document that changed.

use super::align::{ChangeKind, Pair};
use super::document::{document_of, payload_of};
use super::side::Side;
use crate::a2a::{convert, CanonicalType, ConvertOptions};
use crate::corpus::{
    classify_packet, converted_kind, reread_packet_in, LoadError, PacketKind, RawPacket, Source,
};
use crate::freeze::{explain_conversion, explain_payload, FieldDecision, HandoffState, RowSet};
use crate::json::JsonPath;
use serde_json::Value;

/// At most this many other paths are listed per pair (the rest are counted).
pub const MAX_FIELDS: usize = 64;

/// A flag that differs between the sides, with the row(s) that decided it on each.
#[derive(Clone, Debug, PartialEq)]
pub struct FlagChange {
    /// `handoff.visible`, `discovery.agent_card_visible`, ...
    pub path: String,
    pub base: Option<Value>,
    pub candidate: Option<Value>,
    pub rule: (Option<String>, Option<String>),
}

/// Another path of the compared document that differs (`None`: absent on that side).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldChange {
    pub path: String,
    pub base: Option<Value>,
    pub candidate: Option<Value>,
}

/// One pair, in full.
#[derive(Clone, Debug)]
pub struct Change {
    pub change: ChangeKind,
    pub base: Option<Source>,
    pub candidate: Option<Source>,
    /// The candidate's kind (the base's when removed).
    pub kind: PacketKind,
    pub state: (Option<HandoffState>, Option<HandoffState>),
    pub flags: Vec<FlagChange>,
    pub fields: Vec<FieldChange>,
    /// Paths that differ beyond [`MAX_FIELDS`].
    pub more_fields: usize,
    /// A side that could not be read again (it changed on disk since).
    pub errors: Vec<String>,
}

impl Change {
    pub fn state_changed(&self) -> bool {
        self.state.0 != self.state.1
    }
}

/// One side of a pair, read again and explained.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The compared document (see `document`).
    pub document: Value,
    /// Per handoff field, the rows that decided it.
    pub deciders: Vec<FieldDecision>,
    /// The K1-A rows matched.
    pub rows: RowSet,
}

/// Reads one packet of a side again and explains it: its source, kind and compared document.
pub(crate) fn explain_side(
    side: &Side,
    index: u32,
    options: &ConvertOptions,
    bundles: &crate::bundle::BundleCache,
) -> Result<(Source, PacketKind, Explained), LoadError> {
    let record = &side.records[index as usize];
    let source = side.source(record);
    let bytes = reread_packet_in(&source, record.offset, side.max_file_bytes, bundles)?;
    let packet = RawPacket {
        source: source.clone(),
        offset: record.offset,
        bytes,
        bundle: None,
        in_bundle: None,
    };
    // The one classifier, as when the side was read.
    let kind = classify_packet(&packet).kind;
    let parsed: Option<Value> = crate::json::tree_within_cap(&packet.bytes);
    let explained = if converted_kind(kind) {
        let explanation = explain_conversion(convert(&packet.bytes, options));
        let rows = explanation
            .matched()
            .fold(RowSet::default(), |mut set, id| {
                set.insert(id);
                set
            });
        let document = document_of(kind, &packet.bytes, parsed, options).value;
        Explained {
            document,
            deciders: explanation.fields,
            rows,
        }
    } else {
        let document = document_of(kind, &packet.bytes, parsed, options).value;
        let (deciders, rows) = if kind.canonical_shape().is_some() {
            let event_type = document
                .get("type")
                .and_then(Value::as_str)
                .and_then(CanonicalType::parse);
            let read = explain_payload(payload_of(&document), event_type, None);
            (read.fields, read.rows)
        } else {
            (Vec::new(), RowSet::default())
        };
        Explained {
            document,
            deciders,
            rows,
        }
    };
    Ok((source, kind, explained))
}

/// The full change of a pair.
pub(crate) fn change_of(
    pair: &Pair,
    sides: (&Side, &Side),
    options: &ConvertOptions,
    bundles: (&crate::bundle::BundleCache, &crate::bundle::BundleCache),
) -> Change {
    let mut errors = Vec::new();
    let mut read = |side: &Side, index: Option<u32>, cache| {
        let (source, kind, explained) = match explain_side(side, index?, options, cache) {
            Ok(read) => read,
            Err(error) => {
                errors.push(error.to_string());
                let record = &side.records[index? as usize];
                return Some((side.source(record), record.kind, None));
            }
        };
        Some((source, kind, Some(explained)))
    };
    let base = read(sides.0, pair.base, bundles.0);
    let candidate = read(sides.1, pair.candidate, bundles.1);
    let state =
        |side: &Side, index: Option<u32>| index.and_then(|i| side.records[i as usize].state);
    let mut change = Change {
        change: pair.change,
        base: base.as_ref().map(|(source, _, _)| source.clone()),
        candidate: candidate.as_ref().map(|(source, _, _)| source.clone()),
        kind: candidate
            .as_ref()
            .or(base.as_ref())
            .map_or(PacketKind::Unknown, |(_, kind, _)| *kind),
        state: (state(sides.0, pair.base), state(sides.1, pair.candidate)),
        flags: Vec::new(),
        fields: Vec::new(),
        more_fields: 0,
        errors,
    };
    if pair.change == ChangeKind::Changed {
        if let (Some((_, _, Some(old))), Some((_, _, Some(new)))) = (&base, &candidate) {
            change.flags = flag_changes(old, new);
            let mut collected = Collected::default();
            diff_values(
                Some(&old.document),
                Some(&new.document),
                &mut JsonPath::root(),
                &mut collected,
            );
            change.fields = collected.fields;
            change.more_fields = collected.more;
        }
    }
    change
}

const HANDOFF_FLAGS: [&str; 4] = [
    "visible",
    "source_kind",
    "task_ref_visible",
    "message_ref_visible",
];

fn flag_changes(old: &Explained, new: &Explained) -> Vec<FlagChange> {
    let (old_payload, new_payload) = (payload_of(&old.document), payload_of(&new.document));
    let mut flags = Vec::new();
    let decided = |side: &Explained, field: &str| {
        side.deciders
            .iter()
            .find(|decision| decision.field == field)
            .filter(|decision| !decision.decided_by.is_empty())
            .map(|decision| decision.decided_by.join(" "))
    };
    for field in HANDOFF_FLAGS {
        let get = |payload: &Value| payload.get("handoff").and_then(|h| h.get(field)).cloned();
        let (before, after) = (get(old_payload), get(new_payload));
        if before != after {
            flags.push(FlagChange {
                path: format!("handoff.{field}"),
                base: before,
                candidate: after,
                rule: (decided(old, field), decided(new, field)),
            });
        }
    }
    // Discovery is fed by attributes.assay_g4; X8 is the row that keeps it off the handoff.
    let x8 = |side: &Explained| side.rows.contains("X8").then(|| "X8".to_owned());
    let keys = |payload: &Value| {
        payload
            .get("discovery")
            .and_then(Value::as_object)
            .map(|object| object.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let mut names = keys(old_payload);
    names.extend(keys(new_payload));
    names.sort();
    names.dedup();
    for name in names {
        let get = |payload: &Value| payload.get("discovery").and_then(|d| d.get(&name)).cloned();
        let (before, after) = (get(old_payload), get(new_payload));
        if before != after {
            flags.push(FlagChange {
                path: format!("discovery.{name}"),
                base: before,
                candidate: after,
                rule: (x8(old), x8(new)),
            });
        }
    }
    flags
}

/// Whether `path` is a payload's handoff or discovery object (reported as flags): at the
/// root, in an event's `data`, or in a batch's events' `data`.
fn is_flag_object(path: &JsonPath) -> bool {
    use crate::json::Segment;
    let key = |segment: &Segment, name: &str| matches!(segment, Segment::Key(key) if key == name);
    match path.segments() {
        [.., last] if !key(last, "handoff") && !key(last, "discovery") => false,
        [_] => true,
        [data, _] => key(data, "data"),
        [events, Segment::Index(_), data, _] => key(events, "events") && key(data, "data"),
        _ => false,
    }
}

/// The leaves that differ: the first [`MAX_FIELDS`] kept, the rest counted.
#[derive(Default)]
struct Collected {
    fields: Vec<FieldChange>,
    more: usize,
}

fn diff_values(old: Option<&Value>, new: Option<&Value>, path: &mut JsonPath, out: &mut Collected) {
    if old == new || is_flag_object(path) {
        return;
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                path.push_key(key);
                diff_values(a.get(key), b.get(key), path, out);
                path.pop();
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for index in 0..a.len().max(b.len()) {
                path.push_index(index);
                diff_values(a.get(index), b.get(index), path, out);
                path.pop();
            }
        }
        _ if out.fields.len() < MAX_FIELDS => out.fields.push(FieldChange {
            path: path.to_string(),
            base: old.cloned(),
            candidate: new.cloned(),
        }),
        _ => out.more += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn leaves_that_differ_are_listed_but_not_the_flag_objects() {
        let old = json!({"data":{"handoff":{"visible":true},"task":{"kind":"delegation","id":"t"}},"type":"x"});
        let new = json!({"data":{"handoff":{"visible":false},"task":{"kind":"analysis","id":"t"},"extra":[1]},"type":"x"});
        let mut out = Collected::default();
        diff_values(Some(&old), Some(&new), &mut JsonPath::root(), &mut out);
        let out = out.fields;
        let paths: Vec<&str> = out.iter().map(|field| field.path.as_str()).collect();
        assert_eq!(paths, vec!["$.data.extra", "$.data.task.kind"]);
        assert_eq!(out[0].base, None);
        assert_eq!(out[1].candidate, Some(json!("analysis")));
    }
}
