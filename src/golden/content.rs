//! What a golden keeps of the JSON its digests cover (manifest format v2), so that drift can
//! be shown field by field, before -> after, rather than as two digests: per mode the
//! converted payload of a raw packet, and the object of an object golden (a bundle's: its
//! `manifest.json`). A digest-only entry (format v1, a line of an NDJSON stream, or content over
//! `MAX_CONTENT_BYTES`) says why the "before" is unknown instead. Stream lines record no
//! content because a stream has no bound on its lines: its manifest would grow by the stream's
//! size (a bundle's events are bounded by its limits, 100,000 by default).
//!
//! The content is held as its canonical text (compact, keys in byte order), not as a JSON
//! tree: a manifest's entries stay about the size of the file.

use crate::json::{canonical_bytes, digest_value, to_safe_json_pretty, Digest};
use serde_json::Value;

/// Content longer than this (canonical bytes) is not recorded: its digest alone is kept.
pub const MAX_CONTENT_BYTES: usize = 64 * 1024;

/// The canonical text of a recorded JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content(Box<str>);

impl Content {
    /// `value`'s canonical text, or `None` when it is longer than `MAX_CONTENT_BYTES`.
    pub fn of(value: &Value) -> Option<Content> {
        Content::of_canonical(canonical_bytes(value))
    }

    /// [`Content::of`] the value whose canonical bytes are `bytes` (written without a tree).
    pub fn of_canonical(bytes: Vec<u8>) -> Option<Content> {
        if bytes.len() > MAX_CONTENT_BYTES {
            return None;
        }
        String::from_utf8(bytes)
            .ok()
            .map(|text| Content(text.into_boxed_str()))
    }

    /// The recorded value.
    pub fn value(&self) -> Option<Value> {
        serde_json::from_str(&self.0).ok()
    }

    /// The content as the manifest writes it: indented, terminal-safe, each line after the
    /// first prefixed with `indent` (so a changed field is a changed line of the manifest).
    pub fn render(&self, indent: &str) -> String {
        let pretty = self
            .value()
            .and_then(|value| to_safe_json_pretty(&value).ok())
            .unwrap_or_else(|| "null".to_owned());
        pretty.replace('\n', &format!("\n{indent}"))
    }
}

/// What a golden recorded of an entry's content: per mode (strict first) and of its object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    pub modes: [Option<Content>; 2],
    pub object: Option<Content>,
}

/// The recorded "before" of a drifted digest: the recorded value, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Before {
    Known(Value),
    Unknown(&'static str),
}

/// Why a digest-only golden has no "before": the words every face prints.
pub const BEFORE_DIGEST_ONLY: &str =
    "before unknown: the golden stores only the digest; bless again to record the content";
/// A stream line's golden: content is not recorded for lines of NDJSON streams.
pub const BEFORE_STREAM_LINE: &str =
    "before unknown: goldens of NDJSON stream lines store only digests";
/// Recorded content that does not give the recorded digest (edited by hand): not shown.
pub const BEFORE_CONTENT_MISMATCH: &str =
    "before unknown: the recorded content does not give the recorded digest (edited by hand?)";

/// The recorded value behind `digest`, checked against it.
/// `keeps_content`: whether a golden of this packet records content at all (not for a stream
/// line).
pub fn before(content: Option<&Content>, digest: Digest, keeps_content: bool) -> Before {
    match content.and_then(Content::value) {
        Some(value) if digest_value(&value) == digest => Before::Known(value),
        Some(_) => Before::Unknown(BEFORE_CONTENT_MISMATCH),
        None if keeps_content => Before::Unknown(BEFORE_DIGEST_ONLY),
        None => Before::Unknown(BEFORE_STREAM_LINE),
    }
}

/// Whether a golden of a packet (`line`: its line or event number, `in_bundle`: an event of
/// a bundle) records the content its digests cover: every file, and a bundle's events; not a
/// stream's lines.
pub fn keeps_content(line: Option<usize>, in_bundle: bool) -> bool {
    line.is_none() || in_bundle
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_round_trips_and_is_checked_against_its_digest() {
        let value = json!({"b": 1, "a": {"text": "x\u{1b}y"}});
        let content = Content::of(&value).unwrap();
        assert_eq!(content.value().unwrap(), value);
        let rendered = content.render("  ");
        assert!(!rendered.contains('\u{1b}'), "{rendered}");
        let read: Value = serde_json::from_str(&rendered).unwrap();
        assert_eq!(read, value);
        assert_eq!(
            before(Some(&content), digest_value(&value), true),
            Before::Known(value.clone())
        );
        assert_eq!(
            before(Some(&content), digest_value(&json!(1)), true),
            Before::Unknown(BEFORE_CONTENT_MISMATCH)
        );
        assert_eq!(
            before(None, digest_value(&value), true),
            Before::Unknown(BEFORE_DIGEST_ONLY)
        );
        assert_eq!(
            before(None, digest_value(&value), false),
            Before::Unknown(BEFORE_STREAM_LINE)
        );
    }

    #[test]
    fn content_over_the_cap_is_not_recorded() {
        let big = Value::String("x".repeat(MAX_CONTENT_BYTES));
        assert!(Content::of(&big).is_none());
        assert!(Content::of(&Value::String("x".repeat(MAX_CONTENT_BYTES - 2))).is_some());
    }
}
