//! Parsing a packet for classification, the reasons bytes are not JSON, and a packet's kind
//! (from its bytes alone, or from its conversion).

use crate::corpus::{classify, Classification, PacketKind, RawPacket};
use serde_json::Value;

/// Parses for classification; `Err` carries the reason in plain words.
pub(super) fn parse(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|error| not_json_reason(bytes, &error))
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
    error.to_string()
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
    let parsed = parse(&packet.bytes);
    classify(
        parsed.as_ref().map_err(String::as_str),
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
    // Past `protocol: "a2a"` and with none of the members that are another kind's evidence
    // before it (canonical output's, a golden manifest's `format`), the classifier can only
    // conclude `raw`.
    let unforced = matches!(
        crate::corpus::forced_reading(),
        None | Some(PacketKind::RawA2a)
    );
    let other_evidence = |fields: &crate::a2a::TypedFields| {
        fields
            .unmapped_keys
            .iter()
            .any(|key| key == "format" || crate::freeze::CANONICAL_MARKERS.contains(&key.as_str()))
    };
    if unforced
        && conversion
            .fields
            .as_deref()
            .is_some_and(|f| !other_evidence(f))
    {
        return (
            PacketKind::RawA2a,
            Err("not parsed: a raw A2A packet is summarized from its typed fields"),
        );
    }
    let parsed = match conversion.packet.as_ref() {
        Some(value) => Ok(value),
        None => {
            let fresh: &'a Result<Value, String> = reparsed.insert(parse(&packet.bytes));
            fresh.as_ref().map_err(String::as_str)
        }
    };
    (classify(parsed, packet.source.file_name()).kind, parsed)
}

pub(super) fn reparse_ref(parsed: &Option<Result<Value, String>>) -> Result<&Value, &str> {
    match parsed {
        Some(Ok(value)) => Ok(value),
        Some(Err(reason)) => Err(reason),
        None => Err("not parsed"),
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
