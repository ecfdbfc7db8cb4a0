//! The conversion as first written: parse a full `Value`, read it, build the event as a
//! `Value`. Kept verbatim (test-only) as the oracle the fast path in `convert.rs` is
//! compared against, byte for byte, by the properties in `equivalence.rs`.

use super::checks::{limits_violation, version_supported, LimitViolation};
use super::event::{event_time, insert_producer_envelope, EVENT_SOURCE};
use super::fields::RECOGNISED_TOP_LEVEL_KEYS;
use super::flags::{discovery_object, handoff_object};
use super::{
    canonical_type_for, CanonicalType, ConversionError, ConvertOptions, ErrorKind, Lossiness, Mode,
    RawPayloadRef, Substitution, TypedFields,
};
use serde_json::{json, Map, Value};

const ADAPTER_ID: &str = "assay-adapter-a2a";
const MEDIA_TYPE: &str = "application/json";

/// The reference's converted packet: the event as a built `Value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    pub canonical_type: CanonicalType,
    pub event: Value,
    pub lossiness: Lossiness,
}

impl Converted {
    pub fn subject(&self) -> &str {
        self.event["subject"].as_str().unwrap_or("")
    }

    pub fn payload(&self) -> &Value {
        &self.event["data"]
    }

    pub fn handoff(&self) -> &Value {
        &self.event["data"]["handoff"]
    }

    pub fn discovery(&self) -> &Value {
        &self.event["data"]["discovery"]
    }

    pub fn batch(&self) -> Value {
        json!({"events": [self.event], "lossiness": self.lossiness.to_json()})
    }
}

/// The reference's conversion result, field for field as the public `Conversion` was.
#[derive(Clone, Debug)]
pub struct Conversion {
    pub mode: Mode,
    pub packet: Option<Value>,
    pub fields: Option<TypedFields>,
    pub result: Result<Converted, ConversionError>,
}

fn error(kind: ErrorKind, rule: &'static str, message: impl Into<String>) -> ConversionError {
    ConversionError {
        kind,
        message: message.into(),
        rule,
    }
}

/// Converts one raw packet in the mode given by `options`.
pub fn convert(payload: &[u8], options: &ConvertOptions) -> Conversion {
    let (mut packet, mut fields) = (None, None);
    let result = convert_into(payload, options, &mut packet, &mut fields);
    Conversion {
        mode: options.mode,
        packet,
        fields,
        result,
    }
}

fn convert_into(
    payload: &[u8],
    options: &ConvertOptions,
    packet_slot: &mut Option<Value>,
    fields_slot: &mut Option<TypedFields>,
) -> Result<Converted, ConversionError> {
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
    // Step 2: the raw reference.
    let raw_payload_ref = RawPayloadRef::of(payload.into());
    // Step 3: JSON (serde_json also rejects invalid UTF-8 here).
    let packet: Value = serde_json::from_slice(payload).map_err(|parse| {
        error(
            ErrorKind::Measurement,
            "C3",
            format!("invalid A2A payload JSON: {parse}"),
        )
    })?;
    let packet = packet_slot.insert(packet);
    // Step 4: structure limits.
    match limits_violation(packet, options.max_json_depth, options.max_array_length) {
        Some(LimitViolation::Depth(limit)) => {
            return Err(error(
                ErrorKind::Measurement,
                "C4D",
                format!("payload exceeds max_json_depth ({limit})"),
            ))
        }
        Some(LimitViolation::ArrayLength(limit)) => {
            return Err(error(
                ErrorKind::Measurement,
                "C4A",
                format!("payload exceeds max_array_length ({limit})"),
            ))
        }
        None => {}
    }
    // Step 5: protocol.
    let root = match packet.as_object() {
        Some(root) if root.get("protocol").and_then(Value::as_str) == Some("a2a") => root,
        _ => {
            return Err(error(
                ErrorKind::Measurement,
                "C5",
                "protocol must be 'a2a'",
            ))
        }
    };
    // Steps 6 and 7: version.
    let version = match root.get("version").and_then(Value::as_str) {
        Some(version) => version.to_owned(),
        None => match &options.protocol_version {
            Some(version) => version.clone(),
            None => {
                return Err(error(
                    ErrorKind::Measurement,
                    "C6",
                    "missing required field: version",
                ))
            }
        },
    };
    if !version_supported(&version) {
        return Err(error(
            ErrorKind::UnsupportedProtocolVersion,
            "C7",
            format!("unsupported A2A version: {version}"),
        ));
    }
    let fields = fields_slot.insert(read_fields(root));
    let mapped_type = canonical_type_for(fields.event_type.as_deref());

    // Strict rejections, in order.
    if options.mode == Mode::Strict {
        if fields.agent_id.is_none() {
            return Err(error(
                ErrorKind::Measurement,
                "S1",
                "missing required field: agent.id",
            ));
        }
        match mapped_type {
            None => {
                return Err(error(
                    ErrorKind::StrictLossinessViolation,
                    "S2",
                    "unsupported event_type in strict mode",
                ))
            }
            Some(kind) if kind.is_task_event() && fields.task_id.is_none() => {
                return Err(error(
                    ErrorKind::Measurement,
                    "S3",
                    "missing required field: task.id",
                ))
            }
            Some(CanonicalType::ArtifactShared) if fields.artifact_id.is_none() => {
                return Err(error(
                    ErrorKind::Measurement,
                    "S4",
                    "missing required field: artifact.id",
                ))
            }
            Some(_) => {}
        }
    }

    Ok(build(
        root,
        fields,
        mapped_type,
        &version,
        options,
        raw_payload_ref,
    ))
}

