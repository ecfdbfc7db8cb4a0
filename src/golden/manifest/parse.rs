//! Reading a manifest strictly: anything unexpected is an error naming the place.

use super::fields::{count, digest_field, object, only_keys, string};
use super::render::quoted;
use super::{
    bad, GoldenEntry, GoldenManifest, ManifestError, ModeGolden, RecordedOptions, MANIFEST_FORMAT,
    MANIFEST_FORMATS,
};
use crate::a2a::{ErrorKind, Mode};
use crate::freeze::{HandoffState, RowSet, COVERAGE_ROW_IDS};
use crate::golden::content::Content;
use crate::golden::object::{ObjectGolden, OBJECT_KEYS};
use crate::json::for_each_duplicate_key;
use crate::packet::PacketKind;
use serde_json::{Map, Value};

/// Parses a manifest's bytes. Entries are read one at a time (`parse_stream`): the memory
/// is the entries themselves, not a JSON tree of the whole file.
pub fn parse_manifest(bytes: &[u8]) -> Result<GoldenManifest, ManifestError> {
    let mut first_duplicate = None;
    for_each_duplicate_key(bytes, |duplicate| {
        first_duplicate.get_or_insert(duplicate);
    });
    if let Some(duplicate) = first_duplicate {
        return Err(bad(format!(
            "duplicate key at {}: one of the two entries would be lost",
            duplicate.path
        )));
    }
    let parts = crate::golden::parse_stream::parse_parts(bytes)?;
    if !parts.format_seen {
        check_format(None)?;
    }
    let options = parts.options.ok_or_else(|| bad("$.options is missing"))?;
    let packets = parts.packets.ok_or_else(|| bad("$.packets is missing"))?;
    Ok(GoldenManifest { options, packets })
}

/// The `format` field, present and this tool's.
pub(in crate::golden) fn check_format(value: Option<&Value>) -> Result<(), ManifestError> {
    match value.map(Value::as_str) {
        Some(Some(format)) if MANIFEST_FORMATS.contains(&format) => Ok(()),
        Some(Some(other)) => Err(bad(format!(
            "$.format is {}, expected \"{MANIFEST_FORMAT}\" (or v1)",
            quoted(other)
        ))),
        // Today's messages: a format that is not a string reads as missing.
        _ => Err(bad(format!("$.format is missing (\"{MANIFEST_FORMAT}\")"))),
    }
}

pub(in crate::golden) fn parse_options(value: &Value) -> Result<RecordedOptions, ManifestError> {
    let at = "$.options";
    let map = object(value, at)?;
    only_keys(
        map,
        at,
        &[
            "adapter_version",
            "protocol_version",
            "max_payload_bytes",
            "max_json_depth",
            "max_array_length",
        ],
    )?;
    Ok(RecordedOptions {
        adapter_version: string(map, "adapter_version", at)?
            .ok_or_else(|| bad("$.options.adapter_version is missing"))?
            .to_owned(),
        protocol_version: string(map, "protocol_version", at)?.map(str::to_owned),
        max_payload_bytes: count(map, "max_payload_bytes", at)?,
        max_json_depth: count(map, "max_json_depth", at)?,
        max_array_length: count(map, "max_array_length", at)?,
    })
}

pub(in crate::golden) fn parse_entry(
    value: &Value,
    at: &str,
) -> Result<GoldenEntry, ManifestError> {
    let map = object(value, at)?;
    let mut allowed = vec!["duplicate_keys", "strict", "lenient", "content"];
    allowed.extend(OBJECT_KEYS);
    only_keys(map, at, &allowed)?;
    let mut entry = GoldenEntry::default();
    if OBJECT_KEYS.iter().any(|key| map.contains_key(*key)) {
        entry.object = Some(Box::new(parse_object(map, at)?));
    }
    if let Some(content) = map.get("content") {
        if entry.object.is_none() {
            return Err(bad(format!(
                "{at}.content records an object's content, but the entry records no object (kind, object, ...)"
            )));
        }
        entry.content.object = Some(parse_content(content, &format!("{at}.content"))?);
    }
    if let Some(list) = map.get("duplicate_keys") {
        let items = list
            .as_array()
            .ok_or_else(|| bad(format!("{at}.duplicate_keys must be an array of paths")))?;
        for item in items {
            let path = item
                .as_str()
                .ok_or_else(|| bad(format!("{at}.duplicate_keys must hold strings")))?;
            entry.duplicate_keys.push(path.to_owned());
        }
    }
    for mode in Mode::BOTH {
        if let Some(golden) = map.get(mode.name()) {
            let mode_at = format!("{at}.{}", mode.name());
            entry.set_mode(mode, Some(parse_mode(golden, &mode_at)?));
            if let Some(content) = golden.as_object().and_then(|map| map.get("content")) {
                entry.content.modes[mode.index()] =
                    Some(parse_content(content, &format!("{mode_at}.content"))?);
            }
        }
    }
    Ok(entry)
}

