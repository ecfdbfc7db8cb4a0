//! Writing bundles as upstream's `BundleWriter::finish` does (spec §1, §2, §11): events sorted
//! by seq and checked against upstream's stream rules, missing content hashes filled, each line
//! the JCS text of the event as upstream's typed event serializes it, a JCS manifest, a GNU tar
//! (mode 0644, mtime 0, owner `assay`, typeflag NUL, two zero blocks) in one gzip member at
//! best compression with upstream's deflate backend (miniz_oxide through flate2). The writer
//! checks no limits, as upstream's does not.

use super::event::EvidenceEvent;
use super::hash::{content_hash, sha256_text, RunRoot};
use super::verify::{EVENTS, MANIFEST};
use crate::json::jcs_bytes;
use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::{json, Map, Value};
use std::io::Write;

/// Why the writer refuses (upstream's `StreamRule` names, then the detail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError(pub String);

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WriteError {}

fn refuse<T>(rule: &str, detail: impl std::fmt::Display) -> Result<T, WriteError> {
    Err(WriteError(format!("{rule}: {detail}")))
}

/// Makes events bundleable the way a producer must (spec §11): run id `run_id` (no colon),
/// seq 0..n-1 in the given order, id `run_id:seq`, content hash recomputed.
pub fn assign_run(events: &mut [Value], run_id: &str) -> Result<(), WriteError> {
    if run_id.contains(':') {
        return refuse("RunIdHasNoColon", format!("run id {run_id:?} contains ':'"));
    }
    for (seq, event) in events.iter_mut().enumerate() {
        let Value::Object(map) = event else {
            return refuse("EventShape", format!("event {seq} is not a JSON object"));
        };
        map.insert("assayrunid".into(), Value::String(run_id.into()));
        map.insert("assayseq".into(), json!(seq));
        map.insert("id".into(), Value::String(format!("{run_id}:{seq}")));
        map.remove("assaycontenthash");
    }
    Ok(())
}

/// The default run id: `run-` and 16 hex digits of the events' run root, so the same events
/// always get the same id (and the same bytes).
pub fn default_run_id(events: &[Value]) -> Result<String, WriteError> {
    let mut root = RunRoot::default();
    for (index, event) in events.iter().enumerate() {
        root.push(&hash_of(&parse(index, event)?));
    }
    let root = root.finish();
    Ok(format!(
        "run-{}",
        &root["sha256:".len().."sha256:".len() + 16]
    ))
}

fn parse(index: usize, event: &Value) -> Result<EvidenceEvent, WriteError> {
    serde_json::from_value(event.clone())
        .map_err(|e| WriteError(format!("event {index} is not an evidence event: {e}")))
}

fn hash_of(event: &EvidenceEvent) -> String {
    content_hash(
        &event.data,
        &event.datacontenttype,
        &event.specversion,
        event.subject.as_deref(),
        &event.type_,
    )
}

/// A written bundle: its bytes and what a reader needs to name it.
#[derive(Debug)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub run_id: String,
    pub run_root: String,
    pub event_count: usize,
}

