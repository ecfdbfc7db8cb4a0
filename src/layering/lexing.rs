//! Just enough of a Rust lexer for the layering tests: comments and literals blanked, then tokens.

pub(super) fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

pub(super) fn line_of(code: &str, at: usize) -> usize {
    code[..at].bytes().filter(|&byte| byte == b'\n').count() + 1
}

/// The source with comments, string and character literals blanked (newlines kept, so line
/// numbers stay), so that prose mentioning `crate::x` is not read as an import.
pub(super) fn strip_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if c == '/' && next == Some('/') {
            while index < chars.len() && chars[index] != '\n' {
                out.push(' ');
                index += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while index < chars.len() {
                if chars[index] == '/' && chars.get(index + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    index += 2;
                } else if chars[index] == '*' && chars.get(index + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    index += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[index]));
                    index += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (index == 0 || !chars[index - 1].is_alphanumeric() || chars[index - 1] == 'b')
            && raw_string_start(&chars[index + 1..]).is_some()
        {
            let hashes = raw_string_start(&chars[index + 1..]).unwrap_or(0);
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            // `r`, the hashes and the opening quote.
            for _ in 0..hashes + 2 {
                out.push(' ');
            }
            index += hashes + 2;
            while index < chars.len() && !chars[index..].starts_with(&closing) {
                out.push(blank(chars[index]));
                index += 1;
            }
            for _ in 0..closing.len().min(chars.len() - index) {
                out.push(' ');
            }
            index += closing.len();
        } else if c == '"' {
            out.push(' ');
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    out.push(' ');
                    index += 1;
                }
                if index < chars.len() {
                    out.push(blank(chars[index]));
                    index += 1;
                }
            }
            out.push(' ');
            index += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1b}', '"'); otherwise a lifetime.
            let literal_end = if next == Some('\\') {
                // The escaped character itself may be a quote: `'\''`.
                chars
                    .get(index + 3..)
                    .and_then(|rest| rest.iter().position(|&c| c == '\''))
                    .map(|end| index + 3 + end)
            } else if chars.get(index + 2) == Some(&'\'') {
                Some(index + 2)
            } else {
                None
            };
            match literal_end {
                Some(end) => {
                    for _ in index..=end {
                        out.push(' ');
                    }
                    index = end + 1;
                }
                None => {
                    out.push(c);
                    index += 1;
                }
            }
        } else {
            out.push(c);
            index += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting after its `r`, if one starts there.
pub(super) fn raw_string_start(after_r: &[char]) -> Option<usize> {
    let hashes = after_r.iter().take_while(|&&c| c == '#').count();
    (after_r.get(hashes) == Some(&'"')).then_some(hashes)
}

/// The tokens of code with comments and literals already blanked: identifiers, `::` and single
/// punctuation characters, each with its byte offset.
pub(super) fn tokens(code: &str) -> Vec<(usize, &str)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if is_ident_byte(byte) || byte >= 0x80 {
            let start = at;
            while at < bytes.len() && (is_ident_byte(bytes[at]) || bytes[at] >= 0x80) {
                at += 1;
            }
            out.push((start, &code[start..at]));
        } else if code[at..].starts_with("::") {
            out.push((at, "::"));
            at += 2;
        } else if byte.is_ascii_whitespace() {
            at += 1;
        } else {
            let width = code[at..].chars().next().map_or(1, char::len_utf8);
            out.push((at, &code[at..at + width]));
            at += width;
        }
    }
    out
}

pub(super) fn is_identifier(token: &str) -> bool {
    token
        .bytes()
        .next()
        .is_some_and(|byte| byte.is_ascii_alphabetic() || byte == b'_' || byte >= 0x80)
}
