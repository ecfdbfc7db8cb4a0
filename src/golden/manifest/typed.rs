//! An entry read straight into `GoldenEntry` through typed serde fields, with no JSON tree in
//! between: what `check` does for every packet that has a golden (the on-disk index reads
//! each entry when its manifest is checked and again when its packet asks). It accepts
//! exactly what `parse_entry` accepts and gives the same entry (a property test holds the two
//! together); it says only "no", so a caller that needs the reason asks `parse_entry`.
//! Repeated keys are the caller's to refuse (`for_each_duplicate_key`), as for `parse_entry`.

use super::{GoldenEntry, ModeGolden};
use crate::a2a::{ErrorKind, Mode};
use crate::freeze::{HandoffState, RowSet, COVERAGE_ROW_IDS};
use crate::golden::content::Content;
use crate::golden::object::{records_object, ObjectGolden};
use crate::json::Digest;
use crate::packet::PacketKind;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The entry whose JSON text is `text` (the value alone, not `"KEY": ...`), or `None` where
/// `parse_entry` would refuse it.
pub(in crate::golden) fn read_entry_typed(text: &[u8]) -> Option<GoldenEntry> {
    let Object(wire) = serde_json::from_slice::<Object<EntryWire<'_>>>(text).ok()?;
    wire.entry()
}

/// A field as the manifest spells it: present means a value of its type, never `null`
/// (`parse_entry` refuses `"rule": null`; serde would read it as absent).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A string, borrowed from the text where it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(text)))
            }
            fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }
            fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        d.deserialize_str(TextVisitor)
    }
}

/// A derived struct read from a JSON object only: serde_json also reads a struct from an
/// array of its fields in order, which the manifest's reader refuses.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectVisitor(PhantomData)).map(Object)
    }
}

/// An entry as written: every key `parse_entry` allows, none other.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, bound(deserialize = "'de: 'a"))]
struct EntryWire<'a> {
    #[serde(deserialize_with = "present")]
    duplicate_keys: Option<Vec<Text<'a>>>,
    #[serde(deserialize_with = "present")]
    strict: Option<Object<ModeWire<'a>>>,
    #[serde(deserialize_with = "present")]
    lenient: Option<Object<ModeWire<'a>>>,
    #[serde(deserialize_with = "present")]
    content: Option<Value>,
    #[serde(deserialize_with = "present")]
    kind: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    object: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    state: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    migrated: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    verdict: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    run_root: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    signer: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    failing: Option<Vec<Text<'a>>>,
    #[serde(deserialize_with = "present")]
    warning: Option<Vec<Text<'a>>>,
}

/// One mode's record as written.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields, bound(deserialize = "'de: 'a"))]
struct ModeWire<'a> {
    #[serde(deserialize_with = "present")]
    error: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    rule: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    rows: Option<Vec<Text<'a>>>,
    #[serde(deserialize_with = "present")]
    state: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    handoff: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    discovery: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    payload: Option<Text<'a>>,
    #[serde(deserialize_with = "present")]
    content: Option<Value>,
}

/// `Some(None)` when absent, `Some(Some(digest))` when 64 hex digits, `None` otherwise.
fn digest(text: &Option<Text<'_>>) -> Option<Option<Digest>> {
    match text {
        None => Some(None),
        Some(Text(hex)) => Digest::from_hex(hex).map(Some),
    }
}

fn state(text: &Option<Text<'_>>) -> Option<Option<HandoffState>> {
    match text {
        None => Some(None),
        Some(Text(key)) => HandoffState::from_key(key).map(Some),
    }
}

fn owned(text: Option<Text<'_>>) -> Option<String> {
    text.map(|Text(text)| text.into_owned())
}

fn owned_list(list: Option<Vec<Text<'_>>>) -> Vec<String> {
    list.unwrap_or_default()
        .into_iter()
        .map(|Text(text)| text.into_owned())
        .collect()
}

