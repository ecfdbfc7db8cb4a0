//! Errors of the input layer: always the path and a reason in plain words. The reason is a
//! kind (callers that treat absence as normal ask [`InputError::is_not_found`], not the
//! words), worded by its `Display`.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a file was not read (or not read whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub path: PathBuf,
    pub kind: InputErrorKind,
}

/// What kept a file from being read. `Display` gives the reason in plain words, without the
/// OS error number: `no such file or directory`, `larger than the 16 MiB cap; not read
/// further`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputErrorKind {
    NotFound,
    PermissionDenied,
    /// A symlink loop (`ELOOP`).
    SymlinkLoop,
    IsDirectory,
    /// A FIFO, socket or device, refused before a byte is read; the kind as
    /// [`file_kind`](super::file_kind) names it (`a FIFO`, `a device`...).
    SpecialFile(&'static str),
    /// More bytes than the cap; only `cap + 1` were read.
    TooLarge {
        cap: u64,
    },
    /// Any other I/O error, in the system's words without the error number.
    Io(String),
}

impl InputErrorKind {
    /// The kind of an I/O error.
    fn of_io(error: &std::io::Error) -> InputErrorKind {
        use std::io::ErrorKind;
        match error.kind() {
            ErrorKind::NotFound => InputErrorKind::NotFound,
            ErrorKind::PermissionDenied => InputErrorKind::PermissionDenied,
            _ if error.raw_os_error() == Some(40) => InputErrorKind::SymlinkLoop,
            _ => {
                let text = error.to_string();
                InputErrorKind::Io(match text.find(" (os error") {
                    Some(cut) => text[..cut].to_owned(),
                    None => text,
                })
            }
        }
    }
}

impl fmt::Display for InputErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputErrorKind::NotFound => f.write_str("no such file or directory"),
            InputErrorKind::PermissionDenied => f.write_str("permission denied"),
            InputErrorKind::SymlinkLoop => {
                f.write_str("too many levels of symbolic links (symlink loop)")
            }
            InputErrorKind::IsDirectory => f.write_str("is a directory"),
            InputErrorKind::SpecialFile(kind) => {
                write!(f, "not a regular file ({kind}); not opened")
            }
            InputErrorKind::TooLarge { cap } => write!(
                f,
                "larger than the {} cap; not read further",
                super::human_bytes(*cap)
            ),
            InputErrorKind::Io(text) => f.write_str(text),
        }
    }
}

impl InputError {
    pub fn new(path: &Path, kind: InputErrorKind) -> InputError {
        InputError {
            path: path.to_path_buf(),
            kind,
        }
    }

    pub fn io(path: &Path, error: &std::io::Error) -> InputError {
        InputError::new(path, InputErrorKind::of_io(error))
    }

    /// The reason in plain words (what follows the path in `Display`).
    pub fn reason(&self) -> String {
        self.kind.to_string()
    }

    /// Whether the file simply does not exist (callers for which absence is normal, like a
    /// directory without a manifest, tell this apart from a real problem).
    pub fn is_not_found(&self) -> bool {
        self.kind == InputErrorKind::NotFound
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // File names come from elsewhere too: an ESC in one must not reach the terminal.
        let path = self.path.to_string_lossy();
        write!(f, "{}: {}", crate::json::safe_text(&path), self.kind)
    }
}

impl std::error::Error for InputError {}

/// An I/O error in plain words, without the OS error number.
pub fn describe_io(error: &std::io::Error) -> String {
    InputErrorKind::of_io(error).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_escapes_the_path_and_keeps_the_reason() {
        let error = InputError::new(
            Path::new("a\u{1b}[31mb.json"),
            InputErrorKind::PermissionDenied,
        );
        assert_eq!(error.to_string(), "a\\u{1b}[31mb.json: permission denied");
    }

    #[test]
    fn not_found_is_told_apart_by_kind_not_words() {
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        assert!(InputError::io(Path::new("x"), &missing).is_not_found());
        assert!(!InputError::new(Path::new("x"), InputErrorKind::PermissionDenied).is_not_found());
        // Another error whose words happen to be the same is not absence.
        let lookalike = InputErrorKind::Io("no such file or directory".to_owned());
        assert!(!InputError::new(Path::new("x"), lookalike).is_not_found());
    }

    #[test]
    fn each_kind_keeps_the_words_users_and_tests_read() {
        let reasons = [
            (InputErrorKind::NotFound, "no such file or directory"),
            (InputErrorKind::PermissionDenied, "permission denied"),
            (
                InputErrorKind::SymlinkLoop,
                "too many levels of symbolic links (symlink loop)",
            ),
            (InputErrorKind::IsDirectory, "is a directory"),
            (
                InputErrorKind::SpecialFile("a FIFO"),
                "not a regular file (a FIFO); not opened",
            ),
            (
                InputErrorKind::TooLarge { cap: 16 << 20 },
                "larger than the 16 MiB cap; not read further",
            ),
        ];
        for (kind, words) in reasons {
            assert_eq!(kind.to_string(), words);
        }
        let other = std::io::Error::from_raw_os_error(5);
        assert_eq!(describe_io(&other), "Input/output error");
        assert!(matches!(
            InputErrorKind::of_io(&other),
            InputErrorKind::Io(_)
        ));
    }
}
