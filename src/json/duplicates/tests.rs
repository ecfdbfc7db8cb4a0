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
