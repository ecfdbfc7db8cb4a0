//! A file written whole or not at all: a temporary file in the target's directory (so the
//! rename never crosses a file system), renamed over the target once complete. The temporary
//! file is registered for removal on an interrupt from its creation until its rename or
//! removal (`interrupt.rs`).

use super::interrupt::with_registry;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Whether committing may replace a file already at the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Replace it, keeping its permissions.
    Keep,
    /// Refuse (the error's kind is `AlreadyExists`); nothing is replaced.
    Never,
}

/// A file being written beside its target; `commit` renames it into place, and dropping it
/// uncommitted removes it.
#[derive(Debug)]
pub struct AtomicFile {
    /// `None` once committed.
    temp: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl AtomicFile {
    /// Creates `PREFIX` + random characters + `SUFFIX` in `dir`, mode 0666 less the umask
    /// (the mode a file the user's other tools create gets; a temporary file is usually
    /// created 0600, which a rename would carry to the target).
    pub fn create_in(dir: &Path, prefix: &str, suffix: &str) -> io::Result<AtomicFile> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(prefix).suffix(suffix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        with_registry(|registry| {
            let temp = builder.tempfile_in(dir)?;
            let path = temp.path().to_path_buf();
            registry.add(path.clone());
            Ok(AtomicFile {
                temp: Some(temp),
                path,
            })
        })
    }

    fn temp(&mut self) -> io::Result<&mut tempfile::NamedTempFile> {
        self.temp
            .as_mut()
            .ok_or_else(|| io::Error::other("written after it was committed"))
    }

    /// Flushes the file to disk and renames it over `target`. A file already there is
    /// replaced keeping its permissions (`Replace::Keep`) or left (`Replace::Never`). On an
    /// error the temporary file is removed and `target` is as it was.
    pub fn commit(mut self, target: &Path, replace: Replace) -> io::Result<()> {
        let temp = self.temp()?;
        let prepared =
            temp.as_file()
                .sync_all()
                .and_then(|()| match (replace, std::fs::metadata(target)) {
                    (Replace::Keep, Ok(existing)) => {
                        temp.as_file().set_permissions(existing.permissions())
                    }
                    _ => Ok(()),
                });
        let Some(temp) = self.temp.take() else {
            return Err(io::Error::other("committed twice"));
        };
        let path = self.path.clone();
        with_registry(|registry| {
            registry.remove(&path);
            // Dropping a `NamedTempFile` (or the one a failed persist gives back) removes it.
            prepared?;
            match replace {
                Replace::Keep => temp.persist(target),
                Replace::Never => temp.persist_noclobber(target),
            }
            .map(drop)
            .map_err(|error| error.error)
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.temp()?.write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.temp()?.write_all(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let path = &self.path;
            with_registry(|registry| {
                drop(temp);
                registry.remove(path);
            });
        }
    }
}

/// The directory a file is written in: its parent, or `.` for a bare name.
fn dir_of(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Writes `bytes` as `target` atomically: a temporary `.NAME.XXXXXX.tmp` beside it, then a
/// rename (see `AtomicFile::commit`).
pub fn write_atomically(target: &Path, bytes: &[u8], replace: Replace) -> io::Result<()> {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut file = AtomicFile::create_in(dir_of(target), &format!(".{name}."), ".tmp")?;
    file.write_all(bytes)?;
    file.commit(target, replace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_commit_replaces_the_target_and_a_drop_leaves_it() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        write_atomically(&target, b"one", Replace::Keep).unwrap();
        let mut unfinished = AtomicFile::create_in(dir.path(), ".out.txt.", ".tmp").unwrap();
        unfinished.write_all(b"two").unwrap();
        assert_eq!(names(dir.path()).len(), 2);
        drop(unfinished);
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn never_replace_refuses_and_removes_its_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        std::fs::write(&target, b"old").unwrap();
        let error = write_atomically(&target, b"new", Replace::Never).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_takes_the_umask_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        // The umask of this process, read without changing it (Linux reports it).
        let umask = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix("Umask:"))
                    .and_then(|value| u32::from_str_radix(value.trim(), 8).ok())
            });
        let target = dir.path().join("new.txt");
        write_atomically(&target, b"x", Replace::Keep).unwrap();
        if let Some(umask) = umask {
            assert_eq!(mode(&target), 0o666 & !umask);
        }
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&target, b"y", Replace::Keep).unwrap();
        assert_eq!(mode(&target), 0o640);
        assert_eq!(std::fs::read(&target).unwrap(), b"y");
    }
}
