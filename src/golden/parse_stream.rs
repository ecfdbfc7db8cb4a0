//! Reading a manifest's JSON one packet entry at a time: the entries are turned into
//! `GoldenEntry` values as the parser reaches them, so the whole document is never held as a
//! `serde_json::Value` tree (about six times the file for a manifest of digests: a 50 MB
//! manifest took 414 MiB to read that way). Each entry, and the format and options, are
//! still checked by the same functions, with the same messages.

use super::manifest::{
    bad, check_format, parse_entry, parse_options, quoted, ManifestError, PacketKey,
    RecordedOptions,
};
use super::GoldenEntry;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// The manifest's parts as read; what is missing is reported by the caller.
pub(super) struct Parts {
    pub options: Option<RecordedOptions>,
    pub format_seen: bool,
    pub packets: Option<BTreeMap<PacketKey, GoldenEntry>>,
}

/// Parses `bytes`; a problem with the content is a `ManifestError` naming the place, one
/// with the JSON itself is `not JSON: ...`.
pub(super) fn parse_parts(bytes: &[u8]) -> Result<Parts, ManifestError> {
    let mut found: Option<ManifestError> = None;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let parsed = Root { found: &mut found }
        .deserialize(&mut deserializer)
        .and_then(|parts| deserializer.end().map(|()| parts));
    match (parsed, found) {
        (_, Some(error)) => Err(error),
        (Ok(parts), None) => Ok(parts),
        (Err(error), None) => Err(bad(format!("not JSON: {error}"))),
    }
}

/// Records `error` as the reason and stops the parser.
fn stop<T, E: serde::de::Error>(
    found: &mut Option<ManifestError>,
    error: ManifestError,
) -> Result<T, E> {
    *found = Some(error);
    Err(E::custom("manifest content error"))
}

/// The visitor's answer to anything that is not an object where one is required.
macro_rules! not_an_object {
    ($($method:ident: $type:ty),*) => {
        $(fn $method<E: serde::de::Error>(self, _value: $type) -> Result<Self::Value, E> {
            let error = bad(format!("{} must be an object", self.at()));
            stop(self.found, error)
        })*
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            let error = bad(format!("{} must be an object", self.at()));
            stop(self.found, error)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, _seq: A) -> Result<Self::Value, A::Error> {
            let error = bad(format!("{} must be an object", self.at()));
            stop(self.found, error)
        }
    };
}

struct Root<'f> {
    found: &'f mut Option<ManifestError>,
}

impl Root<'_> {
    fn at(&self) -> &'static str {
        "$"
    }
}

impl<'de> DeserializeSeed<'de> for Root<'_> {
    type Value = Parts;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Parts, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Root<'_> {
    type Value = Parts;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a golden manifest object")
    }

    not_an_object!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parts, A::Error> {
        let mut parts = Parts {
            options: None,
            format_seen: false,
            packets: None,
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                // Checked as soon as read: a file that is not a manifest is called so before
                // its other content is looked at (the format comes first in every manifest
                // this tool writes).
                "format" => {
                    let value: Value = map.next_value()?;
                    if let Err(error) = check_format(Some(&value)) {
                        return stop(self.found, error);
                    }
                    parts.format_seen = true;
                }
                "options" => {
                    let value: Value = map.next_value()?;
                    match parse_options(&value) {
                        Ok(options) => parts.options = Some(options),
                        Err(error) => return stop(self.found, error),
                    }
                }
                "packets" => {
                    parts.packets = Some(map.next_value_seed(Packets {
                        found: &mut *self.found,
                    })?);
                }
                other => {
                    return stop(
                        self.found,
                        bad(format!(
                            "$ has an unexpected key {} (allowed: format, options, packets)",
                            quoted(other)
                        )),
                    )
                }
            }
        }
        Ok(parts)
    }
}

struct Packets<'f> {
    found: &'f mut Option<ManifestError>,
}

impl Packets<'_> {
    fn at(&self) -> &'static str {
        "$.packets"
    }
}

impl<'de> DeserializeSeed<'de> for Packets<'_> {
    type Value = BTreeMap<PacketKey, GoldenEntry>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Packets<'_> {
    type Value = BTreeMap<PacketKey, GoldenEntry>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the manifest's packets object")
    }

    not_an_object!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut packets = BTreeMap::new();
        while let Some(name) = map.next_key::<String>()? {
            // One entry's tree at a time.
            let value: Value = map.next_value()?;
            let at = format!("$.packets[{}]", quoted(&name));
            match parse_entry(&value, &at) {
                Ok(entry) => {
                    packets.insert(PacketKey::parse(&name), entry);
                }
                Err(error) => return stop(self.found, error),
            }
        }
        Ok(packets)
    }
}
