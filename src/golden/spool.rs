//! The entries a `bless` run records, put in manifest order (directory, then packet key)
//! without holding them all: they arrive in walk order, are sorted in chunks of at most
//! `CHUNK` entries, each chunk beyond the first written to an anonymous temporary file as a
//! sorted run, and the runs merged when read back. Memory: one chunk, plus one entry and a
//! read buffer per run (a 1M-line stream makes 62 runs).

use super::manifest::{entry_json, parse_entry_json, GoldenEntry, PacketKey};
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Entries sorted in memory before a run is written: a few MiB of entries.
const CHUNK: usize = 16 * 1024;

struct Record {
    /// Index into the spool's directories.
    dir: u32,
    key: PacketKey,
    entry: GoldenEntry,
}

/// Collects recorded entries in any order; `finish` gives them back sorted.
#[derive(Default)]
pub struct EntrySpool {
    dirs: Vec<PathBuf>,
    dir_index: HashMap<PathBuf, u32>,
    chunk: Vec<Record>,
    /// The runs written so far, as byte ranges of `file`.
    runs: Vec<(u64, u64)>,
    file: Option<BufWriter<std::fs::File>>,
    written: u64,
}

fn invalid(reason: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, reason.into())
}

impl EntrySpool {
    pub fn new() -> EntrySpool {
        EntrySpool::default()
    }

    /// Adds the entry of `key` in `dir`'s manifest. The same key given twice keeps the later
    /// entry, as a map insert would.
    pub fn push(&mut self, dir: PathBuf, key: PacketKey, entry: GoldenEntry) -> io::Result<()> {
        let next = u32::try_from(self.dirs.len())
            .map_err(|_| invalid("more than 4 billion manifest directories"))?;
        let dir = match self.dir_index.get(&dir) {
            Some(&index) => index,
            None => {
                self.dirs.push(dir.clone());
                self.dir_index.insert(dir, next);
                next
            }
        };
        self.chunk.push(Record { dir, key, entry });
        if self.chunk.len() >= CHUNK {
            self.spill()?;
        }
        Ok(())
    }

    /// Manifest order: directories as `Path` orders them, then keys. A stable sort, so equal
    /// keys keep their arrival order.
    fn sort_chunk(&mut self) {
        let dirs = &self.dirs;
        self.chunk.sort_by(|a, b| {
            let by_dir = if a.dir == b.dir {
                Ordering::Equal
            } else {
                dirs[a.dir as usize].cmp(&dirs[b.dir as usize])
            };
            by_dir.then_with(|| a.key.cmp(&b.key))
        });
    }

    fn spill(&mut self) -> io::Result<()> {
        self.sort_chunk();
        if self.file.is_none() {
            self.file = Some(BufWriter::with_capacity(1 << 16, tempfile::tempfile()?));
        }
        let Some(out) = self.file.as_mut() else {
            return Err(invalid("spool file missing"));
        };
        let start = self.written;
        for record in self.chunk.drain(..) {
            // `["FILE", LINE or null, {ENTRY}]`: the entry in the manifest's own terms.
            let file = serde_json::to_string(&record.key.file)
                .map_err(|error| invalid(error.to_string()))?;
            let line = record
                .key
                .line
                .map_or("null".to_owned(), |line| line.to_string());
            let body = format!("[{file},{line},{}]", entry_json(&record.entry));
            let length =
                u32::try_from(body.len()).map_err(|_| invalid("spooled entry over 4 GiB"))?;
            out.write_all(&record.dir.to_le_bytes())?;
            out.write_all(&length.to_le_bytes())?;
            out.write_all(body.as_bytes())?;
            self.written += 8 + u64::from(length);
        }
        self.runs.push((start, self.written));
        Ok(())
    }

    /// Everything pushed, ready to be read back in manifest order.
    pub fn finish(mut self) -> io::Result<SortedEntries> {
        // Everything in one chunk stays in memory; otherwise the last chunk is a run too.
        if self.file.is_some() {
            self.spill()?;
        } else {
            self.sort_chunk();
        }
        let file = match self.file.take() {
            Some(out) => Some(out.into_inner().map_err(|error| error.into_error())?),
            None => None,
        };
        // Directory ranks in `Path` order, so a run merge compares two integers, not paths.
        let mut order: Vec<u32> = (0..self.dirs.len() as u32).collect();
        order.sort_by(|&a, &b| self.dirs[a as usize].cmp(&self.dirs[b as usize]));
        let mut rank = vec![0u32; self.dirs.len()];
        for (position, &dir) in order.iter().enumerate() {
            rank[dir as usize] = position as u32;
        }
        Ok(SortedEntries {
            dir_index: self.dir_index,
            rank,
            memory: self.chunk,
            file,
            runs: self.runs,
        })
    }
}

/// The recorded entries in manifest order; `cursor` reads them, as often as asked.
pub struct SortedEntries {
    dir_index: HashMap<PathBuf, u32>,
    rank: Vec<u32>,
    /// Everything, sorted, when it fit in one chunk.
    memory: Vec<Record>,
    file: Option<std::fs::File>,
    runs: Vec<(u64, u64)>,
}

