//! Opening a file only if it is a regular file, without ever blocking on the open itself.

use super::{InputError, InputErrorKind};
use std::fs::{File, Metadata};
use std::path::Path;

/// Opens `path` for reading if it is a regular file (symlinks followed). A FIFO, socket,
/// device or directory is refused with its kind named. On Unix the open is non-blocking (so
/// opening a FIFO with no writer returns at once) and the decision is taken on the opened
/// descriptor (`fstat`), so a file swapped between a check and the open cannot slip through.
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    let file = open_nonblocking(path).map_err(|error| InputError::io(path, &error))?;
    let meta = file
        .metadata()
        .map_err(|error| InputError::io(path, &error))?;
    if meta.is_dir() {
        return Err(InputError::new(path, InputErrorKind::IsDirectory));
    }
    if !meta.is_file() {
        return Err(InputError::new(
            path,
            InputErrorKind::SpecialFile(file_kind(&meta)),
        ));
    }
    Ok(file)
}

/// The refusal text for a special file, shared with the directory walk.
pub fn refusal(meta: &Metadata) -> String {
    InputErrorKind::SpecialFile(file_kind(meta)).to_string()
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK changes nothing for regular files (Linux and the BSDs ignore it for them),
    // so the descriptor is used as is once fstat says the file is regular.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(unix)]
pub fn file_kind(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "special file"
    }
}

#[cfg(not(unix))]
pub fn file_kind(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        "a directory"
    } else {
        "special file"
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn regular_files_open_and_devices_and_directories_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.json");
        std::fs::write(&file, b"{}").unwrap();
        assert!(open_regular(&file).is_ok());
        let link = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let refused = open_regular(&link).unwrap_err();
        assert_eq!(refused.kind, InputErrorKind::SpecialFile("a device"));
        assert_eq!(
            refused.reason(),
            "not a regular file (a device); not opened"
        );
        assert_eq!(
            open_regular(dir.path()).unwrap_err().kind,
            InputErrorKind::IsDirectory
        );
        let missing = open_regular(&dir.path().join("missing.json")).unwrap_err();
        assert!(missing.is_not_found());
    }
}
