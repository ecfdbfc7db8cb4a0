//! A tree's RFC 8785 (JCS) text: what its scalars are for `json::write_jcs`, the one writer.

use super::scan::is_short_integer;
use super::Node;
use crate::json::{jcs_number_text as number_text, write_jcs_string, JcsContainer, JcsTree};
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

/// A tree's RFC 8785 text is written by `json::write_jcs`, number for number what it writes
/// for the `serde_json::Value` the same text parses to; this says what the tree's scalars are.
impl<'n> JcsTree for Node<'n> {
    type Name = Cow<'n, str>;
    type Members<'a>
        = NodeMembers<'a, 'n>
    where
        Self: 'a;

    fn write_scalar(&self, out: &mut String) -> Option<JcsContainer<'_, Node<'n>>> {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(true) => out.push_str("true"),
            Node::Bool(false) => out.push_str("false"),
            Node::Number(text) => write_number(text, out),
            Node::Canonical { text, .. } => out.push_str(text),
            Node::String(text) => write_string(text, out),
            Node::Array(items) => return Some(JcsContainer::Array(items)),
            // Members are already in JCS order (the parser sorted them).
            Node::Object(members) => {
                return Some(JcsContainer::Object(NodeMembers(members.iter())))
            }
        }
        None
    }

    fn write_name(name: &Cow<'n, str>, out: &mut String) {
        write_string(name, out);
    }
}

/// An object node's members, as `(name, value)` pairs.
pub struct NodeMembers<'a, 'n>(std::slice::Iter<'a, (Cow<'n, str>, Node<'n>)>);

impl<'a, 'n> Iterator for NodeMembers<'a, 'n> {
    type Item = (&'a Cow<'n, str>, &'a Node<'n>);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(name, item)| (name, item))
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
