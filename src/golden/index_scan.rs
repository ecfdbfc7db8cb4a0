//! One pass over a manifest file that finds where each packet entry lies, checking every
//! entry as strictly as `parse_manifest` does, without holding more than one entry's text:
//! the file is read in blocks, the JSON structure around the entries (the root object and the
//! `packets` object) is followed here, and each entry's text is handed to serde_json and the
//! manifest's own entry parser.
//!
//! This pass only says "indexed" or "not indexable": any problem (malformed JSON, a bad
//! entry, a repeated key, an I/O error) makes the caller read the manifest the old way, which
//! gives the same message it always gave. So the messages stay exactly `parse_manifest`'s.

use super::manifest::{check_format, parse_options, read_entry_typed, PacketKey, RecordedOptions};
use crate::json::for_each_duplicate_key;
use serde_json::Value;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};

/// Bytes read from the file at a time.
const BLOCK: usize = 1 << 18;

/// Where one entry is: `["KEY": {...}]` from the key's opening quote to the value's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    /// The file name's index (its rank in sorted order once the scan is finished).
    pub name: u32,
    pub length: u32,
    /// The byte offset of the key's opening quote; the top bit says whether the key has a
    /// line number (a stream's line or a bundle's event).
    offset_and_flag: u64,
    pub line: u64,
}

const HAS_LINE: u64 = 1 << 63;

impl Slot {
    pub fn new(name: u32, line: Option<usize>, offset: u64, length: u32) -> Slot {
        let flag = if line.is_some() { HAS_LINE } else { 0 };
        Slot {
            name,
            length,
            offset_and_flag: offset | flag,
            line: line.unwrap_or(0) as u64,
        }
    }

    pub fn offset(&self) -> u64 {
        self.offset_and_flag & !HAS_LINE
    }

    pub fn line(&self) -> Option<usize> {
        (self.offset_and_flag & HAS_LINE != 0).then_some(self.line as usize)
    }

    /// `PacketKey`'s order, the file name given by its rank: no line before any line.
    pub fn order(&self) -> (u32, bool, u64) {
        (self.name, self.offset_and_flag & HAS_LINE != 0, self.line)
    }
}

/// What the scan found: the options, the distinct file names (in arrival order) and one slot
/// per entry (in file order, names by arrival index).
pub(super) struct Scanned {
    pub options: RecordedOptions,
    pub names: Vec<String>,
    pub slots: Vec<Slot>,
}

/// Why the file could not be indexed (the caller reads it the old way for the message).
#[derive(Debug)]
pub(super) struct NotIndexable;

impl From<io::Error> for NotIndexable {
    fn from(_: io::Error) -> Self {
        NotIndexable
    }
}

/// The file read in blocks; bytes before `keep` may be dropped when more is read.
struct Blocks<'f> {
    file: &'f File,
    buf: Vec<u8>,
    /// The file offset of `buf[0]`.
    base: u64,
    eof: bool,
    cap: u64,
}

