//! Steps 10-24 over the lines of the events member: each line's limits, hash and contract,
//! then the member's size, file hash, count and run root.

use super::errors::read_error;
use super::lenient::{lenient_facts, read_rest};
use super::outcome::{Keep, TimeWindow, EVENTS};
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::event::Manifest;
use crate::bundle::hash::{hex_digest, normalize_file_hash, RunRoot};
use crate::bundle::limits::{exceeded, Limits};
use crate::bundle::line::{read_fields, Fields};
use crate::bundle::lines::{strip_terminator, EventLines, LineError, LineFacts, LineReader};
use crate::bundle::summary::summary_of_slice;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::cell::Cell;
use std::io::Read;

/// Steps 10-24 over the lines of events.ndjson.
pub(super) struct EventsCheck<'m> {
    manifest: &'m Manifest,
    limits: &'m Limits,
    keep: Keep,
    pub(super) lines: EventLines,
    file_digest: Sha256,
    bytes_read: u64,
    run_root: RunRoot,
    prev_seq: Option<u64>,
    first_source: Option<String>,
    /// The events' earliest and latest `time` so far.
    time_window: Option<TimeWindow>,
    /// False after a read error: nothing more can come from the member.
    pub(super) readable: bool,
    /// The check stopped at a line over `max_line_bytes`, not yet read to its end.
    pub(super) long_line: bool,
}

impl<'m> EventsCheck<'m> {
    pub(super) fn new(manifest: &'m Manifest, limits: &'m Limits, keep: Keep) -> Self {
        EventsCheck {
            manifest,
            limits,
            keep,
            lines: EventLines::default(),
            file_digest: Sha256::new(),
            bytes_read: 0,
            run_root: RunRoot::default(),
            prev_seq: None,
            first_source: None,
            time_window: None,
            readable: true,
            long_line: false,
        }
    }

