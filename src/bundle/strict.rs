//! Upstream's strict JSON pre-check (`json_strict`, spec §7), run before serde_json on the
//! manifest and on every event line: duplicate member names (after unescaping), lone or
//! malformed surrogate escapes, nesting depth, keys per object, decoded string length.
//!
//! Like upstream it checks one value and ignores what follows, treats any Unicode whitespace
//! as whitespace and leaves number syntax, raw control characters and the rest of JSON's
//! grammar to serde_json, which runs next. Iterative, so no input can exhaust the stack.

use super::limits::{MAX_KEYS_PER_OBJECT, MAX_STRING_CHARS};
use std::borrow::Cow;
use std::collections::HashSet;

#[derive(Debug, PartialEq, Eq)]
pub enum StrictError {
    /// More than the allowed nesting (`LimitJsonDepth`).
    Depth { limit: u64 },
    /// Anything else (`ContractInvalidJson`).
    Invalid(String),
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

    /// False when `key` was already there.
    fn insert(&mut self, keys: &mut Keys<'a>, key: Cow<'a, str>) -> bool {
        self.count += 1;
        if let Some(set) = &mut self.set {
            return set.insert(key);
        }
        if keys.names[self.start..].contains(&key) {
            return false;
        }
        keys.names.push(key);
        if keys.names.len() - self.start > 32 {
            self.set = Some(keys.names.drain(self.start..).collect());
        }
        true
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

fn invalid<T>(message: impl Into<String>) -> Result<T, StrictError> {
    Err(StrictError::Invalid(message.into()))
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

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

    fn at(&self) -> String {
        format!("at byte {}", self.pos)
    }

    /// A string starting at the opening quote; returns its decoded text.
    fn string(&mut self) -> Result<Cow<'a, str>, StrictError> {
        let bytes = self.text.as_bytes();
        self.pos += 1;
        let start = self.pos;
        let mut decoded: Option<String> = None;
        let mut chars = 0usize;
        loop {
            let run_start = self.pos;
            while let Some(&byte) = bytes.get(self.pos) {
                if byte == b'"' || byte == b'\\' {
                    break;
                }
                if byte & 0xC0 != 0x80 {
                    chars += 1;
                }
                self.pos += 1;
            }
            if chars > MAX_STRING_CHARS {
                return invalid(format!(
                    "string longer than {MAX_STRING_CHARS} characters {}",
                    self.at()
                ));
            }
            if let Some(out) = &mut decoded {
                out.push_str(&self.text[run_start..self.pos]);
            }
            match bytes.get(self.pos) {
                None => return invalid("unterminated string"),
                Some(b'"') => {
                    let end = self.pos;
                    self.pos += 1;
                    return Ok(match decoded {
                        Some(out) => Cow::Owned(out),
                        None => Cow::Borrowed(&self.text[start..end]),
                    });
                }
                _ => {
                    let out = decoded.get_or_insert_with(|| self.text[start..self.pos].to_owned());
                    let c = self.escape()?;
                    out.push(c);
                    chars += 1;
                }
            }
        }
    }

    /// One escape starting at the backslash.
    fn escape(&mut self) -> Result<char, StrictError> {
        let bytes = self.text.as_bytes();
        let c = match bytes.get(self.pos + 1) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let high = self.hex4(self.pos + 2)?;
                self.pos += 6;
                return match high {
                    0xD800..=0xDBFF => {
                        if bytes.get(self.pos) != Some(&b'\\')
                            || bytes.get(self.pos + 1) != Some(&b'u')
                        {
                            return invalid(format!("lone high surrogate {}", self.at()));
                        }
                        let low = self.hex4(self.pos + 2)?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return invalid(format!(
                                "high surrogate not followed by a low one {}",
                                self.at()
                            ));
                        }
                        self.pos += 6;
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        char::from_u32(code).map_or_else(|| invalid("bad surrogate pair"), Ok)
                    }
                    0xDC00..=0xDFFF => invalid(format!("lone low surrogate {}", self.at())),
                    code => char::from_u32(code).map_or_else(|| invalid("bad escape"), Ok),
                };
            }
            _ => return invalid(format!("invalid escape {}", self.at())),
        };
        self.pos += 2;
        Ok(c)
    }

    fn hex4(&self, from: usize) -> Result<u32, StrictError> {
        let digits = self.text.as_bytes().get(from..from + 4);
        match digits.and_then(|d| std::str::from_utf8(d).ok()) {
            Some(d) if d.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(d, 16).map_or_else(|_| invalid("malformed \\u escape"), Ok)
            }
            _ => invalid(format!("malformed \\u escape at byte {from}")),
        }
    }

    /// A member name (at its quote), then the colon.
    fn member_name(
        &mut self,
        object: &mut Object<'a>,
        keys: &mut Keys<'a>,
    ) -> Result<(), StrictError> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return invalid(format!("expected a member name {}", self.at()));
        }
        let key = self.string()?;
        if object.count >= MAX_KEYS_PER_OBJECT {
            return invalid(format!("object has more than {MAX_KEYS_PER_OBJECT} keys"));
        }
        if !object.insert(keys, key.clone()) {
            return invalid(format!("duplicate key '{key}'"));
        }
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return invalid(format!("expected ':' {}", self.at()));
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
            None => return invalid("unexpected end of input"),
            Some(open @ (b'{' | b'[')) => {
                s.pos += 1;
                if stack.len() as u64 >= max_depth {
                    return Err(StrictError::Depth { limit: max_depth });
                }
                s.skip_whitespace();
                if open == b'[' {
                    stack.push(Frame::Array);
                    if s.peek() != Some(b']') {
                        continue 'value;
                    }
                    s.pos += 1;
                    stack.pop();
                } else {
                    let mut object = Object::new(&keys);
                    if s.peek() == Some(b'}') {
                        s.pos += 1;
                    } else {
                        s.member_name(&mut object, &mut keys)?;
                        stack.push(Frame::Object(object));
                        continue 'value;
                    }
                }
            }
            Some(b'"') => {
                s.string()?;
            }
            Some(b'-' | b'0'..=b'9') => {
                while matches!(
                    s.peek(),
                    Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E')
                ) {
                    s.pos += 1;
                }
            }
            Some(b't' | b'f' | b'n') => {
                let rest = &text[s.pos..];
                let word = ["true", "false", "null"]
                    .into_iter()
                    .find(|w| rest.starts_with(w));
                match word {
                    Some(word) => s.pos += word.len(),
                    None => return invalid(format!("invalid literal {}", s.at())),
                }
            }
            Some(_) => return invalid(format!("unexpected character {}", s.at())),
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
                    _ => return invalid(format!("expected ',' or ']' {}", s.at())),
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
                    _ => return invalid(format!("expected ',' or '}}' {}", s.at())),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn duplicate_names_compare_after_unescaping() {
        assert!(
            matches!(check(r#"{"a":1,"\u0061":2}"#), Err(StrictError::Invalid(m)) if m.contains("duplicate"))
        );
        assert!(matches!(
            check(r#"{"x":{"a":1,"a":1}}"#),
            Err(StrictError::Invalid(_))
        ));
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
    fn surrogates_must_pair() {
        for bad in [
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\ud800""#,
            r#""\u12g4""#,
            r#""\u12""#,
        ] {
            assert!(matches!(check(bad), Err(StrictError::Invalid(_))), "{bad}");
        }
    }

    #[test]
    fn depth_admits_its_limit_and_refuses_one_more() {
        assert_eq!(check(&nested(64)), Ok(()));
        assert_eq!(check(&nested(65)), Err(StrictError::Depth { limit: 64 }));
        // No stack to exhaust.
        assert!(validate(&nested(200_000), u64::MAX).is_ok());
    }

    #[test]
    fn keys_and_string_length_limits() {
        let keys = |n: usize| {
            let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
            format!("{{{}}}", members.join(","))
        };
        assert_eq!(check(&keys(10_000)), Ok(()));
        assert!(check(&keys(10_001)).is_err());
        let long = |n: usize| format!("\"{}\"", "é".repeat(n));
        assert_eq!(check(&long(1_048_576)), Ok(()));
        assert!(check(&long(1_048_577)).is_err());
        assert!(check(&format!("\"{}\\n\"", "a".repeat(1_048_576))).is_err());
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "",
            "{",
            "[1,",
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            "tru",
            "[1 2]",
            "'a'",
            r#""\x""#,
        ] {
            assert!(
                matches!(check(bad), Err(StrictError::Invalid(_))),
                "{bad:?}"
            );
        }
    }
}
