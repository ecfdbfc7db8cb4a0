//! Typed access to a JSON object's fields for the reader, each refusal naming the place.

use super::render::quoted;
use super::{bad, ManifestError};
use crate::json::Digest;
use serde_json::{Map, Value};

pub(super) fn object<'v>(
    value: &'v Value,
    at: &str,
) -> Result<&'v Map<String, Value>, ManifestError> {
    value
        .as_object()
        .ok_or_else(|| bad(format!("{at} must be an object")))
}

pub(super) fn only_keys(
    map: &Map<String, Value>,
    at: &str,
    allowed: &[&str],
) -> Result<(), ManifestError> {
    match map.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(bad(format!(
            "{at} has an unexpected key {} (allowed: {})",
            quoted(key),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

pub(super) fn string<'v>(
    map: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<&'v str>, ManifestError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(bad(format!("{at}.{key} must be a string"))),
    }
}

pub(super) fn count(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<usize>, ManifestError> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| bad(format!("{at}.{key} must be a non-negative integer"))),
    }
}

pub(super) fn digest_field(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<Digest>, ManifestError> {
    string(map, key, at)?
        .map(|hex| {
            Digest::from_hex(hex).ok_or_else(|| bad(format!("{at}.{key} must be 64 hex digits")))
        })
        .transpose()
}
