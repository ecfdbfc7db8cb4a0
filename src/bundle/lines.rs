//! The stored lines of an `events.ndjson` member, kept in one buffer (a 100,000-event bundle
//! is one allocation, not 100,000), and the bounded line reader the verifier uses.

use super::event::DataFlags;
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

#[derive(Clone, Debug, Default)]
pub struct EventLines {
    /// Every byte read from the member, lines with their terminators.
    pub text: Vec<u8>,
    /// Each line's bytes in `text`, terminator included.
    pub spans: Vec<Range<usize>>,
    pub facts: Vec<LineFacts>,
    /// False when reading stopped before the member's end (a read error or a limit).
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

    /// Lines that parse as JSON objects: what an unverified open lists (spec §15).
    pub fn object_count(&self) -> usize {
        self.facts.iter().filter(|f| f.object).count()
    }

    pub fn a2a_count(&self) -> usize {
        self.facts.iter().filter(|f| f.object && f.a2a).count()
    }

    pub fn handoff_visible_count(&self) -> usize {
        self.facts
            .iter()
            .filter(|f| f.object && f.data.handoff_visible)
            .count()
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

/// How much the decoder writes into the kept buffer at a time.
const CHUNK: u64 = 1 << 20;

/// Cuts a member into lines while the decoder writes it straight into the kept buffer
/// (`EventLines::text`): no intermediate buffer to copy every byte out of. Bytes read ahead
/// of the line returned stay in the buffer for the next one; on an error or a line over the
/// limit they are dropped, so the buffer then holds exactly the lines returned.
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
                    text.truncate(start);
                    return Err(LineError::TooLong);
                }
                self.next = end;
                return Ok(Some(start..end));
            }
            searched = text.len();
            if (text.len() - start) as u64 > max {
                text.truncate(start);
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
            // Bytes read before an error are kept by `read_to_end`: their lines come first.
            match (&mut self.reader).take(self.chunk).read_to_end(text) {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(error) => self.error = Some(error),
            }
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
                Err(LineError::TooLong) => {
                    found.push(Err("long".into()));
                    break;
                }
                Err(LineError::Io(e)) => {
                    found.push(Err(e.to_string()));
                    break;
                }
            }
        }
        // The buffer holds exactly what was there before and the lines returned.
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
            assert!(text.is_empty());
        }
    }

    #[test]
    fn limit_excludes_the_newline_and_counts_a_cr() {
        assert_eq!(
            lines(b"abcd\nef", 4),
            vec![Ok(b"abcd\n".to_vec()), Ok(b"ef".to_vec())]
        );
        assert_eq!(lines(b"abcde\n", 4), vec![Err("long".into())]);
        assert_eq!(lines(b"abc\r\n", 4), vec![Ok(b"abc\r\n".to_vec())]);
        assert_eq!(lines(b"abcd\r\n", 4), vec![Err("long".into())]);
        assert_eq!(lines(b"abcde", 4), vec![Err("long".into())]);
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
