//! Reading packets out of files: a whole `.json` file is one packet; an NDJSON file is read as
//! a stream, one packet per non-blank line, so a million-line file never sits in memory.

pub use crate::input::human_bytes;
use crate::input::{describe_io, open_regular};
use crate::packet::{FileFormat, LoadError, RawPacket, Source};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Files (and NDJSON lines) larger than this are reported, not read.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads the packets of one file, calling `each` for every packet or load error, in order.
/// `each` returns `false` to stop early.
pub fn read_packets(
    path: &Path,
    format: FileFormat,
    max_bytes: u64,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) {
    let Some(file) = open_or_report(path, each) else {
        return;
    };
    match format {
        FileFormat::Json => {
            each(read_whole(file, path, max_bytes));
        }
        FileFormat::Ndjson => read_lines(file, path, max_bytes, each),
        FileFormat::Bundle => read_bundle(file, path, each),
        FileFormat::BundleEvent(seq) => {
            let bundle = crate::bundle::open_reader(file, &crate::bundle::Limits::default());
            each(super::bundle_packets::take_event(
                super::bundle_packets::packets_of(path, bundle),
                seq,
            ));
        }
    }
}

/// The file opened through the input layer (a special file is refused on the opened
/// descriptor, never read), or `None` after handing `each` the error that names it.
pub(super) fn open_or_report(
    path: &Path,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) -> Option<File> {
    match open_regular(path) {
        Ok(file) => Some(file),
        Err(error) => {
            each(Err(LoadError {
                source: Source::file(path),
                reason: error.reason(),
            }));
            None
        }
    }
}

/// A bundle: its own packet first (kind `bundle`), then one per readable event line.
/// Read from the descriptor already opened (and checked to be a regular file), under
/// upstream's limits (step 0 caps the input); nothing is extracted.
fn read_bundle(
    file: File,
    path: &Path,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) {
    let bundle = crate::bundle::open_reader(file, &crate::bundle::Limits::default());
    let (report, packet) = super::bundle_packets::report_of(path, &bundle);
    if !each(Ok(packet)) {
        return;
    }
    // One packet at a time, handed on as made: the lines are held once (in the bundle), not
    // twice, while the checker takes them in batches.
    for event in super::bundle_packets::event_packets(path, &bundle, &report) {
        if !each(Ok(event)) {
            return;
        }
    }
}

fn read_whole(file: File, path: &Path, max_bytes: u64) -> Result<RawPacket, LoadError> {
    let fail = |reason: String| {
        Err(LoadError {
            source: Source::file(path),
            reason,
        })
    };
    // Sized from the file's length when known: a growing buffer ends up to twice the file
    // (16 MiB for a 12 MB packet), and the inspector holds the packet's bytes while it views it.
    let expected = file.metadata().map(|metadata| metadata.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(expected.min(max_bytes) as usize);
    // Read one byte past the cap so that "too large" does not trust the length asked above.
    if let Err(reason) = file
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
    {
        return fail(describe_io(&reason));
    }
    if bytes.len() as u64 > max_bytes {
        return fail(format!(
            "file is larger than the {} cap (--max-file-bytes)",
            human_bytes(max_bytes)
        ));
    }
    // Empty, white-space-only and binary files are packets too: the adapter's verdict on any
    // bytes is its invalid-JSON error (rule C3), and every command must give that verdict.
    Ok(RawPacket {
        source: Source::file(path),
        offset: 0,
        bytes,
        bundle: None,
        in_bundle: None,
    })
}

fn read_lines(
    file: File,
    path: &Path,
    max_bytes: u64,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) {
    let reader = BufReader::with_capacity(1 << 20, file);
    let whole = LineStart {
        offset: 0,
        number: 1,
        end: None,
    };
    read_lines_from(reader, path, max_bytes, whole, each);
}

/// Where reading a stream's lines starts and stops.
#[derive(Clone, Copy, Debug)]
pub(super) struct LineStart {
    /// The byte offset the reader stands at: the first byte of a line.
    pub offset: u64,
    /// That line's number (1-based).
    pub number: usize,
    /// Stop before the first line that starts at or past this offset (`None`: read to the end).
    pub end: Option<u64>,
}

/// The lines of a stream from `from` on, one packet per non-blank line.
pub(super) fn read_lines_from(
    mut reader: impl BufRead,
    path: &Path,
    max_bytes: u64,
    from: LineStart,
    each: &mut dyn FnMut(Result<RawPacket, LoadError>) -> bool,
) {
    let shared_path: std::sync::Arc<Path> = std::sync::Arc::from(path);
    let mut line = Vec::new();
    let mut number = from.number - 1;
    let mut offset = from.offset;
    loop {
        if from.end.is_some_and(|end| offset >= end) {
            return;
        }
        line.clear();
        number += 1;
        let start = offset;
        let source = Source::line(shared_path.clone(), number);
        // Cap each line: read at most max_bytes + 1 bytes up to the newline.
        let read = (&mut reader)
            .take(max_bytes.saturating_add(1))
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) => return,
            Ok(count) => offset += count as u64,
            Err(reason) => {
                each(Err(LoadError {
                    source,
                    reason: describe_io(&reason),
                }));
                return;
            }
        }
        if line.last() != Some(&b'\n') && line.len() as u64 > max_bytes {
            let reason = format!(
                "line is longer than the {} cap (--max-file-bytes)",
                human_bytes(max_bytes)
            );
            if !each(Err(LoadError { source, reason })) {
                return;
            }
            match skip_rest_of_line(&mut reader) {
                Ok(skipped) => offset += skipped,
                Err(_) => return,
            }
            continue;
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // A line with NUL or other bytes that are not JSON is still a packet: its verdict is
        // the adapter's invalid-JSON error (C3), as for a whole file.
        let packet = Ok(RawPacket {
            source,
            offset: start,
            // The next line starts in a buffer of this one's size, not an empty one that
            // would grow by doubling for every line of a million-line stream.
            bytes: {
                let capacity = line.len().next_power_of_two().max(64);
                std::mem::replace(&mut line, Vec::with_capacity(capacity))
            },
            bundle: None,
            in_bundle: None,
        });
        if !each(packet) {
            return;
        }
    }
}

