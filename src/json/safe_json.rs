//! JSON output that is safe to print on a terminal: the same JSON value as `serde_json`
//! writes, but with every character `is_unsafe_char` flags (C1 controls, bidi overrides,
//! invisibles; serde_json already escapes C0) written as a `\uXXXX` escape. Used for every
//! JSON line the CLI prints; canonical bytes and digests never go through it.

use super::is_unsafe_char;
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};
use std::io::{self, Write};

struct SafeFormatter;

impl Formatter for SafeFormatter {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Printable ASCII (C0 never reaches here: serde_json escapes it) needs no look.
        if fragment.bytes().all(|byte| byte < 0x7f) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (index, c) in fragment.char_indices() {
            if is_unsafe_char(c) {
                writer.write_all(&fragment.as_bytes()[start..index])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(writer, "\\u{unit:04x}")?;
                }
                start = index + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }

    // Everything else as the compact formatter writes it.
    fn begin_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        CompactFormatter.begin_string(writer)
    }
}

/// Serializes `value` as compact, terminal-safe JSON.
pub fn to_safe_json(value: &impl Serialize) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(512);
    write_safe_json(&mut out, value)?;
    // The formatter writes only whole UTF-8 sequences and ASCII escapes.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// [`to_safe_json`] written to `writer` as it is serialized, never held whole: a report that
/// lists a million repeated keys is 40 MB of text. On an error the writer holds what was
/// written before it.
pub fn write_safe_json(writer: impl Write, value: &impl Serialize) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(
        writer,
        SafeFormatter,
    ))
}

/// Makes JSON bytes written by a direct writer terminal-safe, as `to_safe_json` would have
/// written them: outside strings compact JSON holds only ASCII, and inside strings C0 is
/// already escaped, so every unsafe character is inside a string and its `\uXXXX` escape
/// keeps the JSON equal. Pure ASCII without DEL (the common case) is returned as it is, so the
/// result is UTF-8 JSON whenever the writer wrote only `&str` pieces and ASCII.
pub fn safe_json_bytes(bytes: Vec<u8>) -> Vec<u8> {
    // The highest byte by a fold without early exit, which the compiler vectorizes: this scan
    // runs over every `convert` line, and a byte-at-a-time `all` was an eighth of its time.
    let highest = bytes.iter().fold(0u8, |highest, &byte| highest.max(byte));
    if highest < 0x7f {
        return bytes;
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        // Direct writers only write `&str` pieces and ASCII; never reached, but never a panic.
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    escape_unsafe_in_json(text).into_bytes()
}

/// Escapes every unsafe character of JSON text (compact or pretty) as `\uXXXX`, newlines
/// of pretty layout kept; the text is returned as it is when nothing needs escaping. Only
/// correct for JSON whose C0 controls inside strings are already escaped, as `serde_json`
/// writes them: every other unsafe character is then inside a string, where the escape keeps
/// the value equal.
pub fn escape_unsafe_in_json(text: String) -> String {
    let Some(first) = first_unsafe_in_json(&text) else {
        return text;
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if is_unsafe_in_json(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// An unsafe character other than the newlines of pretty layout.
fn is_unsafe_in_json(c: char) -> bool {
    c != '\n' && is_unsafe_char(c)
}

/// Where the first unsafe character is. Printable ASCII (nearly all of a line) is told by a
/// byte comparison; only the rest is decoded and looked up.
fn first_unsafe_in_json(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if (0x20..0x7f).contains(&byte) {
            index += 1;
            continue;
        }
        // `index` is on a character boundary: only whole characters are stepped over.
        let c = text.get(index..)?.chars().next()?;
        if is_unsafe_in_json(c) {
            return Some(index);
        }
        index += c.len_utf8();
    }
    None
}

/// Serializes `value` as pretty, terminal-safe JSON. Outside strings pretty JSON holds only
/// ASCII punctuation, white space and digits, and inside strings serde_json already escapes
/// C0 controls, so every other unsafe character is inside a string and its `\uXXXX` escape
/// keeps the JSON equal.
pub fn to_safe_json_pretty(value: &impl Serialize) -> serde_json::Result<String> {
    Ok(escape_unsafe_in_json(serde_json::to_string_pretty(value)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn safe_bytes_equal_the_safe_serializer() {
        for value in [
            json!({"a": "plain", "b": [1, 2.5, null]}),
            json!({"k\u{202e}": ["a\u{1b}b\u{9b}\u{7f}\u{200b}\u{e0041}é\n"]}),
        ] {
            let direct = safe_json_bytes(serde_json::to_vec(&value).unwrap());
            assert_eq!(direct, to_safe_json(&value).unwrap().into_bytes());
        }
    }

    #[test]
    fn pretty_output_escapes_too_and_round_trips() {
        let value = json!({"k\u{202e}": ["a\u{1b}b\u{9b}\u{7f}\u{200b}\u{e0041}é\n"]});
        let text = to_safe_json_pretty(&value).unwrap();
        assert!(text.contains("\\u202e") && text.contains("\\u009b") && text.contains("\\u007f"));
        assert!(
            !text.chars().any(|c| c != '\n' && is_unsafe_char(c)),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }

    #[test]
    fn the_first_unsafe_character_is_found_past_ascii_and_safe_non_ascii() {
        assert_eq!(first_unsafe_in_json("{\"a\":\"plain\"}\n"), None);
        assert_eq!(first_unsafe_in_json("é\u{202e}x"), Some(2));
        assert_eq!(first_unsafe_in_json("ab\u{7f}"), Some(2));
        assert_eq!(first_unsafe_in_json("a\tb"), Some(1));
        assert_eq!(
            escape_unsafe_in_json("é\u{202e}\n\u{9b}".to_owned()),
            "é\\u202e\n\\u009b"
        );
    }

    #[test]
    fn escapes_unsafe_characters_and_round_trips() {
        let value = json!({"k\u{202e}": "a\u{1b}b\u{9b}c\u{200b}d\u{e0041}é"});
        let text = to_safe_json(&value).unwrap();
        assert_eq!(text, r#"{"k\u202e":"a\u001bb\u009bc\u200bd\udb40\udc41é"}"#);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}
