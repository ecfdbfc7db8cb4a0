//! Upstream's `verify_bundle` (spec §9), in its order, first failure wins. The walk also keeps
//! what a reviewer needs afterwards: the manifest's bytes and the lines of the first
//! `events.ndjson` member, each with what could be read from it even where verification
//! failed (spec §15).

use super::error::{ErrorCode as C, VerifyError};
use super::event::{a2a_and_flags, parse_manifest, Manifest};
use super::hash::{content_hash, hex_digest, normalize_file_hash, RunRoot};
use super::limits::{CeilingReader, Limits};
use super::line::{read_fields, Fields};
use super::lines::{strip_terminator, EventLines, LineError, LineFacts, LineReader};
use super::strict::{validate, StrictError};
use flate2::read::GzDecoder;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, Read};
use std::rc::Rc;

pub const MANIFEST: &str = "manifest.json";
pub const EVENTS: &str = "events.ndjson";

/// What a passing verification returns (upstream's `VerifyResult`).
#[derive(Clone, Debug)]
pub struct Verified {
    pub manifest: Manifest,
    pub event_count: u64,
    pub run_root: String,
}

/// The walk's result: the verdict and what was read on the way.
pub struct Walk {
    pub verdict: Result<Verified, VerifyError>,
    pub manifest_text: Option<Vec<u8>>,
    pub manifest: Option<Manifest>,
    /// The first `events.ndjson` member, when the walk reached it.
    pub events: Option<EventLines>,
}

/// Step 0: reads the whole input through `max_bundle_bytes`.
pub fn read_input(reader: impl Read, limits: &Limits) -> Result<Vec<u8>, VerifyError> {
    let mut bytes = Vec::new();
    let ceiling = limits.max_bundle_bytes.saturating_add(1);
    match reader.take(ceiling).read_to_end(&mut bytes) {
        Ok(_) if bytes.len() as u64 > limits.max_bundle_bytes => Err(VerifyError::new(
            0,
            C::LimitBundleBytes,
            format!("Bundle exceeds limit {} bytes", limits.max_bundle_bytes),
        )
        .comparing(
            "input bytes",
            format!("at most {}", limits.max_bundle_bytes),
            "more",
        )),
        Ok(_) => Ok(bytes),
        Err(error) => Err(VerifyError::new(
            0,
            C::IntegrityGzip,
            format!("Bundle source: {error}"),
        )),
    }
}

/// Path safety on the raw name: a leading `/` (root) or a `..` component fails; `.` and
/// empty components are what `Path::components` skips or keeps as harmless.
fn has_unsafe_component(name: &[u8]) -> bool {
    name.first() == Some(&b'/') || name.split(|&b| b == b'/').any(|part| part == b"..")
}

fn strict_error(step: u8, error: StrictError, what: &str) -> VerifyError {
    match error {
        StrictError::Depth { limit } => VerifyError::new(
            step,
            C::LimitJsonDepth,
            format!("{what}: JSON nesting exceeds limit {limit}"),
        ),
        StrictError::Invalid(message) => {
            VerifyError::new(step, C::ContractInvalidJson, format!("{what}: {message}"))
        }
    }
}

/// An io error met while reading data: the decode ceiling when it tripped, else upstream's
/// `IntegrityIo` with the io text.
fn read_error(step: u8, error: &io::Error, tripped: &Cell<bool>, limits: &Limits) -> VerifyError {
    if tripped.get() {
        decode_ceiling(step, limits)
    } else {
        VerifyError::new(step, C::IntegrityIo, error.to_string())
    }
}

fn decode_ceiling(step: u8, limits: &Limits) -> VerifyError {
    VerifyError::new(
        step,
        C::LimitDecodeBytes,
        format!(
            "Decompressed size exceeds limit {} bytes",
            limits.max_decode_bytes
        ),
    )
}

/// Runs the verification over the bundle's bytes.
pub fn walk(input: &[u8], limits: &Limits) -> Walk {
    let mut walk = Walk {
        verdict: Err(VerifyError::new(
            25,
            C::ContractMissingFile,
            "Missing events.ndjson",
        )),
        manifest_text: None,
        manifest: None,
        events: None,
    };
    let tripped = Rc::new(Cell::new(false));
    let decoded = CeilingReader::new(
        GzDecoder::new(input),
        limits.max_decode_bytes,
        tripped.clone(),
    );
    let mut archive = tar::Archive::new(decoded);
    match members(&mut archive, limits, &tripped, &mut walk) {
        Err(error) => walk.verdict = Err(error),
        Ok(None) => {} // no events member: the initial verdict stands
        Ok(Some(verified)) => {
            // Step 25: the rest of the gzip member, trailer included.
            let mut rest = archive.into_inner();
            walk.verdict = match io::copy(&mut rest, &mut io::sink()) {
                Ok(_) => Ok(verified),
                Err(_) if tripped.get() => Err(decode_ceiling(25, limits)),
                Err(error) => Err(VerifyError::new(
                    25,
                    C::IntegrityGzip,
                    format!("Gzip trailer: {error}"),
                )),
            };
        }
    }
    walk
}