/// A byte range of the spool file, read through a shared handle: every read seeks first,
/// so the runs' readers do not disturb one another (a cloned handle would share the offset).
struct Segment<'a> {
    file: &'a std::fs::File,
    position: u64,
    end: u64,
}

impl Read for Segment<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.end.saturating_sub(self.position);
        if left == 0 {
            return Ok(0);
        }
        let mut file = self.file;
        file.seek(SeekFrom::Start(self.position))?;
        let wanted = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let read = file.read(&mut buf[..wanted])?;
        self.position += read as u64;
        Ok(read)
    }
}

/// One run of the spool file being read back.
struct RunReader<'a> {
    input: BufReader<Segment<'a>>,
}

impl RunReader<'_> {
    fn next(&mut self) -> io::Result<Option<Record>> {
        if self.input.fill_buf()?.is_empty() {
            return Ok(None);
        }
        let mut head = [0u8; 8];
        self.input.read_exact(&mut head)?;
        let dir = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let length = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let mut body = vec![0u8; length as usize];
        self.input.read_exact(&mut body)?;
        let (file, line, entry): (String, Option<usize>, serde_json::Value) =
            serde_json::from_slice(&body).map_err(|error| invalid(error.to_string()))?;
        let entry = parse_entry_json(&entry).map_err(|error| invalid(error.reason))?;
        Ok(Some(Record {
            dir,
            key: PacketKey { file, line },
            entry,
        }))
    }
}

enum Source<'a> {
    Memory(std::slice::Iter<'a, Record>),
    Runs {
        readers: Vec<RunReader<'a>>,
        /// The next record of each run, by (directory rank, key, run), smallest first.
        heap: BinaryHeap<Reverse<(u32, PacketKey, usize)>>,
        heads: Vec<Option<Record>>,
    },
}

/// Reads the entries in manifest order, one directory at a time.
pub struct EntryCursor<'a> {
    sorted: &'a SortedEntries,
    source: Source<'a>,
    peeked: Option<Record>,
}

impl SortedEntries {
    /// Whether any entry belongs to `dir`.
    pub fn has_entries(&self, dir: &Path) -> bool {
        self.dir_index.contains_key(dir)
    }

    /// A reader from the first entry.
    pub fn cursor(&self) -> io::Result<EntryCursor<'_>> {
        let source = match &self.file {
            None => Source::Memory(self.memory.iter()),
            Some(file) => {
                let readers = self
                    .runs
                    .iter()
                    .map(|&(start, end)| RunReader {
                        input: BufReader::with_capacity(
                            1 << 14,
                            Segment {
                                file,
                                position: start,
                                end,
                            },
                        ),
                    })
                    .collect();
                Source::Runs {
                    readers,
                    heap: BinaryHeap::new(),
                    heads: Vec::new(),
                }
            }
        };
        let mut cursor = EntryCursor {
            sorted: self,
            source,
            peeked: None,
        };
        cursor.prime()?;
        Ok(cursor)
    }
}

impl<'a> EntryCursor<'a> {
    fn prime(&mut self) -> io::Result<()> {
        if let Source::Runs {
            readers,
            heap,
            heads,
        } = &mut self.source
        {
            for (run, reader) in readers.iter_mut().enumerate() {
                let head = reader.next()?;
                if let Some(record) = &head {
                    heap.push(Reverse((
                        self.sorted.rank[record.dir as usize],
                        record.key.clone(),
                        run,
                    )));
                }
                heads.push(head);
            }
        }
        self.peeked = self.pull()?;
        Ok(())
    }

    /// The next record in sorted order, duplicates included.
    fn pull_raw(&mut self) -> io::Result<Option<Record>> {
        match &mut self.source {
            Source::Memory(records) => Ok(records.next().map(|record| Record {
                dir: record.dir,
                key: record.key.clone(),
                entry: record.entry.clone(),
            })),
            Source::Runs {
                readers,
                heap,
                heads,
            } => {
                let Some(Reverse((_, _, run))) = heap.pop() else {
                    return Ok(None);
                };
                let record = heads[run].take();
                let next = readers[run].next()?;
                if let Some(next) = &next {
                    heap.push(Reverse((
                        self.sorted.rank[next.dir as usize],
                        next.key.clone(),
                        run,
                    )));
                }
                heads[run] = next;
                Ok(record)
            }
        }
    }

    /// The directory rank and key of the record `pull_raw` gives next.
    fn next_position(&self) -> Option<(u32, &PacketKey)> {
        match &self.source {
            Source::Memory(records) => records
                .as_slice()
                .first()
                .map(|next| (self.sorted.rank[next.dir as usize], &next.key)),
            Source::Runs { heap, .. } => heap.peek().map(|Reverse((rank, key, _))| (*rank, key)),
        }
    }

    /// The next record, the last of several with the same directory and key.
    fn pull(&mut self) -> io::Result<Option<Record>> {
        let Some(mut record) = self.pull_raw()? else {
            return Ok(None);
        };
        loop {
            let rank = self.sorted.rank[record.dir as usize];
            let same = self
                .next_position()
                .is_some_and(|(next_rank, key)| next_rank == rank && *key == record.key);
            if !same {
                return Ok(Some(record));
            }
            match self.pull_raw()? {
                Some(later) => record = later,
                None => return Ok(Some(record)),
            }
        }
    }

