//! A packet's `attributes` as the conversion keeps them: the normalized JSON text the payload
//! carries (spec section 7: object keys sorted at every level, an array of strings sorted,
//! other arrays in order), written while the packet is read, and the three facts the rules
//! read from them. Never a tree: `attributes` may be any JSON, and serde_json's tree of an
//! array of a million small objects costs 50 times its 14 MB of text.

use super::flags::DiscoveryFlags;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use std::cell::Cell;
use std::fmt;

/// Normalized `attributes`, with what the rules read from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attributes {
    /// Compact JSON, exactly as serde_json writes the normalized tree.
    text: String,
    /// `attributes.assay_g4` is an object.
    has_assay_g4: bool,
    discovery: DiscoveryFlags,
}

impl Attributes {
    /// The attributes of a packet already parsed into a tree (the same text and facts as
    /// reading them from the packet's bytes).
    pub fn of_value(attributes: &Value) -> Attributes {
        Attributes {
            // Writing a tree of string keys into a `String` cannot fail.
            text: serde_json::to_string(&Normalized(attributes)).unwrap_or_default(),
            has_assay_g4: attributes.get("assay_g4").is_some_and(Value::is_object),
            discovery: DiscoveryFlags::of(Some(attributes)),
        }
    }

    /// The normalized attributes as compact JSON: the bytes the payload writes.
    pub fn normalized_text(&self) -> &str {
        &self.text
    }

    /// The normalized attributes as a tree, built on each call (for the event's `Value`).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }

    /// Whether `attributes.assay_g4` is an object (where the discovery flags are read).
    pub fn has_assay_g4(&self) -> bool {
        self.has_assay_g4
    }

    /// The G4-A discovery flags read from `attributes.assay_g4`.
    pub fn discovery(&self) -> DiscoveryFlags {
        self.discovery
    }
}

/// Reads `attributes` from the packet's parser: the normalized text, written as the value is
/// read. Every value goes through `deserialize_any`, the path a `Value` takes, so the same
/// texts are accepted and refused with the same errors (`1e400` included). An object that
/// repeats a key sets `distinct` to `false` (its sorted members show it).
pub struct AttributesSeed<'c> {
    pub distinct: &'c Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for AttributesSeed<'_> {
    type Value = Attributes;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Attributes, D::Error> {
        let mut out = Vec::new();
        let facts = deserializer.deserialize_any(Normalizer {
            out: &mut out,
            distinct: self.distinct,
        })?;
        // Every piece written is a `&str` or ASCII, so this never loses a byte.
        let text = String::from_utf8(out)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
        Ok(Attributes {
            text,
            has_assay_g4: facts.assay_g4.is_some(),
            discovery: facts.assay_g4.unwrap_or(DiscoveryFlags::of(None)),
        })
    }
}

/// What the rules may read from a value, found as it is normalized: whether it is `true`, an
/// object whose `visible` is `true`, and, for an object, its `assay_g4` member's flags when
/// that member is an object.
#[derive(Clone, Copy, Debug, Default)]
struct Facts {
    is_true: bool,
    is_object: bool,
    visible: bool,
    agent_card_visible: bool,
    extended_card_access_visible: bool,
    assay_g4: Option<DiscoveryFlags>,
}

/// Writes one value's normalized text at the end of `out`, returning its facts; a repeated
/// key sets `distinct` to `false`.
struct Normalizer<'o> {
    out: &'o mut Vec<u8>,
    distinct: &'o Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for Normalizer<'_> {
    type Value = Facts;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Facts, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Normalizer<'_> {
    /// A number as serde_json writes a `Value` holding it.
    fn number(self, number: serde_json::Number) -> Facts {
        // Writing into a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *self.out, &number);
        Facts::default()
    }

    fn null(self) -> Facts {
        self.out.extend_from_slice(b"null");
        Facts::default()
    }
}

