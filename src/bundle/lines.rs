//! The stored lines of an `events.ndjson` member, kept in one buffer (a 100,000-event bundle
//! is one allocation, not 100,000), what spec §15 counts over all of them (kept or not), and
//! the bounded line reader the verifier uses.

use super::event::DataFlags;
use super::summary::{summary_of_reader, Summary};
use std::io::{self, Read};
use std::ops::Range;

/// What one line holds, as far as it could be read as a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// The line (without `\n` and one `\r`) parses as a JSON object.
    pub object: bool,
    pub type_: Option<String>,
    pub seq: Option<u64>,
    /// `type` starts with `assay.adapter.a2a.`.
    pub a2a: bool,
    /// `data.handoff.visible` and the lint packs' `data.discovery` members, each JSON `true`
    /// or not: read by the verifier's own scan (or the lenient parse), so the report and the
    /// lint rules need no second parse of the line.
    pub data: DataFlags,
    /// `assaycontenthash` as stored (when a string).
    pub stored_hash: Option<String>,
    /// The content hash recomputed from the line (when its hashed members have their types).
    pub computed_hash: Option<String>,
}

impl LineFacts {
    /// The facts of a line read only for what spec §15 counts of it.
    pub(crate) fn of_summary(summary: Option<Summary>) -> LineFacts {
        let Some(summary) = summary else {
            return LineFacts::default();
        };
        LineFacts {
            object: true,
            a2a: summary.a2a,
            data: DataFlags {
                handoff_visible: summary.handoff_visible,
                ..DataFlags::default()
            },
            ..LineFacts::default()
        }
    }

    /// What spec §15 counts of the line.
    pub fn summary(&self) -> Option<Summary> {
        self.object.then_some(Summary {
            a2a: self.a2a,
            handoff_visible: self.data.handoff_visible,
        })
    }
}

/// Spec §15's counts over every line of the member that was read, kept or not: a line over
/// `max_line_bytes` and the lines past `max_events` count too (a rejected bundle's counts are
/// what an unverified open lists).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCounts {
    pub lines: u64,
    /// Lines that parse as JSON objects.
    pub objects: u64,
    pub a2a: u64,
    pub handoff_visible: u64,
}

impl LineCounts {
    pub fn add(&mut self, summary: Option<Summary>) {
        self.lines += 1;
        if let Some(summary) = summary {
            self.objects += 1;
            self.a2a += u64::from(summary.a2a);
            self.handoff_visible += u64::from(summary.handoff_visible);
        }
    }
}

/// The lines of the member as far as they were kept (`text`, `spans`, `facts`: every line for
/// the faces that list events, none for `verify`), and the counts over all lines read.
#[derive(Clone, Debug, Default)]
pub struct EventLines {
    /// Every byte read from the member and kept, lines with their terminators.
    pub text: Vec<u8>,
    /// Each kept line's bytes in `text`, terminator included.
    pub spans: Vec<Range<usize>>,
    pub facts: Vec<LineFacts>,
    /// Every line read, kept or not.
    pub counts: LineCounts,
    /// False when reading stopped before the member's end (a read error).
    pub complete: bool,
}

impl EventLines {
    /// The line as stored, terminator included.
    pub fn raw(&self, index: usize) -> &[u8] {
        self.spans
            .get(index)
            .map_or(&[][..], |span| &self.text[span.clone()])
    }

    /// The line without `\n` and then one `\r`, as the verifier parses it.
    pub fn content(&self, index: usize) -> &[u8] {
        strip_terminator(self.raw(index))
    }

    /// Lines kept.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Forgets bytes the reader took past the last line kept (when reading stopped early):
    /// `text` then holds exactly the lines.
    pub fn drop_read_ahead(&mut self) {
        let end = self.spans.last().map_or(0, |span| span.end);
        self.text.truncate(end);
    }

    /// Keeps a line read (its place in `text` and its facts) and counts it.
    pub fn keep(&mut self, span: Range<usize>, facts: LineFacts) {
        self.counts.add(facts.summary());
        self.spans.push(span);
        self.facts.push(facts);
    }

    /// Lines that parse as JSON objects, kept or not: what an unverified open lists (spec §15).
    pub(crate) fn object_count(&self) -> u64 {
        self.counts.objects
    }

    pub fn a2a_count(&self) -> u64 {
        self.counts.a2a
    }

    pub fn handoff_visible_count(&self) -> u64 {
        self.counts.handoff_visible
    }
}

