//! The fast path for an event line: one pass that checks what upstream's strict pre-check
//! checks and parses exactly the grammar serde_json accepts, into a tree that borrows from the
//! line (no allocation for strings without escapes). It answers only "certainly fine, here is
//! the tree"; anything else (`None`) goes to the slow path (strict pre-check + serde_json),
//! which decides and words the error as upstream does. So the fast path can only be wrong by
//! accepting what the slow path would refuse: it must be at least as strict, which the tests
//! and `tests/bundle/tampered.rs` check, and `fast_and_slow_agree` compares both on edge lines.
//!
//! One job a file: `parse` (the entry points and the parser's state), `node` (the tree),
//! `scan` (the primitives: whitespace, literals, numbers, strings), `value` (the general
//! grammar, any value into a tree), `envelope` (an event's top-level object read member by
//! member), `canonical` (a value already in JCS form, kept as text), `write` (a tree's JCS
//! text), `members` (an object's member loop, which `value::object` and `envelope` share).

mod canonical;
mod envelope;
mod members;
mod node;
mod parse;
mod scan;
#[cfg(test)]
mod tests;
mod value;
mod write;

pub use node::Node;
pub use parse::{parse, parse_envelope, parse_event};
