//! Upstream's strict JSON pre-check (`json_strict`, spec §7), run before serde_json on the
//! manifest and on every event line: duplicate member names (after unescaping), malformed
//! `\u` escapes and unpaired surrogates, nesting depth, keys per object, decoded string
//! length, and its own grammar for structure, numbers and literals.
//!
//! It follows upstream's validator step for step, because which of its failures a line meets
//! first, and whether a line fails here or only in serde_json (which words its own message),
//! decides the message upstream prints. Like upstream it checks one value and ignores what
//! follows, takes a missing value (end of input) as fine and leaves that to serde_json, treats
//! any Unicode whitespace as whitespace and accepts raw control characters in strings (serde
//! refuses them next). Iterative, so no input can exhaust the stack.

use super::error::{ErrorCode, VerifyError};
use super::limits::{MAX_KEYS_PER_OBJECT, MAX_STRING_CHARS};
use crate::json::{hex4, short_escape, surrogate_pair};
use std::borrow::Cow;
use std::collections::HashSet;

/// The validator's failures, each with upstream's constant message (`message`): no parser
/// detail, no position, nothing from the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrictError {
    /// More than the allowed nesting (`LimitJsonDepth`).
    Depth {
        limit: u64,
    },
    DuplicateKey,
    /// A `\u` not followed by four hex digits.
    InvalidUnicodeEscape,
    /// A lone low surrogate, or a high one not followed at once by a low one.
    UnpairedSurrogate,
    TooManyKeys,
    StringTooLong,
    /// Any other syntax error.
    NotWellFormed,
}

/// Upstream's message without its subject: `JSON is not well-formed` (see `message`).
impl std::fmt::Display for StrictError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StrictError::Depth { limit } => {
                write!(
                    f,
                    "JSON nesting exceeds the configured maximum depth of {limit}"
                )
            }
            StrictError::DuplicateKey => f.write_str("JSON contains a duplicate object key"),
            StrictError::InvalidUnicodeEscape => {
                f.write_str("JSON contains an invalid unicode escape sequence")
            }
            StrictError::UnpairedSurrogate => f.write_str("JSON contains an unpaired surrogate"),
            StrictError::TooManyKeys => {
                write!(
                    f,
                    "JSON object exceeds the maximum of {MAX_KEYS_PER_OBJECT} keys"
                )
            }
            StrictError::StringTooLong => write!(
                f,
                "JSON contains a string longer than the maximum of {MAX_STRING_CHARS} bytes"
            ),
            StrictError::NotWellFormed => f.write_str("JSON is not well-formed"),
        }
    }
}

impl std::error::Error for StrictError {}

impl StrictError {
    /// Upstream's message; `what` is `Manifest` or `Event`.
    pub fn message(self, what: &str) -> String {
        format!("{what} {self}")
    }

    pub fn code(self) -> ErrorCode {
        match self {
            StrictError::Depth { .. } => ErrorCode::LimitJsonDepth,
            _ => ErrorCode::ContractInvalidJson,
        }
    }

    /// The verification error of step `step` for a document called `what`.
    pub(crate) fn at_step(self, step: u8, what: &str) -> VerifyError {
        VerifyError::new(step, self.code(), self.message(what))
    }
}

/// Member names of the open objects, innermost last, in one flat list (no allocation per
/// object); an object with many members gets a hash set of its own.
#[derive(Default)]
struct Keys<'a> {
    names: Vec<Cow<'a, str>>,
}

/// An open object: where its names start in `Keys::names`, how many it has, and past a few
/// dozen a set of them.
struct Object<'a> {
    start: usize,
    count: usize,
    set: Option<HashSet<Cow<'a, str>>>,
}

