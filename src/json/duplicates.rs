//! Duplicate object keys. `serde_json` keeps the last value of a repeated key without a word,
//! so a packet like `{"task":{"kind":"analysis","kind":"delegation"}}` converts as a
//! delegation while a reader of the file may see an analysis. The scan below finds every
//! repeated key (after unescaping, so `"kind"` and `"\u006bind"` are the same key) with the
//! path of the object that holds it. It is a separate pass over the bytes so that the
//! conversion itself stays exactly what the spec says.

use super::JsonPath;
use std::collections::HashMap;

/// A key that appears more than once in one object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DuplicateKey {
    /// The path of the repeated member, e.g. `$.task.kind`.
    pub path: JsonPath,
    /// How many times the key appears in that object.
    pub occurrences: usize,
}

enum Frame {
    Object {
        counts: HashMap<String, usize>,
        order: Vec<String>,
        current_key: Option<String>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

fn frame_path(frames: &[Frame]) -> JsonPath {
    let mut path = JsonPath::root();
    for frame in frames {
        match frame {
            Frame::Object {
                current_key: Some(key),
                ..
            } => path.push_key(key),
            Frame::Object {
                current_key: None, ..
            } => {}
            Frame::Array { index } => path.push_index(*index),
        }
    }
    path
}

/// Nesting deeper than this is not scanned: no JSON this tool parses can be that deep (the
/// parser stops at 128 levels), and a frame per level of `[[[[...` would make a 16 MiB file
/// cost gigabytes. The scan stops there and keeps what it found above.
pub const MAX_SCAN_DEPTH: usize = 512;

/// Scans JSON text for duplicate keys. Malformed text is scanned as far as it goes; the
/// parse error itself is reported by whoever parses it.
pub fn scan_duplicate_keys(bytes: &[u8]) -> Vec<DuplicateKey> {
    // Fast path: most packets repeat no key, and proving that on raw key bytes allocates
    // nothing, where the full scan below decodes and hashes every key.
    if !may_repeat_a_key(bytes) {
        return Vec::new();
    }
    full_scan(bytes)
}

fn full_scan(bytes: &[u8]) -> Vec<DuplicateKey> {
    let mut found = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
            b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => break,
            b'{' => {
                frames.push(Frame::Object {
                    counts: HashMap::new(),
                    order: Vec::new(),
                    current_key: None,
                    expecting_key: true,
                });
                position += 1;
            }
            b'[' => {
                frames.push(Frame::Array { index: 0 });
                position += 1;
            }
            b'}' | b']' => {
                if let Some(Frame::Object { counts, order, .. }) = frames.pop() {
                    let parent = frame_path(&frames);
                    for key in order {
                        let occurrences = counts.get(&key).copied().unwrap_or(0);
                        if occurrences > 1 {
                            found.push(DuplicateKey {
                                path: parent.key(&key),
                                occurrences,
                            });
                        }
                    }
                }
                position += 1;
            }
            b':' => {
                if let Some(Frame::Object { expecting_key, .. }) = frames.last_mut() {
                    *expecting_key = false;
                }
                position += 1;
            }
            b',' => {
                match frames.last_mut() {
                    Some(Frame::Object { expecting_key, .. }) => *expecting_key = true,
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                }
                position += 1;
            }
            b'"' => {
                let end = string_end(bytes, position);
                if let Some(Frame::Object {
                    counts,
                    order,
                    current_key,
                    expecting_key,
                }) = frames.last_mut()
                {
                    if *expecting_key {
                        let key = decode_string(&bytes[position..end]);
                        let count = counts.entry(key.clone()).or_insert(0);
                        *count += 1;
                        if *count == 2 {
                            order.push(key.clone());
                        }
                        *current_key = Some(key);
                    }
                }
                position = end;
            }
            _ => position += 1,
        }
    }
    found
}

/// Objects with more keys than this go to the full scan (the quick check compares linearly).
const QUICK_CHECK_MAX_KEYS: usize = 64;

