//! The fast conversion against the reference (`reference.rs`) on generated packet text:
//! same result (error kind, message, rule), same typed fields and parsed packet, same
//! lossiness, same canonical bytes of event, payload and batch, same digests.
//!
//! Packets are generated as text, not as `Value`s, to reach what a `Value` cannot hold:
//! duplicate keys, escaped keys and strings, key order, invalid JSON and invalid UTF-8.

use super::fields::RECOGNISED_TOP_LEVEL_KEYS;
use super::{convert, reference, ConvertOptions, Mode};
use crate::json::{canonical_bytes, digest_value};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Compares one packet under one set of options.
fn same(bytes: &[u8], options: &ConvertOptions) -> Result<(), TestCaseError> {
    same_as_reference(convert(bytes, options), bytes, options)
}

/// Compares a conversion made by the fast path with the reference's for the same input.
fn same_as_reference(
    fast: super::Conversion,
    bytes: &[u8],
    options: &ConvertOptions,
) -> Result<(), TestCaseError> {
    let oracle = reference::convert(bytes, options);
    prop_assert_eq!(fast.mode, oracle.mode);
    prop_assert_eq!(fast.fields.as_deref(), oracle.fields.as_ref());
    match (&fast.result, &oracle.result) {
        (Ok(fast), Ok(oracle)) => {
            // Digests first, while the fast side has not built its event yet.
            prop_assert_eq!(fast.payload_digest(), digest_value(oracle.payload()));
            prop_assert_eq!(fast.handoff_digest(), digest_value(oracle.handoff()));
            prop_assert_eq!(fast.discovery_digest(), digest_value(oracle.discovery()));
            prop_assert_eq!(fast.handoff(), oracle.handoff());
            prop_assert_eq!(fast.discovery(), oracle.discovery());
            prop_assert_eq!(fast.subject(), oracle.subject());
            prop_assert_eq!(fast.canonical_type, oracle.canonical_type);
            prop_assert_eq!(&fast.lossiness, &oracle.lossiness);
            let text = |value| String::from_utf8_lossy(&canonical_bytes(value)).into_owned();
            prop_assert_eq!(text(fast.payload()), text(oracle.payload()));
            prop_assert_eq!(
                canonical_bytes(fast.event()),
                canonical_bytes(&oracle.event)
            );
            prop_assert_eq!(
                canonical_bytes(&fast.batch()),
                canonical_bytes(&oracle.batch())
            );
        }
        (Err(fast), Err(oracle)) => {
            prop_assert_eq!(fast, oracle);
            prop_assert_eq!(fast.rule, oracle.rule);
        }
        (fast, oracle) => prop_assert!(false, "fast {:?}\noracle {:?}", fast, oracle),
    }
    prop_assert_eq!(fast.packet.as_ref(), oracle.packet.as_ref());
    Ok(())
}

/// A JSON string literal for `text`: as serde_json writes it, or with some or all of its
/// characters written as `\u` escapes.
fn string_literal(text: &'static str) -> impl Strategy<Value = String> {
    (0..3u8).prop_map(move |style| {
        let plain = serde_json::to_string(text).unwrap_or_default();
        match style {
            0 => plain,
            1 => {
                let escaped: String = text
                    .encode_utf16()
                    .map(|unit| format!("\\u{unit:04x}"))
                    .collect();
                format!("\"{escaped}\"")
            }
            _ => {
                // Escape only the first character (a different parse path: copied, not
                // borrowed).
                let mut chars = text.chars();
                match chars.next() {
                    Some(first) => {
                        let head: String = first
                            .encode_utf16(&mut [0; 2])
                            .iter()
                            .map(|unit| format!("\\u{unit:04x}"))
                            .collect();
                        let rest = serde_json::to_string(chars.as_str()).unwrap_or_default();
                        format!("\"{head}{}", &rest[1..])
                    }
                    None => plain,
                }
            }
        }
    })
}

fn one_of(values: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(values).prop_flat_map(string_literal)
}