/// Upstream's `finish`: sort, apply the stream rules, fill hashes, write.
pub fn write_bundle(events: &[Value]) -> Result<Written, WriteError> {
    let mut parsed = events
        .iter()
        .enumerate()
        .map(|(index, event)| parse(index, event))
        .collect::<Result<Vec<_>, _>>()?;
    parsed.sort_by_key(|event| event.seq);
    let Some(first) = parsed.first().cloned() else {
        return refuse("NonEmpty", "a bundle needs at least one event");
    };
    let mut root = RunRoot::default();
    let mut lines = Vec::new();
    for (index, event) in parsed.iter_mut().enumerate() {
        if event.seq != index as u64 {
            return refuse(
                "SeqContiguousFromZero",
                format!("expected seq {index}, found {}", event.seq),
            );
        }
        if event.run_id != first.run_id {
            return refuse(
                "RunIdConsistent",
                format!("seq {index}: run id {:?}", event.run_id),
            );
        }
        if event.source != first.source {
            return refuse(
                "SourceConsistent",
                format!("seq {index}: source {:?}", event.source),
            );
        }
        if !event.source.contains(':') || event.source.starts_with(':') {
            return refuse("SourceIsUri", format!("source {:?}", event.source));
        }
        if event.run_id.contains(':') {
            return refuse("RunIdHasNoColon", format!("run id {:?}", event.run_id));
        }
        let computed = hash_of(event);
        match &event.content_hash {
            Some(preset) if *preset != computed => {
                return refuse(
                    "ContentHashMatchesEvent",
                    format!("seq {index}: {preset} != {computed}"),
                )
            }
            _ => event.content_hash = Some(computed.clone()),
        }
        if event.id != format!("{}:{}", event.run_id, event.seq) {
            return refuse(
                "IdIsRunIdColonSeq",
                format!("seq {index}: id {:?}", event.id),
            );
        }
        root.push(&computed);
        lines.extend_from_slice(&jcs_bytes(&event_value(event)?));
        lines.push(b'\n');
    }
    let run_root = root.finish();
    let manifest = manifest(&first, parsed.len(), &run_root, &lines);
    let tar = tar_bytes(&jcs_bytes(&manifest), &lines)?;
    let mut gzip = GzEncoder::new(Vec::new(), Compression::best());
    gzip.write_all(&tar)
        .map_err(|e| WriteError(format!("gzip: {e}")))?;
    let bytes = gzip
        .finish()
        .map_err(|e| WriteError(format!("gzip: {e}")))?;
    Ok(Written {
        bytes,
        run_id: first.run_id,
        run_root,
        event_count: parsed.len(),
    })
}

/// The event as upstream's typed event serializes it: its fields only, absent options
/// omitted, `time` in UTC with `Z` and 0, 3, 6 or 9 fraction digits.
fn event_value(event: &EvidenceEvent) -> Result<Value, WriteError> {
    let time: DateTime<FixedOffset> = event
        .time
        .parse()
        .map_err(|e| WriteError(format!("seq {}: time {:?}: {e}", event.seq, event.time)))?;
    let mut map = Map::new();
    let mut put = |key: &str, value: Value| {
        map.insert(key.into(), value);
    };
    put("specversion", event.specversion.clone().into());
    put("type", event.type_.clone().into());
    put("source", event.source.clone().into());
    put("id", event.id.clone().into());
    put(
        "time",
        time.with_timezone(&Utc)
            .to_rfc3339_opts(SecondsFormat::AutoSi, true)
            .into(),
    );
    put("datacontenttype", event.datacontenttype.clone().into());
    let optional = [
        ("subject", &event.subject),
        ("traceparent", &event.traceparent),
        ("tracestate", &event.tracestate),
        ("assaypolicyid", &event.policy_id),
        ("assaycontenthash", &event.content_hash),
        ("assaysemanticdigest", &event.semantic_digest),
        ("assaydigestprofile", &event.digest_profile),
    ];
    put("assayrunid", event.run_id.clone().into());
    put("assayseq", event.seq.into());
    put("assayproducer", event.producer.clone().into());
    put(
        "assayproducerversion",
        event.producer_version.clone().into(),
    );
    put("assaygit", event.git.clone().into());
    put("assaypii", event.pii.into());
    put("assaysecrets", event.secrets.into());
    put("data", event.data.clone());
    for (key, value) in optional {
        if let Some(value) = value {
            map.insert(key.into(), value.clone().into());
        }
    }
    Ok(Value::Object(map))
}

fn manifest(first: &EvidenceEvent, count: usize, run_root: &str, lines: &[u8]) -> Value {
    let mut producer = json!({"name": first.producer, "version": first.producer_version});
    if first.git != "unknown" {
        producer["git"] = Value::String(first.git.clone());
    }
    json!({
        "schema_version": 1,
        "bundle_id": run_root,
        "producer": producer,
        "run_id": first.run_id,
        "event_count": count,
        "run_root": run_root,
        "algorithms": {
            "canon": "jcs-rfc8785",
            "hash": "sha256",
            "root": "sha256(concat(content_hash + \"\\n\"))",
        },
        "files": {EVENTS: {"path": EVENTS, "sha256": sha256_text(lines), "bytes": lines.len()}},
    })
}

