//! The scanner's primitives, shared by every reader: whitespace, literals, numbers (JSON's
//! grammar, within serde_json's range) and strings (decoded, bounded, borrowed when they can be).

use super::parse::Parser;
use super::Node;
use crate::bundle::limits::MAX_STRING_CHARS;
use crate::json::{hex4, is_high_surrogate, short_escape, surrogate_pair};
use std::borrow::Cow;

impl<'a> Parser<'a> {
    pub(super) fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    pub(super) fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    pub(super) fn literal(&mut self, word: &str, node: Node<'a>) -> Option<Node<'a>> {
        self.text[self.pos..].starts_with(word).then(|| {
            self.pos += word.len();
            node
        })
    }

    /// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    pub(super) fn number(&mut self) -> Option<Node<'a>> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek()? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        let text = &self.text[start..self.pos];
        // Beyond short integers, serde_json may refuse (`1e400`: out of range).
        if !is_short_integer(text) && serde_json::from_str::<serde_json::Number>(text).is_err() {
            return None;
        }
        Some(Node::Number(text))
    }

    pub(super) fn string(&mut self) -> Option<Cow<'a, str>> {
        let bytes = self.bytes();
        self.pos += 1;
        let start = self.pos;
        let mut decoded: Option<String> = None;
        loop {
            let run = self.pos;
            // The next quote or backslash, then no control character before it.
            let stop =
                memchr::memchr2(b'"', b'\\', &bytes[run..]).map_or(bytes.len(), |at| run + at);
            self.pos = if has_control(&bytes[run..stop]) {
                bytes[run..stop]
                    .iter()
                    .position(|&b| b < 0x20)
                    .map_or(stop, |at| run + at)
            } else {
                stop
            };
            if let Some(out) = &mut decoded {
                out.push_str(&self.text[run..self.pos]);
            }
            match bytes.get(self.pos)? {
                b'"' => {
                    let end = self.pos;
                    self.pos += 1;
                    // Characters never outnumber bytes: count only when the bytes could.
                    let text = decoded.map_or(Cow::Borrowed(&self.text[start..end]), Cow::Owned);
                    if text.len() > MAX_STRING_CHARS && text.chars().count() > MAX_STRING_CHARS {
                        return None;
                    }
                    return Some(text);
                }
                b'\\' => {
                    let out = decoded.get_or_insert_with(|| self.text[start..self.pos].to_owned());
                    let letter = *bytes.get(self.pos + 1)?;
                    if letter != b'u' {
                        out.push(short_escape(letter)?);
                        self.pos += 2;
                        continue;
                    }
                    let code = hex4(bytes.get(self.pos + 2..self.pos + 6)?)?;
                    self.pos += 6;
                    let c = if is_high_surrogate(code) {
                        if bytes.get(self.pos..self.pos + 2)? != b"\\u" {
                            return None;
                        }
                        let low = hex4(bytes.get(self.pos + 2..self.pos + 6)?)?;
                        self.pos += 6;
                        // None when the second half is not a low surrogate.
                        surrogate_pair(code, low)?
                    } else {
                        // A lone low surrogate is no character: None.
                        char::from_u32(code)?
                    };
                    out.push(c);
                }
                // A raw control character: serde_json refuses it.
                _ => return None,
            }
        }
    }
}

/// A byte below U+0020 (a raw control character, which JSON refuses in a string). Written as
/// a fold without an early exit so that it compiles to vector instructions: strings are
/// scanned whole anyway, and almost never hold one.
pub(super) fn has_control(bytes: &[u8]) -> bool {
    bytes.iter().fold(u8::MAX, |least, &b| least.min(b)) < 0x20
}

/// A byte that starts a character at or above U+E000 (lead bytes 0xEE and up), where UTF-8
/// byte order stops being UTF-16 order. A fold, as `has_control`.
pub(super) fn is_wide(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |most, &b| most.max(b)) >= 0xEE
}

/// Short integers print as written (what an IEEE double prints for them); everything else
/// goes through serde_json's number parse and the shared ECMAScript number printer.
pub(super) fn is_short_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit())
}
