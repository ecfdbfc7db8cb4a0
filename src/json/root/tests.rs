use super::*;

#[test]
fn the_over_cap_sentence_names_the_cap_and_its_parts() {
    assert_eq!(
        over_tree_cap(JsonType::Object, tree_cap(5 << 20)),
        "the JSON root is an object whose tree would pass the memory cap (42 MiB: 32 MiB + twice the text)"
    );
    assert!(over_tree_cap(JsonType::Array, 0).starts_with("the JSON root is an array whose"));
}

/// The reading's verdict as `serde_json::from_slice::<Value>` gives it.
fn agrees(bytes: &[u8]) {
    let tree = serde_json::from_slice::<Value>(bytes);
    match (read_root(bytes), tree) {
        (Ok(reading), Ok(value)) => {
            assert_eq!(reading.json_type(), JsonType::of(&value));
            if let Some(read) = reading.tree() {
                assert_eq!(read, &value);
            }
        }
        (Err(read), Err(parsed)) => assert_eq!(read.to_string(), parsed.to_string()),
        (read, parsed) => panic!(
            "{:?}: read {read:?}, parsed {parsed:?}",
            String::from_utf8_lossy(bytes)
        ),
    }
}

#[test]
fn a_tree_fits_exactly_when_it_is_built_within_the_cap() {
    let mut texts: Vec<Vec<u8>> = [
        &br#"{"a":"xyz","b":[1,2,{"c":null}],"a":"\u00e9t\u00e9"}"#[..],
        br#"[{"a":1,"a":2},{"b":"bb"},[],{}]"#,
        br#""a string""#,
        b"12",
        br#"{"a":1} x"#,
        br#"{"a":"#,
    ]
    .iter()
    .map(|text| text.to_vec())
    .collect();
    texts.extend(crate::json::test_fixtures::a2a_fixture_texts());
    for text in &texts {
        for cap in (0..4000).step_by(7).chain([usize::MAX]) {
            let built = matches!(parse_tree_within(text, cap), Ok(Some(_)));
            assert_eq!(
                tree_fits(text, cap),
                built,
                "{} within {cap}",
                String::from_utf8_lossy(text)
            );
        }
    }
}

#[test]
fn reads_as_a_tree_would() {
    for text in [
        "[1,2,{\"a\":1,\"a\":2}]",
        " \n[]",
        "\"x\"",
        "1e999",
        "[1e999]",
        "-0",
        "[18446744073709551616]",
        "null",
        "true",
        "[\"\\ud800\"]",
        "[{\"\\ud800\":1}]",
        "[1,]",
        "[1] 2",
        "[",
        "",
        "  ",
        "{\"a\":[1]}",
        "\u{feff}[1]",
        "[\"\u{1}\"]",
        "[{1:2}]",
    ] {
        agrees(text.as_bytes());
    }
    let deep = "[".repeat(200) + &"]".repeat(200);
    agrees(deep.as_bytes());
    let deep_object = "[{\"a\":".repeat(100) + "1" + &"}]".repeat(100);
    agrees(deep_object.as_bytes());
    agrees(b"[\"\xff\"]");
}

proptest::proptest! {
    #[test]
    fn any_bytes_read_as_a_tree_would(text in r#"[\[\]{}":,\\a-f0-9eE.+\- u]{0,40}"#) {
        agrees(text.as_bytes());
    }

    /// The look at the structure never refuses a text whose tree fits: when it says
    /// "passes", building the tree passes the cap too (or the text is not JSON).
    #[test]
    fn the_structure_is_a_lower_bound_of_the_tree(
        text in r#"[\[\]{}":,\\a-c0-9 ]{0,60}"#,
        cap in 0usize..3000,
    ) {
        if structure_passes(text.as_bytes(), cap) {
            proptest::prop_assert!(!matches!(parse_within_budget(text.as_bytes(), cap), Ok(Some(_))));
        }
    }

    /// The length alone decides only what the walk would decide.
    #[test]
    fn a_text_too_short_to_pass_does_not_pass_the_walk(
        text in r#"[\[\]{}":,\\a-c0-9 ]{0,60}"#,
        cap in 0usize..40_000,
    ) {
        if too_short_to_pass(text.as_bytes(), cap) {
            proptest::prop_assert!(!structure_walk_passes(text.as_bytes(), cap));
        }
    }
}

#[test]
fn an_array_of_small_objects_is_refused_on_its_structure() {
    let text = format!("[{}]", vec![r#"{"a":1,"a":2}"#; 100].join(","));
    // 100 objects of two members: at least 100 x (640 + 2 x 80 + 64) bytes.
    assert!(structure_passes(text.as_bytes(), 80_000));
    assert!(!structure_passes(text.as_bytes(), 90_000));
    assert!(matches!(
        parse_within_budget(text.as_bytes(), 80_000),
        Ok(None)
    ));
    assert!(parse_tree_within(text.as_bytes(), 200_000)
        .unwrap()
        .is_some());
    // Strings are stepped over whole, escapes included.
    assert!(!structure_passes(br#"["{{{{:::,,,\"{{{:"]"#, 100));
}