/// An object golden as `ObjectGolden::to_json` writes it (saved `check` results carry one per
/// packet), read with the manifest's own rules.
pub fn parse_object_golden(value: &Value) -> Result<ObjectGolden, ManifestError> {
    let map = value
        .as_object()
        .ok_or_else(|| bad("object must be a JSON object"))?;
    parse_object(map, "object")
}

fn parse_object(map: &Map<String, Value>, at: &str) -> Result<ObjectGolden, ManifestError> {
    if map.contains_key("strict") || map.contains_key("lenient") {
        return Err(bad(format!(
            "{at} records both conversion outcomes (strict/lenient) and an object's (kind, object, ...)"
        )));
    }
    let kind = string(map, "kind", at)?
        .ok_or_else(|| bad(format!("{at}.kind is missing (it records an object)")))?;
    let kind = PacketKind::from_tag(kind)
        .filter(|&kind| crate::golden::object::records_object(kind))
        .ok_or_else(|| {
            bad(format!(
                "{at}.kind {} is not a kind with an object golden (payload, event, batch, a2a-0.3, a2a-1.0, a2a, ahc, contextcore, uaix, bundle)",
                quoted(kind)
            ))
        })?;
    let digest = |key: &str| digest_field(map, key, at);
    let ids = |key: &str| -> Result<Vec<String>, ManifestError> {
        let Some(list) = map.get(key) else {
            return Ok(Vec::new());
        };
        let items = list
            .as_array()
            .ok_or_else(|| bad(format!("{at}.{key} must be an array of finding ids")))?;
        items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(format!("{at}.{key} must hold strings")))
            })
            .collect()
    };
    Ok(ObjectGolden {
        kind,
        object: digest("object")?
            .ok_or_else(|| bad(format!("{at}.object is missing (the object's digest)")))?,
        state: string(map, "state", at)?
            .map(|key| {
                HandoffState::from_key(key).ok_or_else(|| {
                    bad(format!(
                        "{at}.state {} is not one of the five handoff states",
                        quoted(key)
                    ))
                })
            })
            .transpose()?,
        migrated: digest("migrated")?,
        verdict: string(map, "verdict", at)?.map(str::to_owned),
        run_root: string(map, "run_root", at)?.map(str::to_owned),
        signer: string(map, "signer", at)?.map(str::to_owned),
        failing: ids("failing")?,
        warning: ids("warning")?,
    })
}

fn parse_mode(value: &Value, at: &str) -> Result<ModeGolden, ManifestError> {
    let map = object(value, at)?;
    only_keys(
        map,
        at,
        &[
            "error",
            "rule",
            "rows",
            "state",
            "handoff",
            "discovery",
            "payload",
            "content",
        ],
    )?;
    if map.contains_key("content") && !map.contains_key("payload") {
        return Err(bad(format!(
            "{at}.content records a payload's content, but {at}.payload (its digest) is missing"
        )));
    }
    let digest = |key: &str| digest_field(map, key, at);
    let golden = ModeGolden {
        error: string(map, "error", at)?
            .map(|name| {
                ErrorKind::parse(name).ok_or_else(|| {
                    bad(format!(
                        "{at}.error {} is not an error kind (measurement, unsupported_protocol_version, strict_lossiness_violation)",
                        quoted(name)
                    ))
                })
            })
            .transpose()?,
        rule: string(map, "rule", at)?.map(str::to_owned),
        rows: map.get("rows").map(|rows| parse_rows(rows, at)).transpose()?,
        state: string(map, "state", at)?
            .map(|key| {
                HandoffState::from_key(key).ok_or_else(|| {
                    bad(format!("{at}.state {} is not one of the five handoff states", quoted(key)))
                })
            })
            .transpose()?,
        handoff: digest("handoff")?,
        discovery: digest("discovery")?,
        payload: digest("payload")?,
    };
    let converted_fields = golden.state.is_some()
        || golden.handoff.is_some()
        || golden.discovery.is_some()
        || golden.payload.is_some();
    if golden.error.is_some() && converted_fields {
        return Err(bad(format!(
            "{at} records both an error and a converted outcome"
        )));
    }
    if golden.rule.is_some() && golden.error.is_none() {
        return Err(bad(format!("{at}.rule is only meaningful with an error")));
    }
    Ok(golden)
}