type Archive<'a> = tar::Archive<CeilingReader<GzDecoder<&'a [u8]>>>;

/// Steps 1-24 over every member; `Ok(Some)` once events.ndjson verified and no later member
/// failed.
fn members(
    archive: &mut Archive<'_>,
    limits: &Limits,
    tripped: &Rc<Cell<bool>>,
    walk: &mut Walk,
) -> Result<Option<Verified>, VerifyError> {
    let entry_error = |i: usize, error: io::Error| {
        if tripped.get() {
            decode_ceiling(1, limits)
        } else {
            VerifyError::new(1, C::IntegrityTar, format!("Entry #{i}: {error}"))
        }
    };
    let entries = archive.entries().map_err(|e| entry_error(0, e))?;
    let mut seen: HashSet<String> = HashSet::new();
    let mut verified = None;
    for (i, entry) in entries.enumerate() {
        let entry = entry.map_err(|e| entry_error(i, e))?;
        let name_bytes = entry.path_bytes().into_owned();
        // Upstream compares a non-UTF-8 name as "".
        let name = std::str::from_utf8(&name_bytes).unwrap_or("");
        if name_bytes.len() as u64 > limits.max_path_len {
            return Err(VerifyError::new(
                2,
                C::LimitPathLength,
                format!(
                    "Path length {} exceeds limit {}",
                    name_bytes.len(),
                    limits.max_path_len
                ),
            )
            .comparing(
                "name bytes",
                format!("at most {}", limits.max_path_len),
                name_bytes.len(),
            ));
        }
        let declared = entry
            .header()
            .size()
            .map_err(|e| VerifyError::new(3, C::IntegrityIo, e.to_string()))?;
        let max_size = if name == MANIFEST {
            limits.max_manifest_bytes
        } else {
            limits.max_events_bytes
        };
        if declared > max_size {
            return Err(VerifyError::new(
                3,
                C::LimitFileSize,
                format!("File '{name}' declared size {declared} exceeds limit {max_size}"),
            )
            .comparing("declared size", format!("at most {max_size}"), declared));
        }
        if has_unsafe_component(&name_bytes) {
            return Err(VerifyError::new(
                4,
                C::SecurityPathTraversal,
                format!("Invalid path component in '{name}'"),
            ));
        }
        if name != MANIFEST && name != EVENTS {
            return Err(VerifyError::new(
                5,
                C::ContractUnexpectedFile,
                format!("Unexpected file '{name}'"),
            )
            .comparing(
                "member name",
                "manifest.json or events.ndjson",
                format!("{name:?}"),
            ));
        }
        if !seen.insert(name.to_owned()) {
            return Err(VerifyError::new(
                6,
                C::ContractDuplicateFile,
                format!("Duplicate file '{name}'"),
            ));
        }
        if i == 0 && name != MANIFEST {
            return Err(VerifyError::new(
                7,
                C::ContractFileOrder,
                "First file must be 'manifest.json'",
            )
            .comparing("member #0", MANIFEST, name));
        }
        if name == MANIFEST {
            let manifest = read_manifest(entry, limits, tripped, walk)?;
            walk.manifest = Some(manifest);
            continue;
        }
        // events.ndjson; member #0 was the manifest, so it is there.
        let Some(manifest) = walk.manifest.clone() else {
            return Err(VerifyError::new(
                7,
                C::ContractFileOrder,
                "First file must be 'manifest.json'",
            ));
        };
        let Some(meta) = manifest.files.get(EVENTS) else {
            return Err(VerifyError::new(
                9,
                C::ContractMissingFile,
                "Manifest missing 'events.ndjson'",
            ));
        };
        if declared != meta.bytes {
            return Err(VerifyError::new(
                9,
                C::IntegrityFileSizeMismatch,
                format!(
                    "events.ndjson size mismatch: expected {}, got {}",
                    meta.bytes, declared
                ),
            )
            .comparing(
                "events.ndjson size (manifest vs tar header)",
                meta.bytes,
                declared,
            ));
        }
        let mut events = EventsCheck::new(&manifest, limits);
        // One allocation for the whole member (address space only until written; capped so
        // a lying header costs nothing real).
        events
            .lines
            .text
            .reserve(declared.min(limits.max_decode_bytes).min(1 << 30) as usize);
        let mut reader = LineReader::new(entry, &events.lines.text);
        let result = events.run(&mut reader, tripped);
        if result.is_err() {
            // Keep what a reviewer can still list: the rest of the member, leniently.
            events.lines.complete = false;
            if events.readable {
                collect_rest(&mut reader, limits, &mut events.lines);
            }
            events.lines.drop_read_ahead();
        }
        walk.events = Some(events.lines);
        let (event_count, run_root) = result?;
        verified = Some(Verified {
            manifest,
            event_count,
            run_root,
        });
    }
    Ok(verified)
}

