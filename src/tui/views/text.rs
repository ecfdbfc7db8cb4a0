//! Text building blocks. Every string that came from a packet passes through `safe` before it
//! becomes a span, so no control, C1 or bidi character reaches the terminal.

use crate::json::safe_text;
use crate::tui::views::theme::Theme;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

pub fn safe(text: &str) -> String {
    safe_text(text).into_owned()
}

pub fn heading(text: &str, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(text.to_owned(), theme.title()))
}

/// One handoff field as `marker field value decided-by`: positive values in the good colour.
pub fn field_line(
    marker: &str,
    field: &crate::freeze::FieldDecision,
    theme: &Theme,
) -> Line<'static> {
    let value = serde_json::to_string(&field.value).unwrap_or_default();
    let positive = value == "true" || value == "\"typed_payload\"";
    Line::from(vec![
        Span::raw(format!("{marker}{:<20} ", field.field)),
        Span::styled(
            format!("{value:<16} "),
            if positive { theme.good() } else { theme.text() },
        ),
        Span::styled(field.decided_by.join(" "), theme.highlight()),
    ])
}

/// `classified as KIND: reason`, for tabs that have nothing to show for this kind of packet.
pub fn classified_as(detail: &crate::corpus::PacketDetail, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(
        format!(
            "classified as {}: {}",
            detail.classification.kind.name(),
            safe(&detail.classification.reason)
        ),
        theme.secondary(),
    ))
}

/// A JSON text line with keys, strings, numbers and literals coloured.
pub fn json_line(line: &str, theme: &Theme) -> Line<'static> {
    let colour = |color: Color| {
        if theme.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    };
    let mut spans = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut index = 0;
    let mut plain = String::new();
    let flush = |plain: &mut String, spans: &mut Vec<Span<'static>>| {
        if !plain.is_empty() {
            spans.push(Span::raw(safe(plain)));
            plain.clear();
        }
    };
    while index < chars.len() {
        let c = chars[index];
        if c == '"' {
            flush(&mut plain, &mut spans);
            let start = index;
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                index += if chars[index] == '\\' { 2 } else { 1 };
            }
            index = (index + 1).min(chars.len());
            let token: String = chars[start..index].iter().collect();
            let rest = chars[index..].iter().find(|c| !c.is_whitespace());
            let style = if rest == Some(&':') {
                colour(Color::Cyan)
            } else {
                colour(Color::Green)
            };
            spans.push(Span::styled(safe(&token), style));
        } else if c == '-' || c.is_ascii_digit() {
            flush(&mut plain, &mut spans);
            let start = index;
            while index < chars.len()
                && (chars[index].is_ascii_alphanumeric() || "+-.".contains(chars[index]))
            {
                index += 1;
            }
            let token: String = chars[start..index].iter().collect();
            spans.push(Span::styled(token, colour(Color::Magenta)));
        } else if c.is_ascii_alphabetic() {
            flush(&mut plain, &mut spans);
            let start = index;
            while index < chars.len() && chars[index].is_ascii_alphabetic() {
                index += 1;
            }
            let token: String = chars[start..index].iter().collect();
            spans.push(Span::styled(safe(&token), colour(Color::Yellow)));
        } else {
            plain.push(c);
            index += 1;
        }
    }
    flush(&mut plain, &mut spans);
    Line::from(spans)
}

/// Pretty JSON of a value (keys in byte order, as in canonical form), coloured.
pub fn json_value_lines(value: &serde_json::Value, theme: &Theme) -> Vec<Line<'static>> {
    crate::json::canonical_pretty(value)
        .lines()
        .take(crate::tui::views::window::MAX_LINES)
        .map(|line| json_line(line, theme))
        .collect()
}

/// [`json_value_lines`] of the value whose canonical bytes are `compact`, laid out from the
/// text (a payload may be 700 MB as a tree and 14 MB as text).
pub fn canonical_text_lines(compact: &[u8], theme: &Theme) -> Vec<Line<'static>> {
    crate::json::canonical_pretty_of(compact, crate::tui::views::window::MAX_LINES)
        .lines()
        .map(|line| json_line(line, theme))
        .collect()
}

/// Re-indents JSON text without parsing it, so key order and duplicate keys stay exactly as
/// in the file. Text that is not JSON comes out with the same characters.
pub fn reindent(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth.min(40)));
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let closes = matches!(chars.peek(), Some('}') | Some(']'));
                if !closes {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                if !matches!(out.chars().last(), Some('{') | Some('[')) {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reindent_keeps_order_and_duplicates() {
        assert_eq!(
            reindent(r#"{"b":1,"a":[],"b":{"x":"{,}"}}"#),
            "{\n  \"b\": 1,\n  \"a\": [],\n  \"b\": {\n    \"x\": \"{,}\"\n  }\n}"
        );
    }

    #[test]
    fn json_line_escapes_hostile_text() {
        let theme = Theme::new(true);
        let line = json_line("\"k\": \"a\u{1b}[2Jb\u{202e}\"", &theme);
        let text: String = line
            .spans
            .iter()
            .map(|span| span.content.to_string())
            .collect();
        assert_eq!(text, "\"k\": \"a\\u{1b}[2Jb\\u{202e}\"");
    }
}

/// Splits prose into lines of at most `width` characters at spaces (a longer word gets its
/// own line).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod wrap_tests {
    #[test]
    fn words_wrap_at_spaces() {
        assert_eq!(
            super::wrap_words("one two three four", 9),
            ["one two", "three", "four"]
        );
        assert_eq!(super::wrap_words("", 9), Vec::<String>::new());
    }
}
