//! A directory's manifest kept on disk: one pass checks it and notes where each packet's
//! entry lies (24 bytes a packet), and an entry is read back from the file when a packet asks
//! for it. `check` on a million lines with their 500 MB manifest held the whole manifest as
//! entries (1.25 GiB); the index is 24 MB. The file stays open, so a `bless` that replaces
//! `goldens.json` meanwhile (a rename) does not change what this index reads.
//!
//! Reads go through the input layer (a FIFO or device named goldens.json is refused, the cap
//! holds). A manifest the scan cannot index is read the old way (`read_manifest`), which
//! gives the error it always gave; if that read succeeds after all, its entries are held.

use super::index_scan::{member_value, member_value_text, parse_member, scan, Slot};
use super::manifest::{
    parse_entry, read_entry_typed, GoldenEntry, GoldenManifest, PacketKey, RecordedOptions,
};
use super::write::{read_manifest_file, ManifestFile, MAX_MANIFEST_BYTES};
use super::ManifestError;
use std::cell::RefCell;
use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// A directory's golden manifest, looked up entry by entry.
#[derive(Debug)]
pub struct ManifestIndex {
    pub options: RecordedOptions,
    entries: Entries,
}

#[derive(Debug)]
enum Entries {
    OnDisk {
        file: File,
        /// This index's number, naming its blocks in a thread's read cache.
        id: u64,
        /// Distinct file names, sorted; a slot's `name` is an index into it.
        names: Vec<String>,
        /// Sorted by key, one per key.
        slots: Vec<Slot>,
    },
    /// What the scan could not index but the strict parser read: the whole manifest held in
    /// memory, so every manifest the parser accepts can be looked up.
    Held(GoldenManifest),
}

impl ManifestIndex {
    /// Indexes `dir`'s manifest: `Ok(None)` when there is none; an unreadable or malformed
    /// one is an error with the same words `read_manifest` gives.
    pub fn open(dir: &Path) -> Result<Option<ManifestIndex>, ManifestError> {
        ManifestIndex::open_file(dir, ManifestFile::Goldens)
    }

    /// [`ManifestIndex::open`] of either file (the pending goldens beside the manifest).
    pub fn open_file(
        dir: &Path,
        which: ManifestFile,
    ) -> Result<Option<ManifestIndex>, ManifestError> {
        let path = which.path(dir);
        let file = match crate::input::open_regular(&path) {
            Ok(file) => file,
            Err(error) if error.is_not_found() => return Ok(None),
            Err(error) => {
                return Err(ManifestError {
                    reason: format!("cannot read: {}", error.kind),
                })
            }
        };
        match scan(&file, MAX_MANIFEST_BYTES) {
            Ok(scanned) => {
                let (names, slots) = sorted(scanned.names, scanned.slots);
                let index = ManifestIndex {
                    options: scanned.options,
                    entries: Entries::OnDisk {
                        file,
                        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                        names,
                        slots,
                    },
                };
                // Two entries of one key (the same name twice, or `s.ndjson:1` beside
                // `s.ndjson:01`): the strict parser decides, as it always did.
                if index.has_repeated_key() {
                    return Ok(read_manifest_file(dir, which)?.map(ManifestIndex::held));
                }
                Ok(Some(index))
            }
            Err(_) => Ok(read_manifest_file(dir, which)?.map(ManifestIndex::held)),
        }
    }

    /// A manifest already in memory (tests, or what the scan could not index).
    pub fn held(manifest: GoldenManifest) -> ManifestIndex {
        ManifestIndex {
            options: manifest.options.clone(),
            entries: Entries::Held(manifest),
        }
    }

    /// How many packets the manifest records.
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::OnDisk { slots, .. } => slots.len(),
            Entries::Held(manifest) => manifest.packets.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn has_repeated_key(&self) -> bool {
        match &self.entries {
            Entries::OnDisk { slots, .. } => slots
                .windows(2)
                .any(|pair| pair[0].order() == pair[1].order()),
            Entries::Held(_) => false,
        }
    }

    /// The entry recorded for `key`, read from the file. An error means the file changed
    /// under the index (it was edited in place) or could no longer be read.
    pub fn entry(&self, key: &PacketKey) -> Result<Option<GoldenEntry>, ManifestError> {
        match &self.entries {
            Entries::Held(manifest) => Ok(manifest.entry(key).cloned()),
            Entries::OnDisk {
                file,
                id,
                names,
                slots,
            } => {
                let Ok(name) = names.binary_search(&key.file) else {
                    return Ok(None);
                };
                let wanted = Slot::new(name as u32, key.line, 0, 0).order();
                match slots.binary_search_by(|slot| slot.order().cmp(&wanted)) {
                    Ok(found) => read_entry(file, *id, &slots[found]).map(Some),
                    Err(_) => Ok(None),
                }
            }
        }
    }

