//! An event line's top-level object read member by member, for names already ascending.

use super::members::Members;
use super::parse::Parser;
use super::scan::is_wide;
use super::Node;
use std::borrow::Cow;

impl<'a> Parser<'a> {
    /// `object` at depth 1 for `parse_envelope`: the same member loop (grammar, whitespace and
    /// bounds), the members handed over instead of collected.
    pub(super) fn envelope(
        &mut self,
        each: &mut dyn FnMut(&str, Node<'a>) -> Option<()>,
    ) -> Option<()> {
        if self.peek()? != b'{' {
            return None;
        }
        self.members(1, &mut Envelope { each, last: None })
    }
}

/// Hands each member to `each`, refusing names that do not ascend by bytes or that hold a
/// character at or above U+E000 (where byte order is not JCS order).
struct Envelope<'e, 'a> {
    each: &'e mut dyn FnMut(&str, Node<'a>) -> Option<()>,
    last: Option<Cow<'a, str>>,
}

impl<'a> Members<'a> for Envelope<'_, 'a> {
    #[inline]
    fn name(&mut self, key: &str) -> Option<()> {
        let out_of_order = is_wide(key.as_bytes())
            || self
                .last
                .as_ref()
                .is_some_and(|last| last.as_bytes() >= key.as_bytes());
        (!out_of_order).then_some(())
    }

    #[inline]
    fn member(&mut self, key: Cow<'a, str>, value: Node<'a>) -> Option<()> {
        (self.each)(&key, value)?;
        self.last = Some(key);
        Some(())
    }
}
