//! The members of a JSON text's root object found in the text itself: each key, decoded, and
//! the text of its value. A reader that needs a few members' values, or one member's value
//! at a time, reads them from the text instead of holding the tree of every member (an
//! object of 200k keys is a 20 MB tree).

use std::borrow::Cow;
use std::ops::Range;

/// Calls `visit(key, value)` for each member of the root object of `bytes`, in text order (a
/// repeated key each time it appears), with its key unescaped and where the text of its
/// value lies in `bytes` (parsing that text gives the member's value, as the tree holds it
/// for the last of a repeated key). For a text serde_json reads as an object; on any other
/// text it finds fewer members or none, and never fails.
pub fn for_each_member(bytes: &[u8], mut visit: impl FnMut(&str, Range<usize>)) {
    let mut at = skip_space(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return;
    }
    at += 1;
    loop {
        at = skip_space(bytes, at);
        if bytes.get(at) != Some(&b'"') {
            return;
        }
        let Some(key_end) = string_end(bytes, at) else {
            return;
        };
        let Some(key) = decode_key(&bytes[at..key_end]) else {
            return;
        };
        at = skip_space(bytes, key_end);
        if bytes.get(at) != Some(&b':') {
            return;
        }
        let start = skip_space(bytes, at + 1);
        let Some(end) = value_end(bytes, start) else {
            return;
        };
        visit(&key, start..end);
        at = skip_space(bytes, end);
        if bytes.get(at) != Some(&b',') {
            return;
        }
        at += 1;
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Where the string opening at `at` ends (past its closing quote).
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut index = at + 1;
    loop {
        match bytes.get(index)? {
            b'\\' => index += 2,
            b'"' => return Some(index + 1),
            _ => index += 1,
        }
    }
}

/// Where the value starting at `start` ends: a string, an array or an object to its closing
/// bracket (counted, not recursed into: nesting costs nothing), a scalar to the next
/// delimiter.
fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => string_end(bytes, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut index = start;
            loop {
                match bytes.get(index)? {
                    b'"' => {
                        index = string_end(bytes, index)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(index + 1);
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
        }
        _ => {
            let length = bytes[start..]
                .iter()
                .position(|byte| matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(bytes.len() - start);
            Some(start + length)
        }
    }
}

/// A key's text (with its quotes) unescaped: borrowed when it holds no escape.
fn decode_key(quoted: &[u8]) -> Option<Cow<'_, str>> {
    if quoted.contains(&b'\\') {
        return serde_json::from_slice::<String>(quoted)
            .ok()
            .map(Cow::Owned);
    }
    let inner = quoted.get(1..quoted.len().checked_sub(1)?)?;
    std::str::from_utf8(inner).ok().map(Cow::Borrowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The members as the tree holds them, from the text: each key's last value parsed.
    fn members_of_text(bytes: &[u8]) -> serde_json::Map<String, Value> {
        let mut members = serde_json::Map::new();
        for_each_member(bytes, |key, value| {
            members.insert(
                key.to_owned(),
                serde_json::from_slice(&bytes[value]).unwrap(),
            );
        });
        members
    }

    #[test]
    fn members_read_from_the_text_are_the_trees() {
        let mut texts: Vec<Vec<u8>> = [
            &br#"{}"#[..],
            br#" { "a" : 1 , "b":[1,{"c":"]}"}],"a":"x\"}" } "#,
            br#"{"\u0061":{"k":[[],{}]},"a\\b":-1.5e3,"\"":null,"t":true,"f":false}"#,
            b"{\"\xc3\xa9\":\"\\u00e9\",\"x\":{\"y\":{\"z\":[\"}\",\"{\"]}}}",
            br#"{"protocol":"a2a","extra_1":1,"extra_1":[2],"attributes":{"a":{"a":1,"a":2}}}"#,
        ]
        .iter()
        .map(|text| text.to_vec())
        .collect();
        texts.extend(crate::json::test_fixtures::a2a_fixture_texts());
        let mut compared = 0;
        for text in texts {
            let Ok(Value::Object(tree)) = serde_json::from_slice::<Value>(&text) else {
                continue;
            };
            assert_eq!(
                members_of_text(&text),
                tree,
                "{}",
                String::from_utf8_lossy(&text)
            );
            compared += 1;
        }
        assert!(compared > 10, "{compared}");
    }

    #[test]
    fn other_texts_give_no_members_and_broken_ones_never_fail() {
        for text in [&b"[1]"[..], b"\"a\"", b"1", b""] {
            assert!(members_of_text(text).is_empty());
        }
        for text in [
            &b"{"[..],
            b"{\"a",
            b"{\"a\":",
            b"{\"a\":[1,",
            b"{\"a\":\"\\",
            b"{\"a\\u00\":1}",
            b"{\"a\":1,}",
            b"{\"a\":]]]",
            b"{\"\xff\":1}",
        ] {
            let mut seen = 0;
            for_each_member(text, |_, _| seen += 1);
            assert!(seen <= 1, "{}", String::from_utf8_lossy(text));
        }
    }
}