    /// The entries of `dir` in key order, skipping those of directories ordered before it.
    /// Directories must be asked for in `Path` order.
    pub fn entries_of(&mut self, dir: &Path) -> DirEntries<'_, 'a> {
        let rank = self
            .sorted
            .dir_index
            .get(dir)
            .map(|&index| self.sorted.rank[index as usize]);
        DirEntries { cursor: self, rank }
    }

    fn peeked_rank(&self) -> Option<u32> {
        self.peeked
            .as_ref()
            .map(|record| self.sorted.rank[record.dir as usize])
    }
}

/// The entries of one directory (see `EntryCursor::entries_of`).
pub struct DirEntries<'c, 'a> {
    cursor: &'c mut EntryCursor<'a>,
    rank: Option<u32>,
}

impl Iterator for DirEntries<'_, '_> {
    type Item = io::Result<(PacketKey, GoldenEntry)>;

    fn next(&mut self) -> Option<Self::Item> {
        let rank = self.rank?;
        loop {
            let current = self.cursor.peeked_rank()?;
            match current.cmp(&rank) {
                Ordering::Greater => return None,
                Ordering::Less | Ordering::Equal => {
                    let record = self.cursor.peeked.take()?;
                    match self.cursor.pull() {
                        Ok(next) => self.cursor.peeked = next,
                        Err(error) => return Some(Err(error)),
                    }
                    if current == rank {
                        return Some(Ok((record.key, record.entry)));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(sorted: &SortedEntries, dirs: &[&str]) -> Vec<(String, String, String)> {
        let mut cursor = sorted.cursor().unwrap();
        let mut out = Vec::new();
        for dir in dirs {
            for item in cursor.entries_of(Path::new(dir)) {
                let (key, entry) = item.unwrap();
                let rule = entry.modes[0].as_ref().unwrap().rule.clone().unwrap();
                out.push((dir.to_string(), key.to_string(), rule));
            }
        }
        out
    }

    /// Entries pushed in a scrambled order over two directories, `count` of them.
    fn scrambled(count: usize) -> (EntrySpool, Vec<(String, String, String)>) {
        let mut spool = EntrySpool::new();
        let mut expected = Vec::new();
        for index in 0..count {
            // A permutation of 0..count (7919 is prime, so coprime with the counts used).
            let line = (index * 7919) % count + 1;
            let dir = if line.is_multiple_of(3) { "b" } else { "a/x" };
            spool
                .push(
                    PathBuf::from(dir),
                    PacketKey {
                        file: "s.ndjson".to_owned(),
                        line: Some(line),
                    },
                    GoldenEntry::sample_rejected(&format!("R{line}")),
                )
                .unwrap();
            expected.push((
                dir.to_owned(),
                format!("s.ndjson:{line}"),
                format!("R{line}"),
            ));
        }
        // Path order ("a/x" before "b"), then line numbers as numbers.
        expected.sort_by_key(|(dir, key, _)| {
            (
                dir.clone(),
                key.rsplit(':').next().unwrap().parse::<usize>().unwrap(),
            )
        });
        (spool, expected)
    }

    #[test]
    fn entries_come_back_in_manifest_order_from_memory_and_from_runs() {
        for count in [10, CHUNK * 3 + 17] {
            let (spool, expected) = scrambled(count);
            let sorted = spool.finish().unwrap();
            assert_eq!(sorted.file.is_some(), count > CHUNK, "{count}");
            assert_eq!(read_all(&sorted, &["a/x", "b"]), expected, "{count}");
            // Read twice: the refusal pass and the writing pass each read everything.
            assert_eq!(read_all(&sorted, &["a/x", "b"]).len(), count);
            // A directory without entries, and one asked for after its turn, give nothing.
            assert_eq!(read_all(&sorted, &["0", "b", "a/x"]).len(), count / 3);
        }
    }

    #[test]
    fn a_key_pushed_twice_keeps_the_later_entry_across_runs() {
        let mut spool = EntrySpool::new();
        let key = PacketKey::file("p.json");
        spool
            .push(
                PathBuf::from("d"),
                key.clone(),
                GoldenEntry::sample_rejected("FIRST"),
            )
            .unwrap();
        for index in 0..CHUNK {
            spool
                .push(
                    PathBuf::from("d"),
                    PacketKey::file(format!("q{index}.json")),
                    GoldenEntry::sample_rejected("Q"),
                )
                .unwrap();
        }
        spool
            .push(
                PathBuf::from("d"),
                key,
                GoldenEntry::sample_rejected("LATER"),
            )
            .unwrap();
        let sorted = spool.finish().unwrap();
        let all = read_all(&sorted, &["d"]);
        assert_eq!(all.len(), CHUNK + 1);
        let kept: Vec<_> = all.iter().filter(|(_, key, _)| key == "p.json").collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].2, "LATER");
    }
}
