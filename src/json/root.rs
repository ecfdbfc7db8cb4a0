//! Reading a JSON text's root without building its tree. serde_json's tree of an array of a
//! million small objects costs about 50 times the text (a B-tree node per object), and a
//! text whose root is not an object needs no tree to be classified (only objects carry
//! another kind's evidence) or refused by the adapter and the migration. The check below
//! walks the text with serde_json's own parser, as [`serde_json::Value`] is read (the same
//! grammar, recursion limit, number range and messages), keeping nothing.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The type of a JSON value, as [`super::type_name`] names a parsed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    /// `a string`, `an array`, `null`... (as [`super::type_with_article`]).
    pub fn with_article(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Bool => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "a string",
            JsonType::Array => "an array",
            JsonType::Object => "an object",
        }
    }
}

/// A JSON text read as far as its readers need: the tree of an object root, only the type
/// of any other.
#[derive(Debug)]
pub enum RootReading {
    Object(Value),
    Other(JsonType),
}

impl RootReading {
    pub fn json_type(&self) -> JsonType {
        match self {
            RootReading::Object(_) => JsonType::Object,
            RootReading::Other(json_type) => *json_type,
        }
    }

    pub fn tree(&self) -> Option<&Value> {
        match self {
            RootReading::Object(value) => Some(value),
            RootReading::Other(_) => None,
        }
    }

    pub fn into_tree(self) -> Option<Value> {
        match self {
            RootReading::Object(value) => Some(value),
            RootReading::Other(_) => None,
        }
    }
}

/// Reads `bytes` as `serde_json::from_slice::<Value>` would, with the same errors, but builds
/// the tree only when the root is an object: an array or a scalar is checked and dropped as
/// it is read, in constant memory (but for the parser's nesting).
pub fn read_root(bytes: &[u8]) -> Result<RootReading, serde_json::Error> {
    if may_be_an_object(bytes) {
        return serde_json::from_slice(bytes).map(RootReading::Object);
    }
    serde_json::from_slice::<Skipped>(bytes).map(|skipped| RootReading::Other(skipped.0))
}

/// Whether the text's first byte after white space opens an object: only such a text can
/// parse into an object (or fail to parse at all), so a caller holding a tree it could build
/// on demand builds it only then.
pub fn may_be_an_object(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        == Some(&b'{')
}

/// A value read and dropped, remembering only its type. It asks serde_json for any value
/// (`deserialize_any`, as `Value` does), so numbers are parsed and range-checked and strings
/// unescaped exactly as for a tree; `deserialize_ignored_any` would skip numbers unchecked.
struct Skipped(JsonType);

impl<'de> Deserialize<'de> for Skipped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skipped;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Bool))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Number))
    }

    fn visit_str<E>(self, _: &str) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::String))
    }

    fn visit_string<E>(self, _: String) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::String))
    }

    fn visit_none<E>(self) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Skipped, D::Error> {
        Deserialize::deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Skipped, E> {
        Ok(Skipped(JsonType::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skipped, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(Skipped(JsonType::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skipped, A::Error> {
        while map.next_key::<Skipped>()?.is_some() {
            map.next_value::<Skipped>()?;
        }
        Ok(Skipped(JsonType::Object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reading's verdict as `serde_json::from_slice::<Value>` gives it.
    fn agrees(bytes: &[u8]) {
        let tree = serde_json::from_slice::<Value>(bytes);
        match (read_root(bytes), tree) {
            (Ok(reading), Ok(value)) => {
                assert_eq!(reading.json_type(), JsonType::of(&value));
                if let Some(read) = reading.tree() {
                    assert_eq!(read, &value);
                }
            }
            (Err(read), Err(parsed)) => assert_eq!(read.to_string(), parsed.to_string()),
            (read, parsed) => panic!(
                "{:?}: read {read:?}, parsed {parsed:?}",
                String::from_utf8_lossy(bytes)
            ),
        }
    }

    #[test]
    fn reads_as_a_tree_would() {
        for text in [
            "[1,2,{\"a\":1,\"a\":2}]",
            " \n[]",
            "\"x\"",
            "1e999",
            "[1e999]",
            "-0",
            "[18446744073709551616]",
            "null",
            "true",
            "[\"\\ud800\"]",
            "[{\"\\ud800\":1}]",
            "[1,]",
            "[1] 2",
            "[",
            "",
            "  ",
            "{\"a\":[1]}",
            "\u{feff}[1]",
            "[\"\u{1}\"]",
            "[{1:2}]",
        ] {
            agrees(text.as_bytes());
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        agrees(deep.as_bytes());
        let deep_object = "[{\"a\":".repeat(100) + "1" + &"}]".repeat(100);
        agrees(deep_object.as_bytes());
        agrees(b"[\"\xff\"]");
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_read_as_a_tree_would(text in r#"[\[\]{}":,\\a-f0-9eE.+\- u]{0,40}"#) {
            agrees(text.as_bytes());
        }
    }
}
