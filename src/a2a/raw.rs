//! One pass over a raw packet's bytes that keeps only what the conversion reads (spec
//! section 3), borrowing strings from the input where they need no unescaping.
//!
//! It must agree with parsing into a `serde_json::Value` and reading that: same accepted
//! inputs, same parser error messages, last value wins for a repeated key. So every value,
//! kept or skipped, goes through the parser's `deserialize_any`, the very path `Value`
//! takes (the parser's cheaper `ignored_any` skips numbers without range-checking them, and
//! `1e400` must stay an error), and no visitor here ever rejects a JSON type.
//!
//! The same pass notes whether any object repeats a key ([`KeyCheck`]): `check` counts a
//! packet's repeated keys, and a separate scan of every packet's text for them was a tenth of
//! its CPU on the realistic mix; a packet this pass saw with distinct keys needs no scan.

use super::attributes::{Attributes, AttributesSeed};
use super::fields::RECOGNISED_TOP_LEVEL_KEYS;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt;

/// A string as the parser handed it over: borrowed from the input unless it had escapes.
pub type Text<'de> = Cow<'de, str>;

/// The members read from `agent`, `task`, `artifact` or `message`, in the order of the
/// names the object was read with. An absent or non-object parent leaves all of them `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Members<'de> {
    pub strings: [Option<Text<'de>>; 3],
    /// `agent.capabilities` only: its string items, when it is an array.
    pub capabilities: Option<Vec<Text<'de>>>,
}

pub const AGENT_MEMBERS: &[&str] = &["id", "name", "role"];
const TASK_MEMBERS: &[&str] = &["id", "status", "kind"];
pub const ARTIFACT_MEMBERS: &[&str] = &["id", "name", "media_type"];
const MESSAGE_MEMBERS: &[&str] = &["id", "role"];

/// What the conversion reads from a packet. `is_object` is false for any other JSON root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawPacket<'de> {
    pub is_object: bool,
    pub protocol: Option<Text<'de>>,
    pub version: Option<Text<'de>>,
    pub event_type: Option<Text<'de>>,
    pub timestamp: Option<Text<'de>>,
    pub agent: Members<'de>,
    pub task: Members<'de>,
    pub artifact: Members<'de>,
    pub message: Members<'de>,
    /// The `attributes` value, of any JSON type, normalized, when the key was present.
    pub attributes: Option<Attributes>,
    /// Unmapped top-level keys, each at least once, in no particular order; the typed fields
    /// keep them sorted and each once ([`super::UnmappedKeys::of`]).
    pub unmapped_keys: Vec<Text<'de>>,
    /// `true` only when every object in the text was seen to have distinct keys (decoded, as
    /// `json::count_duplicate_keys` compares them); `false` says nothing (a repeat, an object
    /// of many keys, or a packet read from a tree, where repeats are already gone).
    pub keys_distinct: bool,
}

impl<'de> RawPacket<'de> {
    /// Parses `bytes` exactly as `serde_json::from_slice::<Value>` would, failing with the
    /// same error.
    pub fn parse(bytes: &'de [u8]) -> Result<RawPacket<'de>, serde_json::Error> {
        // What `serde_json::from_slice` does: the value, then nothing but white space.
        let check = KeyCheck::default();
        let mut deserializer = serde_json::Deserializer::from_slice(bytes);
        let mut packet = RawPacketVisitor { check: &check }.deserialize(&mut deserializer)?;
        deserializer.end()?;
        packet.keys_distinct = check.distinct.get();
        Ok(packet)
    }

    /// Reads an already parsed packet (the duplicates are already resolved there).
    pub fn read(packet: &'de Value) -> RawPacket<'de> {
        let check = KeyCheck::default();
        // Every visitor accepts every JSON type, so reading a `Value` cannot fail.
        let mut packet = RawPacketVisitor { check: &check }
            .deserialize(packet)
            .unwrap_or_default();
        packet.keys_distinct = false;
        packet
    }
}

/// Objects with more keys than this are not compared here (linearly); `json::duplicates`'
/// scan decides for them.
const COMPARED_KEYS: usize = 64;

/// Whether the objects read so far repeat a key: each key is compared with the keys before it
/// in its object, which are kept on one stack for the objects open around it.
pub(super) struct KeyCheck<'de> {
    keys: RefCell<Vec<Text<'de>>>,
    /// `false` once a key repeated or an object had more than [`COMPARED_KEYS`].
    pub(super) distinct: Cell<bool>,
}

impl Default for KeyCheck<'_> {
    fn default() -> Self {
        KeyCheck {
            keys: RefCell::new(Vec::with_capacity(32)),
            distinct: Cell::new(true),
        }
    }
}