pub fn strip_terminator(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[derive(Debug)]
pub enum LineError {
    /// The line (without `\n`) is longer than the limit.
    TooLong,
    Io(io::Error),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::TooLong => f.write_str("line longer than the limit"),
            LineError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LineError::TooLong => None,
            LineError::Io(error) => Some(error),
        }
    }
}

/// How much the decoder writes into the kept buffer at a time.
const CHUNK: u64 = 1 << 20;

/// Cuts a member into lines while the decoder writes it straight into the kept buffer
/// (`EventLines::text`): no intermediate buffer to copy every byte out of. Bytes read ahead
/// of the line returned stay in the buffer for the next one; on a read error they are
/// dropped, so the buffer then holds exactly the lines returned. A line over the limit stays
/// in the buffer as far as it was read, for `long_line` to read on or `drop_read_ahead` to drop.
/// A caller that keeps nothing calls `forget` after each line, so the buffer stays about
/// one chunk and one line long.
///
/// Gives, line for line, what reading one line at a time gives: every line complete before a
/// read error is returned first; a line longer than the limit fails as soon as its bytes show
/// it, before any later read error; the last line may lack its `\n`.
pub struct LineReader<R> {
    reader: R,
    chunk: u64,
    /// Where the next line starts in the buffer.
    next: usize,
    eof: bool,
    /// A read error, reported once the lines read before it are returned.
    error: Option<io::Error>,
}

impl<R: Read> LineReader<R> {
    /// `text` is the buffer the lines are appended to (its bytes so far are kept).
    pub fn new(reader: R, text: &[u8]) -> LineReader<R> {
        LineReader::with_chunk(reader, text, CHUNK)
    }

    fn with_chunk(reader: R, text: &[u8], chunk: u64) -> LineReader<R> {
        LineReader {
            reader,
            chunk,
            next: text.len(),
            eof: false,
            error: None,
        }
    }

    /// The next line's place in `text` (with its `\n`, if any); `None` at the end. `max` is
    /// the limit for the line without its `\n`.
    pub fn next_line(
        &mut self,
        text: &mut Vec<u8>,
        max: u64,
    ) -> Result<Option<Range<usize>>, LineError> {
        let start = self.next;
        let mut searched = start;
        loop {
            if let Some(at) = memchr::memchr(b'\n', &text[searched..]) {
                let end = searched + at + 1;
                if (end - start - 1) as u64 > max {
                    return Err(LineError::TooLong);
                }
                self.next = end;
                return Ok(Some(start..end));
            }
            searched = text.len();
            if (text.len() - start) as u64 > max {
                return Err(LineError::TooLong);
            }
            if let Some(error) = self.error.take() {
                text.truncate(start);
                return Err(LineError::Io(error));
            }
            if self.eof {
                if text.len() == start {
                    return Ok(None);
                }
                self.next = text.len();
                return Ok(Some(start..text.len()));
            }
            self.fill(text);
        }
    }

    /// Reads the next chunk onto the end of `text`, noting the end or an error.
    fn fill(&mut self, text: &mut Vec<u8>) {
        // Bytes read before an error are kept by `read_to_end`: their lines come first.
        match (&mut self.reader).take(self.chunk).read_to_end(text) {
            Ok(0) => self.eof = true,
            Ok(_) => {}
            Err(error) => self.error = Some(error),
        }
    }

    /// Drops the line just returned (`span`) from `text`, keeping what was read after it.
    pub(crate) fn drop_line(&mut self, text: &mut Vec<u8>, span: Range<usize>) {
        self.next = span.start;
        text.drain(span);
    }

    /// Drops the lines already returned from the front of `text` once they fill a chunk (the
    /// caller keeps none of them), so that `text` holds about one chunk and the current line.
    pub fn forget(&mut self, text: &mut Vec<u8>) {
        if self.next as u64 >= self.chunk {
            text.drain(..self.next);
            self.next = 0;
        }
    }

    /// After `next_line` found the line at the reader's place too long: reads the whole line
    /// on through a stream, without keeping it, for what spec §15 counts of it (`None`: not a
    /// JSON object). Afterwards `text` ends where the line began, plus what was read after it.
    /// `Err` when reading failed inside the line (nothing more can be read then).
    pub fn long_line(&mut self, text: &mut Vec<u8>) -> io::Result<Option<Summary>> {
        self.long_line_within(text, LONG_LINE_PARSE_CAP)
    }

