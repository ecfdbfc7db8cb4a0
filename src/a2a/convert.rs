//! The conversion itself, step by step in the spec's order (first failure wins).
//!
//! The packet is read in one borrowing pass (`raw.rs`) that keeps only the typed fields and
//! `attributes`; the payload is kept as the facts it follows from (`payload.rs`) and its
//! digest taken from bytes written directly. `reference.rs` (test-only) keeps the first,
//! `Value`-building version of this file as the oracle both are compared against.

use super::attributes::Attributes;
use super::checks::{limits_violation, version_supported, LimitViolation};
use super::flags::DiscoveryFlags;
use super::packet::Packet;
use super::payload::{substitutions, Payload};
use super::raw::RawPacket;
use super::{
    canonical_type_for, CanonicalType, Conversion, ConversionError, ConvertOptions, Converted,
    ErrorKind, Lossiness, Mode, RawPayloadRef, TypedFields, UnmappedKeys, DEFAULT_ADAPTER_VERSION,
};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

fn error(kind: ErrorKind, rule: &'static str, message: impl Into<String>) -> ConversionError {
    ConversionError {
        kind,
        message: message.into(),
        rule,
    }
}

/// Converts one raw packet in the mode given by `options`.
pub fn convert(payload: &[u8], options: &ConvertOptions) -> Conversion {
    convert_keeping_read(payload, options).0
}

/// `convert` of `packet`'s bytes, the conversion sharing them and their tree with `packet`
/// (and every other conversion of it) instead of keeping copies: for a caller that converts
/// the same bytes several times and keeps every conversion (the inspector's detail).
pub fn convert_shared(packet: &Packet, options: &ConvertOptions) -> Conversion {
    let payload = packet.bytes().unwrap_or_default();
    let (mut packet_slot, mut fields, mut keys_distinct) = (Packet::default(), None, false);
    let mut refused_version_keys = None;
    let result = convert_into(
        payload,
        Some(packet),
        options,
        Slots {
            packet: &mut packet_slot,
            fields: &mut fields,
            keys_distinct: &mut keys_distinct,
            refused_version_keys: &mut refused_version_keys,
            leftover: &mut None,
        },
    );
    Conversion {
        mode: options.mode,
        packet: packet_slot,
        fields,
        result,
        keys_distinct,
        refused_version_keys,
    }
}

/// What the mode-independent steps (size, raw reference, JSON, protocol, version) read from
/// a packet. A conversion that then fails a strict check hands it back, so the same bytes'
/// conversion in another mode starts from it instead of reading and hashing them again
/// (`check` converts in both modes, and on a realistic mix most strict conversions fail
/// there while lenient ones go on).
#[derive(Debug)]
pub struct ModeFreeRead {
    fields: Arc<TypedFields>,
    attributes: Option<Attributes>,
    version: String,
    raw_payload_ref: RawPayloadRef,
    keys_distinct: bool,
}

/// `convert`, plus what it read when the conversion failed after the mode-independent steps.
pub fn convert_keeping_read(
    payload: &[u8],
    options: &ConvertOptions,
) -> (Conversion, Option<ModeFreeRead>) {
    let (mut packet, mut fields, mut keys_distinct, mut leftover) =
        (Packet::default(), None, false, None);
    let mut refused_version_keys = None;
    let result = convert_into(
        payload,
        None,
        options,
        Slots {
            packet: &mut packet,
            fields: &mut fields,
            keys_distinct: &mut keys_distinct,
            refused_version_keys: &mut refused_version_keys,
            leftover: &mut leftover,
        },
    );
    let conversion = Conversion {
        mode: options.mode,
        packet,
        fields,
        result,
        keys_distinct,
        refused_version_keys,
    };
    (conversion, leftover)
}