impl<'de> KeyCheck<'de> {
    /// An object starts: where its keys will begin on the stack.
    fn open(&self) -> usize {
        self.keys.borrow().len()
    }

    /// The object whose keys begin at `first` has `key`.
    fn note(&self, first: usize, key: &Text<'de>) {
        if !self.distinct.get() {
            return;
        }
        let mut keys = self.keys.borrow_mut();
        let siblings = keys.get(first..).unwrap_or_default();
        if siblings.len() >= COMPARED_KEYS || siblings.contains(key) {
            self.distinct.set(false);
        } else {
            keys.push(key.clone());
        }
    }

    /// The object whose keys begin at `first` ends.
    fn close(&self, first: usize) {
        self.keys.borrow_mut().truncate(first);
    }
}

/// Implements the visits of a visitor that accepts any JSON value: every scalar, and each
/// of the kinds named (`str`, `seq`, `map`, parsed in full), yields `$value`.
macro_rules! accept_others {
    ($value:expr $(, $kind:ident)*) => {
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            formatter.write_str("any JSON value")
        }
        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
        $(accept_others!(@$kind $value);)*
    };
    (@str $value:expr) => {
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
    (@seq $value:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Skip { check: self.check }.visit_seq(seq).map(|_| $value)
        }
    };
    (@map $value:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Skip { check: self.check }.visit_map(map).map(|_| $value)
        }
    };
}

/// Any JSON value, parsed in full and dropped (its objects' keys noted in `check`).
#[derive(Clone, Copy)]
struct Skip<'c, 'de> {
    check: &'c KeyCheck<'de>,
}

impl<'de> DeserializeSeed<'de> for Skip<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip<'_, 'de> {
    type Value = ();

    accept_others!((), str);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let first = self.check.open();
        while let Some(Key(key)) = map.next_key()? {
            self.check.note(first, &key);
            map.next_value_seed(self)?;
        }
        self.check.close(first);
        Ok(())
    }
}

/// An object key (always a string), borrowed from the input unless it had escapes.
struct Key<'de>(Text<'de>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Key(Cow::Borrowed(text)))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Key(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(Key(Cow::Owned(text)))
    }
}

/// A string value, or `None` for any other JSON type (parsed in full all the same).
#[derive(Clone, Copy)]
struct MaybeText<'c, 'de> {
    check: &'c KeyCheck<'de>,
}

impl<'de> DeserializeSeed<'de> for MaybeText<'_, 'de> {
    type Value = Option<Text<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MaybeText<'_, 'de> {
    type Value = Option<Text<'de>>;

    accept_others!(None, seq, map);

    fn visit_borrowed_str<E: serde::de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(text)))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(text.to_owned())))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(text)))
    }
}

/// `agent.capabilities`: the string items of an array, in input order; `None` otherwise.
#[derive(Clone, Copy)]
struct Capabilities<'c, 'de> {
    check: &'c KeyCheck<'de>,
}

impl<'de> DeserializeSeed<'de> for Capabilities<'_, 'de> {
    type Value = Option<Vec<Text<'de>>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Capabilities<'_, 'de> {
    type Value = Option<Vec<Text<'de>>>;

    accept_others!(None, str, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut strings = Vec::new();
        let item = MaybeText { check: self.check };
        while let Some(text) = seq.next_element_seed(item)? {
            strings.extend(text);
        }
        Ok(Some(strings))
    }
}

/// Reads one of the nested objects: the string members named in `names` (at most three)
/// and, with `capabilities`, `agent.capabilities`. Other members are parsed and dropped.
#[derive(Clone, Copy)]
struct MembersSeed<'c, 'de> {
    names: &'static [&'static str],
    capabilities: bool,
    check: &'c KeyCheck<'de>,
}

