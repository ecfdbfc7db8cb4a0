//! Writers of one file taking turns: an advisory lock on a lock file beside it, held while a
//! writer reads the file, merges into it and replaces it. The lock is the kernel's (`flock`),
//! so it goes with the process however the process ends (a crash, `kill -9`): a lock file left
//! behind holds nobody up, and the next holder removes it when it is done.
//!
//! The holder removes the lock file as it lets go, so a waiter may lock a file that is no
//! longer the one at the path; it then finds the path names another file (or none) and
//! tries again, so two writers never both hold "the" lock.

use super::interrupt::with_registry;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A held lock; dropping it removes the lock file and lets go.
#[derive(Debug)]
pub struct LockFile {
    path: PathBuf,
    file: Option<File>,
}

/// Why a lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Another writer held it for all of `waited`.
    Busy { path: PathBuf, waited: Duration },
    /// The lock file could not be opened or locked.
    Io { path: PathBuf, error: io::Error },
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::Busy { path, waited } => write!(
                f,
                "{}: another writer held this lock for {} s; nothing written (try again when it is done)",
                path.display(),
                waited.as_secs()
            ),
            LockError::Io { path, error } => write!(
                f,
                "{}: cannot take the lock: {error}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::Busy { .. } => None,
            LockError::Io { error, .. } => Some(error),
        }
    }
}

impl LockFile {
    /// Takes the lock at `path`, waiting up to `wait` for another holder to let go; `waiting`
    /// is called once, when the lock is found held (for the caller to say so).
    pub fn acquire(
        path: &Path,
        wait: Duration,
        waiting: &mut dyn FnMut(&Path),
    ) -> Result<LockFile, LockError> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(2);
        let mut told = false;
        loop {
            let attempt = with_registry(|registry| {
                let file = try_lock(path)?;
                if file.is_some() {
                    registry.add(path.to_path_buf());
                }
                Ok(file)
            });
            match attempt {
                Ok(Some(file)) => {
                    return Ok(LockFile {
                        path: path.to_path_buf(),
                        file: Some(file),
                    })
                }
                Ok(None) => {}
                Err(error) => {
                    return Err(LockError::Io {
                        path: path.to_path_buf(),
                        error,
                    })
                }
            }
            if !told {
                told = true;
                waiting(path);
            }
            let waited = started.elapsed();
            if waited >= wait {
                return Err(LockError::Busy {
                    path: path.to_path_buf(),
                    waited,
                });
            }
            std::thread::sleep(pause.min(wait - waited));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for LockFile {
    fn drop(&mut self) {
        let (path, file) = (&self.path, self.file.take());
        with_registry(|registry| {
            // Removed before it is let go: a waiter that locks it then sees it is gone.
            let _ = std::fs::remove_file(path);
            drop(file);
            registry.remove(path);
        });
    }
}

/// One try: the locked file, or `None` when another holder has it (or let go of it and
/// removed it meanwhile).
#[cfg(unix)]
fn try_lock(path: &Path) -> io::Result<Option<File>> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    use std::os::unix::io::AsRawFd;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .mode(0o666)
        // A link planted under the lock's name is refused, never followed.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    // SAFETY: `file` is an open descriptor owned by this function for the whole call.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if locked != 0 {
        let error = io::Error::last_os_error();
        return match error.kind() {
            io::ErrorKind::WouldBlock => Ok(None),
            _ => Err(error),
        };
    }
    let held = file.metadata()?;
    if !held.is_file() {
        return Err(io::Error::other(
            "the lock's name is taken by something not a file",
        ));
    }
    match std::fs::symlink_metadata(path) {
        Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => Ok(Some(file)),
        Ok(_) => Ok(None),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// Without `flock`: the lock is the file's existence (a lock file a crash left must then be
/// removed by hand; the `Busy` error names it).
#[cfg(not(unix))]
fn try_lock(path: &Path) -> io::Result<Option<File>> {
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(file) => Ok(Some(file)),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(None),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_busy_for_another_and_free_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let held = LockFile::acquire(&path, Duration::ZERO, &mut |_| {}).unwrap();
        assert!(path.exists());
        let mut told = 0;
        let busy = LockFile::acquire(&path, Duration::from_millis(30), &mut |_| told += 1);
        assert!(matches!(busy, Err(LockError::Busy { .. })), "{busy:?}");
        assert_eq!(told, 1);
        drop(held);
        assert!(!path.exists());
        let again = LockFile::acquire(&path, Duration::ZERO, &mut |_| {}).unwrap();
        drop(again);
    }

    #[test]
    fn a_lock_file_left_by_a_dead_holder_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        std::fs::write(&path, b"").unwrap();
        let taken = LockFile::acquire(&path, Duration::ZERO, &mut |_| {});
        #[cfg(unix)]
        assert!(taken.is_ok());
        #[cfg(not(unix))]
        assert!(taken.is_err());
    }

    #[test]
    fn threads_taking_turns_each_hold_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let inside = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..20 {
                        let lock =
                            LockFile::acquire(&path, Duration::from_secs(20), &mut |_| {}).unwrap();
                        let before = inside.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        assert_eq!(before, 0, "two holders at once");
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                        drop(lock);
                    }
                });
            }
        });
        assert!(!path.exists());
    }
}