impl<'a> Object<'a> {
    fn new(keys: &Keys<'a>) -> Object<'a> {
        Object {
            start: keys.names.len(),
            count: 0,
            set: None,
        }
    }

    /// Upstream's key tracker: the count first (a 10,001st name fails as too many even when
    /// it repeats one), then the repeat.
    fn insert(&mut self, keys: &mut Keys<'a>, key: Cow<'a, str>) -> Result<(), StrictError> {
        if self.count >= MAX_KEYS_PER_OBJECT {
            return Err(StrictError::TooManyKeys);
        }
        self.count += 1;
        let fresh = match &mut self.set {
            Some(set) => set.insert(key),
            None if keys.names[self.start..].contains(&key) => false,
            None => {
                keys.names.push(key);
                if keys.names.len() - self.start > 32 {
                    self.set = Some(keys.names.drain(self.start..).collect());
                }
                true
            }
        };
        if fresh {
            Ok(())
        } else {
            Err(StrictError::DuplicateKey)
        }
    }

    fn close(self, keys: &mut Keys<'a>) {
        keys.names.truncate(self.start);
    }
}

enum Frame<'a> {
    Array,
    Object(Object<'a>),
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Any Unicode whitespace (`char::is_whitespace`), as upstream's validator skips it.
    fn skip_whitespace(&mut self) {
        while let Some(byte) = self.peek() {
            if byte.is_ascii() {
                if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
                    return;
                }
                self.pos += 1;
            } else {
                match self.text[self.pos..].chars().next() {
                    Some(c) if c.is_whitespace() => self.pos += c.len_utf8(),
                    _ => return,
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - from
    }

    /// Upstream's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; what
    /// follows (`01`: the `1`) is the caller's to judge.
    fn number(&mut self) -> Result<(), StrictError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(StrictError::NotWellFormed),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(StrictError::NotWellFormed);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(StrictError::NotWellFormed);
            }
        }
        Ok(())
    }

    /// `true`/`false` at a `t` or `f`, `null` at an `n`.
    fn literal(&mut self, words: &[&str]) -> Result<(), StrictError> {
        let rest = &self.text[self.pos..];
        match words.iter().find(|w| rest.starts_with(*w)) {
            Some(word) => {
                self.pos += word.len();
                Ok(())
            }
            None => Err(StrictError::NotWellFormed),
        }
    }

    /// A string from its opening quote (anything else there is a syntax error); returns its
    /// decoded text. Failures come in the order upstream's character loop meets them.
    fn string(&mut self) -> Result<Cow<'a, str>, StrictError> {
        let bytes = self.text.as_bytes();
        if self.peek() != Some(b'"') {
            return Err(StrictError::NotWellFormed);
        }
        self.pos += 1;
        let start = self.pos;
        let mut decoded: Option<String> = None;
        let mut chars = 0usize;
        // A high surrogate escape waiting for its low half.
        let mut high: Option<u32> = None;
        let push = |out: &mut Option<String>, c: char, chars: &mut usize| {
            *chars += 1;
            if *chars > MAX_STRING_CHARS {
                return Err(StrictError::StringTooLong);
            }
            if let Some(out) = out {
                out.push(c);
            }
            Ok(())
        };
        loop {
            let run = self.pos;
            let stop =
                memchr::memchr2(b'"', b'\\', &bytes[run..]).map_or(bytes.len(), |at| run + at);
            if stop > run {
                if high.is_some() {
                    return Err(StrictError::UnpairedSurrogate);
                }
                chars += bytes[run..stop]
                    .iter()
                    .filter(|&&b| b & 0xC0 != 0x80)
                    .count();
                if chars > MAX_STRING_CHARS {
                    return Err(StrictError::StringTooLong);
                }
                if let Some(out) = &mut decoded {
                    out.push_str(&self.text[run..stop]);
                }
            }
            self.pos = stop;
            match bytes.get(stop) {
                None => return Err(StrictError::NotWellFormed),
                Some(b'"') => {
                    if high.is_some() {
                        return Err(StrictError::UnpairedSurrogate);
                    }
                    self.pos += 1;
                    return Ok(match decoded {
                        Some(out) => Cow::Owned(out),
                        None => Cow::Borrowed(&self.text[start..stop]),
                    });
                }
                Some(_) => {
                    if decoded.is_none() {
                        decoded = Some(self.text[start..stop].to_owned());
                    }
                    let Some(&escape) = bytes.get(stop + 1) else {
                        return Err(StrictError::NotWellFormed);
                    };
                    if escape == b'u' {
                        let code = self.hex4(stop + 2)?;
                        self.pos = stop + 6;
                        match (high, code) {
                            (Some(_), 0xD800..=0xDBFF) => {
                                return Err(StrictError::UnpairedSurrogate)
                            }
                            (None, 0xD800..=0xDBFF) => high = Some(code),
                            (Some(first), 0xDC00..=0xDFFF) => {
                                high = None;
                                let c = surrogate_pair(first, code)
                                    .ok_or(StrictError::InvalidUnicodeEscape)?;
                                push(&mut decoded, c, &mut chars)?;
                            }
                            (None, 0xDC00..=0xDFFF) | (Some(_), _) => {
                                return Err(StrictError::UnpairedSurrogate)
                            }
                            (None, code) => {
                                let c = char::from_u32(code)
                                    .ok_or(StrictError::InvalidUnicodeEscape)?;
                                push(&mut decoded, c, &mut chars)?;
                            }
                        }
                        continue;
                    }
                    if high.is_some() {
                        return Err(StrictError::UnpairedSurrogate);
                    }
                    let c = short_escape(escape).ok_or(StrictError::NotWellFormed)?;
                    self.pos = stop + 2;
                    push(&mut decoded, c, &mut chars)?;
                }
            }
        }
    }

    /// The four characters after `\u`: each must be an ASCII hex digit.
    fn hex4(&self, from: usize) -> Result<u32, StrictError> {
        let digits = self.text.as_bytes().get(from..from + 4).unwrap_or_default();
        hex4(digits).ok_or(StrictError::InvalidUnicodeEscape)
    }

    /// A member name (at its quote), then the colon.
    fn member_name(
        &mut self,
        object: &mut Object<'a>,
        keys: &mut Keys<'a>,
    ) -> Result<(), StrictError> {
        self.skip_whitespace();
        let key = self.string()?;
        object.insert(keys, key)?;
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(StrictError::NotWellFormed);
        }
        self.pos += 1;
        Ok(())
    }
}

