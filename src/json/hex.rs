//! Lowercase hex, the one encoder: digests (`Digest::to_hex`, `hex_str`) and bundle hashes
//! (`sha256:HEX`) both write through it.

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Writes the lowercase hex of `bytes` into the start of `out` (which must hold
/// `2 * bytes.len()` bytes) and returns that text, borrowed from `out`. No allocation: the
/// converter writes three digests a packet.
#[inline]
pub fn hex_into<'b>(bytes: &[u8], out: &'b mut [u8]) -> &'b str {
    let out = &mut out[..2 * bytes.len()];
    for (pair, byte) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 0x0f)];
    }
    // Only ASCII hex digits were written: the check cannot fail.
    std::str::from_utf8(out).unwrap_or_default()
}

/// Appends the lowercase hex of `bytes` to `out`.
pub fn push_hex(bytes: &[u8], out: &mut String) {
    out.reserve(2 * bytes.len());
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_write_the_same_digits() {
        let bytes = [0x00, 0x0f, 0xa5, 0xff, 0x10];
        let mut buffer = [0u8; 10];
        assert_eq!(hex_into(&bytes, &mut buffer), "000fa5ff10");
        let mut text = String::from("sha256:");
        push_hex(&bytes, &mut text);
        assert_eq!(text, "sha256:000fa5ff10");
    }
}
