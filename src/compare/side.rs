//! Reading one side of a comparison (a directory, a bundle, an NDJSON stream or one file)
//! through the corpus pipeline `check` uses, into a record per packet and the run's facts.

use super::document::Time;
use super::record::{scan, Record, NO_TYPE, WHOLE_FILE};
use crate::corpus::{stream_packets, walk, LoadError, PacketKind, RawPacket, Source};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a side is, which decides how its packets are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SideShape {
    /// Paired by relative path (and line, for NDJSON files inside).
    Directory,
    /// Paired by event sequence.
    Bundle,
    Stream,
    File,
}

/// A bundle side's verdict and run facts.
#[derive(Clone, Debug, Serialize)]
pub struct BundleFacts {
    /// `valid`, or upstream's error code.
    pub verdict: String,
    pub run_id: Option<String>,
    pub run_root: Option<String>,
    /// Its attestation, judged when the comparison was given trusted keys.
    pub attestation: Option<AttestationFacts>,
}

/// What a bundle's attestation came to against the reader's trusted keys: what `diff` compares
/// between two runs (who signed), never a handoff flag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttestationFacts {
    /// The state's name (`attestation verified`, `attestation refused`, `not attested`...).
    pub state: &'static str,
    /// The keyid of the trusted key whose signature verified.
    pub signer: Option<String>,
    /// The check that refused it: its number (1-15).
    pub refused_at: Option<u8>,
}

impl AttestationFacts {
    /// The bundle file's attestation judged against `keys` (none: not judged).
    fn of_bundle(path: &Path, keys: &[crate::bundle::attest::TrustedKey]) -> Option<Self> {
        use crate::bundle::attest::{judge_bundle_file, Judged};
        if keys.is_empty() {
            return None;
        }
        let judged = judge_bundle_file(path, None, keys);
        let attestation = match &judged {
            Judged::Judged { attestation, .. } => Some(attestation),
            Judged::Absent { .. } | Judged::Unreadable { .. } => None,
        };
        Some(AttestationFacts {
            state: judged.state_name(),
            signer: attestation
                .and_then(|attestation| attestation.signer(keys))
                .map(|key| key.keyid.clone()),
            refused_at: attestation
                .and_then(|attestation| attestation.refusal())
                .map(|refusal| refusal.check.number()),
        })
    }
}

/// Facts that differ from run to run by construction, reported once.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunSummary {
    /// Distinct run ids, at most `MAX_RUN_IDS` of them.
    pub run_ids: BTreeSet<String>,
    pub more_run_ids: usize,
    /// The earliest and latest instants of the packets' RFC 3339 times.
    #[serde(skip)]
    pub first_time: Option<DateTime<Utc>>,
    #[serde(skip)]
    pub last_time: Option<DateTime<Utc>>,
    /// Times that are not RFC 3339 (not counted in the range).
    pub times_not_rfc3339: usize,
    pub bundle: Option<BundleFacts>,
}

pub const MAX_RUN_IDS: usize = 8;

impl RunSummary {
    fn note(&mut self, run_id: Option<String>, time: Option<Time>) {
        if let Some(run_id) = run_id {
            if self.run_ids.len() < MAX_RUN_IDS || self.run_ids.contains(&run_id) {
                self.run_ids.insert(run_id);
            } else {
                self.more_run_ids += 1;
            }
        }
        match time {
            Some(Time::Instant(time)) => {
                self.first_time = Some(self.first_time.map_or(time, |first| first.min(time)));
                self.last_time = Some(self.last_time.map_or(time, |last| last.max(time)));
            }
            Some(Time::NotRfc3339) => self.times_not_rfc3339 += 1,
            None => {}
        }
    }

    /// The range's ends as RFC 3339 in UTC (`2026-02-27T10:05:00Z`).
    pub fn time_range(&self) -> Option<(String, String)> {
        let utc = |time: DateTime<Utc>| time.to_rfc3339_opts(SecondsFormat::AutoSi, true);
        Some((utc(self.first_time?), utc(self.last_time?)))
    }
}