const VERSIONS: &[&str] = &[
    "0.2", "0.2.0", "0.3.1", "0.10", "0.2.x", "1.0", "0.1", "v0.2", "0", "+0.2", "0.-2", "",
];
const EVENT_TYPES: &[&str] = &[
    "task.requested",
    "task.updated",
    "artifact.shared",
    "agent.capabilities",
    "session.unknown",
    "Task.Requested",
];
const TIMESTAMPS: &[&str] = &[
    "2026-02-27T10:05:00Z",
    "2026-02-27T11:05:00+01:00",
    "2026-02-27T10:05:00.250Z",
    "2026-02-27T10:05:00.123456789-05:30",
    "2026-02-27t10:05:00z",
    "2026-02-27",
    "yesterday",
];
const WORDS: &[&str] = &[
    "delegation",
    "Delegation",
    "analysis",
    "unknown-task",
    "unknown-agent",
    "agent://a",
    "task-1",
    "msg-1",
    "artifact-1",
    "requested",
    "orchestrator",
    "a2a",
    "",
    "é\u{202e}\u{1b}[2J",
    "zz",
    "b",
    "a",
];
const MEMBER_KEYS: &[&str] = &[
    "id",
    "id",
    "id",
    "kind",
    "name",
    "role",
    "capabilities",
    "status",
    "kind",
    "media_type",
    "visible",
    "agent_card",
    "extended_card_access",
    "assay_g4",
    "ID",
];
const UNKNOWN_KEYS: &[&str] = &[
    "extra",
    "zeta",
    "handoff",
    "route",
    "Agent",
    "protocol ",
    "é",
];

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(
            &[
                "0",
                "-0",
                "1.5",
                "1e3",
                "-2E-2",
                "12345678901234567890",
                "-9223372036854775809",
                "0.1e1",
                "1e400",
            ][..]
        )
        .prop_map(str::to_owned),
        any::<i64>().prop_map(|number| number.to_string()),
        any::<f64>()
            .prop_filter("finite", |number| number.is_finite())
            .prop_map(|number| serde_json::to_string(&number).unwrap_or_default()),
    ]
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => one_of(WORDS),
        1 => one_of(VERSIONS),
        1 => one_of(EVENT_TYPES),
        2 => number(),
        1 => proptest::sample::select(&["true", "false", "null"][..]).prop_map(str::to_owned),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => one_of(MEMBER_KEYS),
        1 => one_of(UNKNOWN_KEYS),
        1 => one_of(&RECOGNISED_TOP_LEVEL_KEYS),
    ]
}

/// Any JSON value text, nesting a few levels, objects with repeated keys.
fn value() -> impl Strategy<Value = String> {
    scalar().prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5)
                .prop_map(|items| format!("[{}]", items.join(","))),
            proptest::collection::vec((key(), inner), 0..5).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(key, value)| format!("{key}:{value}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

/// `agent`, `task`, `artifact` or `message`: mostly an object of known members (strings,
/// string arrays, anything), sometimes any value.
fn nested() -> impl Strategy<Value = String> {
    let member = (
        one_of(MEMBER_KEYS),
        prop_oneof![
            4 => one_of(WORDS),
            1 => proptest::collection::vec(prop_oneof![3 => one_of(WORDS), 1 => scalar()], 0..4)
                .prop_map(|items| format!("[{}]", items.join(","))),
            2 => value(),
        ],
    );
    prop_oneof![
        5 => proptest::collection::vec(member, 0..5).prop_map(|members| {
            let members: Vec<String> = members
                .into_iter()
                .map(|(key, value)| format!("{key}: {value}"))
                .collect();
            format!("{{{}}}", members.join(", "))
        }),
        1 => value(),
    ]
}

/// `attributes`: often carrying `assay_g4` flags.
fn attributes() -> impl Strategy<Value = String> {
    let flag = prop_oneof![Just("true"), Just("false"), Just("\"true\""), Just("1")];
    let g4 = (flag.clone(), flag, value()).prop_map(|(card, extended, other)| {
        format!(
            r#"{{"assay_g4": {{"agent_card": {{"visible": {card}}}, "extended_card_access": {{"visible": {extended}}}}}, "other": {other}}}"#
        )
    });
    prop_oneof![2 => g4, 3 => value()]
}

/// One top-level member; the key decides what its value usually looks like.
fn member() -> impl Strategy<Value = (String, String)> {
    let typed = |values: &'static [&'static str]| prop_oneof![5 => one_of(values), 1 => value()];
    prop_oneof![
        2 => (string_literal("protocol"), prop_oneof![5 => string_literal("a2a"), 1 => value()]),
        2 => (string_literal("version"), typed(VERSIONS)),
        3 => (string_literal("event_type"), typed(EVENT_TYPES)),
        1 => (string_literal("timestamp"), typed(TIMESTAMPS)),
        3 => (string_literal("agent"), nested()),
        3 => (string_literal("task"), nested()),
        1 => (string_literal("artifact"), nested()),
        2 => (string_literal("message"), nested()),
        2 => (string_literal("attributes"), attributes()),
        2 => (one_of(UNKNOWN_KEYS), value()),
    ]
}

