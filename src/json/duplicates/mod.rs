//! Duplicate object keys. `serde_json` keeps the last value of a repeated key without a word,
//! so a packet like `{"task":{"kind":"analysis","kind":"delegation"}}` converts as a
//! delegation while a reader of the file may see an analysis. The scan below finds every
//! repeated key (after unescaping, so `"kind"` and `"\u006bind"` are the same key) with the
//! path of the object that holds it. It is a separate pass over the bytes so that the
//! conversion itself stays exactly what the spec says.

use super::JsonPath;
use std::hash::BuildHasher;

/// A key that appears more than once in one object.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DuplicateKey {
    /// The path of the repeated member, e.g. `$.task.kind`.
    pub path: JsonPath,
    /// How many times the key appears in that object.
    pub occurrences: usize,
}

/// One member of an open object: the top 24 bits of its key's hash over the offset of the
/// key's opening quote (40 bits: packets are capped far below a terabyte). Eight bytes a
/// member whatever the key, where a map of decoded keys cost about a hundred: an object of
/// 500k different keys, each repeated, is what made the scan the largest thing alive.
type Member = u64;

const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

enum Frame {
    Object {
        members: Vec<Member>,
        /// Offset of the opening quote of the key read last (the path of what is inside).
        current_key: Option<usize>,
        expecting_key: bool,
    },
    Array {
        index: usize,
    },
}

fn frame_path(bytes: &[u8], frames: &[Frame]) -> JsonPath {
    let mut path = JsonPath::root();
    for frame in frames {
        match frame {
            Frame::Object {
                current_key: Some(start),
                ..
            } => path.push_key(&key_at(bytes, *start)),
            Frame::Object {
                current_key: None, ..
            } => {}
            Frame::Array { index } => path.push_index(*index),
        }
    }
    path
}

/// Nesting deeper than this is not scanned: no JSON this tool parses can be that deep (the
/// parser stops at 128 levels), and a frame per level of `[[[[...` would make a 16 MiB file
/// cost gigabytes. The scan stops there and keeps what it found above.
const MAX_SCAN_DEPTH: usize = 512;

/// Scans JSON text for duplicate keys. Malformed text is scanned as far as it goes; the
/// parse error itself is reported by whoever parses it.
pub fn scan_duplicate_keys(bytes: &[u8]) -> Vec<DuplicateKey> {
    let mut found = Vec::new();
    for_each_duplicate_key(bytes, |duplicate| found.push(duplicate));
    found
}

/// The first repeated keys of a text and how many it repeats in all: what a view lists, where
/// a packet may repeat a million keys (a path each, about 150 bytes: 1M objects of
/// `[{"a":1,"a":2},...]` held 870 MiB in the inspector's findings view).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuplicateKeys {
    /// The first repeated keys in text order, at most the limit asked for.
    pub first: Vec<DuplicateKey>,
    /// Every repeated key, listed or not.
    pub total: usize,
}

impl DuplicateKeys {
    /// How many repeated keys are not in `first`.
    pub fn unlisted(&self) -> usize {
        self.total - self.first.len()
    }
}

/// [`scan_duplicate_keys`], keeping the first `limit` and counting the rest.
pub fn scan_duplicate_keys_up_to(bytes: &[u8], limit: usize) -> DuplicateKeys {
    let mut found = DuplicateKeys::default();
    for_each_duplicate_key(bytes, |duplicate| {
        if found.first.len() < limit {
            found.first.push(duplicate);
        }
        found.total += 1;
    });
    found
}

/// The repeated keys of a text as the JSON array [`scan_duplicate_keys`]'s list serializes
/// to, written element by element as the scan finds them: a JSON report of a packet that
/// repeats a million keys does not hold them all first (244 MiB for `explain --format json`
/// of 1M objects `[{"a":1,"a":2},...]`, 14 MB).
pub struct DuplicateKeysIn<'a>(pub &'a [u8]);

impl serde::Serialize for DuplicateKeysIn<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        let mut failed = None;
        for_each_duplicate_key(self.0, |duplicate| {
            if failed.is_none() {
                failed = seq.serialize_element(&duplicate).err();
            }
        });
        match failed {
            Some(error) => Err(error),
            None => seq.end(),
        }
    }
}

/// How many keys [`scan_duplicate_keys`] would report, holding none of them.
pub fn count_duplicate_keys(bytes: &[u8]) -> usize {
    let mut count = 0;
    for_each_duplicate_key(bytes, |_| count += 1);
    count
}

/// [`scan_duplicate_keys`], handing each repeated key to `visit` as it is found (in the same
/// order) instead of keeping them: a packet of a million repeated keys is not held twice.
pub fn for_each_duplicate_key(bytes: &[u8], visit: impl FnMut(DuplicateKey)) {
    // Fast path: most packets repeat no key, and proving that on raw key bytes allocates
    // nothing, where the full scan below decodes and hashes every key.
    if !may_repeat_a_key(bytes) {
        return;
    }
    full_scan(bytes, visit)
}

