//! What a migration or a judgement runs on: the object's tree, as the caller holds it, and
//! what the caller knows beyond the JSON. One entry each ([`super::Migration::run`],
//! [`super::Judgement::of`]) takes it, so how the tree is held is the caller's choice of a
//! value, not of a function.

use super::hints::Hints;
use serde_json::Value;
use std::sync::Arc;

/// The object to migrate: `&Value` (the caller keeps it: it is detected first, then copied),
/// `Value` (the caller gives it up: migrated in place, a migration keeping its canonical text
/// for the replays instead of a copy of the tree) or `Arc<Value>` (shared: a migration keeps
/// the tree itself as its input and works on a copy); with [`MigrationInput::hints`] when the
/// caller knows more than the JSON says (a forced kind or version, a fixture's file name).
#[derive(Debug)]
pub struct MigrationInput<'a> {
    pub(super) tree: InputTree<'a>,
    pub(super) hints: Option<&'a Hints>,
}

/// [`Hints::none`], for an input given none.
static NO_HINTS: Hints = Hints {
    kind: None,
    version: None,
    dialect: None,
};

/// How the caller holds the tree.
#[derive(Debug)]
pub(super) enum InputTree<'a> {
    Borrowed(&'a Value),
    Owned(Value),
    Shared(Arc<Value>),
}

impl<'a> MigrationInput<'a> {
    /// The detection's hints ([`super::detect_with`]); without them, [`Hints::none`].
    pub fn hints(mut self, hints: &'a Hints) -> Self {
        self.hints = Some(hints);
        self
    }

    /// The hints given, or none.
    pub(super) fn given_hints(&self) -> &'a Hints {
        self.hints.unwrap_or(&NO_HINTS)
    }

    /// The tree as given, to detect before anything is copied.
    pub(super) fn tree(&self) -> &Value {
        match &self.tree {
            InputTree::Borrowed(value) => value,
            InputTree::Owned(value) => value,
            InputTree::Shared(value) => value,
        }
    }
}

impl<'a> From<&'a Value> for MigrationInput<'a> {
    fn from(value: &'a Value) -> Self {
        MigrationInput {
            tree: InputTree::Borrowed(value),
            hints: None,
        }
    }
}

impl From<Value> for MigrationInput<'_> {
    fn from(value: Value) -> Self {
        MigrationInput {
            tree: InputTree::Owned(value),
            hints: None,
        }
    }
}

impl From<Arc<Value>> for MigrationInput<'_> {
    fn from(value: Arc<Value>) -> Self {
        MigrationInput {
            tree: InputTree::Shared(value),
            hints: None,
        }
    }
}
