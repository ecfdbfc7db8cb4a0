//! What spec §15 counts of a line, read without keeping it: whether it parses as a JSON
//! object (exactly as `serde_json::from_slice::<Value>` decides: its grammar, recursion
//! limit, number range, escapes, trailing content), whether its `type` is an A2A event type,
//! and whether `data.handoff.visible` is JSON `true` (the last of repeated members wins, as
//! in a parsed `Value`).
//!
//! Built as serde visitors over `deserialize_any` (the route `Value` itself takes), so no tree
//! is built and a line can be read from a stream: a line longer than `max_line_bytes`, which a
//! rejected bundle still counts, costs its longest string, not its length.

use super::event::A2A_TYPE_PREFIX;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::Read;

/// The counted facts of a line that parses as a JSON object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub a2a: bool,
    pub handoff_visible: bool,
}

/// The summary of a line held in memory (without its terminator); `None`: not a JSON object.
pub(crate) fn summary_of_slice(line: &[u8]) -> Option<Summary> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let summary = (&mut de).deserialize_any(Object).ok()?;
    de.end().ok()?;
    Some(summary)
}

/// The summary of a line read from `reader` up to its end; `None`: not a JSON object (the
/// caller tells a read error apart).
pub(crate) fn summary_of_reader(reader: impl Read) -> Option<Summary> {
    let buffered = std::io::BufReader::with_capacity(1 << 16, reader);
    let mut de = serde_json::Deserializer::from_reader(buffered);
    let summary = (&mut de).deserialize_any(Object).ok()?;
    de.end().ok()?;
    Some(summary)
}

/// Any JSON value, checked as `Value` would parse it, then dropped.
struct Discard;

impl<'de> DeserializeSeed<'de> for Discard {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(Discard)
    }
}

impl<'de> Visitor<'de> for Discard {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Discard)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(Key(""))?.is_some() {
            map.next_value_seed(Discard)?;
        }
        Ok(())
    }
}

/// A member name, read as `Value` reads it (a string); says whether it is the one wanted.
#[derive(Clone, Copy)]
struct Key(&'static str);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// The line's own object: `type` and `data` read, every other member checked and dropped.
struct Object;

impl<'de> Visitor<'de> for Object {
    type Value = Summary;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Summary, A::Error> {
        let mut summary = Summary::default();
        while let Some(name) = map.next_key_seed(TopKey)? {
            match name {
                TopMember::Type => summary.a2a = map.next_value_seed(TypeIsA2a)?,
                TopMember::Data => {
                    summary.handoff_visible = map.next_value_seed(Path(&["handoff", "visible"]))?
                }
                TopMember::Other => map.next_value_seed(Discard)?,
            }
        }
        Ok(summary)
    }
    // Any other JSON value parses but is not an object: refused here, so not counted.
}

enum TopMember {
    Type,
    Data,
    Other,
}

struct TopKey;

impl<'de> DeserializeSeed<'de> for TopKey {
    type Value = TopMember;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<TopMember, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TopKey {
    type Value = TopMember;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E>(self, key: &str) -> Result<TopMember, E> {
        Ok(match key {
            "type" => TopMember::Type,
            "data" => TopMember::Data,
            _ => TopMember::Other,
        })
    }
}

/// The `visit_*` methods of a yes/no visitor for values that never hold the answer: a
/// number, `null`, an array (checked through, then `false`).
macro_rules! no_answer_in_numbers_nulls_and_arrays {
    () => {
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<bool, A::Error> {
            Discard.visit_seq(seq).map(|()| false)
        }
    };
}

/// `type`: a string under the A2A prefix (anything else is checked and is not).
struct TypeIsA2a;

impl<'de> DeserializeSeed<'de> for TypeIsA2a {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TypeIsA2a {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E>(self, text: &str) -> Result<bool, E> {
        Ok(text.starts_with(A2A_TYPE_PREFIX))
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<bool, A::Error> {
        Discard.visit_map(map).map(|()| false)
    }
    no_answer_in_numbers_nulls_and_arrays!();
}

/// Whether the value at a path of member names below here is JSON `true`.
struct Path(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Path {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Path {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, value: bool) -> Result<bool, E> {
        Ok(self.0.is_empty() && value)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    no_answer_in_numbers_nulls_and_arrays!();
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            return Discard.visit_map(map).map(|()| false);
        };
        let mut found = false;
        while let Some(wanted) = map.next_key_seed(Key(first))? {
            if wanted {
                found = map.next_value_seed(Path(rest))?;
            } else {
                map.next_value_seed(Discard)?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What the summary must equal: a parsed `Value`'s answers.
    fn from_value(line: &[u8]) -> Option<Summary> {
        let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(line) else {
            return None;
        };
        Some(Summary {
            a2a: map
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with(A2A_TYPE_PREFIX)),
            handoff_visible: map.get("data").and_then(|d| d.pointer("/handoff/visible"))
                == Some(&Value::Bool(true)),
        })
    }

    #[test]
    fn agrees_with_a_parsed_value_from_a_slice_and_a_stream() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let lines: Vec<String> = vec![
            r#"{"type":"assay.adapter.a2a.task.requested","data":{"handoff":{"visible":true}}}"#
                .into(),
            r#"{"type":"assay.test","data":{"handoff":{"visible":true}}}"#.into(),
            r#"{"type":"assay.adapter.a2a.x","type":1}"#.into(),
            r#"{"type":1,"type":"assay.adapter.a2a.x"}"#.into(),
            r#"{"data":{"handoff":{"visible":true}},"data":{}}"#.into(),
            r#"{"data":{"handoff":{"visible":true,"visible":"true"}}}"#.into(),
            r#"{"data":{"handoff":[true]}}"#.into(),
            r#"{"data":{"x":{"handoff":{"visible":true}}}}"#.into(),
            r#"{"a":1e400}"#.into(),
            r#"{"a":"\ud800"}"#.into(),
            r#"{"a":"\u00e9\ud83d\ude00"}"#.into(),
            r#"{"a":01}"#.into(),
            "{\"a\":\"\u{1}\"}".into(),
            r#"{"a":1} x"#.into(),
            r#"{"a":1}  "#.into(),
            "[1,2]".into(),
            "\"text\"".into(),
            "{".into(),
            "".into(),
            "{}".into(),
            "\u{feff}{}".into(),
            deep,
        ];
        for line in &lines {
            let want = from_value(line.as_bytes());
            assert_eq!(summary_of_slice(line.as_bytes()), want, "{line}");
            assert_eq!(summary_of_reader(line.as_bytes()), want, "{line}");
        }
        // Invalid UTF-8 inside a string and outside one.
        for line in [&b"{\"a\":\"\xff\"}"[..], b"{\"a\":1,\xff}"] {
            assert_eq!(summary_of_slice(line), None);
            assert_eq!(summary_of_reader(line), None);
        }
    }
}