impl EntryWire<'_> {
    fn has_object_keys(&self) -> bool {
        self.kind.is_some()
            || self.object.is_some()
            || self.state.is_some()
            || self.migrated.is_some()
            || self.verdict.is_some()
            || self.run_root.is_some()
            || self.signer.is_some()
            || self.failing.is_some()
            || self.warning.is_some()
    }

    /// The rules `parse_entry` and `parse_object` apply beyond the keys' types.
    fn entry(self) -> Option<GoldenEntry> {
        let mut entry = GoldenEntry::default();
        let has_object = self.has_object_keys();
        if has_object {
            if self.strict.is_some() || self.lenient.is_some() {
                return None;
            }
            let kind = PacketKind::from_tag(&self.kind.as_ref()?.0)
                .filter(|&kind| records_object(kind))?;
            entry.object = Some(Box::new(ObjectGolden {
                kind,
                object: digest(&self.object)??,
                state: state(&self.state)?,
                migrated: digest(&self.migrated)?,
                verdict: owned(self.verdict),
                run_root: owned(self.run_root),
                signer: owned(self.signer),
                failing: owned_list(self.failing),
                warning: owned_list(self.warning),
            }));
        }
        if let Some(content) = &self.content {
            if !has_object {
                return None;
            }
            entry.content.object = Some(Content::of(content)?);
        }
        entry.duplicate_keys = owned_list(self.duplicate_keys);
        for (mode, wire) in Mode::BOTH.into_iter().zip([self.strict, self.lenient]) {
            if let Some(Object(wire)) = wire {
                let (golden, content) = wire.mode()?;
                entry.set_mode(mode, Some(golden));
                entry.content.modes[mode.index()] = content;
            }
        }
        Some(entry)
    }
}

