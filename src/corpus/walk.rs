//! Turning command-line paths into packet files: the input layer's walk (ignore files,
//! symlinks kept inside the given paths, special files never opened), keeping the files whose
//! names say they hold packets.

use crate::input::{walk_paths, WalkOptions, Walked};
use crate::packet::{FileFormat, LoadError, Source};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WalkItem {
    File { path: PathBuf, format: FileFormat },
    Error(LoadError),
}

/// Expands paths: a file is taken as named (NDJSON when it ends in `.ndjson`/`.jsonl`, one
/// packet otherwise); a directory contributes every `*.json`, `*.ndjson` and `*.jsonl` below
/// it, recursively, sorted by path; a bundle (`.tar.gz`, `.tgz`) is read as one, and
/// `BUNDLE:SEQ` names one of its events. Problems become `WalkItem::Error`s in place.
/// `options` are the command's `--no-ignore` and `--follow-outside`, passed down by each
/// caller (never a process-wide setting).
pub fn walk(paths: &[PathBuf], options: &WalkOptions) -> Vec<WalkItem> {
    let keep = |path: &Path| FileFormat::of(path).is_some();
    walk_paths(paths, options, keep)
        .into_iter()
        .map(|walked| match walked {
            Walked::File(path) => WalkItem::File {
                format: FileFormat::of(&path).unwrap_or(FileFormat::Json),
                path,
            },
            // `BUNDLE:SEQ`: not a file, but one event of the bundle before the colon.
            Walked::Refused { path, .. } if crate::bundle::bundle_event_ref(&path).is_some() => {
                match crate::bundle::bundle_event_ref(&path) {
                    Some((bundle, seq)) => WalkItem::File {
                        path: bundle,
                        format: FileFormat::BundleEvent(seq),
                    },
                    None => WalkItem::Error(LoadError {
                        source: Source::file(path),
                        reason: "not a bundle event".to_owned(),
                    }),
                }
            }
            Walked::Refused { path, reason } => WalkItem::Error(LoadError {
                source: Source::file(path),
                reason,
            }),
        })
        .collect()
}