/// Checks `text` as upstream's strict pre-check does; `max_depth` is `max_json_depth`.
pub fn validate(text: &str, max_depth: u64) -> Result<(), StrictError> {
    let mut s = Scanner { text, pos: 0 };
    let mut stack: Vec<Frame> = Vec::new();
    let mut keys = Keys::default();
    'value: loop {
        s.skip_whitespace();
        match s.peek() {
            // No value where one was due: upstream's validator lets it pass (serde_json, or
            // the container's own check below, refuses it).
            None => {}
            Some(open @ (b'{' | b'[')) => {
                s.pos += 1;
                s.skip_whitespace();
                if stack.len() as u64 >= max_depth {
                    return Err(StrictError::Depth { limit: max_depth });
                }
                if open == b'[' {
                    if s.peek() == Some(b']') {
                        s.pos += 1;
                    } else {
                        stack.push(Frame::Array);
                        continue 'value;
                    }
                } else if s.peek() == Some(b'}') {
                    s.pos += 1;
                } else {
                    let mut object = Object::new(&keys);
                    s.member_name(&mut object, &mut keys)?;
                    stack.push(Frame::Object(object));
                    continue 'value;
                }
            }
            Some(b'"') => {
                s.string()?;
            }
            Some(b'-' | b'0'..=b'9') => s.number()?,
            Some(b't' | b'f') => s.literal(&["true", "false"])?,
            Some(b'n') => s.literal(&["null"])?,
            Some(_) => return Err(StrictError::NotWellFormed),
        }
        // After a complete value: close containers or move to the next element.
        loop {
            s.skip_whitespace();
            match stack.last_mut() {
                None => return Ok(()),
                Some(Frame::Array) => match s.peek() {
                    Some(b',') => {
                        s.pos += 1;
                        continue 'value;
                    }
                    Some(b']') => {
                        s.pos += 1;
                        stack.pop();
                    }
                    _ => return Err(StrictError::NotWellFormed),
                },
                Some(Frame::Object(object)) => match s.peek() {
                    Some(b',') => {
                        s.pos += 1;
                        s.member_name(object, &mut keys)?;
                        continue 'value;
                    }
                    Some(b'}') => {
                        s.pos += 1;
                        if let Some(Frame::Object(object)) = stack.pop() {
                            object.close(&mut keys);
                        }
                    }
                    _ => return Err(StrictError::NotWellFormed),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StrictError::*;

    fn check(text: &str) -> Result<(), StrictError> {
        validate(text, 64)
    }

    fn nested(levels: usize) -> String {
        format!("{}{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn accepts_plain_json_and_ignores_what_follows() {
        assert_eq!(
            check(r#"{"a":[1,2.5e3,-0,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#),
            Ok(())
        );
        assert_eq!(check("{} trailing"), Ok(()));
        assert_eq!(check("\u{a0}{}"), Ok(()), "Unicode whitespace");
        // What upstream's validator leaves to serde_json: no value at all, a leading zero at
        // the top, raw control characters in a string.
        for passes in ["", "  ", "01", "\"a\u{1}b\"", "truex"] {
            assert_eq!(check(passes), Ok(()), "{passes:?}");
        }
    }

    #[test]
    fn duplicate_names_compare_after_unescaping() {
        assert_eq!(check(r#"{"a":1,"\u0061":2}"#), Err(DuplicateKey));
        assert_eq!(check(r#"{"x":{"a":1,"a":1}}"#), Err(DuplicateKey));
        assert_eq!(check(r#"{"a":{"a":1}}"#), Ok(()));
        assert_eq!(
            check(r#"{"a":{"b":1},"b":2,"c":[{"b":1},{"b":2}]}"#),
            Ok(())
        );
        assert!(check(r#"{"a":{"b":1,"c":{}},"a":1}"#).is_err());
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\":0")).collect();
        assert_eq!(check(&format!("{{{}}}", many.join(","))), Ok(()));
        assert!(check(&format!("{{{},\"k3\":1}}", many.join(","))).is_err());
        let nested = format!(
            "{{{},\"in\":{{{}}},\"k39\":1}}",
            many.join(","),
            many.join(",")
        );
        assert!(
            check(&nested).is_err(),
            "the outer object's set survives the inner one"
        );
        let nested_ok = format!("{{\"in\":{{{}}},{}}}", many.join(","), many.join(","));
        assert_eq!(check(&nested_ok), Ok(()));
    }

    #[test]
    fn escapes_and_surrogates_fail_as_upstream_words_them() {
        for (text, error) in [
            (r#""\ud800""#, UnpairedSurrogate),
            (r#""\udc00""#, UnpairedSurrogate),
            (r#""\ud800\ud800""#, UnpairedSurrogate),
            (r#""\ud800\n""#, UnpairedSurrogate),
            (r#""\ud800x""#, UnpairedSurrogate),
            (r#""\ud800\x""#, UnpairedSurrogate),
            (r#""\ud800\u0041""#, UnpairedSurrogate),
            (r#""\ud800\u12""#, InvalidUnicodeEscape),
            (r#""\u12g4""#, InvalidUnicodeEscape),
            (r#""\u12""#, InvalidUnicodeEscape),
            (r#""\x""#, NotWellFormed),
            (r#""\ud800"#, NotWellFormed),
            ("\"\\", NotWellFormed),
        ] {
            assert_eq!(check(text), Err(error), "{text}");
        }
    }

    #[test]
    fn depth_admits_its_limit_and_refuses_one_more() {
        assert_eq!(check(&nested(64)), Ok(()));
        assert_eq!(check(&nested(65)), Err(Depth { limit: 64 }));
        // No stack to exhaust.
        assert!(validate(&nested(200_000), u64::MAX).is_ok());
    }

    #[test]
    fn keys_and_string_length_limits() {
        let keys = |n: usize, last: &str| {
            let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
            format!("{{{}{last}}}", members.join(","))
        };
        assert_eq!(check(&keys(10_000, "")), Ok(()));
        assert_eq!(check(&keys(10_001, "")), Err(TooManyKeys));
        // The count comes before the repeat.
        assert_eq!(check(&keys(10_000, ",\"k0\":1")), Err(TooManyKeys));
        let long = |n: usize| format!("\"{}\"", "é".repeat(n));
        assert_eq!(check(&long(1_048_576)), Ok(()));
        assert_eq!(check(&long(1_048_577)), Err(StringTooLong));
        assert_eq!(
            check(&format!("\"{}\\n\"", "a".repeat(1_048_576))),
            Err(StringTooLong)
        );
        // Counted as the characters come: too long before unterminated.
        assert_eq!(
            check(&format!("\"{}", "a".repeat(1_048_577))),
            Err(StringTooLong)
        );
    }

    #[test]
    fn syntax_errors_are_not_well_formed() {
        for bad in [
            "{",
            "[1,",
            "[",
            r#"{"a":"#,
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            r#"{,}"#,
            "[1,]",
            "tru",
            "nul",
            "[1 2]",
            "[01]",
            "1.",
            "1e",
            "-",
            "-a",
            "'a'",
        ] {
            assert_eq!(check(bad), Err(NotWellFormed), "{bad:?}");
        }
    }

    #[test]
    fn messages_are_upstreams() {
        assert_eq!(
            DuplicateKey.message("Event"),
            "Event JSON contains a duplicate object key"
        );
        assert_eq!(
            Depth { limit: 4 }.at_step(8, "Manifest").to_string(),
            "Limits: Manifest JSON nesting exceeds the configured maximum depth of 4 (LimitJsonDepth)"
        );
        assert_eq!(
            StringTooLong.message("Manifest"),
            "Manifest JSON contains a string longer than the maximum of 1048576 bytes"
        );
        assert_eq!(
            TooManyKeys.message("Event"),
            "Event JSON object exceeds the maximum of 10000 keys"
        );
    }
}