/// Everything after the checks: substitutions, payload, event. Cannot fail.
fn build(
    root: &Map<String, Value>,
    fields: &TypedFields,
    mapped_type: Option<CanonicalType>,
    version: &str,
    options: &ConvertOptions,
    raw_payload_ref: RawPayloadRef,
) -> Converted {
    let mut substitutions = Vec::new();
    let agent_id = fields.agent_id.clone().unwrap_or_else(|| {
        substitutions.push(Substitution::AgentId);
        "unknown-agent".to_owned()
    });
    let canonical_type = mapped_type.unwrap_or_else(|| {
        substitutions.push(Substitution::GenericMessageEvent);
        CanonicalType::Message
    });
    let task_id = match (&fields.task_id, canonical_type.is_task_event()) {
        (Some(id), _) => Some(id.clone()),
        (None, true) => {
            substitutions.push(Substitution::TaskId);
            Some("unknown-task".to_owned())
        }
        (None, false) => None,
    };
    let artifact_id = match (
        &fields.artifact_id,
        canonical_type == CanonicalType::ArtifactShared,
    ) {
        (Some(id), _) => Some(id.clone()),
        (None, true) => {
            substitutions.push(Substitution::ArtifactId);
            Some("unknown-artifact".to_owned())
        }
        (None, false) => None,
    };
    let message_id = match (&fields.message_id, canonical_type == CanonicalType::Message) {
        (Some(id), _) => Some(id.clone()),
        (None, true) => {
            substitutions.push(Substitution::MessageId);
            Some("unknown-message".to_owned())
        }
        (None, false) => None,
    };

    let primary_id = match canonical_type {
        CanonicalType::TaskRequested | CanonicalType::TaskUpdated => task_id.clone(),
        CanonicalType::ArtifactShared => artifact_id.clone(),
        CanonicalType::Message => message_id.clone(),
        CanonicalType::AgentCapabilities => None,
    }
    .unwrap_or_else(|| agent_id.clone());

    let mut payload = Map::new();
    let text = |value: &str| Value::String(value.to_owned());
    payload.insert("adapter_id".into(), text(ADAPTER_ID));
    payload.insert("adapter_version".into(), text(&options.adapter_version));
    payload.insert("protocol".into(), text("a2a"));
    payload.insert("protocol_name".into(), text("a2a"));
    payload.insert("protocol_version".into(), text(version));
    if let Some(event_type) = &fields.event_type {
        payload.insert("upstream_event_type".into(), text(event_type));
    }

    let mut agent = Map::new();
    agent.insert("id".into(), text(&agent_id));
    insert_text(&mut agent, "name", &fields.agent_name);
    insert_text(&mut agent, "role", &fields.agent_role);
    if let Some(capabilities) = &fields.agent_capabilities {
        agent.insert(
            "capabilities".into(),
            capabilities.iter().map(|item| text(item)).collect(),
        );
    }
    payload.insert("agent".into(), Value::Object(agent));

    if let Some(id) = task_id {
        let mut task = Map::new();
        task.insert("id".into(), Value::String(id));
        insert_text(&mut task, "status", &fields.task_status);
        insert_text(&mut task, "kind", &fields.task_kind);
        payload.insert("task".into(), Value::Object(task));
    }
    if let Some(id) = artifact_id {
        let mut artifact = Map::new();
        artifact.insert("id".into(), Value::String(id));
        insert_text(&mut artifact, "name", &fields.artifact_name);
        insert_text(&mut artifact, "media_type", &fields.artifact_media_type);
        payload.insert("artifact".into(), Value::Object(artifact));
    }
    if let Some(id) = message_id {
        let mut message = Map::new();
        message.insert("id".into(), Value::String(id));
        insert_text(&mut message, "role", &fields.message_role);
        payload.insert("message".into(), Value::Object(message));
    }
    if let Some(attributes) = root.get("attributes") {
        payload.insert("attributes".into(), normalize_attributes(attributes));
    }
    payload.insert("discovery".into(), discovery(root.get("attributes")));
    payload.insert("handoff".into(), handoff(canonical_type, fields));

    let unmapped_fields_count = fields.unmapped_keys.len() + substitutions.len();
    payload.insert(
        "unmapped_fields_count".into(),
        Value::from(unmapped_fields_count),
    );

    let run_id = format!("a2a:{primary_id}");
    let mut event = Map::new();
    event.insert("specversion".into(), text("1.0"));
    event.insert("type".into(), text(canonical_type.name()));
    event.insert("source".into(), text(EVENT_SOURCE));
    event.insert("id".into(), Value::String(format!("{run_id}:0")));
    event.insert(
        "time".into(),
        Value::String(event_time(fields.timestamp.as_deref())),
    );
    event.insert("datacontenttype".into(), text(MEDIA_TYPE));
    event.insert("subject".into(), Value::String(primary_id));
    event.insert("assayrunid".into(), Value::String(run_id));
    event.insert("assayseq".into(), Value::from(0));
    insert_producer_envelope(&mut event, &options.adapter_version);
    event.insert("data".into(), Value::Object(payload));

    Converted {
        canonical_type,
        event: Value::Object(event),
        lossiness: Lossiness {
            unmapped_fields_count,
            raw_payload_ref,
            substitutions,
        },
    }
}