/// The distinct packet types of a side, each a hash of the type and numbered in order of first
/// sight, so that a record names its type in two bytes. A run has a few dozen types; past
/// `NO_TYPE` of them (a hostile stream) the rest are `NO_TYPE` and pair by identity only.
#[derive(Default)]
pub struct TypeTable {
    numbers: HashMap<u64, u16>,
}

impl TypeTable {
    fn number(&mut self, hash: u64) -> u16 {
        let next = self.numbers.len();
        match self.numbers.get(&hash) {
            Some(&number) => number,
            None if next < usize::from(NO_TYPE) => {
                self.numbers.insert(hash, next as u16);
                next as u16
            }
            None => NO_TYPE,
        }
    }

    /// Per number of `other`, the number of the same type here (`NO_TYPE` if it has none).
    fn renumbering(&self, other: &TypeTable) -> Vec<u16> {
        let mut renumbered = vec![NO_TYPE; other.numbers.len()];
        for (hash, &number) in &other.numbers {
            if let Some(&shared) = self.numbers.get(hash) {
                renumbered[usize::from(number)] = shared;
            }
        }
        renumbered
    }
}

/// Renumbers the candidate's records in the base's type numbers, so that equal numbers are
/// equal types across the sides; a type only the candidate has becomes `NO_TYPE`.
pub(crate) fn share_types(base: &Side, candidate: &mut Side) {
    let renumbered = base.types.renumbering(&candidate.types);
    for record in &mut candidate.records {
        record.event_type = renumbered
            .get(usize::from(record.event_type))
            .copied()
            .unwrap_or(NO_TYPE);
    }
    candidate.types = TypeTable {
        numbers: base.types.numbers.clone(),
    };
}

/// One side, read.
pub struct Side {
    pub path: PathBuf,
    pub shape: SideShape,
    /// The files packets came from, in walk order (records name them by index).
    pub files: Vec<Arc<Path>>,
    pub records: Vec<Record>,
    /// The numbers `Record::event_type` refers to.
    pub types: TypeTable,
    /// Inputs that yielded no packet, named (file, line, reason); the rest is compared.
    pub errors: Vec<LoadError>,
    pub run: RunSummary,
    pub max_file_bytes: u64,
}

impl Side {
    pub fn source(&self, record: &Record) -> Source {
        let path = self.files[record.file as usize].clone();
        match record.line {
            WHOLE_FILE => Source { path, line: None },
            line => Source::line(path, line as usize),
        }
    }

    /// A file's path below the side's root (for a directory), else its file name.
    pub fn relative(&self, file: u32) -> &Path {
        let path = &self.files[file as usize];
        path.strip_prefix(&self.path).unwrap_or(path)
    }
}

/// Reads a side. `Err` when the path itself cannot be read (missing, not a file or directory
/// we read); a bad packet inside is an entry of `errors` and the rest is read.
pub fn read_side(path: &Path, options: &super::options::CompareOptions) -> Result<Side, LoadError> {
    let pipeline = options.pipeline;
    let fail = |reason: String| LoadError {
        source: Source::file(path),
        reason,
    };
    let metadata =
        std::fs::metadata(path).map_err(|error| fail(crate::input::describe_io(&error)))?;
    let shape = if metadata.is_dir() {
        SideShape::Directory
    } else if crate::bundle::is_bundle_path(path) {
        SideShape::Bundle
    } else if matches!(
        crate::corpus::FileFormat::of(path),
        Some(crate::corpus::FileFormat::Ndjson)
    ) {
        SideShape::Stream
    } else {
        SideShape::File
    };
    let items = walk(&[path.to_path_buf()], &options.walk);
    let mut side = Side {
        path: path.to_path_buf(),
        shape,
        files: Vec::new(),
        records: Vec::new(),
        types: TypeTable::default(),
        errors: Vec::new(),
        run: RunSummary::default(),
        max_file_bytes: pipeline.max_file_bytes,
    };
    // The file of the previous packet read, for the progress counts.
    let mut last_file = None;
    stream_packets(
        &items,
        pipeline,
        &|_| false,
        |item| item.map(|packet| read_one(packet, options)),
        |read| {
            if let Some(counts) = &options.counts {
                match &read {
                    Err(error) => counts.took(&error.source, &mut last_file),
                    Ok(Read::Packet(packet)) => counts.took(&packet.source, &mut last_file),
                    // The bundle's own packet; its events that follow count its file.
                    Ok(Read::Bundle(_)) => counts.add(1, 0),
                }
            }
            match read {
                Err(error) => side.errors.push(error),
                Ok(Read::Bundle(facts)) => side.run.bundle = Some(facts),
                Ok(Read::Packet(packet)) => side.push(packet),
            }
        },
    )
    .map_err(fail)?;
    // A single file that yielded nothing at all: the side cannot be read.
    if shape != SideShape::Directory && side.records.is_empty() && side.run.bundle.is_none() {
        if let Some(error) = side.errors.first() {
            return Err(error.clone());
        }
    }
    Ok(side)
}

