//! `Part.raw` is proto `bytes`: base64 in ProtoJSON. Parsers accept standard or URL-safe
//! alphabets with or without padding; the tool emits standard base64 with padding. The v0.3
//! spec examples carry placeholders such as `"iVBORw0KGgo..."`, which strict decoders reject
//! and Python's protobuf silently "repairs", so invalid text is reported, never fixed quietly.

/// The outcome of checking base64 text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base64 {
    /// Standard alphabet, correctly padded.
    Standard,
    /// Valid, but URL-safe or unpadded: this is the standard padded form.
    Normalised(String),
    /// Not base64: the count and first position (in characters) of the offending characters.
    Invalid { bad: usize, first: usize },
}

fn standard_char(c: char) -> Option<char> {
    match c {
        'A'..='Z' | 'a'..='z' | '0'..='9' | '+' | '/' => Some(c),
        '-' => Some('+'),
        '_' => Some('/'),
        _ => None,
    }
}

fn padded(mut body: String) -> String {
    while !body.len().is_multiple_of(4) {
        body.push('=');
    }
    body
}

pub fn check(text: &str) -> Base64 {
    let body_text = text.trim_end_matches('=');
    let padding = text.len() - body_text.len();
    let mut body = String::with_capacity(text.len());
    let mut bad = 0;
    let mut first = None;
    for (index, c) in body_text.chars().enumerate() {
        match standard_char(c) {
            Some(c) => body.push(c),
            None => {
                bad += 1;
                first.get_or_insert(index);
            }
        }
    }
    let length_ok =
        body.len() % 4 != 1 && (padding == 0 || (text.len().is_multiple_of(4) && padding <= 2));
    if let Some(first) = first {
        return Base64::Invalid { bad, first };
    }
    if !length_ok {
        return Base64::Invalid {
            bad: 0,
            first: text.chars().count(),
        };
    }
    let standard = padded(body);
    if standard == text {
        Base64::Standard
    } else {
        Base64::Normalised(standard)
    }
}

/// Drops every character outside the alphabet (as Python's protobuf does), and a dangling
/// final character, then pads. Returns the text and how many characters were dropped.
pub fn repair(text: &str) -> (String, usize) {
    let mut body: String = text.chars().filter_map(standard_char).collect();
    let mut dropped = text.trim_end_matches('=').chars().count() - body.chars().count();
    if body.len() % 4 == 1 {
        body.pop();
        dropped += 1;
    }
    (padded(body), dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_and_normalised() {
        assert_eq!(check("aGVsbG8="), Base64::Standard);
        assert_eq!(check(""), Base64::Standard);
        assert_eq!(check("aGVsbG8"), Base64::Normalised("aGVsbG8=".into()));
        assert_eq!(check("-_8="), Base64::Normalised("+/8=".into()));
    }

    #[test]
    fn placeholders_are_invalid_and_repair_names_the_loss() {
        assert_eq!(
            check("iVBORw0KGgo..."),
            Base64::Invalid { bad: 3, first: 11 }
        );
        assert!(matches!(check("abcde"), Base64::Invalid { .. }));
        assert!(matches!(check("ab=c"), Base64::Invalid { .. }));
        assert!(matches!(check("abc==="), Base64::Invalid { .. }));
        assert_eq!(repair("iVBORw0KGgo..."), ("iVBORw0KGgo=".into(), 3));
        assert_eq!(repair("abcde"), ("abcd".into(), 1));
    }
}
