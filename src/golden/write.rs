//! Writing and reading a directory's manifest. The write is atomic: the new text goes to a
//! temporary file in the same directory, which is then renamed over `goldens.json`, so a
//! reader (or a crash) sees the old manifest or the new one, never half of one.

use super::manifest::{
    parse_manifest, GoldenEntry, GoldenManifest, ManifestEncoder, ManifestError, PacketKey,
    RecordedOptions,
};
use crate::persist::{AtomicFile, Replace};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Manifests larger than this are refused rather than read (a million entries is ~400 MiB).
pub const MAX_MANIFEST_BYTES: u64 = 1 << 30;

/// The file name of a directory's golden manifest.
pub const MANIFEST_FILE_NAME: &str = "goldens.json";

pub fn manifest_path(dir: &Path) -> PathBuf {
    dir.join(MANIFEST_FILE_NAME)
}

/// The file name of a directory's pending goldens: what `check --write-pending` found
/// drifted or missing, in a manifest's format, waiting for `bless --accept-pending` (insta's
/// `.snap.new`). Never read as a golden.
pub const PENDING_FILE_NAME: &str = "goldens.pending.json";

/// Which of a directory's two manifests: its goldens, or the pending ones beside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestFile {
    Goldens,
    Pending,
}

impl ManifestFile {
    pub fn name(self) -> &'static str {
        match self {
            ManifestFile::Goldens => MANIFEST_FILE_NAME,
            ManifestFile::Pending => PENDING_FILE_NAME,
        }
    }

    pub fn path(self, dir: &Path) -> PathBuf {
        dir.join(self.name())
    }

    /// Whether `path` names one of the two (what a walk leaves out as no packet).
    pub fn is_named(path: &Path) -> bool {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name == MANIFEST_FILE_NAME || name == PENDING_FILE_NAME)
    }
}

/// Reads `dir`'s manifest: `Ok(None)` when there is none; an unreadable or malformed one is
/// an error, never something to overwrite.
pub fn read_manifest(dir: &Path) -> Result<Option<GoldenManifest>, ManifestError> {
    read_manifest_file(dir, ManifestFile::Goldens)
}

/// [`read_manifest`] of either file.
pub fn read_manifest_file(
    dir: &Path,
    file: ManifestFile,
) -> Result<Option<GoldenManifest>, ManifestError> {
    let path = file.path(dir);
    // Through the input layer: a FIFO or a link to a device named goldens.json is refused
    // before it is read, and the cap holds while reading.
    let bytes = match crate::input::read_file(&path, MAX_MANIFEST_BYTES) {
        Ok(bytes) => bytes,
        Err(error) if error.is_not_found() => return Ok(None),
        Err(error) => {
            return Err(ManifestError {
                reason: format!("cannot read: {}", error.kind),
            })
        }
    };
    parse_manifest(&bytes).map(Some)
}

/// Writes `manifest` as `dir/goldens.json` atomically, keeping the old file's permissions.
pub fn write_manifest(dir: &Path, manifest: &GoldenManifest) -> std::io::Result<PathBuf> {
    let mut writer = ManifestWriter::create(dir, &manifest.options)?;
    for (key, entry) in &manifest.packets {
        writer.entry(key, entry)?;
    }
    writer.commit()
}

/// The lock file writers of `dir`'s manifest take turns on (`persist::LockFile`): hidden,
/// and no `.json`, so no walk reads it as a packet.
pub fn manifest_lock_path(dir: &Path) -> PathBuf {
    dir.join(".goldens.json.lock")
}

/// A manifest being written one entry at a time (in key order) to a temporary file in its
/// directory; `commit` renames it over `goldens.json`, dropping it without `commit` removes
/// it and leaves the old manifest as it was. Holds a buffer, never the whole text.
pub struct ManifestWriter {
    dir: PathBuf,
    file: ManifestFile,
    encoder: ManifestEncoder,
    out: std::io::BufWriter<AtomicFile>,
}

impl ManifestWriter {
    pub fn create(dir: &Path, options: &RecordedOptions) -> std::io::Result<ManifestWriter> {
        ManifestWriter::create_file(dir, ManifestFile::Goldens, options)
    }

