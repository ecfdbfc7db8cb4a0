//! One `convert` output line: `{"source","ok":true,"batch","digests"}` or
//! `{"source","ok":false,"error"}`. A converted line is written straight from the
//! conversion's facts (the batch's canonical bytes, the payload digest taken over the payload
//! bytes on the way, the memoized handoff and discovery digests): no `Value` tree, no second
//! serialization. The tests' `line_via_value` builds the same line through `serde_json` and
//! is its oracle (on fixtures' shapes, generated strings and the 20,000 recorded packets).

use crate::a2a::{Conversion, ConversionError};
use crate::corpus::Source;
use crate::json::{safe_json_bytes, to_safe_json};
use serde::Serialize;

/// The line for one packet: terminal-safe UTF-8 JSON, without the newline.
pub fn convert_line(source: &Source, conversion: &Conversion) -> serde_json::Result<Vec<u8>> {
    let converted = match &conversion.result {
        Ok(converted) => converted,
        Err(error) => return to_safe_json(&ErrorLine::new(source, error)).map(String::into_bytes),
    };
    let mut line = Vec::with_capacity(2048);
    line.extend_from_slice(br#"{"source":"#);
    serde_json::to_writer(&mut line, source)?;
    line.extend_from_slice(br#","ok":true,"batch":"#);
    let payload = converted.write_batch(&mut line);
    let mut hex = [0u8; 64];
    line.extend_from_slice(br#","digests":{"payload":""#);
    line.extend_from_slice(payload.hex_str(&mut hex).as_bytes());
    line.extend_from_slice(br#"","handoff":""#);
    line.extend_from_slice(converted.handoff_digest().hex_str(&mut hex).as_bytes());
    line.extend_from_slice(br#"","discovery":""#);
    line.extend_from_slice(converted.discovery_digest().hex_str(&mut hex).as_bytes());
    line.extend_from_slice(br#""}}"#);
    Ok(safe_json_bytes(line))
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    source: &'a Source,
    ok: bool,
    error: &'a ConversionError,
}

impl<'a> ErrorLine<'a> {
    fn new(source: &'a Source, error: &'a ConversionError) -> ErrorLine<'a> {
        ErrorLine {
            source,
            ok: false,
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::{convert, ConvertOptions, Mode};
    use crate::json::{to_safe_json, Digest};
    use proptest::prelude::*;
    use serde_json::Value;

    // The oracle: the line built through `serde` structs and a `Value`, the obvious way, which
    // the direct writer must match byte for byte (test-only, as the reference converter is
    // for the converter).
    #[derive(Serialize)]
    struct Digests {
        payload: Digest,
        handoff: Digest,
        discovery: Digest,
    }

    #[derive(Serialize)]
    struct ConvertedLine<'a> {
        source: &'a Source,
        ok: bool,
        batch: Value,
        digests: Digests,
    }

    /// The same line built as a `Value` and serialized: the oracle `convert_line` is tested
    /// against (as the reference converter is for the converter).
    fn line_via_value(source: &Source, conversion: &Conversion) -> serde_json::Result<String> {
        match &conversion.result {
            Ok(converted) => to_safe_json(&ConvertedLine {
                source,
                ok: true,
                batch: converted.batch(),
                digests: Digests {
                    payload: converted.payload_digest(),
                    handoff: converted.handoff_digest(),
                    discovery: converted.discovery_digest(),
                },
            }),
            Err(error) => to_safe_json(&ErrorLine::new(source, error)),
        }
    }

    fn both(packet: &str, mode: Mode) -> (String, String) {
        let conversion = convert(
            packet.as_bytes(),
            &ConvertOptions::default().with_mode(mode),
        );
        let source = Source::file("dir/p\u{1b}[31m.json");
        (
            String::from_utf8(convert_line(&source, &conversion).unwrap()).unwrap(),
            line_via_value(&source, &conversion).unwrap(),
        )
    }

    #[test]
    fn direct_lines_equal_the_value_lines() {
        for packet in [
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a\u009b\u202e"},"task":{"id":"t","kind":"delegation"},"message":{"id":"m"},"attributes":{"b":[2,1],"a":"\u0007"}}"#,
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"}}"#,
            "not json",
        ] {
            for mode in Mode::BOTH {
                let (direct, oracle) = both(packet, mode);
                assert_eq!(direct, oracle);
            }
        }
    }

    /// Moved from tests/conversion/upstream_differential.rs with the oracle: the direct line
    /// equals the `Value` line for every one of the 20,000 recorded packets, both modes.
    #[test]
    fn realistic_mix_lines_equal_the_value_lines() {
        use std::io::BufRead;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/oracle/a2a-mixed-20k.ndjson.gz");
        let file = std::fs::File::open(path).unwrap();
        let packets: Vec<Vec<u8>> = std::io::BufReader::new(flate2::read::GzDecoder::new(file))
            .split(b'\n')
            .map(|line| line.unwrap())
            .collect();
        assert_eq!(packets.len(), 20_000);
        let name: std::sync::Arc<std::path::Path> =
            std::sync::Arc::from(std::path::Path::new("mix.ndjson"));
        for mode in Mode::BOTH {
            let options = ConvertOptions {
                adapter_version: "5.4.0".into(),
                ..ConvertOptions::default()
            }
            .with_mode(mode);
            let mismatches: Vec<usize> = packets
                .iter()
                .enumerate()
                .filter(|(index, packet)| {
                    let conversion = convert(packet, &options);
                    let source = Source::line(name.clone(), index + 1);
                    convert_line(&source, &conversion).unwrap()
                        != line_via_value(&source, &conversion).unwrap().into_bytes()
                })
                .map(|(index, _)| index + 1)
                .collect();
            assert!(
                mismatches.is_empty(),
                "{mode}: lines {:?}",
                &mismatches[..mismatches.len().min(10)]
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Any strings in the identifying fields and attributes, both modes.
        #[test]
        fn direct_lines_equal_the_value_lines_for_any_strings(
            agent in "\\PC{0,12}",
            task in prop::option::of("\\PC{0,8}"),
            kind in prop::sample::select(vec!["delegation", "analysis", ""]),
            time in prop::sample::select(vec!["2026-02-27T11:05:00+01:00", "x", "2026-02-27T10:05:00.5Z"]),
            attribute in "\\PC{0,10}",
            number in any::<f64>(),
        ) {
            let mut packet = serde_json::json!({
                "protocol": "a2a", "version": "0.2", "event_type": "task.requested",
                "timestamp": time, "agent": {"id": agent},
                "task": {"kind": kind}, "attributes": {"s": attribute, "n": [number]},
            });
            if let Some(task) = task {
                packet["task"]["id"] = task.into();
            }
            let text = packet.to_string();
            for mode in Mode::BOTH {
                let (direct, oracle) = both(&text, mode);
                prop_assert_eq!(direct, oracle);
            }
        }
    }
}
