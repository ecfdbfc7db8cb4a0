//! The fast path for an event line: one pass that checks what upstream's strict pre-check
//! checks and parses exactly the grammar serde_json accepts, into a tree that borrows from the
//! line (no allocation for strings without escapes). It answers only "certainly fine, here is
//! the tree"; anything else (`None`) goes to the slow path (strict pre-check + serde_json),
//! which decides and words the error as upstream does. So the fast path can only be wrong by
//! accepting what the slow path would refuse: it must be at least as strict, which the tests
//! and `tests/bundle_tampered.rs` check, and `fast_and_slow_agree` compares both on edge lines.

use super::event::{DataFlags, DataMember};
use super::limits::{MAX_KEYS_PER_OBJECT, MAX_STRING_CHARS};
use crate::profiles::jcs::{number_text, write_jcs_string};
use std::borrow::Cow;

#[derive(Debug, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    /// The number's text as written (already checked against JSON's grammar).
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    /// Members in JCS order (sorted by the parser).
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
    /// An event's `data` whose text was already exactly its JCS form (what upstream's writer
    /// stores), checked by `Parser::canonical` and kept as text: no tree is built for it.
    Canonical {
        text: &'a str,
        /// The members of it that are JSON `true` and that the reviewer counts or the lint
        /// packs read, found during the same scan.
        flags: DataFlags,
    },
}

impl<'a> Node<'a> {
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Deeper than this, serde_json's own recursion limit (128) comes near: leave it to the slow
/// path.
const FAST_DEPTH: usize = 120;

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    max_depth: usize,
    /// Try the top-level `data` member as canonical text first (`parse_event`).
    canonical_data: bool,
}

/// Parses one JSON value filling all of `text` (JSON whitespace around it allowed).
pub fn parse(text: &str, max_depth: u64) -> Option<Node<'_>> {
    parse_with(text, max_depth, false)
}

/// `parse` for an event line: a top-level `data` already in JCS form becomes
/// `Node::Canonical` (its JCS text is the stored text, so nothing is built or re-written);
/// any other `data` is parsed into a tree as `parse` does.
pub fn parse_event(text: &str, max_depth: u64) -> Option<Node<'_>> {
    parse_with(text, max_depth, true)
}

/// An event line's top-level members handed to `each` one at a time as they are parsed (the
/// values as `parse_event` parses them, `data` canonical when it is), with no tree of the
/// envelope. Only for an object whose names ascend by bytes with no character at or above
/// U+E000 (as upstream's writer writes them: no name can repeat, no sort is needed); anything
/// else is `None`, as is `None` from `each`, and the caller falls back to `parse_event`.
pub fn parse_envelope<'a>(
    text: &'a str,
    max_depth: u64,
    each: &mut dyn FnMut(&str, Node<'a>) -> Option<()>,
) -> Option<()> {
    let mut parser = Parser {
        text,
        pos: 0,
        max_depth: usize::try_from(max_depth)
            .unwrap_or(usize::MAX)
            .min(FAST_DEPTH),
        canonical_data: true,
    };
    parser.whitespace();
    parser.envelope(each)?;
    parser.whitespace();
    (parser.pos == text.len()).then_some(())
}

fn parse_with(text: &str, max_depth: u64, canonical_data: bool) -> Option<Node<'_>> {
    let mut parser = Parser {
        text,
        pos: 0,
        max_depth: usize::try_from(max_depth)
            .unwrap_or(usize::MAX)
            .min(FAST_DEPTH),
        canonical_data,
    };
    parser.whitespace();
    let node = parser.value(0)?;
    parser.whitespace();
    (parser.pos == text.len()).then_some(node)
}

