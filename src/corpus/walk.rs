//! Turning command-line paths into the files to read, without ever opening anything that is
//! not a regular file (a FIFO would hang the walk) and without following a symlink loop.

use super::{FileFormat, LoadError, Source};
use crate::input::file_kind;
// Re-exported for the readers, which take it from here.
pub(crate) use crate::input::describe_io;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkItem {
    File { path: PathBuf, format: FileFormat },
    Error(LoadError),
}

/// Expands paths: a file is taken as named (NDJSON when it ends in `.ndjson`/`.jsonl`, one
/// packet otherwise); a directory contributes every `*.json`, `*.ndjson` and `*.jsonl` below
/// it, recursively, sorted by path. Problems become `WalkItem::Error`s in place.
pub fn walk(paths: &[PathBuf]) -> Vec<WalkItem> {
    let mut items = Vec::new();
    let mut visited_dirs = HashSet::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk_dir(path, &mut visited_dirs, &mut items),
            Ok(meta) if meta.is_file() => items.push(WalkItem::File {
                path: path.clone(),
                format: FileFormat::of(path).unwrap_or(FileFormat::Json),
            }),
            Ok(meta) => items.push(error(
                path,
                format!("not a regular file ({}); not opened", file_kind(&meta)),
            )),
            Err(reason) => items.push(error(path, describe_io(&reason))),
        }
    }
    items
}

fn walk_dir(dir: &Path, visited: &mut HashSet<PathBuf>, items: &mut Vec<WalkItem>) {
    // Canonical paths identify a directory however it was reached, so a symlink back to an
    // ancestor is seen as already visited.
    match fs::canonicalize(dir) {
        Ok(canonical) => {
            if !visited.insert(canonical) {
                items.push(error(
                    dir,
                    "directory already visited (symlink loop or repeated path); skipped".to_owned(),
                ));
                return;
            }
        }
        Err(reason) => {
            items.push(error(dir, describe_io(&reason)));
            return;
        }
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(reason) => {
            items.push(error(dir, describe_io(&reason)));
            return;
        }
    };
    let mut children: Vec<PathBuf> = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => children.push(entry.path()),
            Err(reason) => items.push(error(dir, describe_io(&reason))),
        }
    }
    children.sort();
    for child in children {
        // `metadata` follows symlinks: a link to a file counts as that file, a dangling link
        // is an error, a link to a directory is walked (loops are caught above).
        match fs::metadata(&child) {
            Ok(meta) if meta.is_dir() => walk_dir(&child, visited, items),
            Ok(meta) => {
                let Some(format) = FileFormat::of(&child) else {
                    continue;
                };
                if meta.is_file() {
                    items.push(WalkItem::File {
                        path: child,
                        format,
                    });
                } else {
                    items.push(error(
                        &child,
                        format!("not a regular file ({}); not opened", file_kind(&meta)),
                    ));
                }
            }
            Err(reason) => {
                if FileFormat::of(&child).is_some() || child.is_symlink() {
                    items.push(error(&child, describe_io(&reason)));
                }
            }
        }
    }
}

fn error(path: &Path, reason: String) -> WalkItem {
    WalkItem::Error(LoadError {
        source: Source::file(path),
        reason,
    })
}
