//! An object's member loop, shared by `value::object` (members into a tree) and `envelope`
//! (members handed over one at a time): the grammar, whitespace, depth and key-count bounds
//! live here once; what is done with each name and member is the `Members` sink's.

use super::parse::Parser;
use super::Node;
use crate::bundle::limits::MAX_KEYS_PER_OBJECT;
use std::borrow::Cow;

/// What an object's reader does with its members. Static dispatch (the loop is generic over
/// it): the envelope route is the bundle reader's hot loop.
pub(super) trait Members<'a> {
    /// A member's name, before its value is read: `None` refuses the object (a repeat, a
    /// name out of the order the sink needs).
    fn name(&mut self, key: &str) -> Option<()>;
    /// The member, once its value is read; `None` refuses the object.
    fn member(&mut self, key: Cow<'a, str>, value: Node<'a>) -> Option<()>;
}

impl<'a> Parser<'a> {
    /// Reads the object at `{` (the caller has seen it) to its `}`, at `depth` (its own, one
    /// below its parent's), handing names and members to `sink`.
    pub(super) fn members(&mut self, depth: usize, sink: &mut impl Members<'a>) -> Option<()> {
        if depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        let mut count = 0;
        loop {
            self.whitespace();
            count += 1;
            if self.peek()? != b'"' || count > MAX_KEYS_PER_OBJECT.min(256) {
                // Many keys: the slow path's set handles them without a quadratic scan.
                return None;
            }
            let key = self.string()?;
            sink.name(&key)?;
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
            sink.member(key, value)?;
            self.whitespace();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}
