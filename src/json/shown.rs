//! A value as a person sees it in one line of text: compact JSON, terminal-safe, at most N
//! characters. Every face that quotes a packet's value in a message (evidence, path changes
//! in a golden diff, migration warnings, audit findings, run comparisons) writes it here, so
//! they all cut the same way.
//!
//! The cut: the text is made terminal-safe first (`safe_text` escapes), then cut on whole
//! units: a character, or a whole `\u{..}` escape, never half of one; a cut text ends in `…`
//! and is at most N characters with it. `…` rather than `...`: values often hold a literal
//! `...` (the spec examples' `"iVBORw0KGgo..."`), which must not read as a cut.
//!
//! Bounded work: the compact JSON is written only until it is known to be too long (N + 1
//! characters), so a 100 MB string costs what its first N characters cost.

use super::safe_text::is_unsafe_char;
use serde::Serialize;
use std::io;

/// What ends a cut text.
pub const CUT_MARK: char = '…';

/// `value` as compact JSON, terminal-safe, at most `max_chars` characters (a cut one ends in
/// [`CUT_MARK`]). A value that cannot be serialized (never the case for a `Value`) shows as
/// the part written before the failure.
pub fn shown_json<T: Serialize + ?Sized>(value: &T, max_chars: usize) -> String {
    let mut head = CharCappedWriter {
        bytes: Vec::new(),
        chars: 0,
        cap: max_chars.saturating_add(1),
    };
    // An error here is the writer's own "enough" (or a failing `Serialize`): what was
    // written so far is what there is to show.
    let _ = serde_json::to_writer(&mut head, value);
    // The writer keeps whole characters of serde_json's (valid UTF-8) output.
    let text = String::from_utf8_lossy(&head.bytes);
    shown_text(&text, max_chars)
}

/// `text` (already the text to show) terminal-safe and at most `max_chars` characters, cut
/// as [`shown_json`] cuts.
pub fn shown_text(text: &str, max_chars: usize) -> String {
    // Each character's shown width: 1, or the length of its `\u{hex}` escape.
    let width = |c: char| {
        if is_unsafe_char(c) {
            // `\u{` + hex digits + `}`.
            4 + (32 - (c as u32 | 1).leading_zeros()).div_ceil(4) as usize
        } else {
            1
        }
    };
    let mut total = 0usize;
    let mut fits_with_mark = 0usize; // bytes of `text` that fit before a `…`
    for (at, c) in text.char_indices() {
        total += width(c);
        if total < max_chars {
            fits_with_mark = at + c.len_utf8();
        }
        if total > max_chars {
            let mut out = super::safe_text(&text[..fits_with_mark]).into_owned();
            if max_chars > 0 {
                out.push(CUT_MARK);
            }
            return out;
        }
    }
    super::safe_text(text).into_owned()
}

/// The first `chars` characters of `text` (all of it when shorter), cut on a character
/// boundary.
pub fn char_prefix(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// Keeps the first `cap` characters written to it, then refuses more, which stops
/// serde_json early.
struct CharCappedWriter {
    bytes: Vec<u8>,
    chars: usize,
    cap: usize,
}

impl io::Write for CharCappedWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for (at, &byte) in buf.iter().enumerate() {
            // A byte that starts a character (not a UTF-8 continuation byte).
            if byte & 0xC0 != 0x80 {
                if self.chars == self.cap {
                    self.bytes.extend_from_slice(&buf[..at]);
                    return Err(io::Error::other("enough shown"));
                }
                self.chars += 1;
            }
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    #[test]
    fn short_values_are_whole_compact_json() {
        assert_eq!(
            shown_json(&json!({"b": [1, 2], "a": "x"}), 60),
            r#"{"a":"x","b":[1,2]}"#
        );
        assert_eq!(shown_json("kind", 60), r#""kind""#);
        assert_eq!(shown_json(&json!(null), 4), "null");
    }

    #[test]
    fn long_values_end_in_the_mark_within_the_width() {
        let value = json!("x".repeat(200));
        let shown = shown_json(&value, 60);
        assert_eq!(shown.chars().count(), 60);
        assert_eq!(shown, format!("\"{}…", "x".repeat(58)));
        // Exactly the width: whole.
        let value = json!("y".repeat(58));
        assert_eq!(shown_json(&value, 60), format!("\"{}\"", "y".repeat(58)));
    }

    #[test]
    fn cuts_on_characters_and_whole_escapes() {
        assert_eq!(shown_json("日本語テキスト", 6), "\"日本語テ…");
        // U+202E shows as `\u{202e}` (8 characters): never cut inside.
        let shown = shown_json("ab\u{202e}cdef", 8);
        assert_eq!(shown, "\"ab…");
        assert_eq!(shown_json("ab\u{202e}c", 20), "\"ab\\u{202e}c\"");
        // A control character is escaped by JSON itself.
        assert_eq!(shown_json("a\u{1b}b", 20), "\"a\\u001bb\"");
        // A literal "..." in a value is not a cut.
        assert_eq!(shown_json("iVBORw0KGgo...", 60), "\"iVBORw0KGgo...\"");
    }

    #[test]
    fn huge_values_are_not_written_whole() {
        let mut head = CharCappedWriter {
            bytes: Vec::new(),
            chars: 0,
            cap: 81,
        };
        let value = Value::String("z".repeat(10_000_000));
        assert!(serde_json::to_writer(&mut head, &value).is_err());
        assert!(head.bytes.len() < 100);
        assert_eq!(shown_json(&value, 80).chars().count(), 80);
    }

    #[test]
    fn char_prefix_cuts_on_a_boundary() {
        assert_eq!(char_prefix("héllo", 2), "hé");
        assert_eq!(char_prefix("hé", 9), "hé");
        assert_eq!(char_prefix("", 0), "");
    }

    proptest! {
        #[test]
        fn shown_is_safe_bounded_and_a_prefix(text in "\\PC{0,40}|[a\u{1b}\u{9b}\u{202e}\u{e0041}é]{0,40}", width in 1usize..50) {
            let shown = shown_json(text.as_str(), width);
            prop_assert!(shown.chars().count() <= width);
            prop_assert!(!shown.chars().any(is_unsafe_char));
            let whole = super::super::safe_text(&serde_json::to_string(&text).unwrap()).into_owned();
            match shown.strip_suffix(CUT_MARK) {
                Some(head) if shown != whole => prop_assert!(whole.starts_with(head)),
                _ => prop_assert_eq!(&shown, &whole),
            }
        }
    }
}
