//! One event line's fields as the checks of steps 15-22 need them, from the fast path (a tree
//! borrowing the line) or, when that declines, from upstream's own route (strict pre-check,
//! then serde into the typed event), which also words every error.

use super::error::{ErrorCode as C, VerifyError};
use super::event::{parse_event, DataFlags, DataMember, A2A_TYPE_PREFIX};
use super::fast::{self, Node};
use super::hash::{hex_digest, sha256_text, write_content_hash_input, DATA_OPEN};
use super::strict::validate;
use chrono::{DateTime, FixedOffset, Utc};
use sha2::{Digest, Sha256};
use std::borrow::Cow;

pub struct Fields<'a> {
    pub specversion: Cow<'a, str>,
    pub type_: Cow<'a, str>,
    pub source: Cow<'a, str>,
    pub id: Cow<'a, str>,
    pub run_id: Cow<'a, str>,
    pub seq: u64,
    /// `time` as the instant upstream's `DateTime<Utc>` holds (an attestation's time window).
    pub time: DateTime<Utc>,
    pub content_hash: Option<Cow<'a, str>>,
    /// Recomputed from `data`, `datacontenttype`, `specversion`, `subject`, `type`.
    pub computed_hash: String,
    /// `data.handoff.visible` and the lint packs' `data.discovery` flags.
    pub flags: DataFlags,
}

impl Fields<'_> {
    pub fn a2a(&self) -> bool {
        self.type_.starts_with(A2A_TYPE_PREFIX)
    }
}

/// Step 14: the line's fields, or upstream's error for it.
pub fn read_fields(text: &str, max_depth: u64) -> Result<Fields<'_>, VerifyError> {
    let fast = from_envelope(text, max_depth)
        .or_else(|| fast::parse_event(text, max_depth).and_then(from_node));
    match fast {
        Some(fields) => Ok(fields),
        None => slow_fields(text, max_depth),
    }
}

/// Upstream's route: strict pre-check, then serde into the typed event.
fn slow_fields(text: &str, max_depth: u64) -> Result<Fields<'_>, VerifyError> {
    validate(text, max_depth).map_err(|e| e.at_step(14, "Event"))?;
    let event = parse_event(text).map_err(|e| VerifyError::new(14, C::ContractInvalidJson, e))?;
    // serde's visitor parsed the same text already; this cannot fail, but is not trusted to.
    let time = instant(&event.time)
        .ok_or_else(|| VerifyError::new(14, C::ContractInvalidJson, "time is not RFC 3339"))?;
    let computed_hash = super::hash::content_hash(
        &event.data,
        &event.datacontenttype,
        &event.specversion,
        event.subject.as_deref(),
        &event.type_,
    );
    let flags = DataFlags::of_value(Some(&event.data));
    Ok(Fields {
        specversion: event.specversion.into(),
        type_: event.type_.into(),
        source: event.source.into(),
        id: event.id.into(),
        run_id: event.run_id.into(),
        seq: event.seq,
        time,
        content_hash: event.content_hash.map(Cow::Owned),
        computed_hash,
        flags,
    })
}

/// The typed event from the fast tree, only when every field has the JSON type upstream's
/// serde type requires (else `None`, and the slow path says what is wrong).
fn from_node(node: Node<'_>) -> Option<Fields<'_>> {
    let Node::Object(members) = node else {
        return None;
    };
    let mut fields = FieldsBuilder::default();
    for (key, value) in members {
        fields.add(&key, value)?;
    }
    fields.finish()
}

/// The typed event straight from the line when its members come in ascending order (as
/// upstream's writer writes them): each member is taken as it is parsed, with no tree of the
/// envelope in between. `None` whenever `fast::parse_envelope` declines (then the tree route
/// decides) or a member has the wrong JSON type (then the slow path words the error).
fn from_envelope(text: &str, max_depth: u64) -> Option<Fields<'_>> {
    let mut fields = FieldsBuilder::default();
    fast::parse_envelope(text, max_depth, &mut |key, value| fields.add(key, value))?;
    fields.finish()
}

/// The members of upstream's event type, gathered one at a time (from the tree or straight
/// from the line: the same rules either way).
#[derive(Default)]
struct FieldsBuilder<'a> {
    strings: [Option<Cow<'a, str>>; 10],
    subject: Option<Cow<'a, str>>,
    content_hash: Option<Cow<'a, str>>,
    seq: Option<u64>,
    pii: bool,
    secrets: bool,
    data: Option<Node<'a>>,
}

