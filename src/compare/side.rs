//! Reading one side of a comparison (a directory, a bundle, an NDJSON stream or one file)
//! through the corpus pipeline `check` uses, into a record per packet and the run's facts.

use super::document::Time;
use super::record::{scan, Record, NO_TYPE, WHOLE_FILE};
use crate::corpus::{
    stream_packets, stream_packets_while, walk, LoadError, PacketKind, RawPacket, Source,
};
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
    /// Every packet's record; or, for a side read by its full keys (`compare::compare_changes`),
    /// the records of the packets in a gap alone, in sequence order.
    pub records: Vec<Record>,
    /// The packets read.
    pub packets: usize,
    /// Each packet's full key, while a side read by its full keys is paired.
    full_keys: Vec<u64>,
    /// The items the reading handed on that gave no packet (an error, a bundle's own packet, a
    /// golden manifest), by their number in its order: what reading the side again skips.
    not_packets: Vec<u64>,
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

/// What reading a side keeps of each packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeping {
    /// Its record: what the Compare view and pairing by path need.
    Records,
    /// Its full key alone (8 bytes, not 40): a sequence is aligned over those first, and only
    /// the packets left in a gap are read again for their records ([`Side::read_gaps`]).
    FullKeys,
}

/// What a side is, from its path's metadata.
pub fn shape_of(path: &Path) -> Result<SideShape, LoadError> {
    let metadata = std::fs::metadata(path).map_err(|error| LoadError {
        source: Source::file(path),
        reason: crate::input::describe_io(&error),
    })?;
    Ok(if metadata.is_dir() {
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
    })
}

/// Reads a side, keeping every packet's record. `Err` when the path itself cannot be read
/// (missing, not a file or directory we read); a bad packet inside is an entry of `errors`
/// and the rest is read.
pub fn read_side(path: &Path, options: &super::options::CompareOptions) -> Result<Side, LoadError> {
    read_side_keeping(path, options, Keeping::Records)
}

