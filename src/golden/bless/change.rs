//! A change a bless makes, and the field-by-field changes from an old entry to its merged
//! one: changed paths inside a payload or object, a handoff state in the freeze's words.

use super::describe::{list_or_none, shown};
use crate::a2a::Mode;
use crate::golden::{
    before, diff_json, Before, Content, GoldenEntry, PacketKey, BEFORE_DIGEST_ONLY,
};
use crate::json::safe_text;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A packet recorded for the first time.
    Added { key: PacketKey, summary: String },
    /// A recorded field changed: `field` is `strict.payload`, `duplicate_keys`, ...
    Updated {
        key: PacketKey,
        field: String,
        from: String,
        to: String,
        /// What the change means, one line each: the payload's or object's changed paths
        /// (before -> after), the handoff state in the freeze's words, or why the before is
        /// unknown.
        detail: Vec<String>,
    },
    /// The entry of a packet that is gone, dropped because `prune` was asked.
    Removed { key: PacketKey },
    /// The recorded conversion options changed (every entry was recorded again).
    Options { from: String, to: String },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |key: &PacketKey| safe_text(&key.to_string()).into_owned();
        match self {
            Change::Added { key, summary } => write!(f, "+ {}  {summary}", name(key)),
            Change::Updated {
                key,
                field,
                from,
                to,
                detail,
            } => {
                write!(f, "~ {}  {field}: {from} -> {to}", name(key))?;
                for line in detail {
                    write!(f, "\n      {line}")?;
                }
                Ok(())
            }
            Change::Removed { key } => write!(f, "- {}  (packet gone; --prune)", name(key)),
            Change::Options { from, to } => write!(f, "~ options: {from} -> {to}"),
        }
    }
}

/// The field-by-field changes from `old` to `merged`, in the order they are shown.
pub(super) fn entry_changes(
    key: &PacketKey,
    old: &GoldenEntry,
    merged: &GoldenEntry,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let update = |field: String, from: String, to: String, detail: Vec<String>| Change::Updated {
        key: key.clone(),
        field,
        from,
        to,
        detail,
    };
    if old.duplicate_keys != merged.duplicate_keys {
        changes.push(update(
            "duplicate_keys".to_owned(),
            list_or_none(&old.duplicate_keys),
            list_or_none(&merged.duplicate_keys),
            Vec::new(),
        ));
    }
    match (&old.object, &merged.object) {
        (Some(from), Some(to)) => {
            let mut any = false;
            for ((field, before), (_, after)) in from.fields().into_iter().zip(to.fields()) {
                if before != after {
                    any = true;
                    let detail = match field {
                        "object" => content_detail(
                            old.content.object.as_ref(),
                            from.object,
                            merged.content.object.as_ref(),
                        ),
                        "state" => state_detail(from.state, to.state),
                        _ => Vec::new(),
                    };
                    changes.push(update(
                        field.to_owned(),
                        shown(&before),
                        shown(&after),
                        detail,
                    ));
                }
            }
            if !any {
                changes.extend(content_recorded(
                    key,
                    "content",
                    old.content.object.as_ref(),
                    merged.content.object.as_ref(),
                    &to.object,
                ));
            }
        }
        (None, None) => {}
        (from, to) => changes.push(update(
            "object".to_owned(),
            from.as_ref()
                .map_or("absent".to_owned(), |golden| golden.describe()),
            to.as_ref()
                .map_or("absent".to_owned(), |golden| golden.describe()),
            Vec::new(),
        )),
    }
    for mode in Mode::BOTH {
        let (from, to) = (old.mode(mode), merged.mode(mode));
        if from == to {
            if let Some(payload) = to.and_then(|golden| golden.payload.as_ref()) {
                changes.extend(content_recorded(
                    key,
                    &format!("{mode}.content"),
                    old.content.modes[mode.index()].as_ref(),
                    merged.content.modes[mode.index()].as_ref(),
                    payload,
                ));
            }
            continue;
        }
        match (from, to) {
            (Some(from), Some(to)) => {
                let index = mode.index();
                for ((field, before), (_, after)) in from.fields().into_iter().zip(to.fields()) {
                    if before != after {
                        let detail = match (field, from.payload) {
                            ("payload", Some(digest)) => content_detail(
                                old.content.modes[index].as_ref(),
                                digest,
                                merged.content.modes[index].as_ref(),
                            ),
                            ("state", _) => state_detail(from.state, to.state),
                            _ => Vec::new(),
                        };
                        changes.push(update(
                            format!("{mode}.{field}"),
                            shown(&before),
                            shown(&after),
                            detail,
                        ));
                    }
                }
            }
            (from, to) => changes.push(update(
                mode.name().to_owned(),
                from.map_or("absent".to_owned(), |golden| golden.describe()),
                to.map_or("absent".to_owned(), |golden| golden.describe()),
                Vec::new(),
            )),
        }
    }
    changes
}

/// Changed paths listed per changed payload or object; the rest are counted.
const DETAIL_PATHS: usize = 12;

/// What changed inside a payload or object whose digest changed: its paths (before -> after)
/// when the old golden kept the content, else why the before is unknown.
fn content_detail(
    old: Option<&Content>,
    old_digest: crate::json::Digest,
    new: Option<&Content>,
) -> Vec<String> {
    let recorded = match before(old, old_digest, new.is_some()) {
        Before::Known(value) => value,
        Before::Unknown(BEFORE_DIGEST_ONLY) => {
            return vec![
                "before unknown: the golden stored only the digest (this bless records the content)"
                    .to_owned(),
            ]
        }
        Before::Unknown(why) => return vec![why.to_owned()],
    };
    let Some(current) = new.and_then(Content::value) else {
        return Vec::new();
    };
    let diff = diff_json(&recorded, &current, "recorded", "current");
    let mut lines: Vec<String> = diff
        .changes
        .iter()
        .take(DETAIL_PATHS)
        .map(|change| change.describe())
        .collect();
    if diff.total_changes > DETAIL_PATHS {
        lines.push(format!(
            "... and {} more",
            diff.total_changes - DETAIL_PATHS
        ));
    }
    lines
}

/// A changed handoff state in the freeze's words (visibility only).
fn state_detail(
    from: Option<crate::freeze::HandoffState>,
    to: Option<crate::freeze::HandoffState>,
) -> Vec<String> {
    match (from, to) {
        (Some(from), Some(to)) if from != to => {
            vec![format!("handoff state: {} -> {}", from.name(), to.name())]
        }
        _ => Vec::new(),
    }
}

/// A golden whose fields are unchanged but whose content is recorded for the first time (a
/// v1 manifest blessed again): a change, so the manifest is written.
fn content_recorded(
    key: &PacketKey,
    field: &str,
    old: Option<&Content>,
    new: Option<&Content>,
    digest: &crate::json::Digest,
) -> Option<Change> {
    (old.is_none() && new.is_some()).then(|| Change::Updated {
        key: key.clone(),
        field: field.to_owned(),
        from: "not recorded".to_owned(),
        to: format!("recorded (the JSON of digest {})", digest.short(12)),
        detail: Vec::new(),
    })
}
