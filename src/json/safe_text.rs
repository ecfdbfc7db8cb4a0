//! Packets are untrusted: their strings may carry ESC sequences, C1 controls, bidi overrides
//! or invisible characters that would rewrite a terminal or hide text from a reviewer.
//! Every face (text output and TUI) shows packet text through `safe_text`, which escapes
//! those characters as `\u{..}` and leaves everything else untouched.

use std::borrow::Cow;

/// True for characters that must never reach a terminal raw.
pub fn is_unsafe_char(c: char) -> bool {
    matches!(c,
        // C0 controls (tab and newline included: callers lay out lines themselves), DEL, C1.
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // Soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers.
        | '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
        // Mongolian vowel separator, zero-width and directional marks.
        | '\u{180e}' | '\u{200b}'..='\u{200f}'
        // Line/paragraph separators, bidi embeddings and overrides.
        | '\u{2028}'..='\u{202e}'
        // Word joiner, invisible operators, bidi isolates, deprecated format characters.
        | '\u{2060}'..='\u{206f}'
        // Byte-order mark / zero-width no-break space.
        | '\u{feff}'
        // Interlinear annotation and object replacement controls.
        | '\u{fff9}'..='\u{fffb}'
        // Tag characters (invisible "ASCII smuggling").
        | '\u{e0000}'..='\u{e007f}')
}

/// Escapes every unsafe character as `\u{hex}`; borrows when nothing needs escaping.
pub fn safe_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(
            safe_text("agent://coordinator é 日本"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn escapes_terminal_controls_and_invisibles() {
        assert_eq!(safe_text("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(safe_text("\u{9b}2J"), "\\u{9b}2J");
        assert_eq!(safe_text("x\u{7f}"), "x\\u{7f}");
        assert_eq!(safe_text("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(safe_text("\u{2066}i\u{2069}"), "\\u{2066}i\\u{2069}");
        assert_eq!(safe_text("zero\u{200b}width"), "zero\\u{200b}width");
        assert_eq!(safe_text("tag\u{e0041}"), "tag\\u{e0041}");
        assert_eq!(safe_text("line\nbreak\t"), "line\\u{a}break\\u{9}");
    }
}
