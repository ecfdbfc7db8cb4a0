//! Reading one piece of a stream a shard plan cut (`shard_plan.rs`): the lines whose first
//! byte lies in the piece, numbered as in the whole stream.
//!
//! The shard seeks to its piece and parses only the lines that start in it (the last may run
//! past the piece's end, and is read whole). The number of the first line comes from one cheap
//! pass that counts the newlines before the piece (SIMD `memchr`, no parsing: at several GB/s,
//! a few percent of checking the piece; docs/performance.md has the figure), so every report
//! format names the same `path:line` as the unsharded run.

use super::read::{open_or_report, read_lines_from, LineStart};
use super::shard_plan::StreamPiece;
use crate::input::describe_io;
use crate::packet::{LoadError, RawPacket, Source};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Reads the lines of `path` that start in `piece`, calling `each` for every packet or load
/// error, in order; `each` returns `false` to stop early.
pub(super) fn read_piece(
    path: &Path,
    piece: StreamPiece,
    max_bytes: u64,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) {
    let fail = |reason: String| {
        Err(LoadError {
            source: Source::file(path),
            reason,
        })
    };
    let Some(file) = open_or_report(path, each) else {
        return;
    };
    let now = match file.metadata() {
        Ok(metadata) => metadata.len(),
        Err(error) => {
            each(fail(describe_io(&error)));
            return;
        }
    };
    if now != piece.planned_bytes {
        each(fail(format!(
            "changed size since the shard plan was made ({} bytes planned, {now} now): its \
             lines cannot be split across shards exactly; run every shard again",
            piece.planned_bytes
        )));
        return;
    }
    match first_line_in(file, piece) {
        Ok(Some((reader, from))) => read_lines_from(reader, path, max_bytes, from, each),
        Ok(None) => {}
        Err(error) => {
            each(fail(describe_io(&error)));
        }
    }
}

/// The reader standing at the first line that starts in `piece`, with that line's number;
/// `None` when no line starts in it (a long line covers it, or the stream ends).
fn first_line_in(
    mut file: std::fs::File,
    piece: StreamPiece,
) -> std::io::Result<Option<(BufReader<std::fs::File>, LineStart)>> {
    let at = |offset: u64, number: usize| LineStart {
        offset,
        number,
        end: Some(piece.end),
    };
    if piece.start == 0 {
        return Ok(Some((BufReader::with_capacity(1 << 20, file), at(0, 1))));
    }
    // A line starts at `start` exactly when the byte before it is a newline: count the
    // newlines in 0..start - 1, then skip to just past the next one from start - 1 on.
    let before = count_newlines(&mut file, piece.start - 1)?;
    file.seek(SeekFrom::Start(piece.start - 1))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let Some(skipped) = skip_past_newline(&mut reader)? else {
        return Ok(None);
    };
    let offset = piece.start - 1 + skipped;
    if offset >= piece.end {
        return Ok(None);
    }
    Ok(Some((reader, at(offset, before + 2))))
}

/// Skips to just past the next newline: the bytes skipped, or `None` when the stream ends
/// first.
fn skip_past_newline(reader: &mut impl BufRead) -> std::io::Result<Option<u64>> {
    let mut skipped = 0u64;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(None);
        }
        if let Some(end) = memchr::memchr(b'\n', buffer) {
            reader.consume(end + 1);
            return Ok(Some(skipped + end as u64 + 1));
        }
        let length = buffer.len();
        reader.consume(length);
        skipped += length as u64;
    }
}

/// The newlines in the first `bytes` bytes of `file` (read from its start).
fn count_newlines(file: &mut std::fs::File, bytes: u64) -> std::io::Result<usize> {
    file.seek(SeekFrom::Start(0))?;
    let mut buffer = vec![0u8; 1 << 20];
    let mut left = bytes;
    let mut count = 0;
    while left > 0 {
        let want = left.min(buffer.len() as u64) as usize;
        let read = file.read(&mut buffer[..want])?;
        if read == 0 {
            break;
        }
        count += memchr::memchr_iter(b'\n', &buffer[..read]).count();
        left -= read as u64;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::read_packets;
    use crate::packet::FileFormat;

    /// `path:line offset bytes` of every packet (or the error) a reading yields.
    fn shown(
        read: impl FnOnce(&mut dyn FnMut(Result<RawPacket, LoadError>) -> bool),
    ) -> Vec<String> {
        let mut out = Vec::new();
        read(&mut |item| {
            out.push(match item {
                Ok(packet) => format!(
                    "{} {} {}",
                    packet.source.line.unwrap_or(0),
                    packet.offset,
                    String::from_utf8_lossy(&packet.bytes)
                ),
                Err(error) => format!("error {}", error.reason),
            });
            true
        });
        out
    }

    #[test]
    fn pieces_at_every_cut_give_the_whole_streams_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ndjson");
        // CRLF, blank lines, a line over the cap, a long line, and no newline at the end.
        let text = format!(
            "{{\"a\":1}}\r\n\n  \n{{\"b\":2}}\n{}\n{{\"c\":{}}}\n{{\"d\":4}}",
            "x".repeat(40),
            "3".repeat(25)
        );
        std::fs::write(&path, &text).unwrap();
        let size = text.len() as u64;
        let whole = shown(|each| read_packets(&path, FileFormat::Ndjson, 32, each));
        assert_eq!(whole.len(), 5, "{whole:?}");
        for first in 0..=size {
            for second in first..=size {
                let mut pieces = Vec::new();
                for (start, end) in [(0, first), (first, second), (second, size)] {
                    if start < end {
                        let piece = StreamPiece {
                            start,
                            end,
                            planned_bytes: size,
                        };
                        pieces.extend(shown(|each| read_piece(&path, piece, 32, each)));
                    }
                }
                assert_eq!(pieces, whole, "cut at {first} and {second}");
            }
        }
    }

    #[test]
    fn a_stream_of_another_size_than_planned_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ndjson");
        std::fs::write(&path, "{}\n{}\n").unwrap();
        let piece = StreamPiece {
            start: 3,
            end: 6,
            planned_bytes: 9,
        };
        let read = shown(|each| read_piece(&path, piece, 32, each));
        assert_eq!(read.len(), 1);
        assert!(
            read[0].starts_with(
                "error changed size since the shard plan was made (9 bytes planned, 6 now)"
            ),
            "{read:?}"
        );
    }
}
