//! The pairing convention. In a fixture directory:
//!
//! - `NAME.json` is a packet; `NAME.strict.payload.json` and `NAME.lenient.payload.json`
//!   beside it, when present, are the canonical payloads expected from it in that mode;
//! - `goldens.json` is the directory's golden manifest, where a packet is recorded under its
//!   file name, and a line of an NDJSON stream under `NAME.ndjson:LINE`.
//!
//! NDJSON lines are paired with the manifest only (a line has no file name to pair by).

use super::Source;
use crate::a2a::Mode;
use crate::golden::PacketKey;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// How an expected canonical payload's file name ends.
pub const PAYLOAD_SUFFIX: &str = ".payload.json";

/// `NAME.json` -> `NAME.MODE.payload.json`; `None` for names that cannot be raw packets
/// (not `.json`, or themselves expected payloads).
pub fn expected_payload_name(raw_file_name: &str, mode: Mode) -> Option<String> {
    if raw_file_name.ends_with(PAYLOAD_SUFFIX) {
        return None;
    }
    let stem = raw_file_name.strip_suffix(".json")?;
    Some(format!("{stem}.{}{PAYLOAD_SUFFIX}", mode.name()))
}

/// The command that writes `raw`'s converted payload in `mode` over its paired expected
/// payload `payload` (bless and the review never write paired files: a person runs it, after
/// reviewing the change). Terminal-safe.
pub fn paired_update_command(raw: &Path, payload: &Path, mode: Mode) -> String {
    crate::json::safe_text(&format!(
        "handoff-inspector convert --mode {mode} {} | jq '.batch.events[0].data' > {}",
        raw.display(),
        payload.display()
    ))
    .into_owned()
}

/// `NAME.MODE.payload.json` -> (`NAME.json`, MODE).
pub fn paired_raw_name(payload_file_name: &str) -> Option<(String, Mode)> {
    let stem = payload_file_name.strip_suffix(PAYLOAD_SUFFIX)?;
    let (name, mode) = stem.rsplit_once('.')?;
    let mode = Mode::parse(mode)?;
    (!name.is_empty()).then(|| (format!("{name}.json"), mode))
}

/// The directory whose manifest records `source`, and the packet's key in it.
pub fn manifest_key(source: &Source) -> (PathBuf, PacketKey) {
    let dir = match source.path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file = source
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    (
        dir,
        PacketKey {
            file,
            line: source.line,
        },
    )
}

/// The files a run read, as (manifest directory, file name): the form manifest entries take,
/// whichever way the path was spelled on the command line.
pub fn files_read(items: &[super::WalkItem]) -> std::collections::HashSet<(PathBuf, String)> {
    items
        .iter()
        .filter_map(|item| match item {
            super::WalkItem::File { path, .. } => {
                let (dir, key) = manifest_key(&Source::file(path.clone()));
                Some((dir, key.file))
            }
            super::WalkItem::Error(_) => None,
        })
        .collect()
}

/// The expected payload files that exist for a raw packet file, strict first.
pub type PairedFiles = [Option<PathBuf>; 2];

/// Finds expected payload files among the files a walk listed, falling back to the file
/// system for files named on the command line (whose directory was not listed).
pub struct Pairing {
    listed: HashSet<PathBuf>,
}

impl Pairing {
    pub fn new(listed: impl IntoIterator<Item = PathBuf>) -> Pairing {
        Pairing {
            listed: listed.into_iter().collect(),
        }
    }

    pub fn paired(&self, raw: &Path, explicitly_named: bool) -> PairedFiles {
        let mut found: PairedFiles = [None, None];
        let Some(name) = raw.file_name().and_then(|name| name.to_str()) else {
            return found;
        };
        for (slot, mode) in found.iter_mut().zip(Mode::BOTH) {
            if let Some(expected) = expected_payload_name(name, mode) {
                let candidate = raw.with_file_name(expected);
                if self.listed.contains(&candidate) || (explicitly_named && candidate.is_file()) {
                    *slot = Some(candidate);
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_pair_both_ways() {
        assert_eq!(
            expected_payload_name("happy.json", Mode::Lenient).as_deref(),
            Some("happy.lenient.payload.json")
        );
        assert_eq!(
            expected_payload_name("happy.strict.payload.json", Mode::Strict),
            None
        );
        assert_eq!(expected_payload_name("s.ndjson", Mode::Strict), None);
        assert_eq!(
            paired_raw_name("happy.strict.payload.json"),
            Some(("happy.json".to_owned(), Mode::Strict))
        );
        assert_eq!(paired_raw_name("happy.other.payload.json"), None);
        assert_eq!(paired_raw_name(".strict.payload.json"), None);
    }

    #[test]
    fn manifest_keys_use_the_parent_directory() {
        let (dir, key) = manifest_key(&Source::file("fixtures/a2a/x.json"));
        assert_eq!(dir, PathBuf::from("fixtures/a2a"));
        assert_eq!(key.to_string(), "x.json");
        let (dir, key) = manifest_key(&Source::line(Path::new("s.ndjson").into(), 7));
        assert_eq!(dir, PathBuf::from("."));
        assert_eq!(key.to_string(), "s.ndjson:7");
    }

    #[test]
    fn pairing_uses_the_listing() {
        let pairing = Pairing::new([PathBuf::from("d/a.strict.payload.json")]);
        assert_eq!(
            pairing.paired(Path::new("d/a.json"), false),
            [Some(PathBuf::from("d/a.strict.payload.json")), None]
        );
        assert_eq!(pairing.paired(Path::new("d/b.json"), false), [None, None]);
    }
}
