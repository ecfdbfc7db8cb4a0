//! The general grammar: any JSON value into a tree, objects' members sorted into JCS order.

use super::members::Members;
use super::parse::Parser;
use super::scan::is_wide;
use super::Node;
use std::borrow::Cow;

impl<'a> Parser<'a> {
    pub(super) fn value(&mut self, depth: usize) -> Option<Node<'a>> {
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(Node::String),
            b't' => self.literal("true", Node::Bool(true)),
            b'f' => self.literal("false", Node::Bool(false)),
            b'n' => self.literal("null", Node::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn array(&mut self, depth: usize) -> Option<Node<'a>> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Some(Node::Array(items));
        }
        loop {
            self.whitespace();
            items.push(self.value(depth)?);
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(Node::Array(items));
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Node<'a>> {
        // An event's envelope has about 16 members: one allocation for them.
        let mut object = Object {
            members: Vec::with_capacity(if depth == 1 { 20 } else { 0 }),
            ascending: true,
            wide: false,
        };
        self.members(depth, &mut object)?;
        let mut members = object.members;
        if !object.ascending || object.wide {
            members.sort_by(|(a, _), (b, _)| jcs_key_order(a, b));
        }
        Some(Node::Object(members))
    }
}

/// Collects an object's members, refusing a repeated name.
struct Object<'a> {
    members: Vec<(Cow<'a, str>, Node<'a>)>,
    /// While names ascend by bytes (as a JCS writer leaves them) a new one above the last
    /// can be no duplicate, and no sort is needed at the end.
    ascending: bool,
    /// A name holds a character at or above U+E000: byte order is not JCS order, sort.
    wide: bool,
}

impl<'a> Members<'a> for Object<'a> {
    #[inline]
    fn name(&mut self, key: &str) -> Option<()> {
        self.wide |= is_wide(key.as_bytes());
        let above_last = self
            .members
            .last()
            .is_none_or(|(last, _)| last.as_bytes() < key.as_bytes());
        if !(self.ascending && above_last) {
            self.ascending = false;
            if self.members.iter().any(|(k, _)| k == key) {
                return None;
            }
        }
        Some(())
    }

    #[inline]
    fn member(&mut self, key: Cow<'a, str>, value: Node<'a>) -> Option<()> {
        self.members.push((key, value));
        Some(())
    }
}

fn jcs_key_order(a: &str, b: &str) -> std::cmp::Ordering {
    // UTF-8 byte order is UTF-16 order unless a character at or above U+E000 is involved.
    if a.bytes().chain(b.bytes()).all(|x| x < 0xEE) {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}
