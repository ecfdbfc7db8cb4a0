//! An entry, recorded options and recorded values in the words a bless shows them in,
//! terminal-safe.

use crate::a2a::Mode;
use crate::golden::{GoldenEntry, RecordedOptions};
use crate::json::safe_text;

pub(super) fn describe_entry(entry: &GoldenEntry) -> String {
    if let Some(object) = &entry.object {
        return safe_text(&object.describe()).into_owned();
    }
    let mut parts: Vec<String> = Mode::BOTH
        .iter()
        .filter_map(|&mode| {
            entry
                .mode(mode)
                .map(|golden| format!("{mode}: {}", golden.describe()))
        })
        .collect();
    if !entry.duplicate_keys.is_empty() {
        parts.push(format!("duplicate keys {}", entry.duplicate_keys.join(" ")));
    }
    safe_text(&parts.join("; ")).into_owned()
}

pub(super) fn shown(value: &Option<String>) -> String {
    value
        .as_deref()
        .map_or("absent".to_owned(), crate::golden::shown_value)
}

pub fn describe_options(options: &RecordedOptions) -> String {
    let parts: Vec<String> = options
        .fields()
        .into_iter()
        .map(|(key, value)| match value {
            serde_json::Value::String(text) => format!("{key} {text}"),
            other => format!("{key} {other}"),
        })
        .collect();
    safe_text(&parts.join(", ")).into_owned()
}

pub(super) fn list_or_none(list: &[String]) -> String {
    if list.is_empty() {
        "none".to_owned()
    } else {
        safe_text(&list.join(" ")).into_owned()
    }
}