/// [`read_side`], keeping of each packet what `keeping` says.
pub fn read_side_keeping(
    path: &Path,
    options: &super::options::CompareOptions,
    keeping: Keeping,
) -> Result<Side, LoadError> {
    let pipeline = options.pipeline;
    let shape = shape_of(path)?;
    let items = walk(&[path.to_path_buf()], &options.walk);
    let mut side = Side {
        path: path.to_path_buf(),
        shape,
        files: Vec::new(),
        records: Vec::new(),
        packets: 0,
        full_keys: Vec::new(),
        not_packets: Vec::new(),
        types: TypeTable::default(),
        errors: Vec::new(),
        run: RunSummary::default(),
        max_file_bytes: pipeline.max_file_bytes,
    };
    // The file of the previous packet read, for the progress counts.
    let mut last_file = None;
    let mut item = 0u64;
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
            let packet = match read {
                Err(error) => {
                    side.errors.push(error);
                    false
                }
                Ok(Read::Bundle(facts)) => {
                    side.run.bundle = Some(facts);
                    false
                }
                Ok(Read::Packet(packet)) => side.push(packet, keeping),
            };
            if !packet {
                side.not_packets.push(item);
            }
            item += 1;
        },
    )
    .map_err(|reason| LoadError {
        source: Source::file(path),
        reason,
    })?;
    // A single file that yielded nothing at all: the side cannot be read.
    if shape != SideShape::Directory && side.packets == 0 && side.run.bundle.is_none() {
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
    /// Takes one packet read; `false` when it is not a packet of the run.
    fn push(&mut self, mut packet: ReadPacket, keeping: Keeping) -> bool {
        // A golden manifest records a run's expectations; it is not a packet of the run.
        if packet.scanned.kind == PacketKind::GoldenManifest {
            return false;
        }
        self.packets += 1;
        let facts = std::mem::take(&mut packet.scanned.facts);
        self.run.note(facts.run_id, facts.time);
        match keeping {
            Keeping::Records => self.keep(packet),
            Keeping::FullKeys => {
                // Numbered now, in order of first sight, as a side keeping records numbers them.
                self.types.number(packet.scanned.event_type);
                self.full_keys.push(packet.scanned.full);
            }
        }
        true
    }

    /// Keeps a packet's record.
    fn keep(&mut self, packet: ReadPacket) {
        let ReadPacket {
            source,
            offset,
            scanned,
        } = packet;
        let file = match self.files.last() {
            Some(last) if Arc::ptr_eq(last, &source.path) || **last == *source.path => {
                self.files.len() - 1
            }
            _ => {
                self.files.push(source.path.clone());
                self.files.len() - 1
            }
        };
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

/// How many packets of a gap are read again before they are evaluated, in parallel.
const GAP_BATCH: usize = 512;

impl Side {
    /// Each packet's full key, of a side read by them (empty otherwise).
    pub fn full_keys(&self) -> &[u64] {
        &self.full_keys
    }

    /// Reads a side read by its full keys again, keeping the record of each packet in `gaps`
    /// (ranges of indices in its sequence, ascending): the walk and the pipeline hand on the
    /// same items in the same order, the items that gave no packet are skipped by their
    /// number, and only the packets in a gap are evaluated again. A packet whose full key is
    /// not what it was (the side changed on disk since) fails the side.
    pub fn read_gaps(
        &mut self,
        gaps: &[std::ops::Range<usize>],
        options: &super::options::CompareOptions,
    ) -> Result<(), LoadError> {
        let wanted: usize = gaps.iter().map(|gap| gap.len()).sum();
        if wanted == 0 {
            return self.done_with_keys();
        }
        let changed = |path: &Path| LoadError {
            source: Source::file(path),
            reason: "it changed while it was compared: read again for the packets that differ, \
                     it no longer holds what it held"
                .to_owned(),
        };
        let items = walk(std::slice::from_ref(&self.path), &options.walk);
        let not_packets = std::mem::take(&mut self.not_packets);
        let mut not_packets = not_packets.iter().copied().peekable();
        let mut gaps = gaps.iter().peekable();
        let (mut item, mut index) = (0u64, 0usize);
        let mut batch: Vec<(usize, RawPacket)> = Vec::with_capacity(GAP_BATCH);
        let mut failed = false;
        let pool = gap_pool(options.pipeline.jobs, &self.path)?;
        stream_packets_while(
            &items,
            options.pipeline,
            &|_| false,
            |read| read,
            |read| {
                let this = item;
                item += 1;
                if not_packets.next_if_eq(&this).is_some() {
                    return true;
                }
                let at = index;
                index += 1;
                while gaps.next_if(|gap| gap.end <= at).is_some() {}
                let Some(gap) = gaps.peek() else {
                    // Past the last gap: nothing more is needed.
                    return false;
                };
                if gap.contains(&at) {
                    match read {
                        Ok(packet) => batch.push((at, packet)),
                        Err(_) => failed = true,
                    }
                }
                if batch.len() == GAP_BATCH {
                    failed |= !self.keep_batch(&mut batch, &pool, options);
                }
                !failed
            },
        )
        .map_err(|reason| LoadError {
            source: Source::file(&self.path),
            reason,
        })?;
        failed |= !self.keep_batch(&mut batch, &pool, options);
        if failed || self.records.len() != wanted {
            return Err(changed(&self.path));
        }
        self.done_with_keys()
    }

    /// Evaluates a batch of a gap's packets in parallel and keeps their records, in order;
    /// `false` when one is not the packet that was read first.
    fn keep_batch(
        &mut self,
        batch: &mut Vec<(usize, RawPacket)>,
        pool: &Option<rayon::ThreadPool>,
        options: &super::options::CompareOptions,
    ) -> bool {
        use rayon::prelude::*;
        let taken = std::mem::take(batch);
        let indices: Vec<usize> = taken.iter().map(|(at, _)| *at).collect();
        let read = move || -> Vec<ReadPacket> {
            taken
                .into_par_iter()
                .map(|(_, packet)| ReadPacket {
                    scanned: scan(&packet, options.mode, &options.evaluate),
                    source: packet.source,
                    offset: packet.offset,
                })
                .collect()
        };
        let read = match pool {
            Some(pool) => pool.install(read),
            None => read(),
        };
        for (at, packet) in indices.into_iter().zip(read) {
            if self.full_keys.get(at) != Some(&packet.scanned.full) {
                return false;
            }
            self.keep(packet);
        }
        true
    }

    /// The full keys given up once the side's gaps are read.
    fn done_with_keys(&mut self) -> Result<(), LoadError> {
        self.full_keys = Vec::new();
        Ok(())
    }
}

/// The threads a gap's packets are evaluated on: `--jobs`'s number, else rayon's own pool.
fn gap_pool(jobs: Option<usize>, path: &Path) -> Result<Option<rayon::ThreadPool>, LoadError> {
    jobs.map(|jobs| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|error| LoadError {
                source: Source::file(path),
                reason: format!("cannot start worker threads: {error}"),
            })
    })
    .transpose()
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
