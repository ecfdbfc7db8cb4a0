//! Reading at most a cap of bytes: the cap is applied while reading, so an endless or huge
//! input costs at most `cap + 1` bytes of memory before it is refused.

use super::{open_regular, InputError, InputErrorKind};
use std::io::Read;
use std::path::Path;

/// Reads `reader` whole if it holds at most `cap` bytes; `Ok(None)` when it holds more (only
/// `cap + 1` bytes were read to find out). A cap of `u64::MAX` means no cap, without the
/// `cap + 1` wrapping to 0.
pub fn read_capped(reader: impl Read, cap: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Ok(None);
    }
    Ok(Some(bytes))
}

/// Reads a regular file of at most `cap` bytes (see `open_regular` for what is refused).
pub fn read_file(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let file = open_regular(path)?;
    read_capped(file, cap)
        .map_err(|error| InputError::io(path, &error))?
        .ok_or_else(|| too_large(path, cap))
}

/// Reads standard input, at most `cap` bytes (a pipe or a terminal is fine here: the user
/// chose to hand it over; `< /dev/zero` ends at the cap). Errors name it `-`.
pub fn read_stdin(cap: u64) -> Result<Vec<u8>, InputError> {
    let path = Path::new("-");
    read_capped(std::io::stdin().lock(), cap)
        .map_err(|error| InputError::io(path, &error))?
        .ok_or_else(|| too_large(path, cap))
}

fn too_large(path: &Path, cap: u64) -> InputError {
    InputError::new(path, InputErrorKind::TooLarge { cap })
}

/// A byte count as people write caps: `16 MiB`, `20 bytes`.
pub fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_applied_while_reading() {
        assert_eq!(read_capped(&b"abc"[..], 3).unwrap(), Some(b"abc".to_vec()));
        assert_eq!(read_capped(&b"abcd"[..], 3).unwrap(), None);
        // An endless reader ends at cap + 1 bytes.
        assert_eq!(read_capped(std::io::repeat(0), 10).unwrap(), None);
        assert_eq!(read_capped(&b""[..], 0).unwrap(), Some(Vec::new()));
    }

    #[test]
    fn the_largest_cap_does_not_wrap() {
        assert_eq!(
            read_capped(&b"ab"[..], u64::MAX).unwrap(),
            Some(b"ab".to_vec())
        );
    }

    #[test]
    fn too_large_files_name_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, [b' '; 30]).unwrap();
        let error = read_file(&path, 20).unwrap_err();
        assert_eq!(error.kind, InputErrorKind::TooLarge { cap: 20 });
        assert!(error.reason().starts_with("larger than the 20 bytes cap"));
        assert_eq!(read_file(&path, 30).unwrap().len(), 30);
    }
}
