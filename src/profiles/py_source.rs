//! Python's `repr` of a value as Python's `json` would have read it from the document's text,
//! for the messages ContextCore's code words with `repr` (jsonschema's, the enum
//! constructors', the storage reader's). The parsed tree cannot say two things `json.loads`
//! keeps: every digit of an integer beyond 64 bits (`10**30`, where the tree holds `1e+30`)
//! and an object's members in the document's order (the tree's map is sorted). So the value's
//! text is found in the document and shown from there; where the text is not the tree's (no
//! such member, or bytes that read as another value) the tree's `repr` is shown instead.

use super::py;
use serde_json::Value;
use std::collections::HashMap;

/// Nesting deeper than this is shown from the tree (serde_json stops at 128 levels anyway).
const MAX_DEPTH: usize = 160;

/// A document's text beside its parsed tree: where values' reprs are read from.
#[derive(Clone, Copy)]
pub(crate) struct PySource<'a> {
    text: &'a [u8],
    root: &'a Value,
}

impl<'a> PySource<'a> {
    pub(crate) fn new(text: &'a [u8], root: &'a Value) -> PySource<'a> {
        PySource { text, root }
    }

    /// The tree alone: every repr from the parsed values.
    #[cfg(test)]
    pub(crate) fn tree(root: &'a Value) -> PySource<'a> {
        PySource { text: b"", root }
    }

    /// The parsed document.
    pub(crate) fn root(&self) -> &'a Value {
        self.root
    }

    /// Python's `repr` of the member at `keys` (object keys from the root), from the text when
    /// the text holds it; `None` when the tree has no such member.
    pub(crate) fn repr_at(&self, keys: &[&str]) -> Option<String> {
        let value = keys
            .iter()
            .try_fold(self.root, |value, key| value.as_object()?.get(*key))?;
        Some(
            self.shown_from_text(keys, value)
                .unwrap_or_else(|| py::repr(value)),
        )
    }

    /// Python's `str` of the member at `keys`: a string as it is, anything else its `repr`.
    pub(crate) fn str_at(&self, keys: &[&str]) -> Option<String> {
        let value = keys
            .iter()
            .try_fold(self.root, |value, key| value.as_object()?.get(*key))?;
        Some(match value {
            Value::String(text) => text.clone(),
            _ => self
                .shown_from_text(keys, value)
                .unwrap_or_else(|| py::repr(value)),
        })
    }

    fn shown_from_text(&self, keys: &[&str], value: &Value) -> Option<String> {
        if self.text.is_empty() {
            return None;
        }
        let mut reader = Reader {
            bytes: self.text,
            at: 0,
        };
        let start = reader.member_start(keys)?;
        let mut reader = Reader {
            bytes: self.text,
            at: start,
        };
        let mut shown = String::new();
        reader.value(0, Some(&mut shown))?;
        // The text must be the value the tree holds, or it is not shown.
        let read: Value = serde_json::from_slice(&self.text[start..reader.at]).ok()?;
        (read == *value).then_some(shown)
    }
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// Where the value at `keys` starts: the last occurrence of each key, as `json.loads`
    /// keeps the last value of a repeated one.
    fn member_start(&mut self, keys: &[&str]) -> Option<usize> {
        let Some((first, rest)) = keys.split_first() else {
            self.skip_space();
            return Some(self.at);
        };
        self.expect(b'{')?;
        let mut found = None;
        if self.peek()? == b'}' {
            return None;
        }
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            self.skip_space();
            if key == *first {
                found = Some(self.at);
            }
            self.value(0, None)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => break,
                _ => return None,
            }
        }
        self.at = found?;
        self.member_start(rest)
    }

    /// A string's decoded text (serde_json decodes the escapes).
    fn string(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at)? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        serde_json::from_slice(self.bytes.get(start..self.at)?).ok()
    }

    /// Reads one value, writing its `repr` to `out` when given.
    fn value(&mut self, depth: usize, mut out: Option<&mut String>) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => {
                let text = self.string()?;
                if let Some(out) = out {
                    out.push_str(&py::repr_str(&text));
                }
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek()? == b']' {
                    self.at += 1;
                } else {
                    loop {
                        let mut item = String::new();
                        self.value(depth + 1, out.is_some().then_some(&mut item))?;
                        items.push(item);
                        match self.peek()? {
                            b',' => self.at += 1,
                            b']' => {
                                self.at += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                if let Some(out) = out {
                    out.push('[');
                    out.push_str(&items.join(", "));
                    out.push(']');
                }
            }
            b'{' => self.object(depth, out.as_deref_mut())?,
            _ => self.scalar(out)?,
        }
        Some(())
    }

    /// An object as a Python dict shows it: each key where it first appeared, with the value
    /// it last had.
    fn object(&mut self, depth: usize, out: Option<&mut String>) -> Option<()> {
        self.at += 1;
        let mut members: Vec<(String, String)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                let key = self.string()?;
                self.expect(b':')?;
                let mut shown = String::new();
                self.value(depth + 1, out.is_some().then_some(&mut shown))?;
                match index.get(&key) {
                    Some(&at) => members[at].1 = shown,
                    None => {
                        index.insert(key.clone(), members.len());
                        members.push((key, shown));
                    }
                }
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        if let Some(out) = out {
            let inner: Vec<String> = members
                .iter()
                .map(|(key, shown)| format!("{}: {shown}", py::repr_str(key)))
                .collect();
            out.push('{');
            out.push_str(&inner.join(", "));
            out.push('}');
        }
        Some(())
    }

    /// `null`, `true`, `false` or a number: an integer with every digit (Python's `int`), a
    /// fraction or exponent as Python's `float` shows it.
    fn scalar(&mut self, out: Option<&mut String>) -> Option<()> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        let shown = match text {
            "null" => "None".to_owned(),
            "true" => "True".to_owned(),
            "false" => "False".to_owned(),
            _ if text.contains(['.', 'e', 'E']) => py::float_repr(text.parse().ok()?),
            _ => {
                let digits = text.strip_prefix('-').unwrap_or(text);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                // `-0` is the integer 0.
                if digits.bytes().all(|b| b == b'0') {
                    "0".to_owned()
                } else {
                    text.to_owned()
                }
            }
        };
        if let Some(out) = out {
            out.push_str(&shown);
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr_of(text: &str, keys: &[&str]) -> Option<String> {
        let root: Value = serde_json::from_str(text).unwrap();
        PySource::new(text.as_bytes(), &root).repr_at(keys)
    }

    #[test]
    fn integers_keep_every_digit_and_objects_their_order() {
        let text = r#"{"p": 1000000000000000000000000000000, "s": {"b": [1, -0, 2.50, 1e30], "a": {"z": null, "y": true}}, "n": -100000000000000000000}"#;
        assert_eq!(
            repr_of(text, &["p"]).unwrap(),
            "1000000000000000000000000000000"
        );
        assert_eq!(
            repr_of(text, &["s"]).unwrap(),
            "{'b': [1, 0, 2.5, 1e+30], 'a': {'z': None, 'y': True}}"
        );
        assert_eq!(repr_of(text, &["n"]).unwrap(), "-100000000000000000000");
        assert_eq!(
            repr_of(text, &["s", "a"]).unwrap(),
            "{'z': None, 'y': True}"
        );
        assert_eq!(repr_of(text, &["missing"]), None);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_last_value_as_json_loads_does() {
        let text = r#"{"v": {"a": 1, "b": 2, "a": 3}, "v": {"c": "\u200b", "a": 1}}"#;
        assert_eq!(repr_of(text, &["v"]).unwrap(), "{'c': '\\u200b', 'a': 1}");
        let text = r#"{"v": {"a": 1, "b": 2, "a": 3}}"#;
        assert_eq!(repr_of(text, &["v"]).unwrap(), "{'a': 3, 'b': 2}");
    }

    #[test]
    fn text_that_is_not_the_trees_value_is_not_shown() {
        let root = serde_json::json!({"p": {"b": 1, "a": 2}});
        // Other bytes than the tree's: the tree's repr (sorted members).
        let source = PySource::new(br#"{"p": {"b": 1, "a": 5}}"#, &root);
        assert_eq!(source.repr_at(&["p"]).unwrap(), "{'a': 2, 'b': 1}");
        let tree = PySource::tree(&root);
        assert_eq!(tree.repr_at(&["p"]).unwrap(), "{'a': 2, 'b': 1}");
        assert_eq!(tree.str_at(&["p", "b"]).unwrap(), "1");
        let root = serde_json::json!({"s": "it's"});
        assert_eq!(PySource::tree(&root).str_at(&["s"]).unwrap(), "it's");
    }
}
