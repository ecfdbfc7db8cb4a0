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

/// Scans JSON text for duplicate keys. Malformed text is scanned as far as it goes; the
/// parse error itself is reported by whoever parses it.
pub fn scan_duplicate_keys(bytes: &[u8]) -> Vec<DuplicateKey> {
    // Fast path: a document without any repeated quoted token cannot repeat a key, but
    // proving that costs as much as the scan, so we simply scan.
    let mut found = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
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
    fn top_level_duplicates() {
        assert_eq!(
            paths(r#"{"event_type":"a","event_type":"b"}"#),
            vec!["$.event_type x2"]
        );
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