    pub(super) fn run(
        &mut self,
        reader: &mut LineReader<impl Read>,
        tripped: &Cell<bool>,
    ) -> Result<(u64, String, TimeWindow), VerifyError> {
        let limits = self.limits;
        loop {
            let span = match reader.next_line(&mut self.lines.text, limits.max_line_bytes) {
                Ok(None) => break,
                Ok(Some(span)) => span,
                Err(LineError::TooLong) => {
                    self.long_line = true;
                    return Err(VerifyError::new(
                        10,
                        C::LimitLineBytes,
                        exceeded("line bytes", limits.max_line_bytes),
                    ));
                }
                Err(LineError::Io(error)) => {
                    self.readable = false;
                    return Err(read_error(10, &error, tripped, limits));
                }
            };
            // The line's number, from 1.
            let number = self.lines.counts.lines + 1;
            self.bytes_read += span.len() as u64;
            let raw = &self.lines.text[span.clone()];
            if number == 1 && raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                let facts = lenient_facts(raw);
                self.record(reader, span, facts);
                return Err(VerifyError::new(
                    11,
                    C::ContractInvalidJson,
                    "BOM not allowed in NDJSON",
                ));
            }
            self.file_digest.update(raw);
            if number > limits.max_events {
                let facts = LineFacts::of_summary(summary_of_slice(strip_terminator(raw)));
                self.record(reader, span, facts);
                return Err(VerifyError::new(
                    12,
                    C::LimitTotalEvents,
                    format!(
                        "Event count exceeds the configured maximum of {}",
                        limits.max_events
                    ),
                ));
            }
            if strip_terminator(raw).is_empty() {
                self.record(reader, span, LineFacts::default());
                return Err(VerifyError::new(
                    13,
                    C::ContractInvalidEvent,
                    "Blank line in events.ndjson",
                ));
            }
            // The line borrows the text buffer, which the checks do not touch: lend it out.
            let text = std::mem::take(&mut self.lines.text);
            let content = strip_terminator(&text[span.clone()]);
            let (facts, checked) = match self.check_line(content, number) {
                Ok(facts) => (facts, Ok(())),
                Err(error) => (lenient_facts(content), Err(error)),
            };
            self.lines.text = text;
            self.record(reader, span, facts);
            checked?;
        }
        self.lines.complete = true;
        self.finish()
    }

    /// A line read: kept with its facts (`Keep::Lines`, within `max_events`), else counted
    /// and its bytes dropped.
    fn record(
        &mut self,
        reader: &mut LineReader<impl Read>,
        span: std::ops::Range<usize>,
        facts: LineFacts,
    ) {
        match self.keep {
            Keep::Lines if self.lines.counts.lines < self.limits.max_events => {
                self.lines.keep(span, facts)
            }
            Keep::Lines => {
                self.lines.counts.add(facts.summary());
                reader.drop_line(&mut self.lines.text, span);
            }
            Keep::Counts => {
                self.lines.counts.add(facts.summary());
                reader.forget(&mut self.lines.text);
            }
        }
    }

    /// After a failed check: the rest of the member, read leniently for what it lists and
    /// counts (spec §15: every line that parses as a JSON object counts, past the limits too).
    pub(super) fn read_rest(&mut self, reader: &mut LineReader<impl Read>) {
        self.lines.complete = false;
        if self.readable {
            read_rest(
                reader,
                self.limits,
                self.keep,
                std::mem::take(&mut self.long_line),
                &mut self.lines,
            );
        }
        match self.keep {
            Keep::Lines => self.lines.drop_read_ahead(),
            Keep::Counts => self.lines.text = Vec::new(),
        }
    }

    /// Steps 14-22 for line `number`; returns its facts (what only a list needs, the type
    /// and both hashes, only when lines are kept).
    fn check_line(&mut self, content: &[u8], number: u64) -> Result<LineFacts, VerifyError> {
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
                // Named as every face names the line: `:SEQ`, its position from 0.
                &format!("content hash of event :{}", number - 1),
                stored,
                &event.computed_hash,
            ));
        }
        self.run_root.push(&event.computed_hash);
        self.check_contract(&event, number)?;
        match &mut self.time_window {
            Some(window) => window.widen(event.time),
            None => self.time_window = Some(TimeWindow::at(event.time)),
        }
        let listed = self.keep == Keep::Lines;
        Ok(LineFacts {
            object: true,
            a2a: event.a2a(),
            data: event.flags,
            type_: listed.then(|| event.type_.into_owned()),
            seq: Some(event.seq),
            stored_hash: event.content_hash.filter(|_| listed).map(Cow::into_owned),
            computed_hash: listed.then_some(event.computed_hash),
        })
    }

    /// Steps 18-22 for line `number`.
    fn check_contract(&mut self, event: &Fields<'_>, number: u64) -> Result<(), VerifyError> {
        match self.prev_seq {
            None if event.seq != 0 => {
                return Err(VerifyError::new(
                    18,
                    C::ContractSequenceStart,
                    format!("First event must have seq=0, got {}", event.seq),
                )
                .comparing("assayseq of event :0", 0, event.seq));
            }
            Some(prev) if Some(event.seq) != prev.checked_add(1) => {
                return Err(VerifyError::new(18, C::ContractSequenceGap, "Sequence gap")
                    .comparing(
                        &format!("assayseq of event :{}", number - 1),
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

    /// Steps 23-24: the event count, the run root and the events' time window.
    fn finish(&mut self) -> Result<(u64, String, TimeWindow), VerifyError> {
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
        let count = self.lines.counts.lines;
        // Every line counted passed its checks (and widened the window) by now.
        let Some(time_window) = self.time_window.filter(|_| count > 0) else {
            return Err(VerifyError::new(
                24,
                C::ContractInvalidEvent,
                "a bundle must carry at least one event",
            ));
        };
        if count != self.manifest.event_count as u64 {
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
        Ok((count, run_root, time_window))
    }
}