impl<'a> Parser<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node<'a>> {
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(Node::String),
            b't' => self.literal("true", Node::Bool(true)),
            b'f' => self.literal("false", Node::Bool(false)),
            b'n' => self.literal("null", Node::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn literal(&mut self, word: &str, node: Node<'a>) -> Option<Node<'a>> {
        self.text[self.pos..].starts_with(word).then(|| {
            self.pos += word.len();
            node
        })
    }

    /// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    fn number(&mut self) -> Option<Node<'a>> {
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

    fn string(&mut self) -> Option<Cow<'a, str>> {
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
                    let c = match bytes.get(self.pos + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let high = hex4(bytes.get(self.pos + 2..self.pos + 6)?)?;
                            self.pos += 6;
                            let code = match high {
                                0xD800..=0xDBFF => {
                                    if bytes.get(self.pos..self.pos + 2)? != b"\\u" {
                                        return None;
                                    }
                                    let low = hex4(bytes.get(self.pos + 2..self.pos + 6)?)?;
                                    if !(0xDC00..=0xDFFF).contains(&low) {
                                        return None;
                                    }
                                    self.pos += 6;
                                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                                }
                                0xDC00..=0xDFFF => return None,
                                code => code,
                            };
                            out.push(char::from_u32(code)?);
                            continue;
                        }
                        _ => return None,
                    };
                    out.push(c);
                    self.pos += 2;
                }
                // A raw control character: serde_json refuses it.
                _ => return None,
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Node<'a>> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Some(Node::Array(items));
        }
        loop {
            self.whitespace();
            items.push(self.value(depth)?);
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(Node::Array(items));
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Node<'a>> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        // An event's envelope has about 16 members: one allocation for them.
        let mut members: Vec<(Cow<'a, str>, Node<'a>)> =
            Vec::with_capacity(if depth == 1 { 20 } else { 0 });
        // While names ascend by bytes (as a JCS writer leaves them) a new one above the last
        // can be no duplicate, and no sort is needed at the end.
        let mut ascending = true;
        let mut wide = false;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(Node::Object(members));
        }
        loop {
            self.whitespace();
            if self.peek()? != b'"' || members.len() >= MAX_KEYS_PER_OBJECT.min(256) {
                // Many keys: the slow path's set handles them without a quadratic scan.
                return None;
            }
            let key = self.string()?;
            wide |= is_wide(key.as_bytes());
            let above_last = members
                .last()
                .is_none_or(|(last, _)| last.as_bytes() < key.as_bytes());
            if !(ascending && above_last) {
                ascending = false;
                if members.iter().any(|(k, _)| *k == key) {
                    return None;
                }
            }
            self.whitespace();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.whitespace();
            let value = if self.canonical_data && depth == 1 && key == "data" {
                self.canonical_or_value(depth)?
            } else {
                self.value(depth)?
            };
            members.push((key, value));
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    if !ascending || wide {
                        members.sort_by(|(a, _), (b, _)| jcs_key_order(a, b));
                    }
                    return Some(Node::Object(members));
                }
                _ => return None,
            }
        }
    }
}

impl<'a> Parser<'a> {
    /// `object` at depth 1 for `parse_envelope`: the same grammar, whitespace and bounds, the
    /// members handed over instead of collected.
    fn envelope(&mut self, each: &mut dyn FnMut(&str, Node<'a>) -> Option<()>) -> Option<()> {
        let depth = 1;
        if self.peek()? != b'{' || depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        let mut last: Option<Cow<'a, str>> = None;
        let mut count = 0;
        loop {
            self.whitespace();
            count += 1;
            if self.peek()? != b'"' || count > MAX_KEYS_PER_OBJECT.min(256) {
                return None;
            }
            let key = self.string()?;
            if is_wide(key.as_bytes())
                || last
                    .as_ref()
                    .is_some_and(|last| last.as_bytes() >= key.as_bytes())
            {
                return None;
            }
            self.whitespace();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.whitespace();
            let value = if key == "data" {
                self.canonical_or_value(depth)?
            } else {
                self.value(depth)?
            };
            each(&key, value)?;
            last = Some(key);
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}

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
    fn canonical_or_value(&mut self, depth: usize) -> Option<Node<'a>> {
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

/// A byte below U+0020 (a raw control character, which JSON refuses in a string). Written as
/// a fold without an early exit so that it compiles to vector instructions: strings are
/// scanned whole anyway, and almost never hold one.
fn has_control(bytes: &[u8]) -> bool {
    bytes.iter().fold(u8::MAX, |least, &b| least.min(b)) < 0x20
}

/// A byte that starts a character at or above U+E000 (lead bytes 0xEE and up), where UTF-8
/// byte order stops being UTF-16 order. A fold, as `has_control`.
fn is_wide(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |most, &b| most.max(b)) >= 0xEE
}

fn jcs_key_order(a: &str, b: &str) -> std::cmp::Ordering {
    // UTF-8 byte order is UTF-16 order unless a character at or above U+E000 is involved.
    if a.bytes().chain(b.bytes()).all(|x| x < 0xEE) {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// A string as JCS writes it. Borrowed strings had no escape in the line, and the parser
/// refused raw control characters, so their text needs none: copied as is.
// The Cow is the point: whether the text was borrowed says whether it can need escapes.
#[allow(clippy::ptr_arg)]
fn write_string(text: &Cow<'_, str>, out: &mut String) {
    match text {
        Cow::Borrowed(raw) => {
            out.push('"');
            out.push_str(raw);
            out.push('"');
        }
        Cow::Owned(decoded) => write_jcs_string(decoded, out),
    }
}

fn hex4(digits: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(text, 16).ok()
}

/// Appends the RFC 8785 text of `node`, number for number what `jcs::write_jcs` writes for
/// the `serde_json::Value` the same text parses to.
pub fn write_jcs(node: &Node<'_>, out: &mut String) {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(true) => out.push_str("true"),
        Node::Bool(false) => out.push_str("false"),
        Node::Number(text) => write_number(text, out),
        Node::Canonical { text, .. } => out.push_str(text),
        Node::String(text) => write_string(text, out),
        Node::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_jcs(item, out);
            }
            out.push(']');
        }
        Node::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_jcs(item, out);
            }
            out.push('}');
        }
    }
}

