//! What an explanation reads of a raw packet, from its text: the tree of the members the
//! adapter maps (every path a row's evidence names, but the unmapped keys), and where each
//! unmapped key's value lies, read one at a time when its evidence is asked for. The tree of
//! the whole packet was an explanation's largest part: a packet of 200k unmapped keys is a
//! 3.4 MB text and a 20 MB tree, and the inspector's detail held one per explanation.

use crate::a2a::{UnmappedKeys, RECOGNISED_TOP_LEVEL_KEYS};
use crate::json::{for_each_member, tree_cap, tree_fits};
use serde_json::{Map, Value};
use std::ops::Range;

/// The packet's recognised top-level members as a tree (the last value of a repeated key),
/// read as the packet's tree was, exactly when that tree would be within `json::tree_cap`
/// (`None` otherwise, or for a text that is no JSON object): an explanation reads a packet
/// whose tree would pass the cap no more than it did.
pub(super) fn recognised_members(bytes: &[u8]) -> Option<Value> {
    if !crate::json::may_be_an_object(bytes) || !tree_fits(bytes, tree_cap(bytes.len())) {
        return None;
    }
    let mut last: [Option<Range<usize>>; RECOGNISED_TOP_LEVEL_KEYS.len()] = Default::default();
    for_each_member(bytes, |key, value| {
        if let Some(index) = RECOGNISED_TOP_LEVEL_KEYS
            .iter()
            .position(|name| *name == key)
        {
            last[index] = Some(value);
        }
    });
    let mut members = Map::new();
    for (name, value) in RECOGNISED_TOP_LEVEL_KEYS.iter().zip(last) {
        if let Some(value) = value {
            let value = serde_json::from_slice(bytes.get(value)?).ok()?;
            members.insert((*name).to_owned(), value);
        }
    }
    Some(Value::Object(members))
}

/// Where the value of each of `keys` lies in `bytes` (its last, for a repeated key), in the
/// keys' order: 16 bytes a key, where the tree held a node's share and a copy of the key.
pub(super) fn unmapped_value_spans(bytes: &[u8], keys: &UnmappedKeys) -> Vec<Range<usize>> {
    let mut spans = vec![0..0; keys.len()];
    for_each_member(bytes, |key, value| {
        if let Some(span) = keys.position(key).and_then(|index| spans.get_mut(index)) {
            *span = value;
        }
    });
    spans
}

/// The value whose text lies at `span` (a span [`unmapped_value_spans`] found: JSON whose
/// tree is within the cap, since the packet's is).
pub(super) fn value_at(bytes: &[u8], span: &Range<usize>) -> Option<Value> {
    serde_json::from_slice(bytes.get(span.clone())?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recognised_members_are_the_trees_and_the_spans_hold_the_unmapped_values() {
        let text = br#"{"protocol":"a2a","z":{"deep":[1]},"task":{"kind":"x","kind":"delegation"},"agent":{"id":"a"},"y":1,"z":"last","task":{"id":"t"}}"#;
        let tree: Value = serde_json::from_slice(text).unwrap();
        assert_eq!(
            recognised_members(text),
            Some(serde_json::json!({"protocol": "a2a", "agent": {"id": "a"}, "task": {"id": "t"}}))
        );
        let keys = UnmappedKeys::of(vec!["z", "y"]);
        let spans = unmapped_value_spans(text, &keys);
        for (key, span) in keys.iter().zip(&spans) {
            assert_eq!(value_at(text, span).as_ref(), tree.get(key), "{key}");
        }
        for other in [&b"[1]"[..], b"{", b"\"a\""] {
            assert_eq!(recognised_members(other), None);
        }
    }

    #[test]
    fn a_packet_whose_tree_would_pass_the_cap_is_not_read() {
        // 50k small objects: a tree of about 40 MB, over the cap of 32 MiB + twice the text.
        let objects = vec![r#"{"a":1}"#; 50_000].join(",");
        let text = format!(r#"{{"protocol":"a2a","x":[{objects}]}}"#);
        assert_eq!(recognised_members(text.as_bytes()), None);
        assert!(crate::json::tree_within_cap(text.as_bytes()).is_none());
    }
}