/// A recorded content: any JSON value that is not over the cap.
fn parse_content(value: &Value, at: &str) -> Result<Content, ManifestError> {
    Content::of(value).ok_or_else(|| {
        bad(format!(
            "{at} is longer than {} bytes (canonical), the most a golden records",
            crate::golden::content::MAX_CONTENT_BYTES
        ))
    })
}

fn parse_rows(value: &Value, at: &str) -> Result<RowSet, ManifestError> {
    let items = value
        .as_array()
        .ok_or_else(|| bad(format!("{at}.rows must be an array of K1-A row ids")))?;
    let mut rows = RowSet::default();
    for item in items {
        match item.as_str() {
            Some(id) if COVERAGE_ROW_IDS.contains(&id) => rows.insert(id),
            _ => {
                return Err(bad(format!(
                    "{at}.rows holds {}, not a K1-A row id (P, TR, MR, SYN, N1-N7, X1-X10)",
                    crate::json::safe_text(&item.to_string())
                )))
            }
        }
    }
    Ok(rows)
}

/// Reads back what `entry_json` wrote.
pub(in crate::golden) fn parse_entry_json(value: &Value) -> Result<GoldenEntry, ManifestError> {
    parse_entry(value, "$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_manifests_are_errors_with_the_place() {
        let base = r#"{"format":"handoff-inspector goldens v1","options":{"adapter_version":"3.4.0"},"packets":PACKETS}"#;
        let cases = [
            (
                "{\"a.json\":{\"strict\":{\"error\":\"boom\"}}}",
                "$.packets[\"a.json\"].strict.error",
            ),
            (
                "{\"a.json\":{\"strict\":{\"handoff\":\"abc\"}}}",
                "must be 64 hex digits",
            ),
            (
                "{\"a.json\":{\"strict\":{\"rows\":[\"Q9\"]}}}",
                "not a K1-A row id",
            ),
            ("{\"a.json\":{\"sloppy\":{}}}", "unexpected key \"sloppy\""),
            ("{\"a.json\":{},\"a.json\":{}}", "duplicate key"),
            (
                "{\"a.json\":{\"strict\":{\"error\":\"measurement\",\"state\":\"defaults\"}}}",
                "both an error",
            ),
            ("[]", "$.packets must be an object"),
        ];
        for (packets, expected) in cases {
            let text = base.replace("PACKETS", packets);
            let error = parse_manifest(text.as_bytes()).unwrap_err();
            assert!(error.reason.contains(expected), "{packets}: {error}");
        }
        assert!(parse_manifest(b"{\"format\":\"other\"}")
            .unwrap_err()
            .reason
            .contains("$.format"));
        assert!(parse_manifest(b"not json").is_err());
        // The document's own shape, read entry by entry: the same words as a whole tree gave.
        let whole = [
            (&b"[1]"[..], "$ must be an object"),
            (b"7", "$ must be an object"),
            (b"{\"extra\":1}", "$ has an unexpected key \"extra\""),
            (b"{\"format\":1}", "$.format is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"options\":{\"adapter_version\":\"3.4.0\"}}", "$.packets is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"packets\":{}}", "$.options is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"options\":{},\"packets\":{}}", "$.options.adapter_version is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\"} x", "not JSON: trailing characters"),
            (b"{\"packets\":{\"a.json\":{}", "not JSON: EOF"),
        ];
        for (bytes, expected) in whole {
            let error = parse_manifest(bytes).unwrap_err();
            assert!(
                error.reason.starts_with(expected),
                "{}: {error}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn no_bytes_panic_the_parser(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = parse_manifest(&bytes);
        }
    }
}