/// A packet's text: an object that usually starts valid (`protocol`, `version`) followed by
/// generated members, shuffled, with repeats; sometimes damaged into invalid JSON.
fn packet_text() -> impl Strategy<Value = Vec<u8>> {
    let base = |key: &'static str, value: &'static str, probability| {
        proptest::option::weighted(probability, Just((format!("\"{key}\""), value.to_owned())))
    };
    let members = (
        [
            base("protocol", "\"a2a\"", 0.8),
            base("version", "\"0.2\"", 0.8),
            base("event_type", "\"task.requested\"", 0.75),
            base("agent", r#"{"id": "agent://a"}"#, 0.75),
            base("task", r#"{"id": "task-1", "kind": "delegation"}"#, 0.6),
            base("task", r#"{"kind": "delegation"}"#, 0.2),
            base("message", r#"{"id": "msg-1"}"#, 0.6),
        ],
        proptest::collection::vec(member(), 0..8),
    )
        .prop_flat_map(|(base, mut members)| {
            members.extend(base.into_iter().flatten());
            Just(members).prop_shuffle()
        });
    let separator = prop_oneof![Just(","), Just(", "), Just(" ,\n\t")];
    let text = (members, separator).prop_map(|(members, separator)| {
        let members: Vec<String> = members
            .into_iter()
            .map(|(key, value)| format!("{key}:{value}"))
            .collect();
        format!("{{{}}}", members.join(separator)).into_bytes()
    });
    (text, damage()).prop_map(|(mut bytes, damage)| {
        damage.apply(&mut bytes);
        bytes
    })
}

#[derive(Clone, Debug)]
enum Damage {
    None,
    Truncate(proptest::sample::Index),
    Insert(proptest::sample::Index, u8),
    Replace(proptest::sample::Index, u8),
    Wrap(&'static str, &'static str),
}

impl Damage {
    fn apply(&self, bytes: &mut Vec<u8>) {
        match self {
            Damage::None => {}
            Damage::Truncate(at) => bytes.truncate(at.index(bytes.len() + 1)),
            Damage::Insert(at, byte) => bytes.insert(at.index(bytes.len() + 1), *byte),
            Damage::Replace(at, byte) => {
                if !bytes.is_empty() {
                    let at = at.index(bytes.len());
                    bytes[at] = *byte;
                }
            }
            Damage::Wrap(before, after) => {
                bytes.splice(0..0, before.bytes());
                bytes.extend(after.bytes());
            }
        }
    }
}

fn damage() -> impl Strategy<Value = Damage> {
    let byte = prop_oneof![
        proptest::sample::select(
            &[b'"', b'\\', b',', b'}', b']', b'{', 0xff, 0xc3, 0xe2, 0x00][..]
        ),
        any::<u8>(),
    ];
    prop_oneof![
        28 => Just(Damage::None),
        1 => any::<proptest::sample::Index>().prop_map(Damage::Truncate),
        1 => (any::<proptest::sample::Index>(), byte.clone()).prop_map(|(at, byte)| Damage::Insert(at, byte)),
        1 => (any::<proptest::sample::Index>(), byte).prop_map(|(at, byte)| Damage::Replace(at, byte)),
        1 => proptest::sample::select(&[
            ("[", "]"),
            (" \n", "\t "),
            ("\u{feff}", ""),
            ("", " x"),
            ("", "{}"),
        ][..])
        .prop_map(|(before, after)| Damage::Wrap(before, after)),
    ]
}

fn options() -> impl Strategy<Value = ConvertOptions> {
    (
        any::<bool>(),
        proptest::option::weighted(0.03, 0usize..400),
        proptest::option::weighted(0.1, 1usize..6),
        proptest::option::weighted(0.1, 0usize..4),
        proptest::option::weighted(0.2, proptest::sample::select(VERSIONS)),
        proptest::sample::select(&["3.4.0", "9.9.9-dev\u{7}"][..]),
    )
        .prop_map(
            |(lenient, max_payload_bytes, max_json_depth, max_array_length, version, adapter)| {
                ConvertOptions {
                    mode: if lenient { Mode::Lenient } else { Mode::Strict },
                    adapter_version: adapter.to_owned(),
                    protocol_version: version.map(str::to_owned),
                    max_payload_bytes,
                    max_json_depth,
                    max_array_length,
                }
            },
        )
}

// Depths: 1,024 generated packets and 512 strict-to-lenient pairs by default (19 and 10 s in a
// debug build, the slowest of the library's tests); 4,096 and 2,048 under HANDOFF_DEEP_TESTS=1.
// The 20,000 recorded packets of tests/conversion hold the realistic shapes in every run.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        crate::json::test_depth::property_cases(1024, 4096)
    ))]

    #[test]
    fn generated_packets_convert_as_the_reference_does(bytes in packet_text(), options in options()) {
        same(&bytes, &options)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn arbitrary_bytes_fail_or_convert_as_the_reference_does(
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
        options in options(),
    ) {
        same(&bytes, &options)?;
    }

    #[test]
    fn json_shaped_text_fails_or_converts_as_the_reference_does(
        text in r#"[\[\]{}",:0-9a-z\\ .eE+-]{0,48}"#,
        options in options(),
    ) {
        same(text.as_bytes(), &options)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        crate::json::test_depth::property_cases(512, 2048)
    ))]

    /// A strict conversion that fails a strict check hands back what it read, and the
    /// lenient conversion made from it is the reference's lenient conversion.
    #[test]
    fn the_other_mode_from_a_strict_read_converts_as_the_reference_does(
        bytes in packet_text(),
        options in options(),
    ) {
        let strict = options.with_mode(Mode::Strict);
        let (conversion, read) = super::convert_keeping_read(&bytes, &strict);
        same_as_reference(conversion.clone(), &bytes, &strict)?;
        match read {
            Some(read) => {
                let rule = conversion.error().map(|error| error.rule).unwrap_or("");
                prop_assert!(rule.starts_with('S'), "read handed back after {rule}");
                let lenient = options.with_mode(Mode::Lenient);
                same_as_reference(super::convert_from_read(read, &conversion.packet, &lenient), &bytes, &lenient)?;
            }
            None => prop_assert!(conversion.error().is_none_or(|error| !error.rule.starts_with('S'))),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        crate::json::test_depth::property_cases(1024, 4096)
    ))]

    /// The reader's word that a packet's keys are distinct is the duplicate scan's: `check`
    /// skips the scan on it. (Generated objects have far fewer keys than the reader compares.)
    #[test]
    fn keys_seen_distinct_are_the_scans_no_repeats(bytes in packet_text()) {
        if let Ok(packet) = super::RawPacket::parse(&bytes) {
            let repeats = crate::json::count_duplicate_keys(&bytes);
            prop_assert_eq!(packet.keys_distinct, repeats == 0, "{} repeats", repeats);
        }
    }
}

