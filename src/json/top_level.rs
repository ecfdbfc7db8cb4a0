//! A few named members of a JSON text's root object, read without its tree: what a reader
//! that refuses a shape by its top-level members needs (`migrate` refusing the adapter's own
//! packets), where the tree of an object of 200k keys is 20 MB and most of a second.

use super::root::{JsonType, Skipped};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use std::fmt;

/// What one named member holds: a string's text, or the type of any other value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopLevel {
    String(String),
    Other(JsonType),
}

impl TopLevel {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            TopLevel::String(text) => Some(text),
            TopLevel::Other(_) => None,
        }
    }
}

/// For each of `names`, what the root object's member of that name holds (the last value of
/// a repeated key, as a tree reads it), or `None` when it has none. `Ok(None)`: the root is
/// not an object. Reads the whole text with serde_json's parser, as `Value` is read (the
/// same errors), keeping only those members.
pub fn read_top_level(
    bytes: &[u8],
    names: &[&str],
) -> Result<Option<Vec<Option<TopLevel>>>, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let members = Members(names).deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(members)
}

struct Members<'n>(&'n [&'n str]);

impl<'de> DeserializeSeed<'de> for Members<'_> {
    type Value = Option<Vec<Option<TopLevel>>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Members<'_> {
    type Value = Option<Vec<Option<TopLevel>>>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    // Everything but an object is read (arrays through [`Skipped`]) and answers `None`.
    scalar_visits!(None; visit_bool(bool), visit_i64(i64), visit_u64(u64), visit_f64(f64),
        visit_str(&str), visit_unit(), visit_none());

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<Skipped>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = vec![None; self.0.len()];
        while let Some(named) = map.next_key_seed(KeyIndex(self.0))? {
            match named.and_then(|index| found.get_mut(index)) {
                Some(slot) => *slot = Some(map.next_value_seed(MemberValue)?),
                None => {
                    map.next_value::<Skipped>()?;
                }
            }
        }
        Ok(Some(found))
    }
}

/// A key, read as the index of the name it is (`None`: not one of them), without keeping it.
struct KeyIndex<'n>(&'n [&'n str]);

impl<'de> DeserializeSeed<'de> for KeyIndex<'_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyIndex<'_> {
    type Value = Option<usize>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().position(|name| *name == key))
    }
}

/// A named member's value: a string kept, any other value read through [`Skipped`].
struct MemberValue;

impl<'de> DeserializeSeed<'de> for MemberValue {
    type Value = TopLevel;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<TopLevel, D::Error> {
        match deserializer.deserialize_any(StringOrSkipped)? {
            Ok(text) => Ok(TopLevel::String(text)),
            Err(skipped) => Ok(TopLevel::Other(skipped.0)),
        }
    }
}

struct StringOrSkipped;

impl<'de> Visitor<'de> for StringOrSkipped {
    type Value = Result<String, Skipped>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Ok(text.to_owned()))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Bool)))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Number)))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Number)))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Number)))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Null)))
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Err(Skipped(JsonType::Null)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        super::root::SkipVisitor.visit_seq(seq).map(Err)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        super::root::SkipVisitor.visit_map(map).map(Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What a tree says of each name, as [`read_top_level`] says it.
    fn from_tree(bytes: &[u8], names: &[&str]) -> Result<Option<Vec<Option<TopLevel>>>, String> {
        let value: Value = serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
        Ok(value.as_object().map(|object| {
            names
                .iter()
                .map(|name| {
                    object.get(*name).map(|member| match member {
                        Value::String(text) => TopLevel::String(text.clone()),
                        other => TopLevel::Other(JsonType::of(other)),
                    })
                })
                .collect()
        }))
    }

    #[test]
    fn members_are_read_as_the_tree_reads_them() {
        let names = ["protocol", "event_type", "type"];
        let texts: [&[u8]; 12] = [
            br#"{"protocol":"a2a","event_type":{"x":[1]},"other":[{"protocol":"no"}]}"#,
            br#"{"protocol":"mcp","protocol":"a2a","type":7,"type":"t"}"#,
            br#"{"protocol":"a2a","protocol":null}"#,
            br#"{"pro\u0074ocol":"\u0061\n2a","event_type":[]}"#,
            br#"{}"#,
            br#"[{"protocol":"a2a"}]"#,
            br#""protocol""#,
            b"12",
            br#"{"protocol":"a2a","x":1e400}"#,
            br#"{"protocol":"a2a"} x"#,
            br#"{"protocol":"a2a","#,
            b"{\"protocol\":\"\xff\"}",
        ];
        for bytes in texts {
            let read = read_top_level(bytes, &names).map_err(|error| error.to_string());
            assert_eq!(
                read,
                from_tree(bytes, &names),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
        assert_eq!(
            read_top_level(br#"{"type":"t","protocol":"a2a"}"#, &names).unwrap(),
            Some(vec![
                Some(TopLevel::String("a2a".into())),
                None,
                Some(TopLevel::String("t".into()))
            ])
        );
    }
}
