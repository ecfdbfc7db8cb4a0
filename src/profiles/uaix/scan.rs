//! Whole-packet scans for the UAIX profile: date/time members, secret-like strings and
//! unsupported claims about UAIX. The secret and claim detectors are heuristics (UAIX
//! publishes no patterns); every hit names its pattern so a reviewer can judge it.

use crate::json::JsonPath;
use regex::Regex;
use serde_json::Value;
use std::sync::LazyLock;

/// Every string member of `value` (depth-first, document order), with its path and key.
pub(crate) fn strings(value: &Value) -> Vec<(JsonPath, Option<&str>, &str)> {
    let mut found = Vec::new();
    let mut stack: Vec<(JsonPath, Option<&str>, &Value)> = vec![(JsonPath::root(), None, value)];
    while let Some((path, key, value)) = stack.pop() {
        match value {
            Value::String(text) => found.push((path, key, text.as_str())),
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((path.index(index), key, item));
                }
            }
            Value::Object(map) => {
                let members: Vec<_> = map.iter().collect();
                for (name, item) in members.into_iter().rev() {
                    stack.push((path.key(name), Some(name.as_str()), item));
                }
            }
            _ => {}
        }
    }
    found
}

/// Members whose name marks a date/time: ending in `_at`, or named `timestamp`. UAIX does not
/// list its date/time fields, so this naming rule is the inspector's assumption.
pub(crate) fn date_time_members(value: &Value) -> Vec<(JsonPath, &Value)> {
    let mut found = Vec::new();
    let mut stack: Vec<(JsonPath, &Value)> = vec![(JsonPath::root(), value)];
    while let Some((path, value)) = stack.pop() {
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((path.index(index), item));
                }
            }
            Value::Object(map) => {
                let members: Vec<_> = map.iter().collect();
                for (name, item) in members.into_iter().rev() {
                    let child = path.key(name);
                    if name.ends_with("_at") || name == "timestamp" {
                        found.push((child.clone(), item));
                    }
                    stack.push((child, item));
                }
            }
            _ => {}
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