    /// `long_line`, parsing at most `cap` bytes of it: a longer line is read to its end but
    /// not counted (`None`), so that one string in it cannot make the parser hold more.
    fn long_line_within(&mut self, text: &mut Vec<u8>, cap: u64) -> io::Result<Option<Summary>> {
        let mut line = LongLine {
            start: self.next,
            pos: self.next,
            lines: self,
            text,
            done: false,
            passed: 0,
            failed: None,
        };
        let summary = summary_of_reader((&mut line).take(cap));
        let cut = line.passed >= cap && !line.done;
        // A line that stopped parsing early is read to its end all the same.
        let drained = io::copy(&mut line, &mut io::sink());
        if let Some(error) = line.failed.take() {
            return Err(error);
        }
        drained?;
        Ok(summary.filter(|_| !cut))
    }
}

/// The most of one line over `max_line_bytes` that is parsed for a rejected bundle's counts:
/// the parser holds a string or member name whole, so this bounds what one line can cost
/// (a decompression bomb's single string would otherwise be held up to `max_decode_bytes`).
/// A longer line is read through and not counted.
const LONG_LINE_PARSE_CAP: u64 = 64 << 20;

/// The rest of a line found too long, as a stream: its bytes already in the buffer, then the
/// reader's, up to (not including) its `\n`. Bytes of the line are dropped from the buffer as
/// they are passed on; what follows the line stays for the next one.
struct LongLine<'r, R> {
    lines: &'r mut LineReader<R>,
    text: &'r mut Vec<u8>,
    /// Where the line began (and, once it is read, where the next one begins).
    start: usize,
    /// The next byte of the line to pass on.
    pos: usize,
    done: bool,
    /// Bytes of the line passed on so far.
    passed: u64,
    /// A read error inside the line (given to the parser too, but kept to tell it apart).
    failed: Option<io::Error>,
}