impl<'a> FieldsBuilder<'a> {
    /// One member; `None` when its JSON type is not the one upstream's type requires. The
    /// callers never pass a name twice (the fast parser refuses repeated names).
    fn add(&mut self, key: &str, value: Node<'a>) -> Option<()> {
        if let Some(slot) = required_slot(key) {
            let Node::String(text) = value else {
                return None;
            };
            self.strings[slot] = Some(text);
            return Some(());
        }
        match key {
            "subject"
            | "assaycontenthash"
            | "traceparent"
            | "tracestate"
            | "assaypolicyid"
            | "assaysemanticdigest"
            | "assaydigestprofile" => {
                let text = match value {
                    Node::Null => None,
                    Node::String(text) => Some(text),
                    _ => return None,
                };
                match key {
                    "subject" => self.subject = text,
                    "assaycontenthash" => self.content_hash = text,
                    _ => {}
                }
            }
            "assayseq" => {
                let Node::Number(text) = value else {
                    return None;
                };
                self.seq = Some(text.parse::<u64>().ok()?);
            }
            "assaypii" => self.pii = matches!(value, Node::Bool(_)),
            "assaysecrets" => self.secrets = matches!(value, Node::Bool(_)),
            "data" => self.data = Some(value),
            _ => {}
        }
        Some(())
    }

    fn finish(self) -> Option<Fields<'a>> {
        let FieldsBuilder {
            strings,
            subject,
            content_hash,
            seq,
            pii,
            secrets,
            data,
        } = self;
        // The checks and digests once every member is in: required members present, `time`
        // as chrono parses it, the content hash and the `data` flags.
        let [Some(specversion), Some(type_), Some(source), Some(id), Some(time), Some(datacontenttype), Some(run_id), Some(_), Some(_), Some(_)] =
            strings
        else {
            return None;
        };
        let (seq, data) = (seq?, data?);
        if !(pii && secrets) {
            return None;
        }
        let time = instant(&time)?;
        let computed_hash = node_content_hash(
            &data,
            &datacontenttype,
            &specversion,
            subject.as_deref(),
            &type_,
        );
        let flags = match &data {
            Node::Canonical { flags, .. } => *flags,
            data => node_flags(data),
        };
        Some(Fields {
            specversion,
            type_,
            source,
            id,
            run_id,
            seq,
            time,
            content_hash,
            computed_hash,
            flags,
        })
    }
}

/// An event's `time` as chrono parses it (`T`, `t` or a space, an offset required), as the
/// instant it names.
fn instant(text: &str) -> Option<DateTime<Utc>> {
    let parsed = text.parse::<DateTime<FixedOffset>>().ok()?;
    Some(parsed.with_timezone(&Utc))
}

/// `DataFlags` of a `data` parsed into the fast tree (one that was not already canonical).
fn node_flags(data: &Node<'_>) -> DataFlags {
    let mut flags = DataFlags::default();
    for (member, name) in DataMember::ALL {
        let Some(parent) = data.get(name) else {
            continue;
        };
        for flag in member.flags() {
            if matches!(parent.get(flag), Some(Node::Bool(true))) {
                flags.set(member, flag);
            }
        }
    }
    flags
}

/// The required string members of upstream's event type, each with its slot in `from_node`.
fn required_slot(key: &str) -> Option<usize> {
    Some(match key {
        "specversion" => 0,
        "type" => 1,
        "source" => 2,
        "id" => 3,
        "time" => 4,
        "datacontenttype" => 5,
        "assayrunid" => 6,
        "assayproducer" => 7,
        "assayproducerversion" => 8,
        "assaygit" => 9,
        _ => return None,
    })
}

