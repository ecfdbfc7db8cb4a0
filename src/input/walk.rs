//! Turning command-line paths into the files to read. Directories are walked with the
//! `ignore` crate, so `.gitignore`, `.ignore` and hidden entries are skipped as ripgrep skips
//! them (`--no-ignore` includes everything); a path named on the command line is always read.
//!
//! What a hostile tree cannot do here:
//! - make the walk open anything but a regular file (FIFOs, sockets and devices are reported
//!   by kind, never opened);
//! - lead it out of the given paths: a symlink is followed only when its target lies inside
//!   one of them (`--follow-outside` lifts that), so a link to `/` or `/proc/kmsg` is reported,
//!   not walked or read;
//! - make it loop or go superlinear: every directory is identified by device and inode, once,
//!   so a symlink loop or a second way into the same directory is reported in O(1), and no
//!   path is canonicalized except a symlink's (once each).

use super::{describe_io, refusal};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How directories are walked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Include what `.gitignore`/`.ignore` exclude, and hidden files and directories.
    pub no_ignore: bool,
    /// Follow symlinks whose target lies outside every path given.
    pub follow_outside: bool,
}

/// One result of a walk, in walk order (sorted by path within each directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walked {
    /// A regular file to read (named on the command line, or found and kept by name).
    File(PathBuf),
    /// Something that was not walked or not read, with the reason.
    Refused { path: PathBuf, reason: String },
}

pub const ALREADY_VISITED: &str =
    "directory already visited (symlink loop or repeated path); skipped";
const OUTSIDE: &str =
    "symbolic link pointing outside the paths given; not followed (--follow-outside follows it)";

/// Expands `paths`: a file is taken as named; a directory contributes the regular files below
/// it for which `keep` is true. Problems are reported in place.
pub fn walk_paths(
    paths: &[PathBuf],
    options: &WalkOptions,
    keep: fn(&Path) -> bool,
) -> Vec<Walked> {
    let mut out = Vec::new();
    let visited = Arc::new(Mutex::new(HashSet::new()));
    let roots: Arc<Vec<PathBuf>> = Arc::new(
        paths
            .iter()
            .filter_map(|path| std::fs::canonicalize(path).ok())
            .collect(),
    );
    for path in paths {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if insert_dir(&visited, &meta) {
                    walk_dir(path, options, &roots, &visited, keep, &mut out);
                } else {
                    out.push(refused(path, ALREADY_VISITED.to_owned()));
                }
            }
            Ok(meta) if meta.is_file() => out.push(Walked::File(path.clone())),
            Ok(meta) => out.push(refused(path, refusal(&meta))),
            Err(error) => out.push(refused(path, describe_io(&error))),
        }
    }
    out
}

type Visited = Arc<Mutex<HashSet<(u64, u64)>>>;

/// Records a directory; false when it was seen before.
fn insert_dir(visited: &Visited, meta: &std::fs::Metadata) -> bool {
    let id = dir_id(meta);
    // A poisoned lock only means another walk panicked; the set itself is still usable.
    let mut set = visited.lock().unwrap_or_else(|poison| poison.into_inner());
    set.insert(id)
}

#[cfg(unix)]
fn dir_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn dir_id(_meta: &std::fs::Metadata) -> (u64, u64) {
    // No inode numbers: loops are left to the walker's own ancestor check.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    (0, NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

fn refused(path: &Path, reason: String) -> Walked {
    Walked::Refused {
        path: path.to_path_buf(),
        reason,
    }
}

fn walk_dir(
    root: &Path,
    options: &WalkOptions,
    roots: &Arc<Vec<PathBuf>>,
    visited: &Visited,
    keep: fn(&Path) -> bool,
    out: &mut Vec<Walked>,
) {
    // The filter runs inside the walker and cannot yield items, so it leaves its reports here
    // and they are taken out, in order, before the next entry the walker yields.
    let reports: Arc<Mutex<Vec<Walked>>> = Arc::default();
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .standard_filters(!options.no_ignore)
        // A corpus is often not a git checkout; its .gitignore still says what is not evidence.
        .require_git(false)
        .follow_links(true)
        .sort_by_file_name(|a, b| a.cmp(b));
    {
        let reports = reports.clone();
        let roots = roots.clone();
        let visited = visited.clone();
        let follow_outside = options.follow_outside;
        builder.filter_entry(move |entry| {
            let report = |reason: String| {
                let mut list = reports.lock().unwrap_or_else(|poison| poison.into_inner());
                list.push(refused(entry.path(), reason));
            };
            if entry.path_is_symlink() && !follow_outside {
                match std::fs::canonicalize(entry.path()) {
                    Ok(target) if roots.iter().any(|root| target.starts_with(root)) => {}
                    Ok(target) => {
                        // Only a link the walk would have used is worth a line: a directory,
                        // or a file whose name is kept. A special file is named by its kind
                        // (the more useful reason: it would be refused inside the roots too).
                        match std::fs::metadata(&target) {
                            Ok(meta) if meta.is_dir() => report(OUTSIDE.to_owned()),
                            Ok(meta) if !meta.is_file() && keep(entry.path()) => {
                                report(refusal(&meta))
                            }
                            _ if keep(entry.path()) => report(OUTSIDE.to_owned()),
                            _ => {}
                        }
                        return false;
                    }
                    Err(error) => {
                        report(describe_io(&error));
                        return false;
                    }
                }
            }
            if entry.file_type().is_some_and(|kind| kind.is_dir()) {
                match entry.metadata() {
                    Ok(meta) if !insert_dir(&visited, &meta) => {
                        report(ALREADY_VISITED.to_owned());
                        return false;
                    }
                    Ok(_) => {}
                    Err(error) => {
                        report(walk_error_reason(&error));
                        return false;
                    }
                }
            }
            true
        });
    }
    let take_reports = |out: &mut Vec<Walked>| {
        let mut list = reports.lock().unwrap_or_else(|poison| poison.into_inner());
        out.append(&mut list);
    };
    for result in builder.build() {
        take_reports(out);
        match result {
            Ok(entry) => {
                if entry.depth() == 0 {
                    continue;
                }
                let Some(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    continue;
                }
                let path = entry.path();
                if !keep(path) {
                    continue;
                }
                if kind.is_file() {
                    out.push(Walked::File(entry.into_path()));
                } else {
                    let reason = match entry.metadata() {
                        Ok(meta) => refusal(&meta),
                        Err(error) => walk_error_reason(&error),
                    };
                    out.push(refused(path, reason));
                }
            }
            Err(error) => {
                let path = error_path(&error).unwrap_or(root).to_path_buf();
                out.push(refused(&path, walk_error_reason(&error)));
            }
        }
    }
    take_reports(out);
}

/// The path an `ignore` error is about, if it names one.
fn error_path(error: &ignore::Error) -> Option<&Path> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::Loop { child, .. } => Some(child),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(errors) => errors.iter().find_map(error_path),
        _ => None,
    }
}