enum Read {
    Bundle(BundleFacts),
    Packet(ReadPacket),
}

struct ReadPacket {
    source: Source,
    offset: u64,
    scanned: super::record::Scanned,
}

fn read_one(packet: RawPacket, options: &super::options::CompareOptions) -> Read {
    if let Some(report) = &packet.bundle {
        let facts = report.verdict.as_ref().ok();
        return Read::Bundle(BundleFacts {
            verdict: report.verdict_key(),
            run_id: facts.map(|facts| facts.run_id.clone()),
            run_root: facts.map(|facts| facts.run_root.clone()),
            attestation: AttestationFacts::of_bundle(&packet.source.path, &options.trusted_keys),
        });
    }
    Read::Packet(ReadPacket {
        scanned: scan(&packet, options.mode, &options.evaluate),
        source: packet.source,
        offset: packet.offset,
    })
}

impl Side {
    fn push(&mut self, packet: ReadPacket) {
        let ReadPacket {
            source,
            offset,
            scanned,
        } = packet;
        // A golden manifest records a run's expectations; it is not a packet of the run.
        if scanned.kind == PacketKind::GoldenManifest {
            return;
        }
        let file = match self.files.last() {
            Some(last) if Arc::ptr_eq(last, &source.path) || **last == *source.path => {
                self.files.len() - 1
            }
            _ => {
                self.files.push(source.path.clone());
                self.files.len() - 1
            }
        };
        self.run.note(scanned.facts.run_id, scanned.facts.time);
        self.records.push(Record {
            file: file as u32,
            line: source
                .line
                .map_or(WHOLE_FILE, |line| line.min(WHOLE_FILE as usize - 1) as u32),
            offset,
            kind: scanned.kind,
            state: scanned.state,
            full: scanned.full,
            identity: scanned.identity,
            loose: scanned.loose,
            event_type: self.types.number(scanned.event_type),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_range_is_over_instants_and_the_rest_is_counted() {
        let mut run = RunSummary::default();
        let instant = |text: &str| {
            Some(Time::Instant(
                DateTime::parse_from_rfc3339(text).unwrap().to_utc(),
            ))
        };
        // As text, "...+02:00" sorts after "...Z" of a later instant.
        run.note(None, instant("2026-02-27T11:00:00+02:00"));
        run.note(None, instant("2026-02-27T10:05:00Z"));
        run.note(None, Some(Time::NotRfc3339));
        run.note(None, instant("2026-02-27T09:30:00.5Z"));
        run.note(None, None);
        assert_eq!(
            run.time_range(),
            Some((
                "2026-02-27T09:00:00Z".to_owned(),
                "2026-02-27T10:05:00Z".to_owned()
            ))
        );
        assert_eq!(run.times_not_rfc3339, 1);
        assert_eq!(RunSummary::default().time_range(), None);
    }

    #[test]
    fn the_candidate_is_renumbered_in_the_base_types_and_a_full_table_numbers_no_more() {
        let (mut base, mut candidate) = (TypeTable::default(), TypeTable::default());
        assert_eq!([base.number(7), base.number(8), base.number(7)], [0, 1, 0]);
        assert_eq!([candidate.number(9), candidate.number(8)], [0, 1]);
        assert_eq!(base.renumbering(&candidate), vec![NO_TYPE, 1]);
        let mut full = TypeTable::default();
        for hash in 0..u64::from(NO_TYPE) {
            full.number(hash);
        }
        assert_eq!(full.number(1), 1);
        assert_eq!(full.number(u64::MAX), NO_TYPE);
    }
}
