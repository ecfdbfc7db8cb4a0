//! Steps 1-7 and 9, member by member: names, sizes, order; then the manifest (step 8) and the
//! events member (steps 10-24) each to its own check.

use super::errors::decode_ceiling;
use super::events::EventsCheck;
use super::lenient::collect_rest;
use super::manifest::read_manifest;
use super::outcome::{Keep, Verified, Walk, EVENTS, MANIFEST};
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::limits::{CeilingReader, Limits};
use crate::bundle::lines::{EventLines, LineReader};
use flate2::read::GzDecoder;
use std::cell::Cell;
use std::collections::HashSet;
use std::io::{self, Read};
use std::rc::Rc;

type Archive<R> = tar::Archive<CeilingReader<GzDecoder<R>>>;
type Entry<'a, R> = tar::Entry<'a, CeilingReader<GzDecoder<R>>>;

/// Steps 1-24 over every member; `Ok(Some)` once events.ndjson verified and no later member
/// failed. After a failure before the events member, the walk reads on to the first member
/// named `events.ndjson`, leniently, for what a reviewer can still list (spec §15).
pub(super) fn members<R: Read>(
    archive: &mut Archive<R>,
    limits: &Limits,
    keep: Keep,
    tripped: &Rc<Cell<bool>>,
    walk: &mut Walk,
) -> Result<Option<Verified>, VerifyError> {
    let entry_error = |i: usize, error: io::Error| {
        if tripped.get() {
            decode_ceiling(1, &format!("Entry #{i}: "), limits)
        } else {
            VerifyError::new(1, C::IntegrityTar, format!("Entry #{i}: {error}"))
        }
    };
    let entries = archive.entries().map_err(|e| entry_error(0, e))?;
    let mut seen: HashSet<String> = HashSet::new();
    let mut verified = None;
    let mut failure: Option<VerifyError> = None;
    for (i, entry) in entries.enumerate() {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(error) => return Err(failure.unwrap_or_else(|| entry_error(i, error))),
        };
        if failure.is_none() {
            match member(i, &mut entry, limits, keep, tripped, &mut seen, walk) {
                Ok(Some(found)) => verified = Some(found),
                Ok(None) => {}
                Err(error) => failure = Some(error),
            }
        }
        if failure.is_some() {
            if walk.events.is_some() {
                break;
            }
            if entry.path_bytes().as_ref() == EVENTS.as_bytes() {
                let mut lines = EventLines::default();
                let mut reader = LineReader::new(&mut entry, &lines.text);
                collect_rest(&mut reader, limits, keep, &mut lines);
                walk.events = Some(lines);
                break;
            }
        }
    }
    match failure {
        Some(error) => Err(error),
        None => Ok(verified),
    }
}

/// Steps 2-24 for member `i`.
fn member<R: Read>(
    i: usize,
    entry: &mut Entry<'_, R>,
    limits: &Limits,
    keep: Keep,
    tripped: &Rc<Cell<bool>>,
    seen: &mut HashSet<String>,
    walk: &mut Walk,
) -> Result<Option<Verified>, VerifyError> {
    let name_bytes = entry.path_bytes().into_owned();
    // Upstream compares a non-UTF-8 name as "".
    let name = std::str::from_utf8(&name_bytes).unwrap_or("");
    if name_bytes.len() as u64 > limits.max_path_len {
        return Err(VerifyError::new(
            2,
            C::LimitPathLength,
            format!(
                "Entry path exceeds the configured maximum length of {}",
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
            format!("A declared member size exceeds the configured maximum of {max_size} bytes"),
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
        return Ok(None);
    }
    // events.ndjson; member #0 was the manifest, so it is there.
    let Some(manifest) = walk.manifest.clone() else {
        return Err(VerifyError::new(
            7,
            C::ContractFileOrder,
            "File encountered before manifest.json",
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
    let mut events = EventsCheck::new(&manifest, limits, keep);
    if keep == Keep::Lines {
        // One allocation for the whole member (address space only until written; capped so
        // a lying header costs nothing real).
        events
            .lines
            .text
            .reserve(declared.min(limits.max_decode_bytes).min(1 << 30) as usize);
    }
    let mut reader = LineReader::new(entry, &events.lines.text);
    let result = events.run(&mut reader, tripped);
    if result.is_err() {
        // Keep what a reviewer can still list and count: the rest of the member, leniently.
        events.read_rest(&mut reader);
    } else if keep == Keep::Counts {
        events.lines.text = Vec::new();
    }
    walk.events = Some(events.lines);
    let (event_count, run_root, time_window) = result?;
    Ok(Some(Verified {
        manifest,
        event_count,
        run_root,
        time_window,
    }))
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