/// Step 8.
fn read_manifest(
    entry: impl Read,
    limits: &Limits,
    tripped: &Cell<bool>,
    walk: &mut Walk,
) -> Result<Manifest, VerifyError> {
    let mut bytes = Vec::new();
    // A PAX `size` record can make the reader take more than the declared size.
    let mut bounded = entry.take(limits.max_manifest_bytes.saturating_add(1));
    bounded
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(8, &e, tripped, limits))?;
    if bytes.len() as u64 > limits.max_manifest_bytes {
        return Err(VerifyError::new(
            8,
            C::LimitFileSize,
            format!(
                "File 'manifest.json' exceeds limit {}",
                limits.max_manifest_bytes
            ),
        ));
    }
    walk.manifest_text = Some(bytes);
    let bytes = walk.manifest_text.as_deref().unwrap_or_default();
    let text = std::str::from_utf8(bytes).map_err(|e| {
        VerifyError::new(
            8,
            C::ContractInvalidJson,
            format!("Invalid UTF-8 in manifest: {e}"),
        )
    })?;
    validate(text, limits.max_json_depth).map_err(|e| strict_error(8, e, "manifest.json"))?;
    let manifest =
        parse_manifest(text).map_err(|e| VerifyError::new(8, C::ContractInvalidJson, e))?;
    if manifest.schema_version != 1 {
        return Err(VerifyError::new(
            8,
            C::ContractSchemaVersion,
            format!("Unsupported schema version: {}", manifest.schema_version),
        )
        .comparing("schema_version", 1, manifest.schema_version));
    }
    Ok(manifest)
}

/// Steps 10-24 over the lines of events.ndjson.
struct EventsCheck<'m> {
    manifest: &'m Manifest,
    limits: &'m Limits,
    lines: EventLines,
    file_digest: Sha256,
    bytes_read: u64,
    run_root: RunRoot,
    prev_seq: Option<u64>,
    first_source: Option<String>,
    /// False after a read error: nothing more can come from the member.
    readable: bool,
}

impl<'m> EventsCheck<'m> {
    fn new(manifest: &'m Manifest, limits: &'m Limits) -> Self {
        EventsCheck {
            manifest,
            limits,
            lines: EventLines::default(),
            file_digest: Sha256::new(),
            bytes_read: 0,
            run_root: RunRoot::default(),
            prev_seq: None,
            first_source: None,
            readable: true,
        }
    }