fn is_loop(error: &ignore::Error) -> bool {
    match error {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

fn walk_error_reason(error: &ignore::Error) -> String {
    if is_loop(error) {
        return ALREADY_VISITED.to_owned();
    }
    match error.io_error() {
        Some(io) => describe_io(io),
        None => error.to_string(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn json(path: &Path) -> bool {
        path.extension()
            .is_some_and(|extension| extension == "json")
    }

    /// The walk of `paths`, as `name` or `name: reason` relative to `base`.
    fn shown(base: &Path, paths: &[PathBuf], options: WalkOptions) -> Vec<String> {
        walk_paths(paths, &options, json)
            .into_iter()
            .map(|walked| match walked {
                Walked::File(path) => path.strip_prefix(base).unwrap().display().to_string(),
                Walked::Refused { path, reason } => {
                    format!("{}: {reason}", path.strip_prefix(base).unwrap().display())
                }
            })
            .collect()
    }

    #[test]
    fn ignore_files_and_hidden_entries_are_skipped_unless_no_ignore() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        for name in [
            "a.json",
            "skip.json",
            ".hidden/h.json",
            "target/t.json",
            "b.txt",
        ] {
            let path = base.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, b"{}").unwrap();
        }
        std::fs::write(base.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(base.join(".ignore"), "skip.json\n").unwrap();
        let root = vec![base.to_path_buf()];
        assert_eq!(shown(base, &root, WalkOptions::default()), ["a.json"]);
        let everything = WalkOptions {
            no_ignore: true,
            ..WalkOptions::default()
        };
        assert_eq!(
            shown(base, &root, everything),
            [".hidden/h.json", "a.json", "skip.json", "target/t.json"]
        );
        // Named on the command line: read whatever the ignore files say.
        let named = vec![base.join("target/t.json"), base.join(".hidden/h.json")];
        assert_eq!(
            shown(base, &named, WalkOptions::default()),
            ["target/t.json", ".hidden/h.json"]
        );
    }

    #[test]
    fn symlinks_stay_inside_the_given_paths_and_loops_are_reported_once() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        let corpus = base.join("corpus");
        std::fs::create_dir_all(corpus.join("sub")).unwrap();
        std::fs::write(corpus.join("sub/in.json"), b"{}").unwrap();
        std::fs::write(base.join("out.json"), b"{}").unwrap();
        symlink("/", corpus.join("root")).unwrap();
        symlink("../out.json", corpus.join("escape.json")).unwrap();
        symlink("sub/in.json", corpus.join("alias.json")).unwrap();
        symlink("..", corpus.join("sub/up")).unwrap();
        symlink("/dev/null", corpus.join("null.json")).unwrap();
        symlink("missing", corpus.join("dangling.json")).unwrap();
        let root = vec![corpus.clone()];
        assert_eq!(
            shown(base, &root, WalkOptions::default()),
            [
                "corpus/alias.json".to_owned(),
                "corpus/dangling.json: no such file or directory".to_owned(),
                format!("corpus/escape.json: {OUTSIDE}"),
                "corpus/null.json: not a regular file (a device); not opened".to_owned(),
                format!("corpus/root: {OUTSIDE}"),
                "corpus/sub/in.json".to_owned(),
                format!("corpus/sub/up: {ALREADY_VISITED}"),
            ]
        );
        let outside = WalkOptions {
            follow_outside: true,
            ..WalkOptions::default()
        };
        let walked = shown(
            base,
            &[corpus.join("sub"), corpus.join("escape.json")],
            outside,
        );
        assert!(
            walked.contains(&"corpus/escape.json".to_owned()),
            "{walked:?}"
        );
    }

    #[test]
    fn a_directory_named_twice_is_walked_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), b"{}").unwrap();
        let root = vec![dir.path().to_path_buf(), dir.path().to_path_buf()];
        let walked = walk_paths(&root, &WalkOptions::default(), json);
        assert_eq!(walked.len(), 2);
        assert!(matches!(&walked[1], Walked::Refused { reason, .. } if reason == ALREADY_VISITED));
    }
}