impl<'de> DeserializeSeed<'de> for MembersSeed<'_, 'de> {
    type Value = Members<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Members<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MembersSeed<'_, 'de> {
    type Value = Members<'de>;

    accept_others!(Members::default(), str, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Members::default();
        let check = self.check;
        let first = check.open();
        while let Some(Key(key)) = map.next_key()? {
            check.note(first, &key);
            if self.capabilities && key == "capabilities" {
                members.capabilities = map.next_value_seed(Capabilities { check })?;
            } else if let Some(slot) = self
                .names
                .iter()
                .position(|name| *name == key)
                .and_then(|index| members.strings.get_mut(index))
            {
                *slot = map.next_value_seed(MaybeText { check })?;
            } else {
                map.next_value_seed(Skip { check })?;
            }
        }
        check.close(first);
        Ok(members)
    }
}

/// The packet, its objects' keys noted in `check`.
struct RawPacketVisitor<'c, 'de> {
    check: &'c KeyCheck<'de>,
}

impl<'de> DeserializeSeed<'de> for RawPacketVisitor<'_, 'de> {
    type Value = RawPacket<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// How many unmapped keys are read before they are first sorted and kept once each.
const COMPACT_UNMAPPED_FROM: usize = 1024;

impl<'de> Visitor<'de> for RawPacketVisitor<'_, 'de> {
    type Value = RawPacket<'de>;

    accept_others!(RawPacket::default(), str, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut packet = RawPacket {
            is_object: true,
            ..RawPacket::default()
        };
        let check = self.check;
        let nested = |names, capabilities| MembersSeed {
            names,
            capabilities,
            check,
        };
        let text = MaybeText { check };
        let first = check.open();
        // The unmapped keys are sorted and each kept once whenever they have doubled since
        // the last time: a key repeated a million times is a handful of entries, not 24 MB
        // of them (and distinct keys cost what they did, n log n in all).
        let mut compact_at = COMPACT_UNMAPPED_FROM;
        while let Some(Key(key)) = map.next_key()? {
            check.note(first, &key);
            // Each arm overwrites: for a repeated key the last value wins, as in `Value`.
            match key.as_ref() {
                "protocol" => packet.protocol = map.next_value_seed(text)?,
                "version" => packet.version = map.next_value_seed(text)?,
                "event_type" => packet.event_type = map.next_value_seed(text)?,
                "timestamp" => packet.timestamp = map.next_value_seed(text)?,
                "agent" => packet.agent = map.next_value_seed(nested(AGENT_MEMBERS, true))?,
                "task" => packet.task = map.next_value_seed(nested(TASK_MEMBERS, false))?,
                "artifact" => {
                    packet.artifact = map.next_value_seed(nested(ARTIFACT_MEMBERS, false))?
                }
                "message" => {
                    packet.message = map.next_value_seed(nested(MESSAGE_MEMBERS, false))?
                }
                "attributes" => {
                    let attributes = AttributesSeed {
                        distinct: &check.distinct,
                    };
                    packet.attributes = Some(map.next_value_seed(attributes)?)
                }
                _ => {
                    debug_assert!(!RECOGNISED_TOP_LEVEL_KEYS.contains(&key.as_ref()));
                    map.next_value_seed(Skip { check })?;
                    packet.unmapped_keys.push(key);
                    if packet.unmapped_keys.len() >= compact_at {
                        packet.unmapped_keys.sort_unstable();
                        packet.unmapped_keys.dedup();
                        compact_at = (2 * packet.unmapped_keys.len()).max(COMPACT_UNMAPPED_FROM);
                    }
                }
            }
        }
        check.close(first);
        Ok(packet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Option<Text<'_>> {
        Some(Cow::Borrowed(value))
    }

    #[test]
    fn keeps_strings_only_and_the_last_duplicate() {
        let bytes = br#"{"protocol":"a2a","protocol":"mcp","version":0.2,
            "agent":{"id":"a","id":7,"name":"n","capabilities":["b",1,"a"]},
            "task":{"id":"t"},"task":{"kind":"delegation"},
            "z":1,"y":{},"z":[2],"attributes":{"x":1},"attributes":null}"#;
        let packet = RawPacket::parse(bytes).unwrap();
        assert!(packet.is_object);
        assert_eq!(packet.protocol, text("mcp"));
        assert_eq!(packet.version, None);
        assert_eq!(packet.agent.strings, [None, text("n"), None]);
        assert_eq!(
            packet.agent.capabilities,
            Some(vec![Cow::Borrowed("b"), Cow::Borrowed("a")])
        );
        assert_eq!(packet.task.strings, [None, None, text("delegation")]);
        assert_eq!(packet.attributes, Some(Attributes::of_value(&Value::Null)));
        assert_eq!(packet.unmapped_keys, vec!["z", "y", "z"]);
    }