    fn run(
        &mut self,
        reader: &mut LineReader<impl Read>,
        tripped: &Cell<bool>,
    ) -> Result<(u64, String), VerifyError> {
        let limits = self.limits;
        loop {
            let (start, n) = match reader.next_line(&mut self.lines.text, limits.max_line_bytes) {
                Ok(None) => break,
                Ok(Some(span)) => (span.start, span.len()),
                Err(LineError::TooLong) => {
                    self.readable = false;
                    return Err(VerifyError::new(
                        10,
                        C::LimitLineBytes,
                        format!(
                            "Line {} exceeds limit {} bytes",
                            self.lines.len() + 1,
                            limits.max_line_bytes
                        ),
                    ));
                }
                Err(LineError::Io(error)) => {
                    self.readable = false;
                    return Err(read_error(10, &error, tripped, limits));
                }
            };
            self.bytes_read += n as u64;
            self.lines.spans.push(start..start + n);
            let index = self.lines.len() - 1;
            let raw = &self.lines.text[start..start + n];
            if index == 0 && raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                self.lines.facts.push(lenient_facts(raw));
                return Err(VerifyError::new(
                    11,
                    C::ContractInvalidJson,
                    "BOM not allowed in NDJSON",
                ));
            }
            self.file_digest.update(raw);
            if self.lines.len() as u64 > limits.max_events {
                self.lines.facts.push(LineFacts::default());
                self.readable = false;
                return Err(VerifyError::new(
                    12,
                    C::LimitTotalEvents,
                    format!("Event count exceeds limit {}", limits.max_events),
                ));
            }
            let content = strip_terminator(raw);
            if content.is_empty() {
                self.lines.facts.push(LineFacts::default());
                return Err(VerifyError::new(
                    13,
                    C::ContractInvalidEvent,
                    "Blank line in events.ndjson",
                ));
            }
            // The line borrows the text buffer, which the checks do not touch: lend it out.
            let text = std::mem::take(&mut self.lines.text);
            let content = strip_terminator(&text[start..start + n]);
            let (facts, checked) = match self.check_line(content) {
                Ok(facts) => (facts, Ok(())),
                Err(error) => (lenient_facts(content), Err(error)),
            };
            self.lines.text = text;
            self.lines.facts.push(facts);
            checked?;
        }
        self.lines.complete = true;
        self.finish()
    }

    /// Steps 14-22 for one line; returns its facts.
    fn check_line(&mut self, content: &[u8]) -> Result<LineFacts, VerifyError> {
        let text = std::str::from_utf8(content).map_err(|e| {
            VerifyError::new(
                14,
                C::ContractInvalidJson,
                format!("Invalid UTF-8 in event: {e}"),
            )
        })?;
        let event = read_fields(text, self.limits.max_json_depth)?;
        if event.specversion != "1.0" {
            return Err(
                VerifyError::new(15, C::ContractSchemaVersion, "Invalid specversion").comparing(
                    "specversion",
                    "1.0",
                    &event.specversion,
                ),
            );
        }
        let Some(stored) = event.content_hash.as_deref() else {
            return Err(VerifyError::new(
                16,
                C::ContractSchemaVersion,
                "Missing content_hash",
            ));
        };
        if stored != event.computed_hash {
            return Err(VerifyError::new(
                17,
                C::IntegrityEventHash,
                format!("Content hash mismatch at seq {}", event.seq),
            )
            .comparing(
                &format!("content hash of line {}", self.lines.len()),
                stored,
                &event.computed_hash,
            ));
        }
        self.run_root.push(&event.computed_hash);
        self.check_contract(&event)?;
        Ok(LineFacts {
            object: true,
            a2a: event.a2a(),
            data: event.flags,
            type_: Some(event.type_.into_owned()),
            seq: Some(event.seq),
            stored_hash: event.content_hash.map(Cow::into_owned),
            computed_hash: Some(event.computed_hash),
        })
    }

    /// Steps 18-22.
    fn check_contract(&mut self, event: &Fields<'_>) -> Result<(), VerifyError> {
        match self.prev_seq {
            None if event.seq != 0 => {
                return Err(VerifyError::new(
                    18,
                    C::ContractSequenceStart,
                    format!("First event must have seq=0, got {}", event.seq),
                )
                .comparing("assayseq of the first line", 0, event.seq));
            }
            Some(prev) if Some(event.seq) != prev.checked_add(1) => {
                return Err(VerifyError::new(18, C::ContractSequenceGap, "Sequence gap")
                    .comparing(
                        &format!("assayseq of line {}", self.lines.len()),
                        prev as u128 + 1,
                        event.seq,
                    ));
            }
            _ => {}
        }
        self.prev_seq = Some(event.seq);
        if event.run_id != self.manifest.run_id {
            return Err(
                VerifyError::new(19, C::ContractRunIdMismatch, "Inconsistent run_id").comparing(
                    "assayrunid (manifest run_id vs event)",
                    &self.manifest.run_id,
                    &event.run_id,
                ),
            );
        }
        match &self.first_source {
            None => {
                if !event.source.contains(':') || event.source.starts_with(':') {
                    return Err(VerifyError::new(
                        20,
                        C::ContractInvalidEvent,
                        "seq=0: source must be a URI (e.g. urn:assay:..., https://...)",
                    )
                    .comparing(
                        "source",
                        "a URI (contains ':', not first)",
                        &event.source,
                    ));
                }
                self.first_source = Some(event.source.to_string());
            }
            Some(first) if *first != event.source => {
                return Err(VerifyError::new(
                    20,
                    C::ContractInvalidEvent,
                    format!("seq={}: all events must carry the same source", event.seq),
                )
                .comparing(
                    "source (first event vs this one)",
                    first,
                    &event.source,
                ));
            }
            Some(_) => {}
        }
        if event.run_id.contains(':') {
            return Err(VerifyError::new(
                21,
                C::ContractInvalidEvent,
                format!(
                    "run_id must not contain a colon; the id contract cannot be split unambiguously (seq={})",
                    event.seq
                ),
            ));
        }
        let expected_id = format!("{}:{}", event.run_id, event.seq);
        if event.id != expected_id {
            return Err(VerifyError::new(
                22,
                C::ContractInvalidEvent,
                format!(
                    "Event id does not match the run_id:seq contract at seq={}",
                    event.seq
                ),
            )
            .comparing("id", expected_id, &event.id));
        }
        Ok(())
    }

    /// Steps 23-24.
    fn finish(&mut self) -> Result<(u64, String), VerifyError> {
        let meta = &self.manifest.files[EVENTS];
        if self.bytes_read != meta.bytes {
            return Err(VerifyError::new(
                23,
                C::IntegrityFileSizeMismatch,
                format!(
                    "events.ndjson byte mismatch: expected {}, got {}",
                    meta.bytes, self.bytes_read
                ),
            )
            .comparing(
                "events.ndjson bytes (manifest vs read)",
                meta.bytes,
                self.bytes_read,
            ));
        }
        let digest = hex_digest(std::mem::take(&mut self.file_digest).finalize().as_slice());
        let stored = normalize_file_hash(&meta.sha256);
        if digest != stored {
            return Err(VerifyError::new(
                23,
                C::IntegrityManifestHash,
                "events.ndjson hash mismatch",
            )
            .comparing(
                "events.ndjson sha256 (manifest vs computed)",
                stored,
                digest,
            ));
        }
        let count = self.lines.len() as u64;
        if count == 0 {
            return Err(VerifyError::new(
                24,
                C::ContractInvalidEvent,
                "a bundle must carry at least one event",
            ));
        }
        if count != self.manifest.event_count {
            return Err(
                VerifyError::new(24, C::ContractSequenceGap, "Event count mismatch").comparing(
                    "event_count (manifest vs lines)",
                    self.manifest.event_count,
                    count,
                ),
            );
        }
        let run_root = std::mem::take(&mut self.run_root).finish();
        if run_root != self.manifest.run_root {
            return Err(
                VerifyError::new(24, C::IntegrityRunRootMismatch, "Run root mismatch").comparing(
                    "run_root (manifest vs recomputed)",
                    &self.manifest.run_root,
                    &run_root,
                ),
            );
        }
        if self.manifest.bundle_id != run_root {
            return Err(VerifyError::new(
                24,
                C::ContractBundleIdMismatch,
                "bundle_id must equal run_root",
            )
            .comparing(
                "bundle_id (manifest vs recomputed run_root)",
                &self.manifest.bundle_id,
                &run_root,
            ));
        }
        Ok((count, run_root))
    }
}

