//! The pieces of JSON string escapes every hand-written lexer decodes the same way: a
//! one-letter escape's character, four hex digits, a UTF-16 surrogate pair. The bundle's two
//! lexers (the fast path, `bundle::fast::scan`, and upstream's strict pre-check,
//! `bundle::strict`) decode escapes with these, each keeping its own answer to a bad one (the
//! fast path gives up, the strict check names the failure upstream names). The other lexers
//! (`json::duplicates`, `golden::index_scan`, `a2a::raw`) find string ends themselves and let
//! `serde_json` decode.

/// The character a one-letter escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
/// `\t`); `None` for any other letter (`u` included: see [`hex4`]).
#[inline]
pub fn short_escape(letter: u8) -> Option<char> {
    Some(match letter {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// The code unit of `\uXXXX`'s four digits (either case); `None` unless `digits` is exactly
/// four ASCII hex digits.
#[inline]
pub fn hex4(digits: &[u8]) -> Option<u32> {
    let digits: &[u8; 4] = digits.try_into().ok()?;
    digits.iter().try_fold(0u32, |code, &byte| {
        Some(code << 4 | char::from(byte).to_digit(16)?)
    })
}

/// A high surrogate (`\uD800`-`\uDBFF`): the first half of a pair.
#[inline]
pub fn is_high_surrogate(code: u32) -> bool {
    (0xD800..=0xDBFF).contains(&code)
}

/// A low surrogate (`\uDC00`-`\uDFFF`): the second half of a pair.
#[inline]
pub fn is_low_surrogate(code: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&code)
}

/// The character a high and a low surrogate stand for together; `None` unless they are one.
#[inline]
pub fn surrogate_pair(high: u32, low: u32) -> Option<char> {
    if !is_high_surrogate(high) || !is_low_surrogate(low) {
        return None;
    }
    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_decode_as_serde_json_does() {
        for letter in *b"\"\\/bfnrt" {
            let text = format!("\"\\{}\"", char::from(letter));
            let decoded: String = serde_json::from_str(&text).unwrap();
            assert_eq!(short_escape(letter), decoded.chars().next());
        }
        assert_eq!(short_escape(b'u'), None);
        assert_eq!(short_escape(b'x'), None);
        assert_eq!(hex4(b"00e9"), Some(0xe9));
        assert_eq!(hex4(b"FFfF"), Some(0xffff));
        for bad in [&b"00e"[..], b"00e9a", b"+0e9", b"00g9", b"0 e9"] {
            assert_eq!(hex4(bad), None, "{bad:?}");
        }
        assert_eq!(surrogate_pair(0xD83D, 0xDE00), Some('😀'));
        assert_eq!(surrogate_pair(0xDE00, 0xD83D), None);
        assert_eq!(surrogate_pair(0xD83D, 0x41), None);
        let decoded: String = serde_json::from_str(r#""\udbff\udfff""#).unwrap();
        assert_eq!(surrogate_pair(0xDBFF, 0xDFFF), decoded.chars().next());
    }
}

/// A `\uD800`-`\uDFFF` escape with no partner: a high surrogate not followed at once by a
/// low one, or a low one alone. Where it is (1-based line and column of its backslash).
#[derive(Debug, PartialEq, Eq)]
pub struct UnpairedSurrogate {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// The first unpaired surrogate escape in `bytes`, read as JSON text (escapes are only
/// looked for inside strings).
pub fn unpaired_surrogate(bytes: &[u8]) -> Option<UnpairedSurrogate> {
    let escape_at = |at: usize| -> Option<u32> {
        if bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u') {
            let digits = bytes.get(at + 2..at + 6)?;
            u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
        } else {
            None
        }
    };
    let (mut in_string, mut at) = (false, 0);
    while at < bytes.len() {
        match bytes[at] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if let Some(code) = escape_at(at) {
                    let paired =
                        is_high_surrogate(code) && escape_at(at + 6).is_some_and(is_low_surrogate);
                    if paired {
                        at += 12;
                        continue;
                    }
                    if is_high_surrogate(code) || is_low_surrogate(code) {
                        let before = &bytes[..at];
                        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
                        let line_start = before
                            .iter()
                            .rposition(|b| *b == b'\n')
                            .map_or(0, |p| p + 1);
                        return Some(UnpairedSurrogate {
                            text: String::from_utf8_lossy(&bytes[at..at + 6]).into_owned(),
                            line,
                            column: at - line_start + 1,
                        });
                    }
                    at += 6;
                    continue;
                }
                at += 2;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod unpaired_tests {
    use super::*;

    #[test]
    fn a_lone_half_is_found_and_a_pair_or_an_escaped_backslash_is_not() {
        let found = unpaired_surrogate(b"{\"a\":\n \"x\\ud800\"}").unwrap();
        assert_eq!(
            (found.text.as_str(), found.line, found.column),
            ("\\ud800", 2, 4)
        );
        assert!(unpaired_surrogate(br#"{"a":"\ud83d\ude00"}"#).is_none());
        assert!(unpaired_surrogate(br#"{"a":"\\ud800"}"#).is_none());
        assert_eq!(
            unpaired_surrogate(br#"["\udc00"]"#).unwrap().text,
            "\\udc00"
        );
        assert_eq!(
            unpaired_surrogate(br#"["\ud800\u0041"]"#).unwrap().column,
            3
        );
    }
}