fn full_scan(bytes: &[u8], mut visit: impl FnMut(DuplicateKey)) {
    let hasher = std::collections::hash_map::RandomState::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
            b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => break,
            b'{' => {
                frames.push(Frame::Object {
                    members: Vec::new(),
                    current_key: None,
                    expecting_key: true,
                });
                position += 1;
            }
            b'[' => {
                frames.push(Frame::Array { index: 0 });
                position += 1;
            }
            b'}' | b']' => {
                if let Some(Frame::Object { members, .. }) = frames.pop() {
                    let repeated = repeated_keys(bytes, members);
                    if !repeated.is_empty() {
                        let parent = frame_path(bytes, &frames);
                        for (_, first, occurrences) in repeated {
                            visit(DuplicateKey {
                                path: parent.key(&key_at(bytes, first)),
                                occurrences,
                            });
                        }
                    }
                }
                position += 1;
            }
            b':' => {
                if let Some(Frame::Object { expecting_key, .. }) = frames.last_mut() {
                    *expecting_key = false;
                }
                position += 1;
            }
            b',' => {
                match frames.last_mut() {
                    Some(Frame::Object { expecting_key, .. }) => *expecting_key = true,
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                }
                position += 1;
            }
            b'"' => {
                let end = string_end(bytes, position);
                if let Some(Frame::Object {
                    members,
                    current_key,
                    expecting_key: true,
                }) = frames.last_mut()
                {
                    if position as u64 > OFFSET_MASK {
                        // Past what a member records; no packet this tool reads gets here.
                        break;
                    }
                    let hash = hasher.hash_one(&*decode_string(&bytes[position..end]));
                    members.push((hash >> OFFSET_BITS << OFFSET_BITS) | position as u64);
                    *current_key = Some(position);
                }
                position = end;
            }
            _ => position += 1,
        }
    }
}

/// The keys of one closed object that appear more than once: (offset of the second
/// occurrence, offset of the first, occurrences), in the order of their second occurrence,
/// which is the order a map counting keys as it reads them would report them in. Members
/// sort by hash, then offset; equal hashes are told apart by comparing the keys themselves.
fn repeated_keys(bytes: &[u8], mut members: Vec<Member>) -> Vec<(usize, usize, usize)> {
    members.sort_unstable();
    let mut repeated = Vec::new();
    // (decoded key, first offset, second offset, occurrences) of the keys sharing one hash.
    let mut classes: Vec<(std::borrow::Cow<'_, str>, usize, usize, usize)> = Vec::new();
    for group in members.chunk_by(|a, b| a >> OFFSET_BITS == b >> OFFSET_BITS) {
        if group.len() < 2 {
            continue;
        }
        classes.clear();
        for &member in group {
            let offset = (member & OFFSET_MASK) as usize;
            let key = key_at(bytes, offset);
            match classes.iter_mut().find(|class| class.0 == key) {
                Some(class) => {
                    if class.3 == 1 {
                        class.2 = offset;
                    }
                    class.3 += 1;
                }
                None => classes.push((key, offset, 0, 1)),
            }
        }
        repeated.extend(
            classes
                .iter()
                .filter(|class| class.3 > 1)
                .map(|class| (class.2, class.1, class.3)),
        );
    }
    drop(members);
    repeated.sort_unstable();
    repeated
}

/// The decoded key whose opening quote is at `start`.
fn key_at(bytes: &[u8], start: usize) -> std::borrow::Cow<'_, str> {
    decode_string(&bytes[start..string_end(bytes, start)])
}

/// Objects with more keys than this go to the full scan (the quick check compares linearly).
const QUICK_CHECK_MAX_KEYS: usize = 64;

/// A quick, allocation-light check: `false` only when no object repeats a key. Keys are
/// compared as raw bytes; a key with an escape (which may spell another key), an object with
/// many keys or malformed text answers `true`, leaving the decision to the full scan.
fn may_repeat_a_key(bytes: &[u8]) -> bool {
    // (is object, expecting a key, index of its first key in `keys`)
    let mut frames: Vec<(bool, bool, usize)> = Vec::with_capacity(8);
    let mut keys: Vec<&[u8]> = Vec::with_capacity(32);
    let mut position = 0;
    while position < bytes.len() {
        match bytes[position] {
            // Too deep to decide quickly: the full scan decides (and stops at the same depth).
            b'{' | b'[' if frames.len() >= MAX_SCAN_DEPTH => return true,
            b'{' => frames.push((true, true, keys.len())),
            b'[' => frames.push((false, false, keys.len())),
            b'}' | b']' => match frames.pop() {
                Some((_, _, first)) => keys.truncate(first),
                None => return true,
            },
            b':' => {
                if let Some((true, expecting_key, _)) = frames.last_mut() {
                    *expecting_key = false;
                }
            }
            b',' => {
                if let Some((true, expecting_key, _)) = frames.last_mut() {
                    *expecting_key = true;
                }
            }
            b'"' => {
                let end = string_end(bytes, position);
                if let Some(&(true, true, first)) = frames.last() {
                    let key = &bytes[position + 1..end.saturating_sub(1).max(position + 1)];
                    let siblings = &keys[first..];
                    if key.contains(&b'\\')
                        || siblings.len() >= QUICK_CHECK_MAX_KEYS
                        || siblings.contains(&key)
                    {
                        return true;
                    }
                    keys.push(key);
                }
                position = end;
                continue;
            }
            _ => {}
        }
        position += 1;
    }
    !frames.is_empty()
}

/// The index just past the closing quote of the string starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    // Strings are most of a packet's bytes: jump from quote or backslash to the next with
    // memchr's vectorized search rather than stepping byte by byte (a tenth of `check`'s CPU
    // on the realistic mix went to this pre-check).
    let mut position = start + 1;
    while let Some(found) = bytes
        .get(position..)
        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
    {
        let at = position + found;
        if bytes[at] == b'"' {
            return at + 1;
        }
        // An escape: the byte after the backslash is never the string's end.
        position = at + 2;
    }
    bytes.len()
}

fn decode_string(quoted: &[u8]) -> std::borrow::Cow<'_, str> {
    if !quoted.contains(&b'\\') {
        let inner = &quoted[1..quoted.len().saturating_sub(1).max(1)];
        return String::from_utf8_lossy(inner);
    }
    serde_json::from_slice::<String>(quoted)
        .map_or_else(|_| String::from_utf8_lossy(quoted), std::borrow::Cow::Owned)
}

#[cfg(test)]
mod tests;
