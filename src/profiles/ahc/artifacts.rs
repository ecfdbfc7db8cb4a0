//! Resolves master/sub artifact paths inside one directory and nowhere else.
//!
//! The path is walked one component at a time from the (canonical) root. Each step looks only
//! at the entry it reaches, which is inside the root by construction; a `..` that would climb
//! above the root, an absolute path, or a symbolic link whose target lies outside the root ends
//! the walk as "outside" before anything out there is touched. Links inside the root are
//! followed by reading the link itself (never its target's metadata first).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Longest artifact path the inspector will try to resolve.
const MAX_PATH_BYTES: usize = 4096;
/// Symbolic links followed before giving up (as the kernel's ELOOP limit does).
const MAX_LINK_HOPS: usize = 40;

/// What resolving one artifact path found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ArtifactStatus {
    /// The path exists under the root (Python's `Path.exists()` would say true).
    Exists,
    /// It exists but is a regular file that cannot be opened for reading.
    ExistsUnreadable(String),
    /// Nothing by that name under the root.
    NotFound,
    /// The path leaves the root; nothing outside was looked at.
    Outside(&'static str),
    /// Existence could not be decided (permissions, too long, NUL byte, link loop).
    Undecidable(String),
}

/// A canonical directory that artifact paths resolve against.
#[derive(Clone, Debug)]
pub(crate) struct ArtifactRoot {
    root: PathBuf,
}

impl ArtifactRoot {
    pub(crate) fn open(dir: &Path) -> Result<ArtifactRoot, String> {
        let root = fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if !root.is_dir() {
            return Err(format!("{}: not a directory", dir.display()));
        }
        Ok(ArtifactRoot { root })
    }

    pub(crate) fn resolve(&self, given: &str) -> ArtifactStatus {
        if given.len() > MAX_PATH_BYTES {
            return ArtifactStatus::Undecidable(format!("path longer than {MAX_PATH_BYTES} bytes"));
        }
        if given.contains('\0') {
            return ArtifactStatus::Undecidable("path contains a NUL byte".into());
        }
        if looks_absolute(given) {
            return ArtifactStatus::Outside("absolute path");
        }
        let mut pending: Vec<OsString> = Vec::new();
        if let Err(why) = push_components(Path::new(given), &mut pending) {
            return ArtifactStatus::Outside(why);
        }
        pending.reverse();
        self.walk(pending)
    }

    /// Walks `pending` (a stack: last element next) from the root.
    fn walk(&self, mut pending: Vec<OsString>) -> ArtifactStatus {
        let mut inside: Vec<OsString> = Vec::new();
        let mut hops = 0;
        while let Some(component) = pending.pop() {
            if component == ".." {
                if inside.pop().is_none() {
                    return ArtifactStatus::Outside("climbs above the artifact root with ..");
                }
                continue;
            }
            inside.push(component);
            let here = self.join(&inside);
            let meta = match fs::symlink_metadata(&here) {
                Ok(meta) => meta,
                Err(e) => return missing_or_undecidable(&e),
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            hops += 1;
            if hops > MAX_LINK_HOPS {
                return ArtifactStatus::Undecidable("too many levels of symbolic links".into());
            }
            let target = match fs::read_link(&here) {
                Ok(target) => target,
                Err(e) => return ArtifactStatus::Undecidable(format!("cannot read link: {e}")),
            };
            inside.pop();
            let mut replacement = Vec::new();
            if target.has_root() {
                match self.relative_to_root(&target) {
                    Some(parts) => {
                        inside.clear();
                        replacement = parts;
                    }
                    None => {
                        return ArtifactStatus::Outside(
                            "symbolic link pointing outside the artifact root",
                        )
                    }
                }
            } else if push_components(&target, &mut replacement).is_err() {
                return ArtifactStatus::Outside("symbolic link pointing outside the artifact root");
            }
            // Resolve the link's target before the rest of the original path.
            pending.extend(replacement.into_iter().rev());
        }
        let here = self.join(&inside);
        match fs::metadata(&here) {
            Ok(meta) if meta.is_file() => match crate::input::open_regular(&here) {
                Ok(_) => ArtifactStatus::Exists,
                Err(e) => ArtifactStatus::ExistsUnreadable(e.reason()),
            },
            Ok(_) => ArtifactStatus::Exists,
            Err(e) => missing_or_undecidable(&e),
        }
    }

    fn join(&self, parts: &[OsString]) -> PathBuf {
        let mut path = self.root.clone();
        path.extend(parts);
        path
    }

    /// An absolute link target as components under the root, if it lies inside (lexically).
    fn relative_to_root(&self, target: &Path) -> Option<Vec<OsString>> {
        let mut normal = PathBuf::new();
        for component in target.components() {
            match component {
                Component::ParentDir => {
                    normal.pop();
                }
                Component::CurDir => {}
                other => normal.push(other.as_os_str()),
            }
        }
        let rest = normal.strip_prefix(&self.root).ok()?;
        Some(rest.iter().map(OsString::from).collect())
    }
}

/// Python's `exists()` treats "no such entry" and "not a directory" as false; anything else
/// (a permission error, for one) leaves existence undecided.
fn missing_or_undecidable(error: &io::Error) -> ArtifactStatus {
    match error.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => ArtifactStatus::NotFound,
        _ => ArtifactStatus::Undecidable(error.to_string()),
    }
}

