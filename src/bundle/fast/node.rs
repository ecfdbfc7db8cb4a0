//! The tree the fast path gives: it borrows from the line wherever it can.

use crate::bundle::event::DataFlags;
use std::borrow::Cow;

#[derive(Debug, PartialEq)]
pub enum Node<'a> {
    Null,
    Bool(bool),
    /// The number's text as written (already checked against JSON's grammar).
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    /// Members in JCS order (sorted by the parser).
    Object(Vec<(Cow<'a, str>, Node<'a>)>),
    /// An event's `data` whose text was already exactly its JCS form (what upstream's writer
    /// stores), checked by `Parser::canonical` and kept as text: no tree is built for it.
    Canonical {
        text: &'a str,
        /// The members of it that are JSON `true` and that the reviewer counts or the lint
        /// packs read, found during the same scan.
        flags: DataFlags,
    },
}

impl<'a> Node<'a> {
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match self {
            Node::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }
}