impl ModeWire<'_> {
    /// The rules `parse_mode` applies beyond the keys' types; the recorded content beside.
    fn mode(self) -> Option<(ModeGolden, Option<Content>)> {
        if self.content.is_some() && self.payload.is_none() {
            return None;
        }
        let rows = match &self.rows {
            None => None,
            Some(ids) => {
                let mut rows = RowSet::default();
                for Text(id) in ids {
                    if !COVERAGE_ROW_IDS.contains(&id.as_ref()) {
                        return None;
                    }
                    rows.insert(id);
                }
                Some(rows)
            }
        };
        let golden = ModeGolden {
            error: match &self.error {
                None => None,
                Some(Text(name)) => Some(ErrorKind::parse(name)?),
            },
            rule: owned(self.rule),
            rows,
            state: state(&self.state)?,
            handoff: digest(&self.handoff)?,
            discovery: digest(&self.discovery)?,
            payload: digest(&self.payload)?,
        };
        let converted = golden.state.is_some()
            || golden.handoff.is_some()
            || golden.discovery.is_some()
            || golden.payload.is_some();
        if (golden.error.is_some() && converted)
            || (golden.rule.is_some() && golden.error.is_none())
        {
            return None;
        }
        let content = match &self.content {
            None => None,
            Some(value) => Some(Content::of(value)?),
        };
        Some((golden, content))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::manifest::parse_entry;
    use proptest::prelude::*;

    const HEX: &str = "\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"";

    /// What each key may hold: valid values first, then what the reader must refuse.
    fn values(key: &str) -> Vec<String> {
        let digests = [
            HEX.to_owned(),
            HEX.to_uppercase(),
            "\"abc\"".to_owned(),
            "7".to_owned(),
            "null".to_owned(),
            "\"\\u0030123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"".to_owned(),
        ];
        let list: &[&str] = match key {
            "error" => &[
                r#""measurement""#,
                r#""strict_lossiness_violation""#,
                r#""boom""#,
                "null",
                "1",
            ],
            "rule" | "verdict" | "run_root" | "signer" => &[r#""S3""#, r#""va\"lid""#, "null", "5"],
            "rows" => &[
                r#"["P","TR"]"#,
                "[]",
                r#"["P","P","N7"]"#,
                r#"["Q9"]"#,
                r#""P""#,
                "[1]",
                "null",
            ],
            "state" => &[
                r#""defaults""#,
                r#""task_ref_only""#,
                r#""nope""#,
                "null",
                "{}",
            ],
            "handoff" | "discovery" | "payload" | "object" | "migrated" => return digests.to_vec(),
            "content" => &[
                r#"{"b":[1,2.5,"x"],"a":null}"#,
                "null",
                "[1,2]",
                r#""s""#,
                "1e400",
            ],
            "duplicate_keys" | "failing" | "warning" => &[
                r#"["$.a","X-1"]"#,
                "[]",
                r#""x""#,
                "[1]",
                "null",
                r#"["\u0041"]"#,
            ],
            "kind" => &[
                r#""payload""#,
                r#""a2a-0.3""#,
                r#""bundle""#,
                r#""uaix""#,
                r#""raw""#,
                r#""nope""#,
                "null",
            ],
            _ => &["{}", "1"],
        };
        list.iter().map(|value| (*value).to_owned()).collect()
    }

    const MODE_SHAPES: [&[&str]; 3] = [
        &["error", "rule", "rows"],
        &[
            "rows",
            "state",
            "handoff",
            "discovery",
            "payload",
            "content",
        ],
        &[
            "error", "rule", "rows", "state", "handoff", "payload", "content", "sloppy",
        ],
    ];
    const ENTRY_SHAPES: [&[&str]; 3] = [
        &["duplicate_keys", "strict", "lenient"],
        &[
            "duplicate_keys",
            "kind",
            "object",
            "state",
            "migrated",
            "verdict",
            "run_root",
            "signer",
            "failing",
            "warning",
            "content",
        ],
        &[
            "duplicate_keys",
            "strict",
            "kind",
            "object",
            "content",
            "failing",
            "bogus",
        ],
    ];

    /// An object of some of `keys`, each with one of its values, chosen by `picks`.
    fn object(keys: &[&str], picks: &[(bool, u8)], value: &dyn Fn(&str, u8) -> String) -> String {
        let members: Vec<String> = keys
            .iter()
            .zip(picks)
            .filter(|(_, (present, _))| *present)
            .map(|(key, (_, pick))| format!("\"{key}\":{}", value(key, *pick)))
            .collect();
        format!("{{{}}}", members.join(","))
    }

    fn entry_text(shape: u8, picks: &[(bool, u8)], modes: [(u8, Vec<(bool, u8)>); 2]) -> String {
        let mode_text = |index: usize| {
            let (shape, picks) = &modes[index];
            match shape % 5 {
                3 => "[]".to_owned(),
                4 => "null".to_owned(),
                shape => object(MODE_SHAPES[shape as usize], picks, &|key, pick| {
                    let values = values(key);
                    // Mostly valid values: the first two of each list.
                    values[if pick % 4 != 0 {
                        pick as usize % 2
                    } else {
                        pick as usize % values.len()
                    }]
                    .clone()
                }),
            }
        };
        object(
            ENTRY_SHAPES[shape as usize % 3],
            picks,
            &|key, pick| match key {
                "strict" => mode_text(0),
                "lenient" => mode_text(1),
                _ => {
                    let values = values(key);
                    values[if pick % 4 != 0 {
                        pick as usize % 2
                    } else {
                        pick as usize % values.len()
                    }]
                    .clone()
                }
            },
        )
    }

    proptest! {
        #[test]
        fn the_typed_reader_agrees_with_parse_entry(
            shape in any::<u8>(),
            picks in proptest::collection::vec(any::<(bool, u8)>(), 10),
            strict in (any::<u8>(), proptest::collection::vec(any::<(bool, u8)>(), 8)),
            lenient in (any::<u8>(), proptest::collection::vec(any::<(bool, u8)>(), 8)),
        ) {
            let text = entry_text(shape, &picks, [strict, lenient]);
            let expected = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|tree| parse_entry(&tree, "$").ok());
            prop_assert_eq!(read_entry_typed(text.as_bytes()), expected, "{}", text);
        }
    }

    #[test]
    fn both_readers_accept_and_refuse_the_same_samples() {
        let accepted = [
            "{}".to_owned(),
            format!(
                r#"{{"strict":{{"rows":["P","TR"],"state":"task_ref_only","payload":{HEX},"content":{{"a":1}}}},"lenient":{{}}}}"#
            ),
            r#"{"duplicate_keys":["$.a"],"strict":{"error":"measurement","rule":"S3"}}"#.to_owned(),
            format!(
                r#"{{"kind":"bundle","object":{HEX},"verdict":"valid","failing":[],"warning":["W"],"content":[1]}}"#
            ),
        ];
        let refused = [
            "[]".to_owned(),
            "[{}]".to_owned(),
            r#"{"strict":[]}"#.to_owned(),
            r#"{"strict":{"rule":"S3"}}"#.to_owned(),
            r#"{"strict":{"rule":null,"error":"measurement"}}"#.to_owned(),
            format!(r#"{{"strict":{{"error":"measurement","payload":{HEX}}}}}"#),
            r#"{"strict":{"content":{}}}"#.to_owned(),
            r#"{"content":{}}"#.to_owned(),
            r#"{"kind":"raw","object":"x"}"#.to_owned(),
            format!(r#"{{"kind":"payload","object":{HEX},"strict":{{}}}}"#),
            format!(r#"{{"object":{HEX}}}"#),
            r#"{"kind":"payload"}"#.to_owned(),
            r#"{"sloppy":{}}"#.to_owned(),
            format!(
                r#"{{"kind":"payload","object":{HEX},"content":"{}"}}"#,
                "x".repeat(crate::golden::content::MAX_CONTENT_BYTES)
            ),
        ];
        for text in accepted.iter().chain(&refused) {
            let tree: Value = serde_json::from_str(text).unwrap();
            let expected = parse_entry(&tree, "$").ok();
            assert_eq!(read_entry_typed(text.as_bytes()), expected, "{text}");
        }
        for text in &accepted {
            assert!(read_entry_typed(text.as_bytes()).is_some(), "{text}");
        }
        for text in &refused {
            assert!(read_entry_typed(text.as_bytes()).is_none(), "{text}");
        }
    }

    /// Every goldens.json under `dir`.
    fn manifests_under(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
        for item in std::fs::read_dir(dir).unwrap() {
            let path = item.unwrap().path();
            if path.is_dir() {
                manifests_under(&path, found);
            } else if path.file_name().is_some_and(|name| name == "goldens.json") {
                found.push(path);
            }
        }
    }

    #[test]
    fn every_fixture_golden_reads_the_same_both_ways() {
        let mut manifests = Vec::new();
        manifests_under(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
            &mut manifests,
        );
        let mut entries = 0;
        for path in manifests {
            let text = std::fs::read(&path).unwrap();
            let manifest = crate::golden::parse_manifest(&text).unwrap();
            for entry in manifest.packets.values() {
                let json = crate::golden::manifest::entry_json(entry);
                assert_eq!(
                    read_entry_typed(json.as_bytes()).as_ref(),
                    Some(entry),
                    "{json}"
                );
                entries += 1;
            }
        }
        assert!(entries > 100, "{entries} entries");
    }

    proptest! {
        #[test]
        fn any_entry_written_reads_back(entry in crate::golden::manifest::round_trip::arbitrary_entry()) {
            let json = crate::golden::manifest::entry_json(&entry);
            prop_assert_eq!(read_entry_typed(json.as_bytes()), Some(entry));
        }
    }
}