/// `hash::content_hash` over the fast tree: the same envelope writer, `data` from the tree.
fn node_content_hash(
    data: &Node<'_>,
    datacontenttype: &str,
    specversion: &str,
    subject: Option<&str>,
    type_: &str,
) -> String {
    if let Node::Canonical { text, .. } = data {
        // `data` is already its JCS text (upstream's writer stores it so): hashed where it
        // lies in the line, between the envelope writer's opening and the rest, not copied.
        let mut envelope = String::with_capacity(160);
        write_content_hash_input(
            |_| {},
            datacontenttype,
            specversion,
            subject,
            type_,
            &mut envelope,
        );
        let (open, rest) = envelope.split_at(DATA_OPEN.len());
        let mut hasher = Sha256::new();
        hasher.update(open.as_bytes());
        hasher.update(text.as_bytes());
        hasher.update(rest.as_bytes());
        return hex_digest(hasher.finalize().as_slice());
    }
    let mut out = String::with_capacity(1024);
    write_content_hash_input(
        |out| crate::json::write_jcs(data, out),
        datacontenttype,
        specversion,
        subject,
        type_,
        &mut out,
    );
    sha256_text(out.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"assaycontenthash":"sha256:2705fd4a499fd5c3564bc7426ed3d479f5771d90a9e32f48d579b5577eccefee","assaygit":"unknown","assaypii":false,"assayproducer":"assay","assayproducerversion":"5.4.0","assayrunid":"a2a-run-01","assaysecrets":false,"assayseq":0,"data":{"adapter_id":"assay-adapter-a2a","adapter_version":"5.4.0","agent":{"id":"agent://coordinator","name":"Planner","role":"orchestrator"},"attributes":{"assay_g4":{"priority":"nested"},"channel":"web","priority":"urgent","tags":["b",{"x":2,"y":1}]},"discovery":{"agent_card_source_kind":"unknown","agent_card_visible":false,"extended_card_access_visible":false,"signature_material_visible":false},"handoff":{"message_ref_visible":false,"source_kind":"typed_payload","task_ref_visible":true,"visible":true},"protocol":"a2a","protocol_name":"a2a","protocol_version":"0.2","task":{"id":"task-999","kind":"delegation"},"unmapped_fields_count":0,"upstream_event_type":"task.requested"},"datacontenttype":"application/json","id":"a2a-run-01:0","source":"urn:assay:adapter:a2a","specversion":"1.0","subject":"task-999","time":"2026-02-27T10:05:00Z","type":"assay.adapter.a2a.task.requested"}"#;

    #[test]
    fn the_specs_event_hashes_as_stored_on_both_paths() {
        let fast = from_node(fast::parse(LINE, 64).unwrap()).unwrap();
        assert_eq!(fast.computed_hash, fast.content_hash.as_deref().unwrap());
        assert!(fast.flags.handoff_visible && fast.a2a());
        // The canonical-text route (upstream's writer stores `data` in JCS form): same.
        let node = fast::parse_event(LINE, 64).unwrap();
        assert!(matches!(node.get("data"), Some(Node::Canonical { .. })));
        let canonical = from_node(node).unwrap();
        assert_eq!(canonical.computed_hash, fast.computed_hash);
        assert!(canonical.flags.handoff_visible);
        let hidden = LINE.replace("\"visible\":true", "\"visible\":false");
        let hidden = from_node(fast::parse_event(&hidden, 64).unwrap()).unwrap();
        assert!(!hidden.flags.handoff_visible);
        // The slow path (as if the fast one declined): same hash.
        let slow = slow_fields(LINE, 64).unwrap();
        assert_eq!(slow.computed_hash, fast.computed_hash);
    }

    fn tree(line: &str) -> Option<Fields<'_>> {
        fast::parse_event(line, 64).and_then(from_node)
    }

    /// What a route read from a line, for comparing routes.
    fn shown(fields: &Fields<'_>) -> String {
        format!(
            "{} {} {} {} {} {} {:?} {} {:?}",
            fields.specversion,
            fields.type_,
            fields.source,
            fields.id,
            fields.run_id,
            fields.seq,
            fields.content_hash,
            fields.computed_hash,
            fields.flags
        )
    }

    #[test]
    fn the_envelope_route_reads_what_the_tree_reads_or_declines() {
        let envelope = from_envelope(LINE, 64).expect("upstream's member order is taken");
        assert_eq!(shown(&envelope), shown(&tree(LINE).unwrap()));
        for (from, to) in [
            // Out of order, repeated, or white space: declined or the same.
            ("{\"assaycontenthash\"", "{\"zz\":1,\"assaycontenthash\""),
            (
                "\"assaygit\":\"unknown\",",
                "\"assaygit\":\"unknown\",\"assaygit\":\"x\",",
            ),
            ("\"assaypii\":false,", "\"assaypii\" : false ,"),
            ("\"type\":", "\"\u{e000}\":1,\"type\":"),
            ("\"assayseq\":0", "\"assayseq\":\"0\""),
            ("\"visible\":true", "\"visible\": true"),
            (
                "\"agent_card_visible\":false",
                "\"agent_card_visible\":true",
            ),
            ("}", "} "),
            ("\"time\":\"2026-02-27T10:05:00Z\"", "\"time\":\"now\""),
        ] {
            let line = LINE.replacen(from, to, 1);
            assert_ne!(line, LINE, "{from}");
            match (from_envelope(&line, 64), tree(&line)) {
                (Some(envelope), Some(tree)) => assert_eq!(shown(&envelope), shown(&tree), "{to}"),
                (Some(envelope), None) => panic!(
                    "envelope took what the tree refuses: {to}: {}",
                    shown(&envelope)
                ),
                (None, _) => {}
            }
        }
        let unordered = LINE.replacen("{\"assaycontenthash\"", "{\"zz\":1,\"assaycontenthash\"", 1);
        assert!(from_envelope(&unordered, 64).is_none());
        assert!(tree(&unordered).is_some());
    }

    #[test]
    fn wrong_types_go_to_the_slow_path_and_get_serdes_message() {
        for (from, to) in [
            ("\"assayseq\":0", "\"assayseq\":0.0"),
            ("\"assayseq\":0", "\"assayseq\":\"0\""),
            ("\"assaypii\":false", "\"assaypii\":0"),
            ("\"subject\":\"task-999\"", "\"subject\":1"),
            (
                "\"time\":\"2026-02-27T10:05:00Z\"",
                "\"time\":\"2026-02-27T10:05:00\"",
            ),
            ("\"specversion\":\"1.0\",", ""),
        ] {
            let line = LINE.replace(from, to);
            assert!(fast::parse(&line, 64).and_then(from_node).is_none(), "{to}");
            let error = read_fields(&line, 64).err().unwrap();
            assert_eq!(error.code, C::ContractInvalidJson, "{to}");
        }
        let null_subject = LINE.replace("\"subject\":\"task-999\"", "\"subject\":null");
        let fields = read_fields(&null_subject, 64).unwrap();
        assert_ne!(
            fields.computed_hash,
            fields.content_hash.unwrap(),
            "subject is hashed when present"
        );
    }
}
