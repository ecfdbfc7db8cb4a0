//! Upstream's `VerifyLimits` (spec §10): each admits exactly its value and refuses value + 1.
//! Also the reader that counts decompressed bytes against `max_decode_bytes`.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

/// Fixed, not configurable upstream (spec §7).
pub(crate) const MAX_KEYS_PER_OBJECT: usize = 10_000;
pub(crate) const MAX_STRING_CHARS: usize = 1_048_576;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_bundle_bytes: u64,
    pub max_decode_bytes: u64,
    pub max_manifest_bytes: u64,
    pub max_events_bytes: u64,
    pub max_events: u64,
    pub max_line_bytes: u64,
    pub max_path_len: u64,
    pub max_json_depth: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bundle_bytes: 104_857_600,
            max_decode_bytes: 1_073_741_824,
            max_manifest_bytes: 10_485_760,
            max_events_bytes: 524_288_000,
            max_events: 100_000,
            max_line_bytes: 1_048_576,
            max_path_len: 256,
            max_json_depth: 64,
        }
    }
}

/// The names `Limits::set` accepts, as upstream's `VerifyLimitsOverrides` spells them.
const LIMIT_NAMES: [&str; 8] = [
    "max_bundle_bytes",
    "max_decode_bytes",
    "max_manifest_bytes",
    "max_events_bytes",
    "max_events",
    "max_line_bytes",
    "max_path_len",
    "max_json_depth",
];

impl Limits {
    /// No configurable ceiling at all (`--no-verify-limits`): what upstream's limits would
    /// refuse is then checked only by the rest of the contract. Memory is then bounded only
    /// by the input itself.
    pub fn unlimited() -> Limits {
        Limits {
            max_bundle_bytes: u64::MAX,
            max_decode_bytes: u64::MAX,
            max_manifest_bytes: u64::MAX,
            max_events_bytes: u64::MAX,
            max_events: u64::MAX,
            max_line_bytes: u64::MAX,
            max_path_len: u64::MAX,
            // serde_json stops at 128 levels whatever this says.
            max_json_depth: u64::MAX,
        }
    }

    /// Applies one `name=value` override; the error names what was wrong.
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("limit `{assignment}`: expected NAME=VALUE"))?;
        let value: u64 = value
            .trim()
            .parse()
            .map_err(|_| format!("limit `{name}`: `{value}` is not a whole number"))?;
        let slot = match name.trim() {
            "max_bundle_bytes" => &mut self.max_bundle_bytes,
            "max_decode_bytes" => &mut self.max_decode_bytes,
            "max_manifest_bytes" => &mut self.max_manifest_bytes,
            "max_events_bytes" => &mut self.max_events_bytes,
            "max_events" => &mut self.max_events,
            "max_line_bytes" => &mut self.max_line_bytes,
            "max_path_len" => &mut self.max_path_len,
            "max_json_depth" => &mut self.max_json_depth,
            other => {
                return Err(format!(
                    "unknown limit `{other}` (known: {})",
                    LIMIT_NAMES.join(", ")
                ))
            }
        };
        *slot = value;
        Ok(())
    }
}

/// Upstream's text for a tripped ceiling (`assay_common::limits::LimitExceeded`):
/// `exceeded KIND limit of N`, KIND one of `source bytes`, `decoded bytes`, `member bytes`,
/// `line bytes`.
pub fn exceeded(kind: &str, limit: u64) -> String {
    format!("exceeded {kind} limit of {limit}")
}

/// Upstream's `LimitReader` over the decompressed stream: yields at most `limit` bytes; at the
/// ceiling it reads one byte more to tell whether the input fit (end: it did; a byte: it did
/// not, and every read from then on fails and `tripped` is raised, which the walk checks after
/// any error, since the tar crate may pass the error on in its own words).
pub struct CeilingReader<R> {
    inner: R,
    limit: u64,
    pub(crate) total: u64,
    tripped: Rc<Cell<bool>>,
}

impl<R> CeilingReader<R> {
    pub fn new(inner: R, limit: u64, tripped: Rc<Cell<bool>>) -> CeilingReader<R> {
        CeilingReader {
            inner,
            limit,
            total: 0,
            tripped,
        }
    }

    fn overflow(&self) -> io::Error {
        io::Error::other(exceeded("decoded bytes", self.limit))
    }
}

impl<R: Read> Read for CeilingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.tripped.get() {
            return Err(self.overflow());
        }
        if buf.is_empty() {
            return Ok(0);
        }
        if self.total >= self.limit {
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => {
                    self.tripped.set(true);
                    Err(self.overflow())
                }
            };
        }
        let room = (self.limit - self.total).min(buf.len() as u64) as usize;
        let n = self.inner.read(&mut buf[..room])?;
        self.total += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_name_and_value() {
        let mut limits = Limits::default();
        limits.set("max_events=3").unwrap();
        assert_eq!(limits.max_events, 3);
        assert!(limits
            .set("max_event=3")
            .unwrap_err()
            .contains("unknown limit"));
        assert!(limits.set("max_events").unwrap_err().contains("NAME=VALUE"));
        assert!(limits
            .set("max_events=-1")
            .unwrap_err()
            .contains("whole number"));
    }

    #[test]
    fn ceiling_admits_its_value_and_trips_one_past() {
        let flag = Rc::new(Cell::new(false));
        let mut ok = CeilingReader::new(&b"abcd"[..], 4, flag.clone());
        let mut out = Vec::new();
        ok.read_to_end(&mut out).unwrap();
        assert!(!flag.get());
        let mut over = CeilingReader::new(&b"abcde"[..], 4, flag.clone());
        let mut out = Vec::new();
        let error = over.read_to_end(&mut out).unwrap_err();
        assert_eq!(error.to_string(), "exceeded decoded bytes limit of 4");
        assert!(flag.get());
        // Upstream's reader hands over the bytes within the ceiling before failing.
        assert_eq!(out, b"abcd");
    }
}
