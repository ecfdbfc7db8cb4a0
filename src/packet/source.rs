//! Where a packet came from (a file, an NDJSON line, a bundle event) and how its file holds
//! packets.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a file holds packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileFormat {
    /// One packet per file.
    Json,
    /// One packet per non-blank line (`.ndjson`, `.jsonl`).
    Ndjson,
    /// An assay evidence bundle (`.tar.gz`, `.tgz`): a packet for the bundle and one per
    /// event line (see `corpus::bundle_packets`).
    Bundle,
    /// One event of a bundle, named `BUNDLE:SEQ` on the command line.
    BundleEvent(usize),
}

impl FileFormat {
    /// The format a file name implies; `None` for files a directory walk skips.
    pub fn of(path: &Path) -> Option<FileFormat> {
        if crate::bundle::is_bundle_path(path) {
            return Some(FileFormat::Bundle);
        }
        match path.extension().and_then(|extension| extension.to_str()) {
            Some("json") => Some(FileFormat::Json),
            Some("ndjson" | "jsonl") => Some(FileFormat::Ndjson),
            _ => None,
        }
    }
}

/// Where a packet came from: a file, or a line of an NDJSON file. The path is shared, so a
/// million lines of one stream hold one copy of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Source {
    pub path: Arc<Path>,
    pub line: Option<usize>,
}

impl Source {
    pub fn file(path: impl Into<PathBuf>) -> Source {
        Source {
            path: Arc::from(path.into()),
            line: None,
        }
    }

    pub fn line(path: Arc<Path>, line: usize) -> Source {
        Source {
            path,
            line: Some(line),
        }
    }

    /// Whether this names an event of an evidence bundle (`BUNDLE:SEQ`).
    pub fn is_bundle_event(&self) -> bool {
        self.line.is_some() && crate::bundle::is_bundle_path(&self.path)
    }

    /// The file name, for display and for classification by name.
    pub fn file_name(&self) -> Option<&str> {
        self.path.file_name().and_then(|name| name.to_str())
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.to_string_lossy();
        let path = crate::json::safe_text(&path);
        match self.line {
            Some(line) => write!(f, "{path}:{line}"),
            None => write!(f, "{path}"),
        }
    }
}

impl Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
