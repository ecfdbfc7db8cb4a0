//! The fast path's entry points, and the state its readers share.

use super::Node;

/// Deeper than this, serde_json's own recursion limit (128) comes near: leave it to the slow
/// path.
const FAST_DEPTH: usize = 120;

pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    pub(super) max_depth: usize,
    /// Try the top-level `data` member as canonical text first (`parse_event`).
    pub(super) canonical_data: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`; `max_depth` is the caller's limit, never above
    /// [`FAST_DEPTH`] (deeper input falls back to the tree route).
    fn new(text: &'a str, max_depth: u64, canonical_data: bool) -> Parser<'a> {
        Parser {
            text,
            pos: 0,
            max_depth: usize::try_from(max_depth)
                .unwrap_or(usize::MAX)
                .min(FAST_DEPTH),
            canonical_data,
        }
    }
}

/// Parses one JSON value filling all of `text` (JSON whitespace around it allowed).
pub fn parse(text: &str, max_depth: u64) -> Option<Node<'_>> {
    parse_with(text, max_depth, false)
}

/// `parse` for an event line: a top-level `data` already in JCS form becomes
/// `Node::Canonical` (its JCS text is the stored text, so nothing is built or re-written);
/// any other `data` is parsed into a tree as `parse` does.
pub fn parse_event(text: &str, max_depth: u64) -> Option<Node<'_>> {
    parse_with(text, max_depth, true)
}

/// An event line's top-level members handed to `each` one at a time as they are parsed (the
/// values as `parse_event` parses them, `data` canonical when it is), with no tree of the
/// envelope. Only for an object whose names ascend by bytes with no character at or above
/// U+E000 (as upstream's writer writes them: no name can repeat, no sort is needed); anything
/// else is `None`, as is `None` from `each`, and the caller falls back to `parse_event`.
pub fn parse_envelope<'a>(
    text: &'a str,
    max_depth: u64,
    each: &mut dyn FnMut(&str, Node<'a>) -> Option<()>,
) -> Option<()> {
    let mut parser = Parser::new(text, max_depth, true);
    parser.whitespace();
    parser.envelope(each)?;
    parser.whitespace();
    (parser.pos == text.len()).then_some(())
}

fn parse_with(text: &str, max_depth: u64, canonical_data: bool) -> Option<Node<'_>> {
    let mut parser = Parser::new(text, max_depth, canonical_data);
    parser.whitespace();
    let node = parser.value(0)?;
    parser.whitespace();
    (parser.pos == text.len()).then_some(node)
}
