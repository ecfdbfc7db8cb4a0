//! Errors of the input layer: always the path and a reason in plain words.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a file was not read (or not read whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub path: PathBuf,
    pub reason: String,
}

impl InputError {
    pub fn new(path: &Path, reason: impl Into<String>) -> InputError {
        InputError {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    pub fn io(path: &Path, error: &std::io::Error) -> InputError {
        InputError::new(path, describe_io(error))
    }

    /// Whether the file simply does not exist (callers for which absence is normal, like a
    /// directory without a manifest, tell this apart from a real problem).
    pub fn is_not_found(&self) -> bool {
        self.reason == NOT_FOUND
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // File names come from elsewhere too: an ESC in one must not reach the terminal.
        let path = self.path.to_string_lossy();
        write!(f, "{}: {}", crate::json::safe_text(&path), self.reason)
    }
}

impl std::error::Error for InputError {}

const NOT_FOUND: &str = "no such file or directory";

/// An I/O error in plain words, without the OS error number.
pub fn describe_io(error: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::NotFound => NOT_FOUND.to_owned(),
        ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ if error.raw_os_error() == Some(40) => {
            "too many levels of symbolic links (symlink loop)".to_owned()
        }
        _ => {
            let text = error.to_string();
            match text.find(" (os error") {
                Some(cut) => text[..cut].to_owned(),
                None => text,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_escapes_the_path_and_keeps_the_reason() {
        let error = InputError::new(Path::new("a\u{1b}[31mb.json"), "permission denied");
        assert_eq!(error.to_string(), "a\\u{1b}[31mb.json: permission denied");
    }

    #[test]
    fn not_found_is_told_apart() {
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert!(InputError::io(Path::new("x"), &missing).is_not_found());
        assert!(!InputError::new(Path::new("x"), "permission denied").is_not_found());
    }
}