impl<'de> Visitor<'de> for Normalizer<'_> {
    type Value = Facts;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Facts, E> {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(Facts {
            is_true: value,
            ..Facts::default()
        })
    }

    fn visit_i64<E>(self, value: i64) -> Result<Facts, E> {
        Ok(self.number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Facts, E> {
        Ok(self.number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Facts, E> {
        // As `Value` reads it: a float that is not finite becomes null (the parser never
        // hands one over).
        Ok(match serde_json::Number::from_f64(value) {
            Some(number) => self.number(number),
            None => self.null(),
        })
    }

    fn visit_str<E>(self, value: &str) -> Result<Facts, E> {
        crate::json::write_json_string(value, self.out);
        Ok(Facts::default())
    }

    fn visit_none<E>(self) -> Result<Facts, E> {
        Ok(self.null())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Facts, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_unit<E>(self) -> Result<Facts, E> {
        Ok(self.null())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Facts, A::Error> {
        let start = self.out.len();
        self.out.push(b'[');
        // Each string item's text, while every item so far is a string: only then is the
        // array sorted. An array of anything else keeps no list at all.
        let mut strings: Option<Vec<(usize, usize)>> = Some(Vec::new());
        let mut first = true;
        loop {
            let item_start = self.out.len() + usize::from(!first);
            if !first {
                self.out.push(b',');
            }
            let is_string = seq.next_element_seed(StringTracker {
                out: &mut *self.out,
                distinct: self.distinct,
            })?;
            let Some(is_string) = is_string else {
                if !first {
                    self.out.pop();
                }
                break;
            };
            first = false;
            match (&mut strings, is_string) {
                (Some(strings), true) => strings.push((item_start, self.out.len())),
                _ => strings = None,
            }
        }
        self.out.push(b']');
        if let Some(mut strings) = strings.filter(|strings| strings.len() > 1) {
            let written = &self.out[start..];
            strings.sort_by(|a, b| {
                compare_json_strings(
                    &written[a.0 - start..a.1 - start],
                    &written[b.0 - start..b.1 - start],
                )
            });
            let mut sorted = Vec::with_capacity(written.len());
            sorted.push(b'[');
            for (index, (from, to)) in strings.iter().enumerate() {
                if index > 0 {
                    sorted.push(b',');
                }
                sorted.extend_from_slice(&written[from - start..to - start]);
            }
            sorted.push(b']');
            self.out.truncate(start);
            self.out.extend_from_slice(&sorted);
        }
        Ok(Facts::default())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Facts, A::Error> {
        let start = self.out.len();
        // Each member as its decoded key's bytes followed by its value's normalized text,
        // laid end to end after `start`; sorted and written out as JSON at the end.
        let mut members: Vec<Member> = Vec::new();
        let mut facts = Facts {
            is_object: true,
            ..Facts::default()
        };
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let key_start = self.out.len();
            self.out.extend_from_slice(key.as_bytes());
            let value_start = self.out.len();
            let value = map.next_value_seed(Normalizer {
                out: &mut *self.out,
                distinct: self.distinct,
            })?;
            members.push(Member {
                key_start,
                value_start,
                end: self.out.len(),
            });
            // Each assignment overwrites: for a repeated key the last value wins, as in
            // `Value`.
            match key.as_ref() {
                "visible" => facts.visible = value.is_true,
                "agent_card" => facts.agent_card_visible = value.visible,
                "extended_card_access" => facts.extended_card_access_visible = value.visible,
                "assay_g4" => {
                    facts.assay_g4 = value.is_object.then_some(DiscoveryFlags {
                        agent_card_visible: value.agent_card_visible,
                        extended_card_access_visible: value.extended_card_access_visible,
                    })
                }
                _ => {}
            }
        }
        let written = &self.out[start..];
        let key = |member: &Member| &written[member.key_start - start..member.value_start - start];
        // Stable: of a repeated key's members the last one stays last, and is the one kept.
        members.sort_by(|a, b| key(a).cmp(key(b)));
        let mut normalized = Vec::with_capacity(written.len() + 2 * members.len() + 2);
        normalized.push(b'{');
        let mut first = true;
        for (index, member) in members.iter().enumerate() {
            if members
                .get(index + 1)
                .is_some_and(|next| key(next) == key(member))
            {
                self.distinct.set(false);
                continue;
            }
            if !first {
                normalized.push(b',');
            }
            first = false;
            // The key's bytes are a whole `&str` written above.
            let key_text = std::str::from_utf8(key(member)).unwrap_or_default();
            crate::json::write_json_string(key_text, &mut normalized);
            normalized.push(b':');
            normalized.extend_from_slice(&written[member.value_start - start..member.end - start]);
        }
        normalized.push(b'}');
        self.out.truncate(start);
        self.out.extend_from_slice(&normalized);
        Ok(facts)
    }
}

/// Where one member of an object lies in the output while its object is read.
struct Member {
    key_start: usize,
    value_start: usize,
    end: usize,
}

/// An array item normalized, answering whether it is a string.
struct StringTracker<'o> {
    out: &'o mut Vec<u8>,
    distinct: &'o Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for StringTracker<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        let start = self.out.len();
        Normalizer {
            out: self.out,
            distinct: self.distinct,
        }
        .deserialize(deserializer)?;
        // Only a string's normalized text starts with a quote.
        Ok(self.out.get(start) == Some(&b'"'))
    }
}

/// Orders two JSON string texts (as `write_json_string` writes them) by their values' bytes,
/// as `&str` orders them. Without escapes a text is its value in quotes; with one, the values
/// are decoded to compare.
fn compare_json_strings(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    fn inner(text: &[u8]) -> &[u8] {
        text.get(1..text.len().saturating_sub(1))
            .unwrap_or_default()
    }
    if !a.contains(&b'\\') && !b.contains(&b'\\') {
        return inner(a).cmp(inner(b));
    }
    let decode = |text: &[u8]| serde_json::from_slice::<String>(text).unwrap_or_default();
    decode(a).cmp(&decode(b))
}

/// Attributes normalized from a tree: object keys sorted at every level (the map already
/// iterates in byte order); an array whose items are all strings is sorted; other arrays
/// keep their order with items normalized.
struct Normalized<'a>(&'a Value);

impl Serialize for Normalized<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, item) in members {
                    map.serialize_entry(key, &Normalized(item))?;
                }
                map.end()
            }
            Value::Array(items) if items.iter().all(Value::is_string) => {
                let mut sorted: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                sorted.sort_unstable();
                serializer.collect_seq(sorted)
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Normalized)),
            scalar => scalar.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The attributes read from `text` by the seed, or the parser's error.
    fn read(text: &str) -> Result<Attributes, String> {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let read = AttributesSeed {
            distinct: &Cell::new(true),
        }
        .deserialize(&mut deserializer)
        .and_then(|attributes| deserializer.end().map(|()| attributes));
        read.map_err(|error| error.to_string())
    }

    /// What reading a tree gives: the oracle.
    fn via_tree(text: &str) -> Result<Attributes, String> {
        serde_json::from_str::<Value>(text)
            .map(|value| Attributes::of_value(&value))
            .map_err(|error| error.to_string())
    }

    #[test]
    fn reading_the_text_equals_normalizing_its_tree() {
        for text in [
            r#"{"z":["b","a"],"a":[2,1,{"y":1,"x":["d","c"]}]}"#,
            r#"{"k":1,"k":{"b":2,"a":1},"\u006b":[3]}"#,
            r#"["b","\u0061","a\"","a\\","é","e"]"#,
            r#"["b",1,"a"]"#,
            r#"[1.5e300,-0,-0.0,12345678901234567890,-9223372036854775808,1E2,1.5e-7,0.1]"#,
            r#"{"assay_g4":{"agent_card":{"visible":true},"extended_card_access":{"visible":true}}}"#,
            r#"{"assay_g4":{"agent_card":{"visible":"true"},"extended_card_access":[{"visible":true}]}}"#,
            r#"{"assay_g4":{"agent_card":{"visible":true,"visible":false}}}"#,
            r#"{"assay_g4":{"agent_card":{"visible":true}},"assay_g4":[]}"#,
            r#"{"assay_g4":[],"assay_g4":{"extended_card_access":{"visible":true}}}"#,
            r#"{"x":{"assay_g4":{"agent_card":{"visible":true}}}}"#,
            r#"{}"#,
            r#"[]"#,
            r#"["only"]"#,
            r#"null"#,
            r#"true"#,
            r#""\u202e\u001b""#,
            r#"1e400"#,
            r#"{"a":1,}"#,
        ] {
            assert_eq!(read(text), via_tree(text), "{text}");
        }
        let flags = read(
            r#"{"assay_g4":{"agent_card":{"visible":true},"extended_card_access":{"visible":false}}}"#,
        )
        .unwrap();
        assert!(flags.has_assay_g4());
        assert!(flags.discovery().agent_card_visible);
        assert!(!flags.discovery().extended_card_access_visible);
        assert_eq!(
            read(r#"{"b":["y","x"],"a":null}"#)
                .unwrap()
                .normalized_text(),
            r#"{"a":null,"b":["x","y"]}"#
        );
    }

    /// JSON text with repeated keys, escaped keys and strings, arrays of strings and mixed.
    fn json_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("\"a\"".to_owned()),
            Just("\"\\u0061\"".to_owned()),
            Just("\"b\"".to_owned()),
            Just("\"assay_g4\"".to_owned()),
            Just("\"agent_card\"".to_owned()),
            Just("\"extended_card_access\"".to_owned()),
            Just("\"visible\"".to_owned()),
            "[a-c\u{e9}]{0,3}".prop_map(|key| format!("{key:?}")),
        ];
        let leaf = prop_oneof![
            Just("true".to_owned()),
            Just("false".to_owned()),
            Just("null".to_owned()),
            any::<i64>().prop_map(|number| number.to_string()),
            any::<f64>()
                .prop_filter("finite", |number| number.is_finite())
                .prop_map(|number| format!("{number:e}")),
            "[a-c\u{e9}\"\\\\]{0,3}".prop_map(|text| format!("{text:?}")),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec((key.clone(), inner), 0..6).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(key, value)| format!("{key}:{value}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::json::test_depth::property_cases(512, 4096)))]
        #[test]
        fn any_text_reads_as_its_tree_normalizes(text in json_text()) {
            let read = read(&text);
            prop_assert_eq!(&read, &via_tree(&text));
            if let Ok(attributes) = read {
                // The normalized text is canonical: laid out without a tree, it is the tree's.
                prop_assert_eq!(
                    crate::json::canonical_pretty_of(attributes.normalized_text().as_bytes(), usize::MAX),
                    crate::json::canonical_pretty(&attributes.to_value())
                );
            }
        }
    }
}