    /// [`ManifestWriter::create`] of either file.
    pub(crate) fn create_file(
        dir: &Path,
        file: ManifestFile,
        options: &RecordedOptions,
    ) -> std::io::Result<ManifestWriter> {
        let temp = AtomicFile::create_in(dir, ".goldens.", ".tmp")?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, temp);
        out.write_all(ManifestEncoder::head(options).as_bytes())?;
        Ok(ManifestWriter {
            dir: dir.to_path_buf(),
            file,
            encoder: ManifestEncoder::default(),
            out,
        })
    }

    /// Appends one entry; entries must come in key order (the manifest's order).
    pub fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> std::io::Result<()> {
        self.out
            .write_all(self.encoder.entry(key, entry).as_bytes())
    }

    /// Finishes the text and renames it over `goldens.json`, keeping the old file's
    /// permissions (a new manifest gets the umask's). On an error the temporary file is
    /// removed.
    pub fn commit(mut self) -> std::io::Result<PathBuf> {
        let path = self.file.path(&self.dir);
        self.out.write_all(self.encoder.tail().as_bytes())?;
        let temp = self.out.into_inner().map_err(|error| error.into_error())?;
        temp.commit(&path, Replace::Keep)?;
        Ok(path)
    }
}

/// A temporary manifest older than this is taken to be left by a killed run (a live write
/// takes well under a second even for a large manifest).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Removes the temporary files a killed `write_manifest` left in `dir`: regular files named
/// `.goldens.*.tmp` (the pattern this module creates) not modified for `STALE_AFTER`.
/// Returns the names removed, for the caller to say so. Errors are skipped: cleaning is a
/// courtesy, never a reason to stop.
pub fn remove_stale_temps(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let now = std::time::SystemTime::now();
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(".goldens.") && name.ends_with(".tmp")) {
            continue;
        }
        // Not followed: a link of that name is not one of ours.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok());
        if meta.is_file()
            && age.is_some_and(|age| age >= STALE_AFTER)
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed.push(name);
        }
    }
    removed.sort();
    removed
}

/// The values of `CI` that let goldens be written: compared after leading and trailing
/// whitespace are dropped, ignoring ASCII case (`False`, ` OFF `). Every other value, one
/// that is not UTF-8 included, is a CI run, where goldens are only checked; an unset `CI`
/// lets them be written. docs/goldens.md shows this table, and a test holds the two equal.
pub const CI_WRITES_VALUES: &[&str] = &["", "0", "false", "no", "off"];

/// Whether the `CI` environment variable, given its value, refuses a write of goldens.
pub fn ci_is_set(value: Option<&std::ffi::OsStr>) -> bool {
    match value.map(|value| value.to_str()) {
        None => false,
        Some(None) => true,
        Some(Some(text)) => {
            let text = text.trim();
            !CI_WRITES_VALUES
                .iter()
                .any(|writes| text.eq_ignore_ascii_case(writes))
        }
    }
}

/// `ci_is_set` of this process's `CI`.
pub fn ci_refuses_writes() -> bool {
    ci_is_set(std::env::var_os("CI").as_deref())
}

/// The values that let goldens be written, as a refusal names them: "empty, `0`, ... or `off`".
pub fn ci_writes_values_text() -> String {
    let shown: Vec<String> = CI_WRITES_VALUES
        .iter()
        .map(|value| match *value {
            "" => "empty".to_owned(),
            value => format!("`{value}`"),
        })
        .collect();
    match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => shown.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporary_manifests_are_removed_and_fresh_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for name in [
            ".goldens.abc123.tmp",
            ".goldens.fresh1.tmp",
            "other.tmp",
            "goldens.json",
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
            if name != ".goldens.fresh1.tmp" {
                let file = std::fs::File::options()
                    .write(true)
                    .open(dir.path().join(name))
                    .unwrap();
                file.set_modified(old).unwrap();
            }
        }
        assert_eq!(remove_stale_temps(dir.path()), [".goldens.abc123.tmp"]);
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 3, "{left:?}");
    }
    use crate::a2a::ConvertOptions;
    use std::ffi::OsStr;

    #[test]
    fn write_then_read_round_trips_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_manifest(dir.path()), Ok(None));
        let manifest = GoldenManifest::new(&ConvertOptions::default());
        write_manifest(dir.path(), &manifest).unwrap();
        assert_eq!(read_manifest(dir.path()), Ok(Some(manifest)));
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["goldens.json"]);
    }

    #[test]
    fn malformed_manifest_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(manifest_path(dir.path()), "{").unwrap();
        assert!(read_manifest(dir.path()).is_err());
    }

    #[test]
    fn ci_values() {
        for refuses in ["true", "1", "yes", "on", "falsey", "0 0", "f", "n"] {
            assert!(ci_is_set(Some(OsStr::new(refuses))), "{refuses:?}");
        }
        for writes in [
            "", " ", "\t", "0", "0 ", " false", "False", "FALSE", "No", " OFF ",
        ] {
            assert!(!ci_is_set(Some(OsStr::new(writes))), "{writes:?}");
        }
        assert!(!ci_is_set(None));
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            assert!(ci_is_set(Some(OsStr::from_bytes(b"\xff"))));
        }
        assert_eq!(
            ci_writes_values_text(),
            "empty, `0`, `false`, `no` or `off`"
        );
    }
}