fn insert_text(object: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        object.insert(key.to_owned(), Value::String(value.clone()));
    }
}

/// Object keys sorted at every level (the map type sorts them); an array whose items are all
/// strings is sorted; other arrays keep their order with items normalized.
fn normalize_attributes(value: &Value) -> Value {
    match value {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(key, item)| (key.clone(), normalize_attributes(item)))
                .collect(),
        ),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let mut sorted = items.clone();
            sorted.sort_unstable_by(|left, right| left.as_str().cmp(&right.as_str()));
            Value::Array(sorted)
        }
        Value::Array(items) => Value::Array(items.iter().map(normalize_attributes).collect()),
        other => other.clone(),
    }
}

/// G4-A `discovery`, computed from the raw `attributes.assay_g4` object.
fn discovery(attributes: Option<&Value>) -> Value {
    let (agent_card, extended) = discovery_flags(attributes);
    discovery_object(agent_card, extended)
}

/// `(agent_card_visible, extended_card_access_visible)` read from raw attributes.
fn discovery_flags(attributes: Option<&Value>) -> (bool, bool) {
    let g4 = attributes
        .and_then(|attributes| attributes.get("assay_g4"))
        .filter(|g4| g4.is_object());
    let flag = |member: &str| {
        g4.and_then(|g4| g4.get(member))
            .and_then(|object| object.get("visible"))
            == Some(&Value::Bool(true))
    };
    (flag("agent_card"), flag("extended_card_access"))
}

/// K1-A v1 `handoff`: the positive typed rule, or the defaults.
fn handoff(canonical_type: CanonicalType, fields: &TypedFields) -> Value {
    let visible = canonical_type == CanonicalType::TaskRequested
        && fields.task_kind.as_deref() == Some("delegation");
    handoff_object(
        visible,
        visible && fields.task_id.is_some(),
        visible && fields.message_id.is_some(),
    )
}

fn string_at(object: &Map<String, Value>, key: &str) -> Option<String> {
    object.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn nested_string(root: &Map<String, Value>, outer: &str, inner: &str) -> Option<String> {
    root.get(outer)
        .and_then(Value::as_object)
        .and_then(|object| string_at(object, inner))
}

fn read_fields(root: &Map<String, Value>) -> TypedFields {
    let agent_capabilities = root
        .get("agent")
        .and_then(Value::as_object)
        .and_then(|agent| agent.get("capabilities"))
        .and_then(Value::as_array)
        .map(|items| {
            let mut strings: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            strings.sort_unstable();
            strings
        });
    TypedFields {
        event_type: string_at(root, "event_type"),
        timestamp: string_at(root, "timestamp"),
        agent_id: nested_string(root, "agent", "id"),
        agent_name: nested_string(root, "agent", "name"),
        agent_role: nested_string(root, "agent", "role"),
        agent_capabilities,
        task_id: nested_string(root, "task", "id"),
        task_status: nested_string(root, "task", "status"),
        task_kind: nested_string(root, "task", "kind"),
        artifact_id: nested_string(root, "artifact", "id"),
        artifact_name: nested_string(root, "artifact", "name"),
        artifact_media_type: nested_string(root, "artifact", "media_type"),
        message_id: nested_string(root, "message", "id"),
        message_role: nested_string(root, "message", "role"),
        unmapped_keys: crate::a2a::UnmappedKeys::of(
            root.keys()
                .filter(|key| !RECOGNISED_TOP_LEVEL_KEYS.contains(&key.as_str()))
                .collect(),
        ),
    }
}
