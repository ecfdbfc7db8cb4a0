//! One pass over a raw packet's bytes that keeps only what the conversion reads (spec
//! section 3), borrowing strings from the input where they need no unescaping.
//!
//! It must agree with parsing into a `serde_json::Value` and reading that: same accepted
//! inputs, same parser error messages, last value wins for a repeated key. So every value,
//! kept or skipped, goes through the parser's `deserialize_any`, the very path `Value`
//! takes (the parser's cheaper `ignored_any` skips numbers without range-checking them, and
//! `1e400` must stay an error), and no visitor here ever rejects a JSON type.

use super::attributes::{Attributes, AttributesSeed};
use super::fields::RECOGNISED_TOP_LEVEL_KEYS;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
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
}

impl<'de> RawPacket<'de> {
    /// Parses `bytes` exactly as `serde_json::from_slice::<Value>` would, failing with the
    /// same error.
    pub fn parse(bytes: &'de [u8]) -> Result<RawPacket<'de>, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// Reads an already parsed packet (the duplicates are already resolved there).
    pub fn read(packet: &'de Value) -> RawPacket<'de> {
        // Every visitor accepts every JSON type, so reading a `Value` cannot fail.
        RawPacket::deserialize(packet).unwrap_or_default()
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
            SkipVisitor.visit_seq(seq).map(|_| $value)
        }
    };
    (@map $value:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            SkipVisitor.visit_map(map).map(|_| $value)
        }
    };
}

/// Any JSON value, parsed in full and dropped.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Skip, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    accept_others!(Skip, str);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// A string value, or `None` for any other JSON type (parsed in full all the same). Also
/// reads object keys, which are always strings.
struct MaybeText<'de>(Option<Text<'de>>);

impl<'de> Deserialize<'de> for MaybeText<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MaybeTextVisitor)
    }
}

struct MaybeTextVisitor;

impl<'de> Visitor<'de> for MaybeTextVisitor {
    type Value = MaybeText<'de>;

    accept_others!(MaybeText(None), seq, map);

    fn visit_borrowed_str<E: serde::de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(MaybeText(Some(Cow::Borrowed(text))))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(MaybeText(Some(Cow::Owned(text.to_owned()))))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(MaybeText(Some(Cow::Owned(text))))
    }
}

/// `agent.capabilities`: the string items of an array, in input order; `None` otherwise.
struct Capabilities<'de>(Option<Vec<Text<'de>>>);

impl<'de> Deserialize<'de> for Capabilities<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(CapabilitiesVisitor)
    }
}

struct CapabilitiesVisitor;

impl<'de> Visitor<'de> for CapabilitiesVisitor {
    type Value = Capabilities<'de>;

    accept_others!(Capabilities(None), str, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut strings = Vec::new();
        while let Some(MaybeText(item)) = seq.next_element()? {
            strings.extend(item);
        }
        Ok(Capabilities(Some(strings)))
    }
}

/// Reads one of the nested objects: the string members named in `names` (at most three)
/// and, with `capabilities`, `agent.capabilities`. Other members are parsed and dropped.
#[derive(Clone, Copy)]
struct MembersSeed {
    names: &'static [&'static str],
    capabilities: bool,
}

impl<'de> DeserializeSeed<'de> for MembersSeed {
    type Value = Members<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Members<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MembersSeed {
    type Value = Members<'de>;

    accept_others!(Members::default(), str, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Members::default();
        while let Some(MaybeText(key)) = map.next_key()? {
            let key = key.unwrap_or_default();
            if self.capabilities && key == "capabilities" {
                members.capabilities = map.next_value::<Capabilities>()?.0;
            } else if let Some(slot) = self
                .names
                .iter()
                .position(|name| *name == key)
                .and_then(|index| members.strings.get_mut(index))
            {
                *slot = map.next_value::<MaybeText>()?.0;
            } else {
                map.next_value::<Skip>()?;
            }
        }
        Ok(members)
    }
}

impl<'de> Deserialize<'de> for RawPacket<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawPacketVisitor)
    }
}

struct RawPacketVisitor;

/// How many unmapped keys are read before they are first sorted and kept once each.
const COMPACT_UNMAPPED_FROM: usize = 1024;

impl<'de> Visitor<'de> for RawPacketVisitor {
    type Value = RawPacket<'de>;

    accept_others!(RawPacket::default(), str, seq);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut packet = RawPacket {
            is_object: true,
            ..RawPacket::default()
        };
        let nested = |names, capabilities| MembersSeed {
            names,
            capabilities,
        };
        // The unmapped keys are sorted and each kept once whenever they have doubled since
        // the last time: a key repeated a million times is a handful of entries, not 24 MB
        // of them (and distinct keys cost what they did, n log n in all).
        let mut compact_at = COMPACT_UNMAPPED_FROM;
        while let Some(MaybeText(key)) = map.next_key()? {
            let key = key.unwrap_or_default();
            // Each arm overwrites: for a repeated key the last value wins, as in `Value`.
            match key.as_ref() {
                "protocol" => packet.protocol = map.next_value::<MaybeText>()?.0,
                "version" => packet.version = map.next_value::<MaybeText>()?.0,
                "event_type" => packet.event_type = map.next_value::<MaybeText>()?.0,
                "timestamp" => packet.timestamp = map.next_value::<MaybeText>()?.0,
                "agent" => packet.agent = map.next_value_seed(nested(AGENT_MEMBERS, true))?,
                "task" => packet.task = map.next_value_seed(nested(TASK_MEMBERS, false))?,
                "artifact" => {
                    packet.artifact = map.next_value_seed(nested(ARTIFACT_MEMBERS, false))?
                }
                "message" => {
                    packet.message = map.next_value_seed(nested(MESSAGE_MEMBERS, false))?
                }
                "attributes" => packet.attributes = Some(map.next_value_seed(AttributesSeed)?),
                _ => {
                    debug_assert!(!RECOGNISED_TOP_LEVEL_KEYS.contains(&key.as_ref()));
                    map.next_value::<Skip>()?;
                    packet.unmapped_keys.push(key);
                    if packet.unmapped_keys.len() >= compact_at {
                        packet.unmapped_keys.sort_unstable();
                        packet.unmapped_keys.dedup();
                        compact_at = (2 * packet.unmapped_keys.len()).max(COMPACT_UNMAPPED_FROM);
                    }
                }
            }
        }
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
