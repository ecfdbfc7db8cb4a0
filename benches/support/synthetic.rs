//! Synthetic corpora for measuring `check` at scale: a deterministic mix of raw A2A packets
//! (positives, every negative of the freeze, lenient-only cases), some canonical payloads and
//! a few lines that are not JSON. Shared by `examples/gen_corpus.rs` and `benches/corpus.rs`.
#![allow(dead_code)]

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// One packet of the mix, by index (the same index always gives the same bytes).
pub fn packet(index: u64) -> String {
    let task = format!("task-{index}");
    let message = format!("msg-{index}");
    let agent = format!("agent://worker-{}", index % 97);
    let time = format!("2026-02-27T10:{:02}:{:02}Z", (index / 60) % 60, index % 60);
    match index % 20 {
        // 8 in 20: typed positives, with and without message refs and weak signals.
        0..=4 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"{time}","agent":{{"id":"{agent}","role":"orchestrator"}},"task":{{"id":"{task}","status":"requested","kind":"delegation"}},"message":{{"id":"{message}","role":"assistant"}},"attributes":{{"priority":"urgent","channel":"web"}}}}"#
        ),
        5 | 6 => format!(
            r#"{{"protocol":"a2a","version":"0.3.1","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"delegation"}}}}"#
        ),
        7 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"delegation"}},"message":{{"id":"{message}"}},"trace_id":"t-{index}"}}"#
        ),
        // N3 / N4: no task.id.
        8 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"status":"requested","kind":"delegation"}},"message":{{"id":"{message}"}}}}"#
        ),
        // N1 / X1.
        9 => format!(
            r#"{{"protocol":"a2a","version":"0.3.1","event_type":"artifact.shared","timestamp":"{time}","agent":{{"id":"{agent}"}},"task":{{"id":"{task}"}},"artifact":{{"id":"artifact-{index}","name":"plan.md","media_type":"text/markdown"}}}}"#
        ),
        // N7 / X10.
        10 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.updated","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","status":"working","kind":"delegation"}}}}"#
        ),
        // N2 / X2.
        11 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"session.unknown","agent":{{"id":"{agent}"}},"message":{{"id":"{message}"}}}}"#
        ),
        // N5 / X4 / X5.
        12 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"analysis"}}}}"#
        ),
        13 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}","role":"delegator"}},"task":{{"id":"{task}"}},"attributes":{{"handoff":{{"visible":true}},"assay_g4":{{"agent_card":{{"visible":true}}}}}}}}"#
        ),
        // X3.
        14 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"agent.capabilities","agent":{{"id":"{agent}","capabilities":["planning","delegation"]}}}}"#
        ),
        // Lenient substitutions.
        15 => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","task":{{"id":"{task}","kind":"delegation"}}}}"#
        ),
        // Rejections before typed fields.
        16 => format!(
            r#"{{"protocol":"a2a","version":"1.0","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"delegation"}}}}"#
        ),
        // Canonical payloads (audited, not converted).
        17 | 18 => format!(
            r#"{{"adapter_id":"assay-adapter-a2a","adapter_version":"3.4.0","protocol":"a2a","protocol_name":"a2a","protocol_version":"0.2","upstream_event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"delegation"}},"message":{{"id":"{message}"}},"discovery":{{"agent_card_visible":false,"agent_card_source_kind":"unknown","extended_card_access_visible":false,"signature_material_visible":false}},"handoff":{{"visible":true,"source_kind":"typed_payload","task_ref_visible":true,"message_ref_visible":true}},"unmapped_fields_count":0}}"#
        ),
        // One in 20: every 1000th is not JSON, the rest a plain positive.
        _ if index % 1000 == 19 => {
            format!(r#"{{"protocol":"a2a","version":"0.2","task":{{"id":"{task}""#)
        }
        _ => format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}"}},"task":{{"id":"{task}","kind":"delegation"}},"message":{{"id":"{message}"}}}}"#
        ),
    }
}

/// Writes `count` packets as one NDJSON file.
pub fn write_ndjson(path: &Path, count: u64) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    for index in 0..count {
        out.write_all(packet(index).as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Writes `count` single-packet files under `dir`, 1000 per subdirectory.
pub fn write_files(dir: &Path, count: u64) -> io::Result<()> {
    for index in 0..count {
        let sub = dir.join(format!("d{:04}", index / 1000));
        if index % 1000 == 0 {
            std::fs::create_dir_all(&sub)?;
        }
        std::fs::write(sub.join(format!("p{index:07}.json")), packet(index))?;
    }
    Ok(())
}