/// Upstream's tar: a GNU header per member (mode 0644, uid/gid 0, mtime 0, uname/gname
/// `assay`, typeflag NUL), data padded to 512, then two zero blocks.
fn tar_bytes(manifest: &[u8], events: &[u8]) -> Result<Vec<u8>, WriteError> {
    let mut builder = tar::Builder::new(Vec::with_capacity(manifest.len() + events.len() + 3072));
    for (name, data) in [(MANIFEST, manifest), (EVENTS, events)] {
        let mut header = tar::Header::new_gnu();
        let tar_error = |e: std::io::Error| WriteError(format!("tar {name}: {e}"));
        header.set_path(name).map_err(tar_error)?;
        header.set_mode(0o644);
        header.set_uid(0);
        header.set_gid(0);
        header.set_mtime(0);
        header.set_size(data.len() as u64);
        header.set_username("assay").map_err(tar_error)?;
        header.set_groupname("assay").map_err(tar_error)?;
        header.set_cksum();
        builder.append(&header, data).map_err(tar_error)?;
    }
    builder
        .into_inner()
        .map_err(|e| WriteError(format!("tar: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{open_bytes, Limits};

    fn event(data: Value) -> Value {
        json!({
            "specversion": "1.0", "type": "assay.test", "source": "urn:assay:test",
            "id": "x", "time": "2026-02-27T12:05:00.5+02:00", "datacontenttype": "application/json",
            "subject": null, "assayrunid": "x", "assayseq": 9, "assayproducer": "assay",
            "assayproducerversion": "5.4.0", "assaygit": "unknown", "assaypii": false,
            "assaysecrets": false, "assaycontenthash": null, "data": data,
        })
    }

    #[test]
    fn written_bundles_verify_and_are_deterministic() {
        let mut events = vec![event(json!({"k": "v"})), event(json!({"n": 2.0}))];
        let run_id = default_run_id(&events).unwrap();
        assign_run(&mut events, &run_id).unwrap();
        let written = write_bundle(&events).unwrap();
        assert_eq!(written.bytes, write_bundle(&events).unwrap().bytes);
        let bundle = open_bytes(&written.bytes, &Limits::default());
        let verified = bundle.verdict.as_ref().unwrap();
        assert_eq!(verified.run_root, written.run_root);
        assert_eq!(verified.event_count, 2);
        let line = String::from_utf8(bundle.events.unwrap().raw(0).to_vec()).unwrap();
        assert!(
            line.contains(r#""time":"2026-02-27T10:05:00.500Z""#),
            "{line}"
        );
        assert!(!line.contains("subject"), "{line}");
        // The spec's worked example: {"k":"v"} of type assay.test, no subject.
        assert!(line
            .contains("sha256:72553aade62c46bad2704347c8b38e61a791e57cb440be6d65c891c178728ac0"));
        assert_eq!(
            &written.bytes[..10],
            &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]
        );
    }

    #[test]
    fn stream_rules_refuse() {
        assert!(write_bundle(&[]).unwrap_err().0.starts_with("NonEmpty"));
        let mut events = vec![event(json!({}))];
        assert!(assign_run(&mut events, "a:b").is_err());
        assign_run(&mut events, "r").unwrap();
        events[0]["id"] = json!("r:1");
        assert!(write_bundle(&events)
            .unwrap_err()
            .0
            .starts_with("IdIsRunIdColonSeq"));
        events[0]["id"] = json!("r:0");
        events[0]["assaycontenthash"] = json!("sha256:00");
        assert!(write_bundle(&events)
            .unwrap_err()
            .0
            .starts_with("ContentHashMatchesEvent"));
        events[0]["assaycontenthash"] = Value::Null;
        events[0]["source"] = json!("nocolon");
        assert!(write_bundle(&events)
            .unwrap_err()
            .0
            .starts_with("SourceIsUri"));
    }
}
