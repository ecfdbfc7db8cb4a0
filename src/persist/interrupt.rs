//! Temporary files are removed when the process is interrupted. Every temporary file and
//! lock file this layer creates is registered here while it exists; on SIGINT, SIGTERM or
//! SIGHUP a thread (signal-hook's, not a signal handler: it may take a lock and call into
//! the file system) runs the face's hook (the inspector restores the terminal), removes every
//! registered path, and ends the process by the same signal with its default action, so a
//! shell sees 130, 143 or 129 and a script's loop stops as it would for any other tool.
//!
//! Creating, renaming and removing a registered file happen with the registry held, and the
//! interrupt holds it until the process is gone: a file is either registered (and removed)
//! or not created yet (and never will be), and a rename is either done (the new file stays)
//! or not started (the old file stays).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The paths to remove on an interrupt, and what to run before.
pub(super) struct Registry {
    paths: Vec<PathBuf>,
    hook: Option<fn()>,
}

impl Registry {
    pub(super) fn add(&mut self, path: PathBuf) {
        self.paths.push(path);
    }

    pub(super) fn remove(&mut self, path: &Path) {
        if let Some(index) = self.paths.iter().position(|held| held == path) {
            self.paths.swap_remove(index);
        }
    }
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    paths: Vec::new(),
    hook: None,
});

fn registry() -> MutexGuard<'static, Registry> {
    // A panic elsewhere while holding it leaves the list as it was: still the one to use.
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `change` with the registry held: the file operations that create, rename or remove a
/// registered path, and its registration, happen as one step an interrupt cannot split.
pub(super) fn with_registry<T>(change: impl FnOnce(&mut Registry) -> T) -> T {
    change(&mut registry())
}

/// What an interrupt runs before removing the files (the inspector: leave raw mode and the
/// alternate screen); `None` removes it. A plain `fn`, so it owns nothing that could be
/// dropped mid-interrupt.
pub fn set_interrupt_hook(hook: Option<fn()>) {
    registry().hook = hook;
}

/// Installs the interrupt cleanup for the rest of the process (once; later calls do
/// nothing). Faces call it at start; without it (the library's own tests, a program that
/// embeds the library) signals keep their default action and a temporary file of a write
/// cut short by one stays behind, as `golden::remove_stale_temps` expects.
#[cfg(unix)]
pub fn install_interrupt_cleanup() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("interrupt cleanup".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                end_by(signal);
            }
        })?;
    let _ = INSTALLED.set(());
    Ok(())
}

#[cfg(not(unix))]
pub fn install_interrupt_cleanup() -> std::io::Result<()> {
    Ok(())
}

/// Removes what is registered and ends the process by `signal`. Holds the registry to the
/// end, so no write starts or finishes meanwhile.
#[cfg(unix)]
fn end_by(signal: i32) -> ! {
    let held = registry();
    if let Some(hook) = held.hook {
        hook();
    }
    for path in &held.paths {
        let _ = std::fs::remove_file(path);
    }
    // Resets the action to the default and raises the signal again: the process ends as if
    // it had never been caught. Should that fail, the exit status a shell would show.
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    std::process::exit(128 + signal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_registered_twice_is_removed_once_per_release() {
        let mut registry = Registry {
            paths: Vec::new(),
            hook: None,
        };
        registry.add(PathBuf::from("a"));
        registry.add(PathBuf::from("b"));
        registry.add(PathBuf::from("a"));
        registry.remove(Path::new("a"));
        assert_eq!(registry.paths.len(), 2);
        registry.remove(Path::new("a"));
        registry.remove(Path::new("missing"));
        assert_eq!(registry.paths, [PathBuf::from("b")]);
    }
}
