//! The fast path against the slow one: whatever it accepts, serde_json accepts with the same
//! JCS text; canonical `data` only when it is exactly JCS.

use super::*;
use crate::bundle::event::DataFlags;
use crate::json::write_jcs;
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
        let b = String::from_utf8(crate::json::jcs_bytes(&value)).unwrap();
        assert_eq!(a, b, "{text}");
    }
}

/// RFC 8785's own examples through the fast tree and the one JCS writer (the same examples
/// `json::jcs`'s tests hold the `Value` path to).
#[test]
fn rfc8785_examples_through_the_fast_tree() {
    let input = r#"{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}"#;
    let node = parse(input, 64).expect("the fast path reads RFC 8785's example");
    let mut out = String::new();
    write_jcs(&node, &mut out);
    assert_eq!(
        out,
        r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
    );
    let input = r#"{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}"#;
    let node = parse(input, 64).expect("the fast path reads RFC 8785's sorting example");
    let mut out = String::new();
    write_jcs(&node, &mut out);
    let order = [
        "Carriage", "One", "Control", "Latin", "Euro", "Emoji", "Hebrew",
    ];
    let positions: Vec<usize> = order.iter().map(|w| out.find(w).unwrap()).collect();
    assert!(positions.windows(2).all(|p| p[0] < p[1]), "{out}");
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
        "[\u{0}-\u{1f}\u{e000}-\u{e002}\u{10000}-\u{10002}a\"\\\\]{0,4}".prop_map(Value::String),
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
    let jcs = String::from_utf8(crate::json::jcs_bytes(&value)).unwrap();
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
        let jcs = String::from_utf8(crate::json::jcs_bytes(&value)).unwrap();
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
