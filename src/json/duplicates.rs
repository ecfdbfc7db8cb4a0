//! Duplicate object keys. `serde_json` keeps the last value of a repeated key without a word,
//! so a packet like `{"task":{"kind":"analysis","kind":"delegation"}}` converts as a
//! delegation while a reader of the file may see an analysis. The scan below finds every
//! repeated key (after unescaping, so `"kind"` and `"\u006bind"` are the same key) with the
//! path of the object that holds it. It is a separate pass over the bytes so that the
//! conversion itself stays exactly what the spec says.

use super::JsonPath;
use std::hash::BuildHasher;

/// A key that appears more than once in one object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DuplicateKey {
    /// The path of the repeated member, e.g. `$.task.kind`.
    pub path: JsonPath,
    /// How many times the key appears in that object.
    pub occurrences: usize,
}

/// One member of an open object: the top 24 bits of its key's hash over the offset of the
/// key's opening quote (40 bits: packets are capped far below a terabyte). Eight bytes a
/// member whatever the key, where a map of decoded keys cost about a hundred: an object of
/// 500k different keys, each repeated, is what made the scan the largest thing alive.
type Member = u64;

const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

enum Frame {
    Object {
        members: Vec<Member>,
        /// Offset of the opening quote of the key read last (the path of what is inside).
        current_key: Option<usize>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

fn frame_path(bytes: &[u8], frames: &[Frame]) -> JsonPath {
    let mut path = JsonPath::root();
    for frame in frames {
        match frame {
            Frame::Object {
                current_key: Some(start),
                ..
            } => path.push_key(&key_at(bytes, *start)),
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
const MAX_SCAN_DEPTH: usize = 512;

/// Scans JSON text for duplicate keys. Malformed text is scanned as far as it goes; the
/// parse error itself is reported by whoever parses it.
pub fn scan_duplicate_keys(bytes: &[u8]) -> Vec<DuplicateKey> {
    let mut found = Vec::new();
    for_each_duplicate_key(bytes, |duplicate| found.push(duplicate));
    found
}

/// The first repeated keys of a text and how many it repeats in all: what a view lists, where
/// a packet may repeat a million keys (a path each, about 150 bytes: 1M objects of
/// `[{"a":1,"a":2},...]` held 870 MiB in the inspector's findings view).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuplicateKeys {
    /// The first repeated keys in text order, at most the limit asked for.
    pub first: Vec<DuplicateKey>,
    /// Every repeated key, listed or not.
    pub total: usize,
}

impl DuplicateKeys {
    /// How many repeated keys are not in `first`.
    pub fn unlisted(&self) -> usize {
        self.total - self.first.len()
    }
}

/// [`scan_duplicate_keys`], keeping the first `limit` and counting the rest.
pub fn scan_duplicate_keys_up_to(bytes: &[u8], limit: usize) -> DuplicateKeys {
    let mut found = DuplicateKeys::default();
    for_each_duplicate_key(bytes, |duplicate| {
        if found.first.len() < limit {
            found.first.push(duplicate);
        }
        found.total += 1;
    });
    found
}

/// The repeated keys of a text as the JSON array [`scan_duplicate_keys`]'s list serializes
/// to, written element by element as the scan finds them: a JSON report of a packet that
/// repeats a million keys does not hold them all first (244 MiB for `explain --format json`
/// of 1M objects `[{"a":1,"a":2},...]`, 14 MB).
pub struct DuplicateKeysIn<'a>(pub &'a [u8]);

impl serde::Serialize for DuplicateKeysIn<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        for_each_duplicate_key(self.0, |duplicate| {
            if failed.is_none() {
                failed = seq.serialize_element(&duplicate).err();
            }
        });
        match failed {
            Some(error) => Err(error),
            None => seq.end(),
        }
    }
}

/// How many keys [`scan_duplicate_keys`] would report, holding none of them.
pub fn count_duplicate_keys(bytes: &[u8]) -> usize {
    let mut count = 0;
    for_each_duplicate_key(bytes, |_| count += 1);
    count
}

/// [`scan_duplicate_keys`], handing each repeated key to `visit` as it is found (in the same
/// order) instead of keeping them: a packet of a million repeated keys is not held twice.
pub fn for_each_duplicate_key(bytes: &[u8], visit: impl FnMut(DuplicateKey)) {
    // Fast path: most packets repeat no key, and proving that on raw key bytes allocates
    // nothing, where the full scan below decodes and hashes every key.
    if !may_repeat_a_key(bytes) {
        return;
    }
    full_scan(bytes, visit)
}

fn full_scan(bytes: &[u8], mut visit: impl FnMut(DuplicateKey)) {
    let hasher = std::collections::hash_map::RandomState::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
            b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => break,
            b'{' => {
                frames.push(Frame::Object {
                    members: Vec::new(),
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
                if let Some(Frame::Object { members, .. }) = frames.pop() {
                    let repeated = repeated_keys(bytes, members);
                    if !repeated.is_empty() {
                        let parent = frame_path(bytes, &frames);
                        for (_, first, occurrences) in repeated {
                            visit(DuplicateKey {
                                path: parent.key(&key_at(bytes, first)),
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
                    members,
                    current_key,
                    expecting_key: true,
                }) = frames.last_mut()
                {
                    if position as u64 > OFFSET_MASK {
                        // Past what a member records; no packet this tool reads gets here.
                        break;
                    }
                    let hash = hasher.hash_one(&*decode_string(&bytes[position..end]));
                    members.push((hash >> OFFSET_BITS << OFFSET_BITS) | position as u64);
                    *current_key = Some(position);
                }
                position = end;
            }
            _ => position += 1,
        }
    }
}

/// The keys of one closed object that appear more than once: (offset of the second
/// occurrence, offset of the first, occurrences), in the order of their second occurrence,
/// which is the order a map counting keys as it reads them would report them in. Members
/// sort by hash, then offset; equal hashes are told apart by comparing the keys themselves.
fn repeated_keys(bytes: &[u8], mut members: Vec<Member>) -> Vec<(usize, usize, usize)> {
    members.sort_unstable();
    let mut repeated = Vec::new();
    // (decoded key, first offset, second offset, occurrences) of the keys sharing one hash.
    let mut classes: Vec<(std::borrow::Cow<'_, str>, usize, usize, usize)> = Vec::new();
    for group in members.chunk_by(|a, b| a >> OFFSET_BITS == b >> OFFSET_BITS) {
        if group.len() < 2 {
            continue;
        }
        classes.clear();
        for &member in group {
            let offset = (member & OFFSET_MASK) as usize;
            let key = key_at(bytes, offset);
            match classes.iter_mut().find(|class| class.0 == key) {
                Some(class) => {
                    if class.3 == 1 {
                        class.2 = offset;
                    }
                    class.3 += 1;
                }
                None => classes.push((key, offset, 0, 1)),
            }
        }
        repeated.extend(
            classes
                .iter()
                .filter(|class| class.3 > 1)
                .map(|class| (class.2, class.1, class.3)),
        );
    }
    drop(members);
    repeated.sort_unstable();
    repeated
}

/// The decoded key whose opening quote is at `start`.
fn key_at(bytes: &[u8], start: usize) -> std::borrow::Cow<'_, str> {
    decode_string(&bytes[start..string_end(bytes, start)])
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
    // Strings are most of a packet's bytes: jump from quote or backslash to the next with
    // memchr's vectorized search rather than stepping byte by byte (a tenth of `check`'s CPU
    // on the realistic mix went to this pre-check).
    let mut position = start + 1;
    while let Some(found) = bytes
        .get(position..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        let at = position + found;
        if bytes[at] == b'"' {
            return at + 1;
        }
        // An escape: the byte after the backslash is never the string's end.
        position = at + 2;
    }
    bytes.len()
}

fn decode_string(quoted: &[u8]) -> std::borrow::Cow<'_, str> {
    if !quoted.contains(&b'\\') {
        let inner = &quoted[1..quoted.len().saturating_sub(1).max(1)];
        return String::from_utf8_lossy(inner);
    }
    serde_json::from_slice::<String>(quoted)
        .map_or_else(|_| String::from_utf8_lossy(quoted), std::borrow::Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_scan_lists_the_first_keys_and_counts_all() {
        let text = br#"[{"a":1,"a":2},{"b":1,"b":2},{"c":1,"c":2,"c":3}]"#;
        let all = scan_duplicate_keys(text);
        let capped = scan_duplicate_keys_up_to(text, 2);
        assert_eq!(capped.first, all[..2]);
        assert_eq!((capped.total, capped.unlisted()), (3, 1));
        assert_eq!(scan_duplicate_keys_up_to(text, 10).first, all);
    }

    #[test]
    fn the_streamed_list_serializes_as_the_collected_one() {
        for text in [
            &br#"[{"a":1,"a":2},{"b":{"x":1,"x":2},"b":3}]"#[..],
            br#"{"k":1}"#,
            b"not json",
        ] {
            assert_eq!(
                serde_json::to_string(&DuplicateKeysIn(text)).unwrap(),
                serde_json::to_string(&scan_duplicate_keys(text)).unwrap()
            );
        }
    }

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
    fn keys_of_equal_hash_are_told_apart() {
        // Every member given the same hash: only equal keys may count as repeats.
        let text = br#"{"a":1,"b":2,"a":3,"\u0062":4,"c":5,"a":6}"#;
        let members: Vec<Member> = [1, 7, 13, 19, 30, 36]
            .iter()
            .map(|&offset| {
                assert_eq!(text[offset], b'"');
                (7 << OFFSET_BITS) | offset as u64
            })
            .collect();
        assert_eq!(repeated_keys(text, members), vec![(13, 1, 3), (19, 7, 2)]);
    }

    #[test]
    fn counting_holds_no_keys_and_agrees() {
        let text = r#"{"a":1,"a":2,"b":{"c":1,"c":2,"c":3}}"#;
        assert_eq!(count_duplicate_keys(text.as_bytes()), 2);
        assert_eq!(paths(text), vec!["$.b.c x3", "$.a x2"]);
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

    fn full(text: &str) -> Vec<DuplicateKey> {
        let mut found = Vec::new();
        full_scan(text.as_bytes(), |duplicate| found.push(duplicate));
        found
    }

    /// What the scan finds, as the reference scan reports it: path and occurrences.
    fn paths_and_counts(text: &str) -> Vec<(String, usize)> {
        full(text)
            .into_iter()
            .map(|duplicate| (duplicate.path.to_string(), duplicate.occurrences))
            .collect()
    }

    /// The test oracle, the plainest scan there is: a map of decoded keys per object, each
    /// duplicate reported in the order its count reached two. The hashed and sorted scan must
    /// report the same duplicates in the same order.
    fn reference_scan(bytes: &[u8]) -> Vec<(String, usize)> {
        use std::collections::HashMap;
        // (counts, order, current key, expecting a key) or an array's index.
        type Object = (HashMap<String, usize>, Vec<String>, Option<String>, bool);
        let mut found = Vec::new();
        let mut frames: Vec<Result<Object, usize>> = Vec::new();
        let path = |frames: &[Result<Object, usize>]| {
            let mut path = JsonPath::root();
            for frame in frames {
                match frame {
                    Ok((_, _, Some(key), _)) => path.push_key(key),
                    Ok(_) => {}
                    Err(index) => path.push_index(*index),
                }
            }
            path
        };
        let mut position = 0;
        while position < bytes.len() {
            match bytes[position] {
                b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => break,
                b'{' => frames.push(Ok((HashMap::new(), Vec::new(), None, true))),
                b'[' => frames.push(Err(0)),
                b'}' | b']' => {
                    if let Some(Ok((counts, order, _, _))) = frames.pop() {
                        let parent = path(&frames);
                        for key in order {
                            found.push((parent.key(&key).to_string(), counts[&key]));
                        }
                    }
                }
                b':' => {
                    if let Some(Ok(object)) = frames.last_mut() {
                        object.3 = false;
                    }
                }
                b',' => match frames.last_mut() {
                    Some(Ok(object)) => object.3 = true,
                    Some(Err(index)) => *index += 1,
                    None => {}
                },
                b'"' => {
                    let end = string_end(bytes, position);
                    if let Some(Ok((counts, order, current, true))) = frames.last_mut() {
                        let key = decode_string(&bytes[position..end]).into_owned();
                        let count = counts.entry(key.clone()).or_insert(0);
                        *count += 1;
                        if *count == 2 {
                            order.push(key.clone());
                        }
                        *current = Some(key);
                    }
                    position = end;
                    continue;
                }
                _ => {}
            }
            position += 1;
        }
        found
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

    /// `string_end` as it stepped byte by byte before it searched with memchr.
    fn string_end_stepping(bytes: &[u8], start: usize) -> usize {
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

    proptest::proptest! {
        #[test]
        fn string_end_finds_what_stepping_finds(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::Just(b'"'),
                    proptest::prelude::Just(b'\\'),
                    proptest::prelude::any::<u8>()
                ],
                0..80,
            ),
            start in 0usize..80,
        ) {
            let start = start.min(bytes.len());
            proptest::prop_assert_eq!(string_end(&bytes, start), string_end_stepping(&bytes, start));
        }

        #[test]
        fn quick_check_never_misses_what_the_full_scan_finds(text in json_text()) {
            if !full(&text).is_empty() {
                proptest::prop_assert!(may_repeat_a_key(text.as_bytes()), "{}", text);
            }
        }

        #[test]
        fn the_scan_agrees_with_a_map_of_decoded_keys(text in json_text()) {
            proptest::prop_assert_eq!(paths_and_counts(&text), reference_scan(text.as_bytes()));
        }

        #[test]
        fn the_scan_agrees_on_malformed_text(text in r#"[{}\[\]":,\\ab1]{0,40}"#) {
            proptest::prop_assert_eq!(paths_and_counts(&text), reference_scan(text.as_bytes()));
        }

        #[test]
        fn quick_check_agrees_with_the_full_scan(text in r#"[{}\[\]":,\\ab1]{0,40}"#) {
            if !may_repeat_a_key(text.as_bytes()) {
                proptest::prop_assert!(full(&text).is_empty(), "{}", text);
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
