//! The general grammar: any JSON value into a tree, objects' members sorted into JCS order.

use super::parse::Parser;
use super::scan::is_wide;
use super::Node;
use crate::bundle::limits::MAX_KEYS_PER_OBJECT;
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
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        // An event's envelope has about 16 members: one allocation for them.
        let mut members: Vec<(Cow<'a, str>, Node<'a>)> =
            Vec::with_capacity(if depth == 1 { 20 } else { 0 });
        // While names ascend by bytes (as a JCS writer leaves them) a new one above the last
        // can be no duplicate, and no sort is needed at the end.
        let mut ascending = true;
        let mut wide = false;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(Node::Object(members));
        }
        loop {
            self.whitespace();
            if self.peek()? != b'"' || members.len() >= MAX_KEYS_PER_OBJECT.min(256) {
                // Many keys: the slow path's set handles them without a quadratic scan.
                return None;
            }
            let key = self.string()?;
            wide |= is_wide(key.as_bytes());
            let above_last = members
                .last()
                .is_none_or(|(last, _)| last.as_bytes() < key.as_bytes());
            if !(ascending && above_last) {
                ascending = false;
                if members.iter().any(|(k, _)| *k == key) {
                    return None;
                }
            }
            self.whitespace();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.whitespace();
            let value = if self.canonical_data && depth == 1 && key == "data" {
                self.canonical_or_value(depth)?
            } else {
                self.value(depth)?
            };
            members.push((key, value));
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    if !ascending || wide {
                        members.sort_by(|(a, _), (b, _)| jcs_key_order(a, b));
                    }
                    return Some(Node::Object(members));
                }
                _ => return None,
            }
        }
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
