//! Steps 10-24 over the lines of the events member: each line's limits, hash and contract,
//! then the member's size, file hash, count and run root.

use super::errors::read_error;
use super::lenient::lenient_facts;
use super::EVENTS;
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::event::Manifest;
use crate::bundle::hash::{hex_digest, normalize_file_hash, RunRoot};
use crate::bundle::limits::Limits;
use crate::bundle::line::{read_fields, Fields};
use crate::bundle::lines::{strip_terminator, EventLines, LineError, LineFacts, LineReader};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::cell::Cell;
use std::io::Read;

/// Steps 10-24 over the lines of events.ndjson.
pub(super) struct EventsCheck<'m> {
    manifest: &'m Manifest,
    limits: &'m Limits,
    pub(super) lines: EventLines,
    file_digest: Sha256,
    bytes_read: u64,
    run_root: RunRoot,
    prev_seq: Option<u64>,
    first_source: Option<String>,
    /// False after a read error: nothing more can come from the member.
    pub(super) readable: bool,
}

impl<'m> EventsCheck<'m> {
    pub(super) fn new(manifest: &'m Manifest, limits: &'m Limits) -> Self {
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

    pub(super) fn run(
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
