//! Steps 1-7 and 9, member by member: names, sizes, order; then the manifest (step 8) and the
//! events member (steps 10-24) each to its own check.

use super::errors::decode_ceiling;
use super::events::EventsCheck;
use super::lenient::collect_rest;
use super::manifest::read_manifest;
use super::{Verified, Walk, EVENTS, MANIFEST};
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::{CeilingReader, Limits};
use crate::bundle::lines::LineReader;
use flate2::read::GzDecoder;
use std::cell::Cell;
use std::collections::HashSet;
use std::io;
use std::rc::Rc;

type Archive<'a> = tar::Archive<CeilingReader<GzDecoder<&'a [u8]>>>;

/// Steps 1-24 over every member; `Ok(Some)` once events.ndjson verified and no later member
/// failed.
pub(super) fn members(
    archive: &mut Archive<'_>,
    limits: &Limits,
    tripped: &Rc<Cell<bool>>,
    walk: &mut Walk,
) -> Result<Option<Verified>, VerifyError> {
    let entry_error = |i: usize, error: io::Error| {
        if tripped.get() {
            decode_ceiling(1, limits)
        } else {
            VerifyError::new(1, C::IntegrityTar, format!("Entry #{i}: {error}"))
        }
    };
    let entries = archive.entries().map_err(|e| entry_error(0, e))?;
    let mut seen: HashSet<String> = HashSet::new();
    let mut verified = None;
    for (i, entry) in entries.enumerate() {
        let entry = entry.map_err(|e| entry_error(i, e))?;
        let name_bytes = entry.path_bytes().into_owned();
        // Upstream compares a non-UTF-8 name as "".
        let name = std::str::from_utf8(&name_bytes).unwrap_or("");
        if name_bytes.len() as u64 > limits.max_path_len {
            return Err(VerifyError::new(
                2,
                C::LimitPathLength,
                format!(
                    "Path length {} exceeds limit {}",
                    name_bytes.len(),
                    limits.max_path_len
                ),
            )
            .comparing(
                "name bytes",
                format!("at most {}", limits.max_path_len),
                name_bytes.len(),
            ));
        }
        let declared = entry
            .header()
            .size()
            .map_err(|e| VerifyError::new(3, C::IntegrityIo, e.to_string()))?;
        let max_size = if name == MANIFEST {
            limits.max_manifest_bytes
        } else {
            limits.max_events_bytes
        };
        if declared > max_size {
            return Err(VerifyError::new(
                3,
                C::LimitFileSize,
                format!("File '{name}' declared size {declared} exceeds limit {max_size}"),
            )
            .comparing("declared size", format!("at most {max_size}"), declared));
        }
        if has_unsafe_component(&name_bytes) {
            return Err(VerifyError::new(
                4,
                C::SecurityPathTraversal,
                format!("Invalid path component in '{name}'"),
            ));
        }
        if name != MANIFEST && name != EVENTS {
            return Err(VerifyError::new(
                5,
                C::ContractUnexpectedFile,
                format!("Unexpected file '{name}'"),
            )
            .comparing(
                "member name",
                "manifest.json or events.ndjson",
                format!("{name:?}"),
            ));
        }
        if !seen.insert(name.to_owned()) {
            return Err(VerifyError::new(
                6,
                C::ContractDuplicateFile,
                format!("Duplicate file '{name}'"),
            ));
        }
        if i == 0 && name != MANIFEST {
            return Err(VerifyError::new(
                7,
                C::ContractFileOrder,
                "First file must be 'manifest.json'",
            )
            .comparing("member #0", MANIFEST, name));
        }
        if name == MANIFEST {
            let manifest = read_manifest(entry, limits, tripped, walk)?;
            walk.manifest = Some(manifest);
            continue;
        }
        // events.ndjson; member #0 was the manifest, so it is there.
        let Some(manifest) = walk.manifest.clone() else {
            return Err(VerifyError::new(
                7,
                C::ContractFileOrder,
                "First file must be 'manifest.json'",
            ));
        };
        let Some(meta) = manifest.files.get(EVENTS) else {
            return Err(VerifyError::new(
                9,
                C::ContractMissingFile,
                "Manifest missing 'events.ndjson'",
            ));
        };
        if declared != meta.bytes {
            return Err(VerifyError::new(
                9,
                C::IntegrityFileSizeMismatch,
                format!(
                    "events.ndjson size mismatch: expected {}, got {}",
                    meta.bytes, declared
                ),
            )
            .comparing(
                "events.ndjson size (manifest vs tar header)",
                meta.bytes,
                declared,
            ));
        }
        let mut events = EventsCheck::new(&manifest, limits);
        // One allocation for the whole member (address space only until written; capped so
        // a lying header costs nothing real).
        events
            .lines
            .text
            .reserve(declared.min(limits.max_decode_bytes).min(1 << 30) as usize);
        let mut reader = LineReader::new(entry, &events.lines.text);
        let result = events.run(&mut reader, tripped);
        if result.is_err() {
            // Keep what a reviewer can still list: the rest of the member, leniently.
            events.lines.complete = false;
            if events.readable {
                collect_rest(&mut reader, limits, &mut events.lines);
            }
            events.lines.drop_read_ahead();
        }
        walk.events = Some(events.lines);
        let (event_count, run_root) = result?;
        verified = Some(Verified {
            manifest,
            event_count,
            run_root,
        });
    }
    Ok(verified)
}

/// Path safety on the raw name: a leading `/` (root) or a `..` component fails; `.` and
/// empty components are what `Path::components` skips or keeps as harmless.
fn has_unsafe_component(name: &[u8]) -> bool {
    name.first() == Some(&b'/') || name.split(|&b| b == b'/').any(|part| part == b"..")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_components() {
        for bad in [
            &b"../events.ndjson"[..],
            b"/events.ndjson",
            b"a/../b",
            b"..",
        ] {
            assert!(has_unsafe_component(bad), "{bad:?}");
        }
        for ok in [
            &b"events.ndjson"[..],
            b"./events.ndjson",
            b"a//b",
            b"a/./b",
            b"..a",
            b"events.ndjson/",
        ] {
            assert!(!has_unsafe_component(ok), "{ok:?}");
        }
    }
}
