//! The quirk type the rule tables list: what an upstream validator does that the inspector
//! reproduces, kept as data beside the rows (the report names the ones that shaped a verdict).

use serde::Serialize;

/// A documented quirk of an upstream validator that the inspector reproduces (or, where it
/// says so, deliberately does not).
#[derive(Debug, Serialize)]
pub struct Quirk {
    pub id: &'static str,
    pub title: &'static str,
    pub description: &'static str,
}