/// The conversion of `packet`'s bytes (those `read` was read from) in `options`' mode, from
/// the mode-independent read: equal to `convert(bytes, options)`, sharing the bytes (and
/// their tree) with `packet` instead of copying them: `check` converts every packet in a
/// second mode, and a copy of each packet was a tenth of its allocation.
pub fn convert_from_read(
    read: ModeFreeRead,
    packet: &Packet,
    options: &ConvertOptions,
) -> Conversion {
    let (fields, keys_distinct) = (Some(Arc::clone(&read.fields)), read.keys_distinct);
    let result = convert_read(read, options, &mut None);
    Conversion {
        mode: options.mode,
        packet: packet.clone(),
        fields,
        result,
        keys_distinct,
        refused_version_keys: None,
    }
}

/// What a conversion hands back besides its result, each filled in as far as it got.
struct Slots<'a> {
    packet: &'a mut Packet,
    fields: &'a mut Option<Arc<TypedFields>>,
    keys_distinct: &'a mut bool,
    refused_version_keys: &'a mut Option<UnmappedKeys>,
    leftover: &'a mut Option<ModeFreeRead>,
}

/// `shared`: the packet of `payload`, held by the caller, for the conversion to keep without
/// a copy.
fn convert_into(
    payload: &[u8],
    shared: Option<&Packet>,
    options: &ConvertOptions,
    slots: Slots<'_>,
) -> Result<Converted, ConversionError> {
    let Slots {
        packet: packet_slot,
        fields: fields_slot,
        keys_distinct,
        refused_version_keys,
        leftover,
    } = slots;
    // Step 1: size.
    if let Some(limit) = options.max_payload_bytes {
        if payload.len() > limit {
            return Err(error(
                ErrorKind::Measurement,
                "C1",
                format!("payload exceeds max_payload_bytes ({limit})"),
            ));
        }
    }
    *packet_slot = match shared {
        Some(shared) => shared.clone(),
        None => Packet::of(payload),
    };
    // Step 2: the raw reference, over the packet's own bytes (digested when first read).
    let raw_payload_ref = RawPayloadRef::of(
        packet_slot
            .shared_bytes()
            .unwrap_or_else(|| Arc::from(payload)),
    );
    // Steps 3 and 4: JSON (serde_json also rejects invalid UTF-8 here), structure limits.
    let checked;
    let mut raw = if options.max_json_depth.is_some() || options.max_array_length.is_some() {
        // The limits are defined on the parsed tree (the last of duplicate keys, members in
        // key order), so the optional check walks a full `Value`.
        checked = serde_json::from_slice::<Value>(payload).map_err(invalid_json)?;
        check_limits(&checked, options)?;
        RawPacket::read(&checked)
    } else {
        RawPacket::parse(payload).map_err(invalid_json)?
    };
    *keys_distinct = raw.keys_distinct;
    // Step 5: protocol.
    if !raw.is_object || raw.protocol.as_deref() != Some("a2a") {
        return Err(error(
            ErrorKind::Measurement,
            "C5",
            "protocol must be 'a2a'",
        ));
    }
    // Steps 6 and 7: version. A packet refused here is an object of `protocol` "a2a": its
    // unmapped keys go back with the refusal, so classifying it needs no tree.
    let mut refused = |refusal: ConversionError| {
        *refused_version_keys = Some(UnmappedKeys::of(std::mem::take(&mut raw.unmapped_keys)));
        Err(refusal)
    };
    let version = match raw.version.take() {
        Some(version) => version.into_owned(),
        None => match &options.protocol_version {
            Some(version) => version.clone(),
            None => {
                return refused(error(
                    ErrorKind::Measurement,
                    "C6",
                    "missing required field: version",
                ))
            }
        },
    };
    if !version_supported(&version) {
        return refused(error(
            ErrorKind::UnsupportedProtocolVersion,
            "C7",
            format!("unsupported A2A version: {version}"),
        ));
    }
    let attributes = raw.attributes.take();
    let fields = Arc::new(TypedFields::from_raw(raw));
    *fields_slot = Some(Arc::clone(&fields));
    let read = ModeFreeRead {
        fields,
        attributes,
        version,
        raw_payload_ref,
        keys_distinct: *keys_distinct,
    };
    convert_read(read, options, leftover)
}