/// What can be read from a line without verifying it: JSON object or not, its type, seq,
/// A2A-ness, handoff visibility, stored and recomputed content hash.
pub fn lenient_facts(line: &[u8]) -> LineFacts {
    let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(strip_terminator(line)) else {
        return LineFacts::default();
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str);
    let (a2a, data) = a2a_and_flags(text("type"), map.get("data"));
    let subject = match map.get("subject") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(()),
    };
    let computed_hash = match (
        map.get("data"),
        text("datacontenttype"),
        text("specversion"),
        subject,
        text("type"),
    ) {
        (Some(data), Some(dct), Some(spec), Ok(subject), Some(type_)) => {
            Some(content_hash(data, dct, spec, subject, type_))
        }
        _ => None,
    };
    LineFacts {
        object: true,
        type_: text("type").map(str::to_owned),
        seq: map.get("assayseq").and_then(Value::as_u64),
        a2a,
        data,
        stored_hash: text("assaycontenthash").map(str::to_owned),
        computed_hash,
    }
}

/// After a failure inside the member: the remaining lines, leniently, within the limits.
pub fn collect_rest(reader: &mut LineReader<impl Read>, limits: &Limits, lines: &mut EventLines) {
    while (lines.len() as u64) < limits.max_events {
        match reader.next_line(&mut lines.text, limits.max_line_bytes) {
            Ok(None) => {
                lines.complete = true;
                break;
            }
            Ok(Some(span)) => {
                let facts = lenient_facts(&lines.text[span.clone()]);
                lines.spans.push(span);
                lines.facts.push(facts);
            }
            Err(_) => break,
        }
    }
    lines.drop_read_ahead();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_components() {
        for bad in [
            &b"../events.ndjson"[..],
            b"/events.ndjson",
            b"a/../b",
            b"..",
        ] {
            assert!(has_unsafe_component(bad), "{bad:?}");
        }
        for ok in [
            &b"events.ndjson"[..],
            b"./events.ndjson",
            b"a//b",
            b"a/./b",
            b"..a",
            b"events.ndjson/",
        ] {
            assert!(!has_unsafe_component(ok), "{ok:?}");
        }
    }
}
