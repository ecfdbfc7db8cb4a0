//! Writing JSON strings straight into a byte buffer, for the direct line writers.

/// A JSON string exactly as `serde_json` writes it. `serde_json` escapes exactly the control
/// characters, `"` and backslash; a string without them is written verbatim (the common
/// case, told by a vectorized scan), any other through `serde_json` itself.
pub fn write_json_string(text: &str, out: &mut Vec<u8>) {
    // A fold without early exit, so the compiler can vectorize the scan.
    let needs_escape = text.bytes().fold(false, |needs, byte| {
        needs | (byte < 0x20) | (byte == b'"') | (byte == b'\\')
    });
    if !needs_escape {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn strings_are_written_as_serde_json_writes_them(text in "\\PC*|[\"\\\\\u{0}-\u{1f}a-z]{0,12}") {
            let mut out = Vec::new();
            write_json_string(&text, &mut out);
            prop_assert_eq!(out, serde_json::to_vec(&text).unwrap());
        }
    }
}
