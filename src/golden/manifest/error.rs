//! Why a manifest could not be read.

use std::fmt;

/// Why a manifest could not be read, with the place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub reason: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for ManifestError {}

pub(in crate::golden) fn bad(reason: impl Into<String>) -> ManifestError {
    ManifestError {
        reason: reason.into(),
    }
}
