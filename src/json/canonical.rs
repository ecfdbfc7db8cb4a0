//! Canonical JSON as the adapter spec (section 9) defines it: object keys sorted by byte order,
//! no whitespace, strings and numbers exactly as `serde_json` writes them, arrays in order.
//!
//! `serde_json` is built without `preserve_order`, so its `Map` is a `BTreeMap<String, _>`
//! whose iteration order is byte order: serializing a `Value` *is* the canonical form. The
//! crate-level test `map_is_sorted_by_bytes` guards that assumption, because a transitive
//! dependency switching on `preserve_order` would silently change every digest.

use serde_json::Value;
use sha2::{Digest as _, Sha256};
use std::fmt;

/// A SHA-256 digest, displayed as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// 64 lowercase hex digits. Written directly: it runs for every packet converted.
    pub fn to_hex(&self) -> String {
        self.hex_str(&mut [0u8; 64]).to_owned()
    }

    /// The 64 lowercase hex digits written into `buffer`, borrowed from it: `convert` writes
    /// three digests a packet, and an allocation (or a char-at-a-time push, or a lossy UTF-8
    /// pass) per digest showed up in its profile.
    pub fn hex_str<'b>(&self, buffer: &'b mut [u8; 64]) -> &'b str {
        super::hex_into(&self.0, buffer)
    }

    /// Parses 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Option<Digest> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (index, pair) in bytes.chunks_exact(2).enumerate() {
            let high = (pair[0] as char).to_digit(16)?;
            let low = (pair[1] as char).to_digit(16)?;
            out[index] = (high * 16 + low) as u8;
        }
        Some(Digest(out))
    }

    /// The first `n` hex digits, for compact display.
    pub fn short(&self, n: usize) -> String {
        let mut hex = self.to_hex();
        hex.truncate(n.min(64));
        hex
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hex_str(&mut [0u8; 64]))
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

impl serde::Serialize for Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Canonical bytes of a JSON value.
pub fn canonical_bytes(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    // Writing a `Value` into a `Vec` cannot fail: there is no I/O and every key is a string.
    if serde_json::to_writer(&mut out, value).is_err() {
        out.clear();
    }
    out
}

/// Canonical JSON indented for people (same key order), used for line diffs.
pub fn canonical_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// [`canonical_pretty`] of the value whose canonical bytes are `compact`, laid out from the
/// text without a tree, and only its first `max_lines` lines (a payload whose `attributes`
/// hold a million small objects is 14 MB of text and 700 MB as a tree).
pub fn canonical_pretty_of(compact: &[u8], max_lines: usize) -> String {
    let mut out = Vec::with_capacity(compact.len().min(1 << 20) * 2);
    let mut lines = 1;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut bytes = compact.iter().copied().peekable();
    let newline = |out: &mut Vec<u8>, depth: usize, lines: &mut usize| {
        out.push(b'\n');
        out.resize(out.len() + 2 * depth, b' ');
        *lines += 1;
    };
    while let Some(byte) = bytes.next() {
        if lines > max_lines {
            break;
        }
        if in_string {
            out.push(byte);
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                out.push(byte);
            }
            b'{' | b'[' => {
                out.push(byte);
                let close = if byte == b'{' { b'}' } else { b']' };
                if bytes.peek() == Some(&close) {
                    out.push(close);
                    bytes.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth, &mut lines);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth, &mut lines);
                out.push(byte);
            }
            b',' => {
                out.push(byte);
                newline(&mut out, depth, &mut lines);
            }
            b':' => out.extend_from_slice(b": "),
            _ => out.push(byte),
        }
    }
    // The last line started may be cut: only whole lines are kept.
    if lines > max_lines {
        if let Some(end) = out.iter().rposition(|&byte| byte == b'\n') {
            out.truncate(end);
        }
    }
    String::from_utf8(out)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

pub fn digest_bytes(bytes: &[u8]) -> Digest {
    Digest(Sha256::digest(bytes).into())
}

/// SHA-256 of the canonical bytes of `value`.
pub fn digest_value(value: &Value) -> Digest {
    digest_bytes(&canonical_bytes(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pretty_from_canonical_text_equals_pretty_from_the_tree() {
        for value in [
            json!({"a": [1, {"b": [], "c": {}}, "x\"y\\,:{"], "d": {"e": null, "f": [true]}}),
            json!([]),
            json!({}),
            json!("s"),
            json!([[[[]]], {"k": [{}]}]),
        ] {
            let pretty = canonical_pretty(&value);
            assert_eq!(
                canonical_pretty_of(&canonical_bytes(&value), usize::MAX),
                pretty
            );
            for max in 1..pretty.lines().count() + 2 {
                let cut: Vec<&str> = pretty.lines().take(max).collect();
                assert_eq!(
                    canonical_pretty_of(&canonical_bytes(&value), max),
                    cut.join("\n")
                );
            }
        }
    }

    #[test]
    fn map_is_sorted_by_bytes() {
        // "Z" (0x5A) < "a" (0x61) < "é" (0xC3 0xA9): byte order, not alphabetical order.
        let value: Value =
            serde_json::from_str(r#"{"é":1,"a":2,"Z":3,"aa":{"b":1,"B":2}}"#).unwrap();
        assert_eq!(
            String::from_utf8(canonical_bytes(&value)).unwrap(),
            r#"{"Z":3,"a":2,"aa":{"B":2,"b":1},"é":1}"#
        );
    }

    #[test]
    fn strings_and_numbers_as_serde_json_writes_them() {
        let value = json!({"s": "a\u{1}\"\\/\u{7f}é", "f": 1.5, "i": -3, "e": 1e300});
        assert_eq!(
            String::from_utf8(canonical_bytes(&value)).unwrap(),
            "{\"e\":1e+300,\"f\":1.5,\"i\":-3,\"s\":\"a\\u0001\\\"\\\\/\u{7f}é\"}"
        );
    }

    #[test]
    fn default_handoff_digest_matches_the_spec() {
        let handoff = json!({"visible": false, "source_kind": "unknown", "task_ref_visible": false, "message_ref_visible": false});
        assert_eq!(
            digest_value(&handoff).to_hex(),
            "60e992b4881c03d816cd94929856d8c8cade113f62273d42a8a75412533a294a"
        );
    }

    #[test]
    fn hex_round_trip() {
        let digest = digest_bytes(b"abc");
        assert_eq!(Digest::from_hex(&digest.to_hex()), Some(digest));
        assert_eq!(
            Digest::from_hex(&digest.to_hex().to_uppercase()),
            Some(digest)
        );
        assert_eq!(Digest::from_hex("zz"), None);
        assert_eq!(digest.short(6), "ba7816");
        assert_eq!(
            digest.to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(digest.to_string(), digest.to_hex());
    }
}