    /// Every entry in key order (the manifest's order), read one at a time.
    pub fn entries(
        &self,
    ) -> Box<dyn Iterator<Item = io::Result<(PacketKey, GoldenEntry)>> + Send + '_> {
        match &self.entries {
            Entries::Held(manifest) => Box::new(
                manifest
                    .packets
                    .iter()
                    .map(|(key, entry)| Ok((key.clone(), entry.clone()))),
            ),
            Entries::OnDisk {
                file,
                id,
                names,
                slots,
            } => Box::new(slots.iter().map(|slot| {
                let entry = read_entry(file, *id, slot)
                    .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error.reason))?;
                let key = PacketKey {
                    file: names[slot.name as usize].clone(),
                    line: slot.line(),
                };
                Ok((key, entry))
            })),
        }
    }
}

/// Names sorted, slots renumbered to their names' ranks and sorted by key (stable: of two
/// slots of one key the later stays later).
fn sorted(names: Vec<String>, mut slots: Vec<Slot>) -> (Vec<String>, Vec<Slot>) {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let mut rank = vec![0u32; names.len()];
    for (position, &name) in order.iter().enumerate() {
        rank[name as usize] = position as u32;
    }
    for slot in &mut slots {
        slot.name = rank[slot.name as usize];
    }
    // Bless writes entries in key order: then this sort finds them sorted.
    slots.sort_by_key(Slot::order);
    let mut names: Vec<Option<String>> = names.into_iter().map(Some).collect();
    let names = order
        .iter()
        .map(|&name| names[name as usize].take().unwrap_or_default())
        .collect();
    (names, slots)
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// Bytes read at once around an entry: packets are checked in file order, and their entries
/// lie one after the other, so one read serves the next few hundred lookups of a thread.
const READ_BLOCK: usize = 1 << 16;

thread_local! {
    /// The block this thread read last: (index id, file offset, bytes).
    static LAST_BLOCK: RefCell<(u64, u64, Vec<u8>)> = const { RefCell::new((u64::MAX, 0, Vec::new())) };
}

/// Hands `visit` the bytes of `slot`, from this thread's last block when it holds them.
fn with_slot_text<T>(
    file: &File,
    id: u64,
    slot: &Slot,
    visit: impl FnOnce(&[u8]) -> T,
) -> io::Result<T> {
    LAST_BLOCK.with_borrow_mut(|(block_id, start, bytes)| {
        let (offset, length) = (slot.offset(), slot.length as usize);
        let held = *block_id == id
            && offset >= *start
            && offset + length as u64 <= *start + bytes.len() as u64;
        if !held {
            bytes.resize(length.max(READ_BLOCK), 0);
            let read = read_at_most(file, bytes, offset)?;
            if read < length {
                *block_id = u64::MAX;
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            bytes.truncate(read);
            (*block_id, *start) = (id, offset);
        }
        let from = (offset - *start) as usize;
        Ok(visit(&bytes[from..from + length]))
    })
}

fn read_entry(file: &File, id: u64, slot: &Slot) -> Result<GoldenEntry, ManifestError> {
    let changed = |reason: String| ManifestError {
        reason: format!("the manifest changed while it was in use: {reason}"),
    };
    // The manifest was checked when it was indexed: the entry is read straight into its
    // fields. Only where that fails (the file was edited since) is it read as a tree, for
    // `parse_entry`'s words.
    let typed = with_slot_text(file, id, slot, |text| {
        member_value_text(text).ok().and_then(read_entry_typed)
    })
    .map_err(|error| changed(error.to_string()))?;
    if let Some(entry) = typed {
        return Ok(entry);
    }
    let text = with_slot_text(file, id, slot, <[u8]>::to_vec)
        .map_err(|error| changed(error.to_string()))?;
    let tree = member_value(&text).map_err(changed)?;
    // The place is spelled out only when there is something to say (it costs a quoting of
    // the key, per packet, for nothing otherwise).
    parse_entry(&tree, "$").map_err(|_| {
        let name = parse_member(&text).map_or_else(|reason| reason, |(name, _)| name);
        let at = format!("$.packets[{}]", super::manifest::quoted(&name));
        changed(
            parse_entry(&tree, &at)
                .err()
                .map_or_else(String::new, |e| e.reason),
        )
    })
}
/// Reads into `buf` from `offset` until it is full or the file ends; how much was read.
fn read_at_most(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        let read = match read_at(file, &mut buf[filled..], offset + filled as u64) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if read == 0 {
            break;
        }
        filled += read;
    }
    Ok(filled)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::ConvertOptions;
    use crate::golden::{manifest_path, render_manifest, write_manifest};

    fn manifest(keys: &[&str]) -> GoldenManifest {
        let mut manifest = GoldenManifest::new(&ConvertOptions::default());
        for key in keys {
            manifest.packets.insert(
                PacketKey::parse(key),
                GoldenEntry::sample_rejected(&format!("R-{key}")),
            );
        }
        manifest
    }

    fn on_disk(index: &ManifestIndex) -> bool {
        matches!(index.entries, Entries::OnDisk { .. })
    }

    #[test]
    fn every_entry_is_found_on_disk_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let keys = [
            "b.json",
            "a.ndjson:10",
            "a.ndjson:2",
            "a.ndjson",
            "z \"q\".json",
        ];
        let written = manifest(&keys);
        write_manifest(dir.path(), &written).unwrap();
        let index = ManifestIndex::open(dir.path()).unwrap().unwrap();
        assert!(on_disk(&index));
        assert_eq!(index.options, written.options);
        assert_eq!(index.len(), keys.len());
        for key in keys {
            let key = PacketKey::parse(key);
            assert_eq!(index.entry(&key).unwrap().as_ref(), written.entry(&key));
        }
        for absent in ["c.json", "a.ndjson:3", "b.json:1", "a.json"] {
            assert_eq!(index.entry(&PacketKey::parse(absent)).unwrap(), None);
        }
        let all: Vec<_> = index.entries().map(Result::unwrap).collect();
        let expected: Vec<_> = written
            .packets
            .iter()
            .map(|(key, entry)| (key.clone(), entry.clone()))
            .collect();
        assert_eq!(all, expected);
    }

    #[test]
    fn any_json_layout_is_indexed_and_entries_out_of_order_are_sorted() {
        let dir = tempfile::tempdir().unwrap();
        let text = r#"  {"packets" : { "b.json":{"strict":{"error":"measurement","rule":"x}\"]"}} ,
            "a.json" :{"lenient":{}}},"options":{"adapter_version":"3.4.0"},
            "format":"handoff-inspector goldens v1"}  "#;
        std::fs::write(manifest_path(dir.path()), text).unwrap();
        let index = ManifestIndex::open(dir.path()).unwrap().unwrap();
        assert!(on_disk(&index));
        let parsed = crate::golden::parse_manifest(text.as_bytes()).unwrap();
        let all: Vec<_> = index.entries().map(Result::unwrap).collect();
        let expected: Vec<_> = parsed
            .packets
            .iter()
            .map(|(key, entry)| (key.clone(), entry.clone()))
            .collect();
        assert_eq!(all, expected);
        assert_eq!(
            index.entry(&PacketKey::file("b.json")).unwrap(),
            parsed.entry(&PacketKey::file("b.json")).cloned()
        );
    }

    #[test]
    fn what_cannot_be_indexed_gives_the_strict_parsers_answer() {
        let dir = tempfile::tempdir().unwrap();
        let good = render_manifest(&manifest(&["a.json", "b.json"]));
        let broken = [
            good.replace("\"b.json\"", "\"a.json\""),
            good.replace("\"rule\"", "\"rul\""),
            good.replace("goldens v2", "goldens v3"),
            good.replace("\"format\"", "\"formats\""),
            good.replace("\"rule\": \"R-a.json\"", "\"rule\": \"R\", \"rule\": \"R\""),
            good[..good.len() - 3].to_owned(),
            format!("{good}x"),
            "{}".to_owned(),
            "[]".to_owned(),
            String::new(),
        ];
        for text in broken {
            std::fs::write(manifest_path(dir.path()), &text).unwrap();
            let expected = crate::golden::parse_manifest(text.as_bytes()).unwrap_err();
            assert_eq!(
                ManifestIndex::open(dir.path()).unwrap_err(),
                expected,
                "{text}"
            );
        }
        // Two spellings of one key: kept as the strict parser keeps them (the later).
        let text = good
            .replace("\"b.json\"", "\"a.ndjson:1\"")
            .replace("\"a.json\"", "\"a.ndjson:01\"");
        std::fs::write(manifest_path(dir.path()), &text).unwrap();
        let index = ManifestIndex::open(dir.path()).unwrap().unwrap();
        assert!(!on_disk(&index));
        assert_eq!(index.len(), 1);
        let empty = tempfile::tempdir().unwrap();
        assert!(ManifestIndex::open(empty.path()).unwrap().is_none());
    }

    #[test]
    fn an_entry_edited_in_place_is_an_error_not_another_entry() {
        let dir = tempfile::tempdir().unwrap();
        write_manifest(dir.path(), &manifest(&["a.json"])).unwrap();
        let index = ManifestIndex::open(dir.path()).unwrap().unwrap();
        let path = manifest_path(dir.path());
        let text = std::fs::read_to_string(&path).unwrap();
        // Same length, written into the same file (not a rename).
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .and_then(|mut file| {
                std::io::Write::write_all(
                    &mut file,
                    text.replace("\"strict\"", "\"strikt\"").as_bytes(),
                )
            })
            .unwrap();
        let error = index.entry(&PacketKey::file("a.json")).unwrap_err();
        assert!(error.reason.starts_with("the manifest changed"), "{error}");
    }
}
