//! An event line's top-level object read member by member, for names already ascending.

use super::parse::Parser;
use super::scan::is_wide;
use super::Node;
use crate::bundle::limits::MAX_KEYS_PER_OBJECT;
use std::borrow::Cow;

impl<'a> Parser<'a> {
    /// `object` at depth 1 for `parse_envelope`: the same grammar, whitespace and bounds, the
    /// members handed over instead of collected.
    pub(super) fn envelope(
        &mut self,
        each: &mut dyn FnMut(&str, Node<'a>) -> Option<()>,
    ) -> Option<()> {
        let depth = 1;
        if self.peek()? != b'{' || depth > self.max_depth {
            return None;
        }
        self.pos += 1;
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        let mut last: Option<Cow<'a, str>> = None;
        let mut count = 0;
        loop {
            self.whitespace();
            count += 1;
            if self.peek()? != b'"' || count > MAX_KEYS_PER_OBJECT.min(256) {
                return None;
            }
            let key = self.string()?;
            if is_wide(key.as_bytes())
                || last
                    .as_ref()
                    .is_some_and(|last| last.as_bytes() >= key.as_bytes())
            {
                return None;
            }
            self.whitespace();
            if self.peek()? != b':' {
                return None;
            }
            self.pos += 1;
            self.whitespace();
            let value = if key == "data" {
                self.canonical_or_value(depth)?
            } else {
                self.value(depth)?
            };
            each(&key, value)?;
            last = Some(key);
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