/// A quick, allocation-light check: `false` only when no object repeats a key. Keys are
/// compared as raw bytes; a key with an escape (which may spell another key), an object with
/// many keys or malformed text answers `true`, leaving the decision to the full scan.
fn may_repeat_a_key(bytes: &[u8]) -> bool {
    // (is object, expecting a key, index of its first key in `keys`)
    let mut frames: Vec<(bool, bool, usize)> = Vec::with_capacity(8);
    let mut keys: Vec<&[u8]> = Vec::with_capacity(32);
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
            // Too deep to decide quickly: the full scan decides (and stops at the same depth).
            b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => return true,
            b'{' => frames.push((true, true, keys.len())),
            b'[' => frames.push((false, false, keys.len())),
            b'}' | b']' => match frames.pop() {
                Some((_, _, first)) => keys.truncate(first),
                None => return true,
            },
            b':' => {
                if let Some((true, expecting_key, _)) = frames.last_mut() {
                    *expecting_key = false;
                }
            }
            b',' => {
                if let Some((true, expecting_key, _)) = frames.last_mut() {
                    *expecting_key = true;
                }
            }
            b'"' => {
                let end = string_end(bytes, position);
                if let Some(&(true, true, first)) = frames.last() {
                    let key = &bytes[position + 1..end.saturating_sub(1).max(position + 1)];
                    let siblings = &keys[first..];
                    if key.contains(&b'\\')
                        || siblings.len() >= QUICK_CHECK_MAX_KEYS
                        || siblings.contains(&key)
                    {
                        return true;
                    }
                    keys.push(key);
                }
                position = end;
                continue;
            }
            _ => {}
        }
        position += 1;
    }
    !frames.is_empty()
}

/// The index just past the closing quote of the string starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut position = start + 1;
    while position < bytes.len() {
        match bytes[position] {
            b'\\' => position += 2,
            b'"' => return position + 1,
            _ => position += 1,
        }
    }
    bytes.len()
}

fn decode_string(quoted: &[u8]) -> String {
    if !quoted.contains(&b'\\') {
        let inner = &quoted[1..quoted.len().saturating_sub(1).max(1)];
        return String::from_utf8_lossy(inner).into_owned();
    }
    serde_json::from_slice::<String>(quoted)
        .unwrap_or_else(|_| String::from_utf8_lossy(quoted).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        scan_duplicate_keys(text.as_bytes())
            .into_iter()
            .map(|dup| format!("{} x{}", dup.path, dup.occurrences))
            .collect()
    }

    #[test]
    fn no_duplicates_in_ordinary_json() {
        assert!(paths(r#"{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"{\"a\":1,\"a\":2}"}"#).is_empty());
    }

    #[test]
    fn finds_nested_and_escaped_duplicates() {
        assert_eq!(
            paths(
                r#"{"task":{"kind":"analysis","\u006bind":"delegation"},"x":[1,{"y":1,"y":2,"y":3}]}"#
            ),
            vec!["$.task.kind x2", "$.x[1].y x3"]
        );
    }

    #[test]
    fn pathological_nesting_costs_bounded_frames() {
        // Far deeper than the cap: the scan stops, keeping what it found above the cap.
        let mut text = r#"[{"a":1,"a":2},"#.to_owned();
        text.push_str(&"[".repeat(MAX_SCAN_DEPTH * 100));
        assert_eq!(paths(&text), vec!["$[0].a x2"]);
        assert!(paths(&"[".repeat(MAX_SCAN_DEPTH * 100)).is_empty());
    }

    #[test]
    fn top_level_duplicates() {
        assert_eq!(
            paths(r#"{"event_type":"a","event_type":"b"}"#),
            vec!["$.event_type x2"]
        );
    }

    #[test]
    fn quick_check_never_hides_a_duplicate() {
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"{"a":{"b":1},"c":[{"d":1,"d":2}]}"#,
            r#"{"k":1,"\u006b":2}"#,
            r#"{"x":"{\"a\":1,\"a\":2}","y":{"a":1,"a":1}}"#,
        ] {
            assert!(may_repeat_a_key(text.as_bytes()), "{text}");
        }
        for text in [
            r#"{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}"#,
            r#"{"x":"{\"a\":1,\"a\":2}"}"#,
            "[1,2,3]",
        ] {
            assert!(!may_repeat_a_key(text.as_bytes()), "{text}");
        }
    }

    fn json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let leaf = prop_oneof![Just("1".to_owned()), Just("\"a\"".to_owned())];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec(
                    (
                        proptest::sample::select(vec!["a", "b", "c", "\\u0061"]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|members| {
                    let members: Vec<String> = members
                        .iter()
                        .map(|(key, value)| format!("\"{key}\":{value}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn quick_check_never_misses_what_the_full_scan_finds(text in json_text()) {
            if !full_scan(text.as_bytes()).is_empty() {
                proptest::prop_assert!(may_repeat_a_key(text.as_bytes()), "{}", text);
            }
        }

        #[test]
        fn quick_check_agrees_with_the_full_scan(text in r#"[{}\[\]":,\\ab1]{0,40}"#) {
            if !may_repeat_a_key(text.as_bytes()) {
                proptest::prop_assert!(full_scan(text.as_bytes()).is_empty(), "{}", text);
            }
        }
    }

    #[test]
    fn malformed_input_does_not_panic() {
        for text in [
            "{",
            "{\"a\"",
            "{\"a\":1,\"a\"",
            "]]]}}}",
            "\"\\",
            "{\"a\\",
            "[{\"a\":1,\"a\":",
        ] {
            let _ = scan_duplicate_keys(text.as_bytes());
        }
    }
}
