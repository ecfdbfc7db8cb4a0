//! A value whose text is already its JCS form, checked in one scan and kept as text, with
//! the `data` flags found on the way.

use super::parse::Parser;
use super::scan::{has_control, is_short_integer, is_wide};
use super::Node;
use crate::bundle::event::{DataFlags, DataMember};
use crate::bundle::limits::{MAX_KEYS_PER_OBJECT, MAX_STRING_CHARS};
use crate::json::{hex4, jcs_number_text as number_text};

/// Where `Parser::canonical` is on the way to the members `DataFlags` reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Nothing,
    /// In `data`'s own object: `handoff` and `discovery` lead on.
    Data,
    /// In `data.handoff` or `data.discovery`: a flag's member may be here.
    In(DataMember),
}

impl<'a> Parser<'a> {
    /// The value at `pos` as `Node::Canonical` when its text is exactly its JCS form, else
    /// parsed into a tree from the same place.
    pub(super) fn canonical_or_value(&mut self, depth: usize) -> Option<Node<'a>> {
        let start = self.pos;
        match self.canonical(depth, Want::Data) {
            Some(flags) => Some(Node::Canonical {
                text: &self.text[start..self.pos],
                flags,
            }),
            None => {
                self.pos = start;
                self.value(depth)
            }
        }
    }

    /// Scans one value that must already be written as JCS writes it: no whitespace, object
    /// members ascending by bytes with no character at or above U+E000 in a name (so byte
    /// order is UTF-16 order, and no name repeats), names without escapes, strings with only
    /// the escapes JCS itself writes, numbers written as an IEEE double prints them. Within the same depth, key-count
    /// and string-length bounds as `value`. `None` as soon as anything differs: the caller
    /// then parses the value the ordinary way, which decides. Returns the flags that `want`
    /// led to (JSON `true` at `handoff.visible`, `discovery.agent_card_visible`, ...).
    fn canonical(&mut self, depth: usize, want: Want) -> Option<DataFlags> {
        let none = DataFlags::default();
        match self.peek()? {
            b'{' => self.canonical_object(depth + 1, want),
            b'[' => {
                if depth + 1 > self.max_depth {
                    return None;
                }
                self.pos += 1;
                if self.peek()? == b']' {
                    self.pos += 1;
                    return Some(none);
                }
                loop {
                    self.canonical(depth + 1, Want::Nothing)?;
                    match self.peek()? {
                        b',' => self.pos += 1,
                        b']' => {
                            self.pos += 1;
                            return Some(none);
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.canonical_string().map(|_| none),
            b't' => self.literal("true", Node::Null).map(|_| none),
            b'f' => self.literal("false", Node::Null).map(|_| none),
            b'n' => self.literal("null", Node::Null).map(|_| none),
            b'-' | b'0'..=b'9' => match self.number()? {
                Node::Number(text) if is_short_integer(text) => (text != "-0").then_some(none),
                // Other numbers: canonical when written as an IEEE double prints (`1.5`).
                Node::Number(text) => {
                    let number = serde_json::from_str::<serde_json::Number>(text).ok()?;
                    (number_text(&number) == text).then_some(none)
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn canonical_object(&mut self, depth: usize, want: Want) -> Option<DataFlags> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        let mut found = DataFlags::default();
        if self.peek()? == b'}' {
            self.pos += 1;
            return Some(found);
        }
        let mut last: Option<&str> = None;
        let mut count = 0;
        loop {
            count += 1;
            if self.peek()? != b'"' || count > MAX_KEYS_PER_OBJECT.min(256) {
                return None;
            }
            let (key, escaped) = self.canonical_string()?;
            if escaped
                || is_wide(key.as_bytes())
                || last.is_some_and(|last| last.as_bytes() >= key.as_bytes())
            {
                return None;
            }
            last = Some(key);
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            let next = match want {
                Want::Data => DataMember::named(key).map_or(Want::Nothing, Want::In),
                _ => Want::Nothing,
            };
            let is_true = self.text[self.pos..].starts_with("true");
            found = found.union(self.canonical(depth, next)?);
            if let (Want::In(parent), true) = (want, is_true) {
                found.set(parent, key);
            }
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(found);
                }
                _ => return None,
            }
        }
    }

    /// A string whose text is its JCS form; returns its raw text (between the quotes) and
    /// whether it holds an escape.
    fn canonical_string(&mut self) -> Option<(&'a str, bool)> {
        let bytes = self.bytes();
        self.pos += 1;
        let start = self.pos;
        let mut escaped = false;
        loop {
            let run = self.pos;
            let stop =
                memchr::memchr2(b'"', b'\\', &bytes[run..]).map_or(bytes.len(), |at| run + at);
            if has_control(&bytes[run..stop]) {
                return None;
            }
            self.pos = stop;
            match bytes.get(self.pos)? {
                b'"' => {
                    let text = &self.text[start..self.pos];
                    self.pos += 1;
                    // Characters never outnumber bytes.
                    return (text.len() <= MAX_STRING_CHARS).then_some((text, escaped));
                }
                _ => {
                    escaped = true;
                    match bytes.get(self.pos + 1)? {
                        // The short escapes JCS writes (`/` it writes raw).
                        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => self.pos += 2,
                        // JCS writes `\u00xx`, lower-case, only for the other controls.
                        b'u' => {
                            let digits = bytes.get(self.pos + 2..self.pos + 6)?;
                            if !digits
                                .iter()
                                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
                            {
                                return None;
                            }
                            let code = hex4(digits)?;
                            if code >= 0x20 || matches!(code, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d) {
                                return None;
                            }
                            self.pos += 6;
                        }
                        _ => return None,
                    }
                }
            }
        }
    }
}
