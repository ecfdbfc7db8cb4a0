//! The pending goldens of a directory (`goldens.pending.json`, written by `check
//! --write-pending`) as the inspector's review reads them: which packets have one, so the
//! review opens those first and says where they came from.

use super::index::ManifestIndex;
use super::manifest::{ManifestError, PacketKey};
use super::write::ManifestFile;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The packets a directory's pending goldens name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PendingGoldens {
    pub dir: PathBuf,
    pub keys: BTreeSet<PacketKey>,
}

impl PendingGoldens {
    /// The pending file's path.
    pub fn path(&self) -> PathBuf {
        ManifestFile::Pending.path(&self.dir)
    }
}

/// `dir`'s pending goldens: `Ok(None)` when there are none; a malformed file is an error with
/// the manifest reader's words.
pub fn read_pending(dir: &Path) -> Result<Option<PendingGoldens>, ManifestError> {
    let Some(index) = ManifestIndex::open_file(dir, ManifestFile::Pending)? else {
        return Ok(None);
    };
    let mut keys = BTreeSet::new();
    for entry in index.entries() {
        let (key, _) = entry.map_err(|error| ManifestError {
            reason: format!("cannot read: {error}"),
        })?;
        keys.insert(key);
    }
    Ok(Some(PendingGoldens {
        dir: dir.to_path_buf(),
        keys,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_keys_a_pending_file_names_and_nothing_when_there_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_pending(dir.path()).unwrap(), None);
        std::fs::write(
            ManifestFile::Pending.path(dir.path()),
            r#"{"format":"handoff-inspector goldens v2","options":{"adapter_version":"0.1.0"},"packets":{"a.json":{"duplicate_keys":[],"strict":{"error":"measurement","rule":"C3"},"lenient":{"error":"measurement","rule":"C3"}}}}"#,
        )
        .unwrap();
        let pending = read_pending(dir.path()).unwrap().unwrap();
        assert_eq!(pending.keys.len(), 1);
        assert_eq!(pending.keys.iter().next().unwrap().file, "a.json");
        std::fs::write(ManifestFile::Pending.path(dir.path()), "{").unwrap();
        assert!(read_pending(dir.path()).is_err());
    }
}