fn both_modes(bytes: &[u8]) {
    for mode in Mode::BOTH {
        let options = ConvertOptions::default().with_mode(mode);
        if let Err(failure) = same(bytes, &options) {
            panic!("{}: {failure}", String::from_utf8_lossy(bytes));
        }
    }
}

#[test]
fn fixture_packets_convert_as_the_reference_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/a2a");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            both_modes(&std::fs::read(&path).unwrap());
            seen += 1;
        }
    }
    assert!(seen >= 20, "only {seen} fixtures");
}

#[test]
fn edge_packets_convert_as_the_reference_does() {
    let deep = |open: &str, close: &str, levels: usize| {
        format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},"task":{{"id":"t"}},"x":{}1{}}}"#,
            open.repeat(levels),
            close.repeat(levels)
        )
    };
    let cases: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"   ".to_vec(),
        b"[]".to_vec(),
        b"\"a2a\"".to_vec(),
        b"{\"protocol\":\"a2a\"} {}".to_vec(),
        b"{\"protocol\":\"a2a\",\"version\":\"0.2\",\"agent\":{\"id\":\"\xff\"}}".to_vec(),
        b"{\"protocol\":\"a2a\",\"version\":\"0.2\",\"agent\":{\"id\":\"\\ud800\"}}".to_vec(),
        br#"{"protocol":"a2a","version":"0.2","agent":{"id":1e400}}"#.to_vec(),
        br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"agent":{"name":"b"},"task":{"id":"t","kind":"analysis","kind":"delegation"}}"#.to_vec(),
        br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t"},"task":7}"#.to_vec(),
        br#"{"\u0070rotocol":"\u0061\u00322a","version":"0.2","event_type":"task.\u0072equested","agent":{"\u0069d":"\u00e9"},"task":{"id":"t"},"x":1,"\u0078":2,"y":3}"#.to_vec(),
        br#"{"protocol":"a2a","version":"0.3","event_type":"agent.capabilities","agent":{"id":"a","capabilities":["b","a",1,"b"],"capabilities":["z",null]},"attributes":{"list":["b","a"],"mixed":["b",1,"a"],"nested":{"z":[{"y":["d","c"]}]},"big":12345678901234567890,"f":1.5e-7}}"#.to_vec(),
        deep("[", "]", 126).into_bytes(),
        deep("[", "]", 127).into_bytes(),
        deep("{\"k\":", "}", 127).into_bytes(),
        deep("[", "]", 300).into_bytes(),
    ];
    for case in &cases {
        both_modes(case);
        let limited = ConvertOptions {
            max_json_depth: Some(3),
            max_array_length: Some(1),
            ..ConvertOptions::default()
        };
        same(case, &limited).unwrap();
    }
}