/// Skips to just past the next newline; returns the number of bytes skipped.
fn skip_rest_of_line(reader: &mut impl BufRead) -> std::io::Result<u64> {
    let mut skipped = 0u64;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(skipped);
        }
        if let Some(end) = buffer.iter().position(|&byte| byte == b'\n') {
            reader.consume(end + 1);
            return Ok(skipped + end as u64 + 1);
        }
        let length = buffer.len();
        reader.consume(length);
        skipped += length as u64;
    }
}

/// Reads one packet again: the whole file, or the line starting at `offset`. For a bundle:
/// its `manifest.json` (the bundle's own packet), or the event line SEQ (`offset`), opening
/// the bundle for this one read (a view that reads many keeps them: `reread_packet_in`).
pub fn reread_packet(source: &Source, offset: u64, max_bytes: u64) -> Result<Vec<u8>, LoadError> {
    reread_packet_in(
        source,
        offset,
        max_bytes,
        &crate::bundle::BundleCache::default(),
    )
}

/// `reread_packet`, with a bundle taken from `bundles` when it keeps it (and kept there).
pub fn reread_packet_in(
    source: &Source,
    offset: u64,
    max_bytes: u64,
    bundles: &crate::bundle::BundleCache,
) -> Result<Vec<u8>, LoadError> {
    use std::io::{Seek, SeekFrom};
    let fail = |reason: String| LoadError {
        source: source.clone(),
        reason,
    };
    if crate::bundle::is_bundle_path(&source.path) {
        let limits = crate::bundle::Limits::default();
        return match source.line {
            Some(seq) => super::bundle_packets::reread_event(bundles, &source.path, seq, &limits),
            None => super::bundle_packets::reread_manifest(bundles, &source.path, &limits),
        };
    }
    let mut file = open_regular(&source.path).map_err(|error| fail(error.reason()))?;
    if source.line.is_none() {
        return read_whole(file, &source.path, max_bytes).map(|packet| packet.bytes);
    }
    file.seek(SeekFrom::Start(offset))
        .map_err(|error| fail(describe_io(&error)))?;
    let mut line = Vec::new();
    BufReader::new(file)
        .take(max_bytes.saturating_add(1))
        .read_until(b'\n', &mut line)
        .map_err(|error| fail(describe_io(&error)))?;
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn collect(path: &Path, format: FileFormat, max: u64) -> Vec<String> {
        let mut out = Vec::new();
        read_packets(path, format, max, &mut |item| {
            out.push(match item {
                Ok(packet) => format!(
                    "{} ok {}",
                    packet.source,
                    String::from_utf8_lossy(&packet.bytes)
                ),
                Err(error) => format!("{} err {}", error.source, error.reason),
            });
            true
        });
        out
    }

    #[test]
    fn ndjson_lines_blank_lines_crlf_and_caps() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ndjson");
        let mut file = File::create(&path).unwrap();
        write!(
            file,
            "{{\"a\":1}}\r\n\n   \n{{\"b\":2}}\n{}\n{{\"c\":3}}",
            "x".repeat(40)
        )
        .unwrap();
        let shown = collect(&path, FileFormat::Ndjson, 20);
        let name = path.display().to_string();
        assert_eq!(
            shown,
            vec![
                format!("{name}:1 ok {{\"a\":1}}"),
                format!("{name}:4 ok {{\"b\":2}}"),
                format!("{name}:5 err line is longer than the 20 bytes cap (--max-file-bytes)"),
                format!("{name}:6 ok {{\"c\":3}}"),
            ]
        );
    }

    #[test]
    fn whole_files_empty_and_binary_are_packets_too_large_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let cases = [
            ("empty.json", &b""[..]),
            ("nul.json", &b"{\"a\":\0}"[..]),
            ("big.json", &[b' '; 30][..]),
        ];
        let mut reasons = Vec::new();
        for (name, bytes) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            reasons.extend(
                collect(&path, FileFormat::Json, 20)
                    .into_iter()
                    .map(|line| line.split(" err ").nth(1).unwrap_or("").to_owned()),
            );
        }
        // Empty and binary files are packets (the converter's verdict is C3); only the
        // cap refuses a file.
        assert_eq!(
            reasons,
            vec![
                "",
                "",
                "file is larger than the 20 bytes cap (--max-file-bytes)"
            ]
        );
    }
}