/// The mode-dependent rest: strict rejections (handing `read` back through `leftover`),
/// then substitutions and the payload.
fn convert_read(
    read: ModeFreeRead,
    options: &ConvertOptions,
    leftover: &mut Option<ModeFreeRead>,
) -> Result<Converted, ConversionError> {
    let fields = &read.fields;
    let mapped_type = canonical_type_for(fields.event_type.as_deref());

    // Strict rejections, in order.
    if options.mode == Mode::Strict {
        let rejection = if fields.agent_id.is_none() {
            Some(error(
                ErrorKind::Measurement,
                "S1",
                "missing required field: agent.id",
            ))
        } else {
            match mapped_type {
                None => Some(error(
                    ErrorKind::StrictLossinessViolation,
                    "S2",
                    "unsupported event_type in strict mode",
                )),
                Some(kind) if kind.is_task_event() && fields.task_id.is_none() => Some(error(
                    ErrorKind::Measurement,
                    "S3",
                    "missing required field: task.id",
                )),
                Some(CanonicalType::ArtifactShared) if fields.artifact_id.is_none() => Some(error(
                    ErrorKind::Measurement,
                    "S4",
                    "missing required field: artifact.id",
                )),
                Some(_) => None,
            }
        };
        if let Some(rejection) = rejection {
            *leftover = Some(read);
            return Err(rejection);
        }
    }
    let ModeFreeRead {
        fields,
        attributes,
        version,
        raw_payload_ref,
        keys_distinct: _,
    } = read;

    // Everything after the checks (substitutions, payload) cannot fail.
    let (canonical_type, substitutions) = substitutions(&fields, mapped_type);
    let unmapped_fields_count = fields.unmapped_keys.len() + substitutions.len();
    let adapter_version = if options.adapter_version == DEFAULT_ADAPTER_VERSION {
        Cow::Borrowed(DEFAULT_ADAPTER_VERSION)
    } else {
        Cow::Owned(options.adapter_version.clone())
    };
    let payload = Payload {
        fields,
        canonical_type,
        adapter_version,
        protocol_version: version,
        discovery: attributes
            .as_ref()
            .map_or(DiscoveryFlags::of(None), Attributes::discovery),
        attributes,
        unmapped_fields_count,
    };
    Ok(Converted::new(
        payload,
        Lossiness {
            unmapped_fields_count,
            raw_payload_ref,
            substitutions,
        },
    ))
}

fn invalid_json(parse: serde_json::Error) -> ConversionError {
    error(
        ErrorKind::Measurement,
        "C3",
        format!("invalid A2A payload JSON: {parse}"),
    )
}

fn check_limits(packet: &Value, options: &ConvertOptions) -> Result<(), ConversionError> {
    match limits_violation(packet, options.max_json_depth, options.max_array_length) {
        Some(LimitViolation::Depth(limit)) => Err(error(
            ErrorKind::Measurement,
            "C4D",
            format!("payload exceeds max_json_depth ({limit})"),
        )),
        Some(LimitViolation::ArrayLength(limit)) => Err(error(
            ErrorKind::Measurement,
            "C4A",
            format!("payload exceeds max_array_length ({limit})"),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_conversion_is_the_copying_one() {
        let packets: [&[u8]; 4] = [
            br#"{"protocol":"a2a","version":"0.3","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#,
            br#"{"protocol":"other"}"#,
            b"{not json",
            br#"{"protocol":"a2a","version":"0.3","pad":"0123456789"}"#,
        ];
        let small = ConvertOptions {
            max_payload_bytes: Some(40),
            ..ConvertOptions::default()
        };
        for bytes in packets {
            let shared: Arc<[u8]> = bytes.into();
            for options in [ConvertOptions::default(), small.clone()] {
                for mode in Mode::BOTH {
                    let options = options.with_mode(mode);
                    let packet = Packet::shared(Arc::clone(&shared));
                    let (copied, shared) =
                        (convert(bytes, &options), convert_shared(&packet, &options));
                    assert_eq!(format!("{copied:?}"), format!("{shared:?}"));
                    assert_eq!(copied.packet.as_ref(), shared.packet.as_ref());
                }
            }
        }
    }
}