// Literal patterns; `None` (a pattern that failed to compile) would only ever mean "no match".
static UTC_Z: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$").ok());

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` and a real instant.
pub(crate) fn is_utc_z(text: &str) -> bool {
    UTC_Z.as_ref().is_some_and(|re| re.is_match(text))
        && chrono::DateTime::parse_from_rfc3339(text).is_ok()
}

/// A string that looks like a credential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SecretHit {
    pub path: JsonPath,
    pub pattern: &'static str,
    pub chars: usize,
}

static SECRET_PATTERNS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    [
        ("private key block", r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
        ("AWS access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
        ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"),
        ("Slack token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
        ("secret API key", r"\b(?:sk|rk)[-_](?:live|test|proj)[-_]\S+|\bsk-[A-Za-z0-9]{20,}"),
        ("bearer token", r"(?i)\bbearer\s+[A-Za-z0-9\-._~+/]{20,}=*"),
        ("JSON web token", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        (
            "credential assignment",
            r#"(?i)\b(?:api[_-]?key|client[_-]?secret|secret|access[_-]?token|auth[_-]?token|session[_-]?token|write[_-]?token|password|passwd|private[_-]?key)\s*[:=]\s*['"]?[^\s'"]{6,}"#,
        ),
        ("credentials in a URL", r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@"),
    ]
    .into_iter()
    .filter_map(|(name, pattern)| Regex::new(pattern).ok().map(|re| (name, re)))
    .collect()
});

/// Member names that hold a credential whatever their value looks like.
const SECRET_NAMES: [&str; 14] = [
    "api_key",
    "apikey",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "access_token",
    "refresh_token",
    "auth_token",
    "session_token",
    "write_token",
    "bearer_token",
    "private_key",
    "token",
];

pub(crate) fn secret_hits(value: &Value) -> Vec<SecretHit> {
    let mut hits = Vec::new();
    for (path, key, text) in strings(value) {
        let named = key
            .map(|k| SECRET_NAMES.contains(&k.to_ascii_lowercase().as_str()))
            .unwrap_or(false);
        let pattern = if named && !text.trim().is_empty() {
            Some("secret-named member")
        } else {
            SECRET_PATTERNS
                .iter()
                .find(|(_, re)| re.is_match(text))
                .map(|(name, _)| *name)
        };
        if let Some(pattern) = pattern {
            hits.push(SecretHit {
                path,
                pattern,
                chars: text.chars().count(),
            });
        }
    }
    hits
}

/// A sentence that claims UAIX does something it says it does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClaimHit {
    pub path: JsonPath,
    pub claim: &'static str,
    pub sentence: String,
}

static CLAIMS: LazyLock<Vec<(&'static str, Regex)>> =
    LazyLock::new(|| {
        [
        ("hosted messaging", r"(?i)\bhosted\s+messag\w*"),
        ("automatic sync", r"(?i)\bauto(?:matic(?:ally)?)?[\s-]*sync\w*"),
        (
            "runtime orchestration",
            r"(?i)\bruntime\s+orchestrat\w*|\borchestrat\w*\s+(?:the\s+)?runtime",
        ),
        (
            "repository writes",
            r"(?i)\brepo(?:sitory)?\s+writ\w*|\bwrites?\s+(?:to\s+)?(?:the\s+)?repo(?:sitory)?\b",
        ),
        ("official adapters", r"(?i)\bofficial\s+(?:uaix\s+)?adapters?\b"),
        (
            "certification",
            r"(?i)\buaix[\s-]+certifi\w*|\bcertifi\w*\s+by\s+uaix|\bcertification\s+authority",
        ),
        ("hosted import", r"(?i)\bhosted\s+import\w*"),
    ]
    .into_iter()
    .filter_map(|(name, pattern)| Regex::new(pattern).ok().map(|re| (name, re)))
    .collect()
    });

static NEGATION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:not|no|never|without|neither|nor|cannot)\b|n't\b").ok());

static SENTENCE_END: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[.;!?](?:\s+|$)|\n").ok());

fn sentences(text: &str) -> Vec<&str> {
    match SENTENCE_END.as_ref() {
        Some(re) => re.split(text).collect(),
        None => vec![text],
    }
}

/// Claims about UAIX hosted messaging, automatic sync, runtime orchestration, repository
/// writes, official adapters, certification or hosted import. A phrase in a sentence that
/// negates it before the phrase ("UAIX does not provide hosted messaging") is a disclaimer.
pub(crate) fn claim_hits(value: &Value) -> Vec<ClaimHit> {
    let mut hits = Vec::new();
    for (path, _, text) in strings(value) {
        for sentence in sentences(text) {
            for (claim, re) in CLAIMS.iter() {
                let Some(found) = re.find(sentence) else {
                    continue;
                };
                let before = sentence.get(..found.start()).unwrap_or("");
                if NEGATION.as_ref().is_some_and(|re| re.is_match(before)) {
                    continue;
                }
                hits.push(ClaimHit {
                    path: path.clone(),
                    claim,
                    sentence: sentence.trim().to_owned(),
                });
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_pattern_compiles() {
        assert!(UTC_Z.is_some() && NEGATION.is_some() && SENTENCE_END.is_some());
        assert_eq!(SECRET_PATTERNS.len(), 9);
        assert_eq!(CLAIMS.len(), 7);
    }

    #[test]
    fn utc_z_is_strict() {
        assert!(is_utc_z("2030-12-31T23:59:00Z"));
        assert!(is_utc_z("2030-12-31T23:59:00.123Z"));
        assert!(!is_utc_z("2030-12-31T23:59:00+00:00"));
        assert!(!is_utc_z("2030-12-31T23:59:00z"));
        assert!(!is_utc_z("2030-12-31 23:59:00Z"));
        assert!(!is_utc_z("2030-02-30T00:00:00Z"));
        assert!(!is_utc_z("2030-12-31T23:59:00"));
    }

    #[test]
    fn finds_date_members_by_name() {
        let value = json!({"a_at": 1, "x": {"timestamp": "t", "issued_at": "u"}, "atlas": "no"});
        let paths: Vec<String> = date_time_members(&value)
            .iter()
            .map(|(p, _)| p.to_string())
            .collect();
        assert_eq!(paths, vec!["$.a_at", "$.x.issued_at", "$.x.timestamp"]);
    }

    #[test]
    fn secrets_are_found_and_ordinary_ids_are_not() {
        let value = json!({
            "a": "api_key=sk-live-…",
            "b": "token ghp_abcdefghijklmnopqrstuvwxyz0123",
            "c": {"password": "hunter22"},
            "d": "-----BEGIN RSA PRIVATE KEY-----",
            "ok1": "idem_20260531_agent_handoff_0006",
            "ok2": "00-11111111111111111111111111111111-0000000000000006-01",
            "ok3": {"secret_values_included": false},
            "ok4": "Do not include private keys, API credentials or session tokens."
        });
        let paths: Vec<String> = secret_hits(&value)
            .iter()
            .map(|h| h.path.to_string())
            .collect();
        assert_eq!(paths, vec!["$.a", "$.b", "$.c.password", "$.d"]);
    }

    #[test]
    fn claims_are_found_and_disclaimers_are_not() {
        let value = json!({
            "claim": "UAIX provides hosted messaging and will automatically sync the repo.",
            "cert": "This packet is UAIX-certified.",
            "boundary": "UAIX does not provide automatic sync, hosted messaging, runtime orchestration, official adapters, repository write execution, certification authority, or hosted import mechanisms.",
            "plain": "Agent runtimes execute. UAIX records the reviewed communication.",
            "fixture": "External runtime should validate the published schema before executing work outside UAIX."
        });
        let claims: Vec<(&str, String)> = claim_hits(&value)
            .iter()
            .map(|h| (h.claim, h.path.to_string()))
            .collect();
        assert_eq!(
            claims,
            vec![
                ("certification", "$.cert".to_owned()),
                ("hosted messaging", "$.claim".to_owned()),
                ("automatic sync", "$.claim".to_owned()),
            ]
        );
    }
}