impl Blocks<'_> {
    /// The byte at file offset `at`, reading more when needed (dropping what is before
    /// `keep`); `None` at the end of the file.
    #[inline]
    fn byte(&mut self, at: u64, keep: u64) -> Result<Option<u8>, NotIndexable> {
        match self.buf.get((at - self.base) as usize) {
            Some(&byte) => Ok(Some(byte)),
            None => self.byte_after_reading(at, keep),
        }
    }

    #[cold]
    fn byte_after_reading(&mut self, at: u64, keep: u64) -> Result<Option<u8>, NotIndexable> {
        loop {
            if let Some(&byte) = self.buf.get((at - self.base) as usize) {
                return Ok(Some(byte));
            }
            if !self.more(keep)? {
                return Ok(None);
            }
        }
    }

    /// The bytes from `at` to the end of what is read, reading more if there are none.
    fn available(&mut self, at: u64, keep: u64) -> Result<&[u8], NotIndexable> {
        if self.byte(at, keep)?.is_none() {
            return Err(NotIndexable);
        }
        Ok(&self.buf[(at - self.base) as usize..])
    }

    fn more(&mut self, keep: u64) -> Result<bool, NotIndexable> {
        if self.eof {
            return Ok(false);
        }
        let drop = (keep - self.base) as usize;
        if drop > 0 {
            self.buf.drain(..drop);
            self.base = keep;
        }
        let old = self.buf.len();
        self.buf.resize(old + BLOCK, 0);
        let read = (&mut &*self.file).read(&mut self.buf[old..])?;
        self.buf.truncate(old + read);
        if read == 0 {
            self.eof = true;
        }
        if self.base + self.buf.len() as u64 > self.cap {
            return Err(NotIndexable);
        }
        Ok(read > 0)
    }

    fn slice(&self, from: u64, to: u64) -> &[u8] {
        &self.buf[(from - self.base) as usize..(to - self.base) as usize]
    }

    /// The offset of the first byte at or after `at` that is not JSON whitespace.
    fn skip_ws(&mut self, mut at: u64, keep: u64) -> Result<u64, NotIndexable> {
        while let Some(byte) = self.byte(at, keep)? {
            if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            at += 1;
        }
        Ok(at)
    }

    /// Expects `byte` at `at` (after whitespace); the offset after it.
    fn expect(&mut self, at: u64, byte: u8, keep: u64) -> Result<u64, NotIndexable> {
        let at = self.skip_ws(at, keep)?;
        match self.byte(at, keep)? {
            Some(found) if found == byte => Ok(at + 1),
            _ => Err(NotIndexable),
        }
    }

    /// The end of the JSON value starting at `at` (not validated: serde_json does that on
    /// the slice). Strings are skipped with their escapes; an object's braces are counted
    /// (brackets inside need not be: in valid JSON they pair up between the braces, and an
    /// unpaired one makes the slice invalid JSON, which serde_json then refuses).
    fn value_end(&mut self, at: u64, keep: u64) -> Result<u64, NotIndexable> {
        match self.byte(at, keep)?.ok_or(NotIndexable)? {
            b'"' => self.string_end(at, keep),
            b'{' => {
                let mut depth = 0usize;
                let mut position = at;
                loop {
                    let text = self.available(position, keep)?;
                    let Some(found) = memchr::memchr3(b'"', b'{', b'}', text) else {
                        position += text.len() as u64;
                        continue;
                    };
                    let byte = text[found];
                    position += found as u64;
                    match byte {
                        b'"' => {
                            position = self.string_end(position, keep)?;
                            continue;
                        }
                        b'{' => depth += 1,
                        _ => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(position + 1);
                            }
                        }
                    }
                    position += 1;
                }
            }
            // Anything else where a value of the manifest's belongs (an array, a number)
            // is not a manifest the scan indexes.
            _ => Err(NotIndexable),
        }
    }

    /// The offset after the string whose opening quote is at `at`.
    fn string_end(&mut self, at: u64, keep: u64) -> Result<u64, NotIndexable> {
        let mut position = at + 1;
        loop {
            let text = self.available(position, keep)?;
            let Some(found) = memchr::memchr2(b'"', b'\\', text) else {
                position += text.len() as u64;
                continue;
            };
            position += found as u64;
            if text[found] == b'"' {
                return Ok(position + 1);
            }
            position += 2;
        }
    }

    /// A member's key (a string at `at`, after whitespace): its decoded text and the
    /// offsets of its opening quote and of the member's value (after the colon and
    /// whitespace).
    fn key(&mut self, at: u64) -> Result<(String, u64, u64), NotIndexable> {
        let start = self.skip_ws(at, at)?;
        if self.byte(start, start)? != Some(b'"') {
            return Err(NotIndexable);
        }
        let end = self.string_end(start, start)?;
        let key: String =
            serde_json::from_slice(self.slice(start, end)).map_err(|_| NotIndexable)?;
        let after_colon = self.expect(end, b':', start)?;
        let value = self.skip_ws(after_colon, start)?;
        Ok((key, start, value))
    }

    /// After a member: `Ok(Some(offset after the comma))`, or `Ok(None)` with `closed` set
    /// to the offset after the object's closing brace.
    fn after_member(&mut self, at: u64, closed: &mut u64) -> Result<Option<u64>, NotIndexable> {
        let at = self.skip_ws(at, at)?;
        match self.byte(at, at)? {
            Some(b',') => Ok(Some(at + 1)),
            Some(b'}') => {
                *closed = at + 1;
                Ok(None)
            }
            _ => Err(NotIndexable),
        }
    }

    /// The text at `start..end`, refused if it repeats a key.
    fn unrepeated(&self, start: u64, end: u64) -> Result<&[u8], NotIndexable> {
        let text = self.slice(start, end);
        let mut repeated = false;
        for_each_duplicate_key(text, |_| repeated = true);
        if repeated {
            return Err(NotIndexable);
        }
        Ok(text)
    }

    /// The value at `start..end` as a tree, refused if it repeats a key.
    fn tree(&self, start: u64, end: u64) -> Result<Value, NotIndexable> {
        serde_json::from_slice(self.unrepeated(start, end)?).map_err(|_| NotIndexable)
    }

    /// The entry at `start..end` checked as `parse_entry` checks it (through typed fields,
    /// with no tree), refused if it repeats a key.
    fn check_entry(&self, start: u64, end: u64) -> Result<(), NotIndexable> {
        read_entry_typed(self.unrepeated(start, end)?)
            .map(drop)
            .ok_or(NotIndexable)
    }
}

