//! A tree's RFC 8785 (JCS) text.

use super::scan::is_short_integer;
use super::Node;
use crate::json::{jcs_number_text as number_text, write_jcs_string};
use std::borrow::Cow;

/// A string as JCS writes it. Borrowed strings had no escape in the line, and the parser
/// refused raw control characters, so their text needs none: copied as is.
// The Cow is the point: whether the text was borrowed says whether it can need escapes.
#[allow(clippy::ptr_arg)]
fn write_string(text: &Cow<'_, str>, out: &mut String) {
    match text {
        Cow::Borrowed(raw) => {
            out.push('"');
            out.push_str(raw);
            out.push('"');
        }
        Cow::Owned(decoded) => write_jcs_string(decoded, out),
    }
}

/// Appends the RFC 8785 text of `node`, number for number what `json::write_jcs` writes for
/// the `serde_json::Value` the same text parses to.
pub fn write_jcs(node: &Node<'_>, out: &mut String) {
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(true) => out.push_str("true"),
        Node::Bool(false) => out.push_str("false"),
        Node::Number(text) => write_number(text, out),
        Node::Canonical { text, .. } => out.push_str(text),
        Node::String(text) => write_string(text, out),
        Node::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_jcs(item, out);
            }
            out.push(']');
        }
        Node::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_jcs(item, out);
            }
            out.push('}');
        }
    }
}

fn write_number(text: &str, out: &mut String) {
    if is_short_integer(text) {
        out.push_str(if text == "-0" { "0" } else { text });
        return;
    }
    match serde_json::from_str::<serde_json::Number>(text) {
        Ok(number) => out.push_str(&number_text(&number)),
        // Out of a double's range: serde_json refuses the line too; never reached from a
        // checked line, written as is rather than guessed.
        Err(_) => out.push_str(text),
    }
}