/// Absolute on any platform the record may come from: `/x`, `\x`, `C:\x`, `C:/x`.
fn looks_absolute(given: &str) -> bool {
    let bytes = given.as_bytes();
    Path::new(given).has_root()
        || given.starts_with('\\')
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

/// Appends the normal and `..` components of a relative path, in order. Fails on a root or
/// prefix component (the path was absolute after all).
fn push_components(path: &Path, out: &mut Vec<OsString>) -> Result<(), &'static str> {
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => out.push(OsString::from("..")),
            Component::Normal(name) => out.push(name.to_owned()),
            Component::RootDir | Component::Prefix(_) => return Err("absolute path"),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> (tempfile::TempDir, ArtifactRoot) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("sub")).unwrap();
        fs::write(root.join("sub/a.md"), "a").unwrap();
        fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        let opened = ArtifactRoot::open(&root).unwrap();
        (dir, opened)
    }

    #[test]
    fn finds_files_and_directories_inside() {
        let (_dir, root) = fixture();
        assert_eq!(root.resolve("sub/a.md"), ArtifactStatus::Exists);
        assert_eq!(root.resolve("./sub/../sub/a.md"), ArtifactStatus::Exists);
        assert_eq!(root.resolve("sub"), ArtifactStatus::Exists);
        assert_eq!(root.resolve("sub/missing.md"), ArtifactStatus::NotFound);
        assert_eq!(root.resolve("sub/a.md/x"), ArtifactStatus::NotFound);
    }

    #[test]
    fn paths_leaving_the_root_are_outside() {
        let (_dir, root) = fixture();
        assert!(matches!(
            root.resolve("../secret.txt"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("../../etc/passwd"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("sub/../../secret.txt"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("/etc/passwd"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("C:\\Windows\\win.ini"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("\\\\server\\share"),
            ArtifactStatus::Outside(_)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_are_outside_and_links_in_are_followed() {
        use std::os::unix::fs::symlink;
        let (dir, root) = fixture();
        let base = dir.path().join("root");
        symlink(dir.path().join("secret.txt"), base.join("abs-out")).unwrap();
        symlink("../secret.txt", base.join("rel-out")).unwrap();
        symlink("sub", base.join("in-dir")).unwrap();
        symlink(base.join("sub/a.md"), base.join("abs-in")).unwrap();
        symlink("loop", base.join("loop")).unwrap();
        symlink("nowhere", base.join("dangling")).unwrap();
        assert!(matches!(
            root.resolve("abs-out"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("rel-out"),
            ArtifactStatus::Outside(_)
        ));
        assert!(matches!(
            root.resolve("sub/../rel-out"),
            ArtifactStatus::Outside(_)
        ));
        assert_eq!(root.resolve("in-dir/a.md"), ArtifactStatus::Exists);
        assert_eq!(root.resolve("abs-in"), ArtifactStatus::Exists);
        assert!(matches!(
            root.resolve("loop"),
            ArtifactStatus::Undecidable(_)
        ));
        assert_eq!(root.resolve("dangling"), ArtifactStatus::NotFound);
    }

    #[test]
    fn odd_paths_are_undecidable_not_errors() {
        let (_dir, root) = fixture();
        assert!(matches!(
            root.resolve("a\0b"),
            ArtifactStatus::Undecidable(_)
        ));
        assert!(matches!(
            root.resolve(&"x".repeat(5000)),
            ArtifactStatus::Undecidable(_)
        ));
        assert!(matches!(
            root.resolve(&"y".repeat(300)),
            ArtifactStatus::Undecidable(_)
        ));
    }
}