/// Scans the manifest in `file` (at most `cap` bytes).
pub(super) fn scan(file: &File, cap: u64) -> Result<Scanned, NotIndexable> {
    let mut blocks = Blocks {
        file,
        buf: Vec::new(),
        base: 0,
        eof: false,
        cap,
    };
    let open = blocks.expect(0, b'{', 0)?;
    let (mut format, mut options, mut packets) = (false, None, None);
    let mut next = Some(open);
    let mut closed = open;
    while let Some(member) = next {
        let (key, _, value) = blocks.key(member)?;
        let end = match key.as_str() {
            "format" if !format => {
                let end = blocks.value_end(value, value)?;
                check_format(Some(&blocks.tree(value, end)?)).map_err(|_| NotIndexable)?;
                format = true;
                end
            }
            "options" if options.is_none() => {
                let end = blocks.value_end(value, value)?;
                let tree = blocks.tree(value, end)?;
                options = Some(parse_options(&tree).map_err(|_| NotIndexable)?);
                end
            }
            "packets" if packets.is_none() => {
                let (found, end) = scan_packets(&mut blocks, value)?;
                packets = Some(found);
                end
            }
            // Another key, or one given twice: the old reader says which.
            _ => return Err(NotIndexable),
        };
        next = blocks.after_member(end, &mut closed)?;
    }
    // After the root's closing brace: nothing but whitespace.
    let rest = blocks.skip_ws(closed, closed)?;
    if blocks.byte(rest, rest)?.is_some() || !format {
        return Err(NotIndexable);
    }
    let (names, slots) = packets.ok_or(NotIndexable)?;
    Ok(Scanned {
        options: options.ok_or(NotIndexable)?,
        names,
        slots,
    })
}

type Packets = (Vec<String>, Vec<Slot>);

/// The `packets` object starting at `at`: every entry checked and given a slot. Returns the
/// offset after its closing brace.
fn scan_packets(blocks: &mut Blocks<'_>, at: u64) -> Result<(Packets, u64), NotIndexable> {
    let mut names: Vec<String> = Vec::new();
    let mut name_ids: HashMap<String, u32> = HashMap::new();
    let mut slots = Vec::new();
    let open = blocks.expect(at, b'{', at)?;
    let first = blocks.skip_ws(open, open)?;
    if blocks.byte(first, first)? == Some(b'}') {
        return Ok(((names, slots), first + 1));
    }
    let mut next = Some(first);
    let mut closed = first;
    while let Some(member) = next {
        let (name, start, value) = blocks.key(member)?;
        let end = blocks.value_end(value, start)?;
        blocks.check_entry(value, end)?;
        let key = PacketKey::parse(&name);
        let id = match name_ids.get(&key.file) {
            Some(&id) => id,
            None => {
                let id = u32::try_from(names.len()).map_err(|_| NotIndexable)?;
                name_ids.insert(key.file.clone(), id);
                names.push(key.file);
                id
            }
        };
        let length = u32::try_from(end - start).map_err(|_| NotIndexable)?;
        slots.push(Slot::new(id, key.line, start, length));
        next = blocks.after_member(end, &mut closed)?;
    }
    Ok(((names, slots), closed))
}

/// Splits an entry's text as a slot gives it (`"KEY": {...}`) into the decoded key and
/// the entry's tree.
pub(super) fn parse_member(text: &[u8]) -> Result<(String, Value), String> {
    let mut stream = serde_json::Deserializer::from_slice(text).into_iter::<String>();
    let key = match stream.next() {
        Some(Ok(key)) => key,
        Some(Err(error)) => return Err(error.to_string()),
        None => return Err("no key".to_owned()),
    };
    let rest = &text[stream.byte_offset()..];
    let colon = rest
        .iter()
        .position(|&byte| byte == b':')
        .ok_or("no colon after the key")?;
    let value = serde_json::from_slice(&rest[colon + 1..]).map_err(|error| error.to_string())?;
    Ok((key, value))
}

/// The value of an entry's text as a slot gives it (`"KEY": {...}`), the key skipped unread.
pub(super) fn member_value(text: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(member_value_text(text)?).map_err(|error| error.to_string())
}

/// The text of an entry's value in its text as a slot gives it (`"KEY": {...}`): what
/// follows the key and its colon.
pub(super) fn member_value_text(text: &[u8]) -> Result<&[u8], String> {
    let mut position = 1;
    let key_end = loop {
        let found = memchr::memchr2(b'"', b'\\', text.get(position..).unwrap_or_default())
            .ok_or("no end of the key")?;
        position += found;
        if text[position] == b'"' {
            break position + 1;
        }
        position += 2;
    };
    let rest = text.get(key_end..).unwrap_or_default();
    let colon = memchr::memchr(b':', rest).ok_or("no colon after the key")?;
    Ok(&rest[colon + 1..])
}