/// Short integers print as written (what an IEEE double prints for them); everything else
/// goes through serde_json's number parse and the shared ECMAScript number printer.
fn is_short_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit())
}

fn write_number(text: &str, out: &mut String) {
    if is_short_integer(text) {
        out.push_str(if text == "-0" { "0" } else { text });
        return;
    }
    match serde_json::from_str::<serde_json::Number>(text) {
        Ok(number) => out.push_str(&number_text(&number)),
        // Out of a double's range: serde_json refuses the line too; never reached from a
        // checked line, written as is rather than guessed.
        Err(_) => out.push_str(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Whatever the fast path accepts, serde_json accepts too, and the JCS text is the same.
    fn agree(text: &str) {
        let fast = parse(text, 64);
        let slow = serde_json::from_str::<Value>(text);
        if let Some(node) = &fast {
            let value =
                slow.unwrap_or_else(|e| panic!("fast accepted what serde refuses: {text:?}: {e}"));
            let mut a = String::new();
            write_jcs(node, &mut a);
            let b = String::from_utf8(crate::profiles::jcs_bytes(&value)).unwrap();
            assert_eq!(a, b, "{text}");
        }
    }

    #[test]
    fn fast_and_slow_agree() {
        for text in [
            r#"{"a":1,"b":[true,false,null],"c":{"d":"e\n\u00e9\ud83d\ude00\/"}}"#,
            "0",
            "-0",
            "-0.0",
            "1.0",
            "2.50",
            "1e21",
            "1E+2",
            "123456789012345",
            "1234567890123456",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "0.1",
            "1e-7",
            "5e-324",
            "1.7976931348623157e308",
            "1e400",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "+1",
            "[1,]",
            "{\"a\":1,}",
            "[1 2]",
            " {} ",
            "{}x",
            "\"\u{1}\"",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\u{a0}{}",
            "{\"a\":1,\"a\":2}",
            "{\"\u{e000}\":1,\"\u{10000}\":2}",
            "tru",
            "nul",
            "[[[[[]]]]]",
            "\"a\\u0000b\"",
            "{\"b\":1,\"a\":{\"z\":[],\"y\":{}}}",
        ] {
            agree(text);
        }
    }

    fn values() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "\\PC{0,6}".prop_map(Value::String),
            "[\u{0}-\u{1f}\u{e000}-\u{e002}\u{10000}-\u{10002}a\"\\\\]{0,4}"
                .prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 24, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::btree_map("[a-c\u{e000}\u{10000}]{0,3}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn fast_never_accepts_what_serde_refuses(text in "[\\[\\]{}\":,0-9a-ce\\\\u. tnrl+-]{0,24}") {
            agree(&text);
        }

        #[test]
        fn any_json_value_gives_the_same_jcs(value in values()) {
            let text = serde_json::to_string(&value).unwrap();
            proptest::prop_assert!(parse(&text, 64).is_some(), "{}", text);
            agree(&text);
        }
    }

    /// `parse_event`'s `data`: canonical text only when it is exactly the JCS of the value
    /// (else a tree), and either way the same JCS as serde_json + `jcs_bytes`.
    fn data_agrees(data: &str) -> bool {
        let line = format!("{{\"data\":{data}}}");
        let Some(node) = parse_event(&line, 64) else {
            return false;
        };
        let value: Value = serde_json::from_str(data).unwrap();
        let jcs = String::from_utf8(crate::profiles::jcs_bytes(&value)).unwrap();
        let data_node = node.get("data").unwrap();
        let mut written = String::new();
        write_jcs(data_node, &mut written);
        assert_eq!(written, jcs, "{data}");
        if let Node::Canonical { text, flags } = data_node {
            assert_eq!(*text, jcs, "{data}");
            assert_eq!(*flags, DataFlags::of_value(Some(&value)), "{data}");
        }
        matches!(data_node, Node::Canonical { .. })
    }

    #[test]
    fn canonical_data_is_kept_as_text_only_when_it_is_jcs() {
        for canonical in [
            r#"{"a":1,"b":[true,false,null],"c":{"d":"e\n\u001f\"\\x"}}"#,
            r#"{"handoff":{"visible":true}}"#,
            r#""é""#,
            "-12",
            "1.5",
            "1e+21",
            "1234567890123456",
            "[]",
            "{}",
        ] {
            assert!(data_agrees(canonical), "{canonical}");
        }
        for other in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1, "b":2}"#,
            r#"{"\u0061":1}"#,
            r#""\u001F""#,
            r#""\u0041""#,
            r#""\/""#,
            r#""\u000a""#,
            "1.0",
            "-0",
            "1e2",
            "1E+21",
            "100000000000000000000000",
            "{\"\u{e000}\":1}",
        ] {
            assert!(!data_agrees(other), "{other}");
        }
        // A repeated name: neither route accepts (the slow path words the error).
        assert!(!data_agrees(r#"{"a":1,"a":2}"#));
        let flags = |data: &str| match parse_event(&format!("{{\"data\":{data}}}"), 64)
            .unwrap()
            .get("data")
        {
            Some(Node::Canonical { flags, .. }) => *flags,
            other => panic!("{other:?}"),
        };
        let visible = |data: &str| flags(data).handoff_visible;
        assert!(visible(r#"{"handoff":{"visible":true}}"#));
        assert!(!visible(r#"{"handoff":{"visible":false}}"#));
        assert!(!visible(r#"{"handoff":{"x":{"visible":true}}}"#));
        assert!(!visible(r#"{"other":{"visible":true}}"#));
        assert!(!visible(r#"{"handoff":[{"visible":true}]}"#));
        assert!(!visible(r#"{"discovery":{"visible":true}}"#));
        // The lint packs' flags: JSON true at exactly data.discovery.<name>, and each is
        // what `DataFlags::of_value` (the lenient route, serde_json's pointer) finds.
        for (data, card, extended) in [
            (
                r#"{"discovery":{"agent_card_visible":true,"extended_card_access_visible":true}}"#,
                true,
                true,
            ),
            (
                r#"{"discovery":{"agent_card_visible":"true","extended_card_access_visible":false}}"#,
                false,
                false,
            ),
            (
                r#"{"discovery":{"extended_card_access_visible":true},"handoff":{"agent_card_visible":true}}"#,
                false,
                true,
            ),
            (
                r#"{"agent_card_visible":true,"discovery":{"x":{"agent_card_visible":true}}}"#,
                false,
                false,
            ),
            (r#"{"discovery":[true]}"#, false, false),
        ] {
            let found = flags(data);
            assert_eq!(
                (found.agent_card_visible, found.extended_card_access_visible),
                (card, extended),
                "{data}"
            );
            assert!(data_agrees(data), "{data}");
        }
        // Too deep for the limit: neither route accepts.
        let deep = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert!(parse_event(&format!("{{\"data\":{deep}}}"), 64).is_none());
    }

    proptest::proptest! {
        #[test]
        fn jcs_text_of_any_value_is_taken_as_canonical_or_agrees(value in values()) {
            let jcs = String::from_utf8(crate::profiles::jcs_bytes(&value)).unwrap();
            data_agrees(&jcs);
            data_agrees(&serde_json::to_string(&value).unwrap());
        }
    }

    #[test]
    fn refuses_what_the_slow_path_must_decide() {
        for text in [
            "{\"a\":1,\"\\u0061\":2}",
            "\"\\ud800\"",
            "[1 2]",
            "01",
            "\"\u{1}\"",
            "{} x",
        ] {
            assert!(parse(text, 64).is_none(), "{text}");
        }
        let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        assert!(parse(&deep, 64).is_none());
        let ok = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert!(parse(&ok, 64).is_some());
    }
}