impl<R: Read> Read for LongLine<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            if self.pos < self.text.len() {
                let available = &self.text[self.pos..];
                let newline = memchr::memchr(b'\n', available);
                let n = newline.unwrap_or(available.len()).min(buf.len());
                buf[..n].copy_from_slice(&available[..n]);
                self.pos += n;
                self.passed += n as u64;
                if newline == Some(n) {
                    // The whole line is passed on: drop it and its `\n`.
                    self.text.drain(self.start..=self.pos);
                    self.lines.next = self.start;
                    self.done = true;
                }
                if n > 0 || self.done {
                    return Ok(n);
                }
            }
            // Everything buffered was passed on: drop it and read on.
            self.text.truncate(self.start);
            self.pos = self.start;
            if let Some(error) = self.lines.error.take() {
                self.done = true;
                let copy = io::Error::new(error.kind(), error.to_string());
                self.failed = Some(error);
                return Err(copy);
            }
            if self.lines.eof {
                self.lines.next = self.start;
                self.done = true;
                return Ok(0);
            }
            self.lines.fill(self.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line (or the error that ended them), reading `chunk` bytes at a time.
    fn lines_in(input: &[u8], max: u64, chunk: u64) -> Vec<Result<Vec<u8>, String>> {
        let mut text = b"kept".to_vec();
        let mut reader = LineReader::with_chunk(input, &text, chunk);
        let mut found = Vec::new();
        loop {
            match reader.next_line(&mut text, max) {
                Ok(None) => break,
                Ok(Some(span)) => found.push(Ok(text[span].to_vec())),
                // Read on through the long line, as a rejected bundle's counts do.
                Err(LineError::TooLong) => match reader.long_line(&mut text) {
                    Ok(summary) => found.push(Err(format!("long {}", summary.is_some()))),
                    Err(e) => {
                        found.push(Err(format!("long, then {e}")));
                        break;
                    }
                },
                Err(LineError::Io(e)) => {
                    found.push(Err(e.to_string()));
                    break;
                }
            }
        }
        // The buffer holds exactly what was there before and the lines returned (a long
        // line's bytes are not kept).
        let returned: Vec<u8> = found.iter().flatten().flatten().copied().collect();
        assert_eq!(text, [&b"kept"[..], &returned].concat());
        found
    }

    fn lines(input: &[u8], max: u64) -> Vec<Result<Vec<u8>, String>> {
        let found = lines_in(input, max, 3);
        for chunk in [1, 2, 5, 64] {
            assert_eq!(lines_in(input, max, chunk), found, "chunk {chunk}");
        }
        found
    }

    /// Gives `good` bytes, then fails.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("broken"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn lines_before_a_read_error_come_first_and_a_long_line_fails_before_it() {
        for chunk in [1, 3, 64] {
            let mut text = Vec::new();
            let mut reader = LineReader::with_chunk(Failing(b"ab\ncd\nef"), &text, chunk);
            assert_eq!(reader.next_line(&mut text, 4).unwrap(), Some(0..3));
            assert_eq!(reader.next_line(&mut text, 4).unwrap(), Some(3..6));
            assert!(matches!(
                reader.next_line(&mut text, 4),
                Err(LineError::Io(_))
            ));
            assert_eq!(text, b"ab\ncd\n");
            let mut text = Vec::new();
            let mut reader = LineReader::with_chunk(Failing(b"abcdef"), &text, chunk);
            assert!(matches!(
                reader.next_line(&mut text, 4),
                Err(LineError::TooLong)
            ));
            assert!(text.starts_with(b"abcde"), "kept for `long_line`");
            assert_eq!(
                reader.long_line(&mut text).unwrap_err().to_string(),
                "broken"
            );
        }
    }

    #[test]
    fn long_lines_are_read_through_and_counted_without_being_kept() {
        let object = format!(
            "{{\"type\":\"assay.adapter.a2a.x\",\"pad\":\"{}\"}}",
            "p".repeat(40)
        );
        let input = format!("ok\n{object}\n[1]\n{object}\n{object}");
        let found = lines(input.as_bytes(), 8);
        assert_eq!(
            found,
            vec![
                Ok(b"ok\n".to_vec()),
                Err("long true".into()),
                Ok(b"[1]\n".to_vec()),
                Err("long true".into()),
                Err("long true".into()),
            ]
        );
        assert_eq!(
            lines(b"0123456789 x\nab", 8),
            vec![Err("long false".into()), Ok(b"ab".to_vec())]
        );
    }

    #[test]
    fn a_line_longer_than_the_parse_cap_is_read_through_and_not_counted() {
        let object = format!("{{\"pad\":\"{}\"}}", "p".repeat(100));
        let input = format!("{object}\n{object} \nok\n");
        for cap in [50, 109, 110, 111, 1000] {
            let mut text = Vec::new();
            let mut reader = LineReader::with_chunk(input.as_bytes(), &text, 16);
            let mut found = Vec::new();
            for _ in 0..2 {
                assert!(matches!(
                    reader.next_line(&mut text, 8),
                    Err(LineError::TooLong)
                ));
                found.push(reader.long_line_within(&mut text, cap).unwrap().is_some());
            }
            // 110 bytes of object, then the same with a trailing space: counted within the cap.
            assert_eq!(found, [cap >= 110, cap >= 111], "cap {cap}");
            let rest = reader.next_line(&mut text, 8).unwrap().unwrap();
            assert_eq!(&text[rest], b"ok\n", "cap {cap}");
        }
    }

    #[test]
    fn forgetting_keeps_the_buffer_about_a_chunk_long() {
        let input: Vec<u8> = (0..1000)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let mut text = Vec::new();
        let mut reader = LineReader::with_chunk(&input[..], &text, 64);
        let mut count = 0;
        let mut longest = 0;
        while let Some(span) = reader.next_line(&mut text, 100).unwrap() {
            assert_eq!(text[span], format!("line {count}\n").into_bytes()[..]);
            count += 1;
            reader.forget(&mut text);
            longest = longest.max(text.len());
        }
        assert_eq!(count, 1000);
        assert!(longest <= 64 * 2 + 10, "{longest}");
    }

    #[test]
    fn limit_excludes_the_newline_and_counts_a_cr() {
        assert_eq!(
            lines(b"abcd\nef", 4),
            vec![Ok(b"abcd\n".to_vec()), Ok(b"ef".to_vec())]
        );
        assert_eq!(lines(b"abcde\n", 4), vec![Err("long false".into())]);
        assert_eq!(lines(b"abc\r\n", 4), vec![Ok(b"abc\r\n".to_vec())]);
        assert_eq!(lines(b"abcd\r\n", 4), vec![Err("long false".into())]);
        assert_eq!(lines(b"abcde", 4), vec![Err("long false".into())]);
        assert_eq!(
            lines(b"\n\n", 4),
            vec![Ok(b"\n".to_vec()), Ok(b"\n".to_vec())]
        );
    }

    #[test]
    fn strips_one_cr() {
        assert_eq!(strip_terminator(b"a\r\r\n"), b"a\r");
        assert_eq!(strip_terminator(b"a"), b"a");
    }
}
