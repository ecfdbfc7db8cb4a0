//! Parsing a packet for classification, the reasons bytes are not JSON, and a packet's kind
//! (from its bytes alone, or from its conversion).

use crate::corpus::classify::{classify_root, Root};
use crate::corpus::{classify, Classification, PacketKind, RawPacket};
use crate::json::{may_be_an_object, read_root, RootReading};
use serde_json::Value;

/// Parses into a tree; `Err` carries the reason in plain words.
pub(super) fn parse(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|error| not_json_reason(bytes, &error))
}

/// Reads for classification: the tree of an object root, only the type of any other (see
/// `json::read_root`); `Err` carries the reason in plain words, as [`parse`] gives it.
pub(super) fn read(bytes: &[u8]) -> Result<RootReading, String> {
    read_root(bytes).map_err(|error| not_json_reason(bytes, &error))
}

/// What a reader that wants a tree is told of a packet whose root is not an object: it was
/// classified by its type, and no tree was built.
const NOT_AN_OBJECT: &str = "not parsed: the JSON root is not an object";

/// Classifies a packet by reading its bytes: an object's tree goes to `reparsed` and is
/// lent back, any other root is classified by its type alone ([`NOT_AN_OBJECT`] for the tree).
pub(super) fn classify_by_reading<'a>(
    packet: &RawPacket,
    reparsed: &'a mut Option<Result<Value, String>>,
) -> (PacketKind, Result<&'a Value, &'a str>) {
    let file_name = packet.source.file_name();
    match read(&packet.bytes) {
        Ok(reading @ (RootReading::Other(_) | RootReading::ObjectOverCap { .. })) => (
            classify_root(Ok(Root::of(&reading)), file_name).kind,
            Err(NOT_AN_OBJECT),
        ),
        Ok(RootReading::Object(value)) => {
            let parsed = reparsed.insert(Ok(value)).as_ref().map_err(String::as_str);
            (classify(parsed, file_name).kind, parsed)
        }
        Err(reason) => {
            let parsed = reparsed
                .insert(Err(reason))
                .as_ref()
                .map_err(String::as_str);
            (classify(parsed, file_name).kind, parsed)
        }
    }
}

/// Why bytes are not JSON: a byte-order mark or invalid UTF-8 named as such (the parser
/// would only say "expected value" or "invalid unicode"), otherwise the parser's message.
pub fn not_json_reason(bytes: &[u8], error: &serde_json::Error) -> String {
    if bytes.is_empty() {
        return "empty file".to_owned();
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return "only white space".to_owned();
    }
    if let Some(at) = bytes.iter().position(|&byte| byte == 0) {
        return format!("NUL byte at byte {at} ({error})");
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return "starts with a UTF-8 byte-order mark (EF BB BF); JSON text must not carry one, and the adapter rejects it as invalid JSON".to_owned();
    }
    if let Err(utf8) = std::str::from_utf8(bytes) {
        return format!("invalid UTF-8 at byte {}", utf8.valid_up_to());
    }
    // serde_json words a complete `\ud800` as a cut-off escape; the truth is half a pair.
    let said = error.to_string();
    let about_escapes = said.contains("hex escape") || said.contains("surrogate");
    if let Some(escape) = about_escapes
        .then(|| crate::json::unpaired_surrogate(bytes))
        .flatten()
    {
        return format!(
            "an unpaired surrogate `{}` at line {} column {}: JSON text may not hold half a UTF-16 pair (Python's json reads it; this tool does not)",
            escape.text, escape.line, escape.column
        );
    }
    said
}

/// The reason bytes are not JSON (for a packet already classified as not JSON).
pub(crate) fn not_json_reason_of(bytes: &[u8]) -> String {
    match parse(bytes) {
        Ok(_) => "parsed on a second reading".to_owned(),
        Err(reason) => reason,
    }
}

/// Classifies a packet from its bytes alone (no conversion): what `ls` shows.
pub fn classify_packet(packet: &RawPacket) -> Classification {
    if let Some(report) = &packet.bundle {
        return crate::corpus::classify_bundle(report);
    }
    let reading = read(&packet.bytes);
    classify_root(
        reading.as_ref().map(Root::of).map_err(String::as_str),
        packet.source.file_name(),
    )
}

/// Whether a packet of this kind is converted: raw packets, and bytes that are not JSON at
/// all (the converter's own verdict on those is its invalid-JSON error, which a golden
/// manifest can record as expected).
pub fn converted_kind(kind: PacketKind) -> bool {
    matches!(kind, PacketKind::RawA2a | PacketKind::NotJson)
}

/// A packet's kind, given its conversion: a conversion that read the typed fields got past
/// `protocol: "a2a"`, which is all classification would conclude, so the packet's tree is
/// never built; otherwise the converter's parse (or a new one, kept in `reparsed`) is
/// classified. Every face that has converted a packet asks this, so they agree with `ls`.
pub fn kind_after_conversion<'a>(
    packet: &RawPacket,
    conversion: &'a crate::a2a::Conversion,
    reparsed: &'a mut Option<Result<Value, String>>,
) -> (PacketKind, Result<&'a Value, &'a str>) {
    // Past `protocol: "a2a"` (its typed fields read, or its version refused) and with none of
    // the members that are another kind's evidence before it (canonical output's, a golden
    // manifest's `format`, an envelope's), the classifier can only conclude `raw`.
    let by_fields = conversion
        .a2a_unmapped_keys()
        .and_then(|keys| crate::corpus::classify_converted(keys, packet.source.file_name()));
    if by_fields.is_some() {
        return (
            PacketKind::RawA2a,
            Err("not parsed: a raw A2A packet is summarized from its typed fields"),
        );
    }
    // The conversion's tree is built on demand: only for an object (an array of a million
    // small objects is classified from its type, without the tree that costs 50 times it).
    let tree = may_be_an_object(&packet.bytes)
        .then(|| conversion.packet.as_ref())
        .flatten();
    match tree {
        Some(value) => (
            classify(Ok(value), packet.source.file_name()).kind,
            Ok(value),
        ),
        None => classify_by_reading(packet, reparsed),
    }
}

/// The tree [`kind_after_conversion`] classified, given up: the one it parsed anew, or the
/// conversion's (parsed again if the conversion never parsed it).
pub fn take_tree(
    conversion: &mut crate::a2a::Conversion,
    reparsed: &mut Option<Result<Value, String>>,
) -> Option<Value> {
    match reparsed.take() {
        Some(Ok(value)) => Some(value),
        _ => conversion.packet.take(),
    }
}
