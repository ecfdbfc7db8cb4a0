//! The stored lines of an `events.ndjson` member, kept in one buffer (a 100,000-event bundle
//! is one allocation, not 100,000), and the bounded line reader the verifier uses.

use super::event::DataFlags;
use std::io::{self, BufRead};
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

/// Appends the next line (with its `\n`, if any) to `out`; returns its length, 0 at the end.
/// Never holds more than `max` + one buffer of a line that is too long.
pub fn read_line_bounded<R: BufRead>(
    reader: &mut R,
    out: &mut Vec<u8>,
    max: u64,
) -> Result<usize, LineError> {
    let start = out.len();
    let too_long = |out: &mut Vec<u8>, content: usize| {
        if content as u64 > max {
            out.truncate(start);
            Err(LineError::TooLong)
        } else {
            Ok(())
        }
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                out.truncate(start);
                return Err(LineError::Io(error));
            }
        };
        if buf.is_empty() {
            return Ok(out.len() - start);
        }
        match memchr::memchr(b'\n', buf) {
            Some(at) => {
                out.extend_from_slice(&buf[..=at]);
                reader.consume(at + 1);
                too_long(out, out.len() - start - 1)?;
                return Ok(out.len() - start);
            }
            None => {
                let n = buf.len();
                out.extend_from_slice(buf);
                reader.consume(n);
                too_long(out, out.len() - start)?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: u64) -> Vec<Result<Vec<u8>, String>> {
        let mut reader = io::BufReader::with_capacity(3, input);
        let mut found = Vec::new();
        loop {
            let mut out = Vec::new();
            match read_line_bounded(&mut reader, &mut out, max) {
                Ok(0) => return found,
                Ok(_) => found.push(Ok(out)),
                Err(LineError::TooLong) => return [found, vec![Err("long".into())]].concat(),
                Err(LineError::Io(e)) => return [found, vec![Err(e.to_string())]].concat(),
            }
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