    #[test]
    fn repeated_unmapped_keys_are_kept_once_as_they_are_read() {
        let mut text = String::from("{");
        for index in 0..100_000 {
            text.push_str(&format!(r#""k{}":1,"#, index % 3));
        }
        text.push_str(r#""protocol":"a2a"}"#);
        let packet = RawPacket::parse(text.as_bytes()).unwrap();
        assert!(packet.unmapped_keys.len() <= COMPACT_UNMAPPED_FROM);
        let fields = super::super::TypedFields::from_raw(packet);
        assert_eq!(
            fields.unmapped_keys.iter().collect::<Vec<_>>(),
            vec!["k0", "k1", "k2"]
        );
    }

    #[test]
    fn escaped_keys_and_strings_are_unescaped() {
        let packet =
            RawPacket::parse(br#"{"\u0061gent":{"id":"\u0061"},"pro\u0074ocol":"a2a"}"#).unwrap();
        assert_eq!(packet.agent.strings[0].as_deref(), Some("a"));
        assert_eq!(packet.protocol.as_deref(), Some("a2a"));
        assert!(packet.unmapped_keys.is_empty());
    }

    #[test]
    fn a_repeated_key_anywhere_is_seen() {
        let distinct = |text: &str| RawPacket::parse(text.as_bytes()).unwrap().keys_distinct;
        assert!(distinct(
            r#"{"protocol":"a2a","agent":{"id":"a","x":{"id":1,"y":[{"k":1},{"k":2}]}},
            "extra":{"a":1,"b":{"a":2}},"attributes":{"a":{"a":1},"b":[{"a":1},{"a":2}]}}"#
        ));
        for repeated in [
            r#"{"protocol":"a2a","protocol":"a2a"}"#,
            r#"{"extra":1,"extra":2}"#,
            r#"{"agent":{"id":"a","id":"b"}}"#,
            r#"{"agent":{"other":1,"other":2}}"#,
            r#"{"agent":{"capabilities":[{"a":1,"a":1}]}}"#,
            r#"{"task":{"kind":{"x":1,"x":1}}}"#,
            r#"{"extra":[1,{"b":1,"c":{"d":1,"d":2}}]}"#,
            r#"{"attributes":{"z":1,"z":2}}"#,
            r#"{"attributes":[{"a":{"b":1,"b":1}}]}"#,
            r#"{"\u0061gent":{},"agent":{}}"#,
        ] {
            assert!(!distinct(repeated), "{repeated}");
        }
        // Too many keys to compare here: not known to be distinct.
        let many: Vec<String> = (0..COMPARED_KEYS + 1)
            .map(|k| format!(r#""k{k}":1"#))
            .collect();
        assert!(!distinct(&format!("{{{}}}", many.join(","))));
        // A tree has lost its repeats: nothing is known.
        let tree: Value = serde_json::from_str(r#"{"protocol":"a2a"}"#).unwrap();
        assert!(!RawPacket::read(&tree).keys_distinct);
    }

    #[test]
    fn other_roots_are_not_objects() {
        for bytes in [&b"[1,{\"a\":2}]"[..], b"\"x\"", b"1", b"null", b"true"] {
            assert!(!RawPacket::parse(bytes).unwrap().is_object);
        }
    }

    #[test]
    fn errors_are_the_value_parser_errors() {
        for bytes in [
            &b"{\"protocol\":\"a2a\","[..],
            b"{\"agent\":{\"id\":1e400}}",
            b"{\"x\":[1,]}",
            b"{\"a\":\"\xff\"}",
            b"{\"a\":1} x",
            b"{\"a\":\"\\ud800\"}",
        ] {
            let expected = serde_json::from_slice::<Value>(bytes)
                .unwrap_err()
                .to_string();
            assert_eq!(RawPacket::parse(bytes).unwrap_err().to_string(), expected);
        }
        let deep = format!("{{\"agent\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let expected = serde_json::from_str::<Value>(&deep)
            .unwrap_err()
            .to_string();
        assert_eq!(
            RawPacket::parse(deep.as_bytes()).unwrap_err().to_string(),
            expected
        );
    }
}
