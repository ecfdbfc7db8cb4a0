//! Evaluates a UAIX `uai.agent.handoff.v1` envelope against UAIX-01..UAIX-12.

mod integrity;
mod scan;
mod table;

use super::options::ProfileOptions;
use super::report::{ProfileReport, UaixView};
use super::rows::bounded;
use super::rows::{clip, evidence, redacted_evidence, whole_packet, Rows};
use crate::json::type_name;
use crate::json::JsonPath;
use crate::json::Segment;
use crate::rules::Verdict;
use chrono::{DateTime, SecondsFormat, Utc};
use scan::{claim_hits, date_time_members, is_utc_z, secret_hits, SecretHit};
use serde_json::{Map, Value};

pub use table::{UAIX_NOTES, UAIX_TABLE};

const PROFILE: &str = "uai.agent.handoff.v1";

/// The envelope members and the JSON shape the seed fixture gives each.
const ENVELOPE: [(&str, Shape); 12] = [
    ("uai_version", Shape::Text),
    ("profile", Shape::Text),
    ("message_id", Shape::Text),
    ("source", Shape::Object),
    ("target", Shape::Object),
    ("conversation", Shape::Object),
    ("delivery", Shape::Object),
    ("trust", Shape::Object),
    ("body", Shape::Object),
    ("provenance", Shape::Object),
    ("integrity", Shape::Object),
    ("extensions", Shape::ObjectOrArray),
];

const BODY: [(&str, Shape); 7] = [
    ("task_id", Shape::Text),
    ("target_agent_id", Shape::Text),
    ("context_summary", Shape::Text),
    ("handoff_reason", Shape::Text),
    ("exact_next_action", Shape::Text),
    ("delegated_authorization", Shape::ObjectOrText),
    ("support_boundary", Shape::ObjectOrText),
];

const IDENTITY_TEXT_MEMBERS: [&str; 6] =
    ["type", "label", "uri", "role", "project", "implementation"];

#[derive(Clone, Copy)]
enum Shape {
    Text,
    Object,
    ObjectOrArray,
    ObjectOrText,
}

impl Shape {
    fn accepts(self, value: &Value) -> bool {
        match self {
            Shape::Text => value.is_string(),
            Shape::Object => value.is_object(),
            Shape::ObjectOrArray => value.is_object() || value.is_array(),
            Shape::ObjectOrText => value.is_object() || value.is_string(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Shape::Text => "string",
            Shape::Object => "object",
            Shape::ObjectOrArray => "object or array",
            Shape::ObjectOrText => "object or string",
        }
    }
}

/// A non-empty string with no whitespace or control characters.
fn is_token(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|t| !t.is_empty() && !t.chars().any(|c| c.is_whitespace() || c.is_control()))
}

fn system_now() -> DateTime<Utc> {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    DateTime::from_timestamp(since.as_secs() as i64, since.subsec_nanos()).unwrap_or_default()
}

pub(crate) fn evaluate(value: &Value, options: &ProfileOptions, report: &mut ProfileReport) {
    let now = options.now.unwrap_or_else(system_now);
    let mut rows = Rows::new(&UAIX_TABLE);
    let integrity = integrity::check(value);
    match value.as_object() {
        Some(map) => {
            check_envelope(map, value, &mut rows);
            check_body(map, value, &mut rows);
            check_undeclared(map, value, &mut rows);
            check_timestamps(value, &mut rows);
            check_identities(map, value, &mut rows);
            check_correlation(map, value, &mut rows);
            check_delivery(map, value, &mut rows);
            check_expiry(value, now, &mut rows);
            let secrets = secret_hits(value);
            check_claims(value, &secrets, &mut rows);
            check_secrets(&secrets, &mut rows);
            check_blockers(value, &mut rows);
            let path = JsonPath::root().key("integrity").key("checksum");
            rows.record(
                "UAIX-12",
                integrity.verdict,
                Some(evidence(&path, value)),
                Some(integrity.explanation.clone()),
            );
        }
        None => {
            rows.fail(
                "UAIX-01",
                evidence(&JsonPath::root(), value),
                format!(
                    "the root is {}; a UAIX envelope is an object",
                    type_name(value)
                ),
            );
            rows.mark_untouched(Verdict::NotApplicable, "the root is not an object");
        }
    }
    report
        .notes
        .extend(UAIX_NOTES.iter().map(|n| n.to_string()));
    report.uaix = Some(UaixView {
        now: now.to_rfc3339_opts(SecondsFormat::AutoSi, true),
        clock_fixed: options.now.is_some(),
        integrity,
    });
    let (outcomes, findings) = rows.finish();
    report.absorb(outcomes, findings);
    if value.is_object() {
        redact_secrets(report, value, &secret_hits(value));
    }
}

/// Makes sure no secret-like string reaches a report: any evidence or seam value that holds
/// one (itself or inside a container) is re-read from a copy with the secrets replaced.
fn redact_secrets(report: &mut ProfileReport, value: &Value, hits: &[SecretHit]) {
    if hits.is_empty() {
        return;
    }
    let mut redacted = value.clone();
    for hit in hits {
        if let Some(slot) = lookup_mut(&mut redacted, hit.path.segments()) {
            *slot = Value::String(format!("<redacted: {} chars>", hit.chars));
        }
    }
    let covers = |path: &JsonPath| {
        hits.iter()
            .any(|h| h.path.segments().starts_with(path.segments()))
    };
    for outcome in &mut report.outcomes {
        for evidence in &mut outcome.evidence {
            if covers(&evidence.path) {
                evidence.seen = evidence.path.lookup(&redacted).map(bounded);
            }
        }
    }
    for seam in &mut report.seam {
        if let Some(field) = seam.field {
            let parts: Vec<&str> = field.split('.').collect();
            let path = JsonPath::keys(&parts);
            if covers(&path) {
                seam.value = path.lookup(&redacted).map(bounded);
            }
        }
    }
}

fn lookup_mut<'v>(value: &'v mut Value, segments: &[Segment]) -> Option<&'v mut Value> {
    segments
        .iter()
        .try_fold(value, |current, segment| match segment {
            Segment::Key(key) => current.as_object_mut()?.get_mut(key),
            Segment::Index(index) => current.as_array_mut()?.get_mut(*index),
        })
}

fn check_members(
    rule: &str,
    map: &Map<String, Value>,
    at: &JsonPath,
    members: &[(&str, Shape)],
    root: &Value,
    rows: &mut Rows,
) {
    for (name, shape) in members {
        let path = at.key(name);
        match map.get(*name) {
            None => rows.fail(rule, evidence(&path, root), format!("{path} missing")),
            Some(value) if !shape.accepts(value) => rows.fail(
                rule,
                evidence(&path, root),
                format!("{path} is {}; expected {}", type_name(value), shape.name()),
            ),
            Some(Value::String(text)) if text.trim().is_empty() => {
                rows.warn(rule, evidence(&path, root), format!("{path} is empty"))
            }
            Some(_) => rows.pass(rule, evidence(&path, root)),
        }
    }
}

fn check_envelope(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    check_members("UAIX-01", map, &JsonPath::root(), &ENVELOPE, root, rows);
    if let Some(Value::String(profile)) = map.get("profile") {
        if profile != PROFILE {
            let path = JsonPath::root().key("profile");
            rows.fail(
                "UAIX-01",
                evidence(&path, root),
                format!("profile is '{}', not '{PROFILE}'", clip(profile)),
            );
        }
    }
}

fn check_body(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    let at = JsonPath::root().key("body");
    match map.get("body") {
        Some(Value::Object(body)) => check_members("UAIX-02", body, &at, &BODY, root, rows),
        _ => rows.mark(
            "UAIX-02",
            Verdict::NotApplicable,
            None,
            "body is missing or not an object (see UAIX-01)",
        ),
    }
}

fn check_undeclared(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    let mut any = false;
    for key in map.keys() {
        if !ENVELOPE.iter().any(|(name, _)| name == key) {
            any = true;
            let path = JsonPath::root().key(key);
            rows.fail(
                "UAIX-03",
                evidence(&path, root),
                format!("undeclared top-level field {path}; keep additional data inside the envelope objects"),
            );
        }
    }
    if !any {
        rows.pass("UAIX-03", whole_packet());
    }
}

fn check_timestamps(root: &Value, rows: &mut Rows) {
    let members = date_time_members(root);
    if members.is_empty() {
        rows.mark(
            "UAIX-04",
            Verdict::NotApplicable,
            None,
            "no member named *_at or timestamp",
        );
    }
    for (path, value) in members {
        match value {
            Value::Null => rows.mark(
                "UAIX-04",
                Verdict::NotApplicable,
                Some(evidence(&path, root)),
                format!("{path} is null"),
            ),
            Value::String(text) if is_utc_z(text) => rows.pass("UAIX-04", evidence(&path, root)),
            _ => rows.fail(
                "UAIX-04",
                evidence(&path, root),
                format!("{path} is not a UTC timestamp with a trailing Z"),
            ),
        }
    }
}

fn check_identities(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    for side in ["source", "target"] {
        let at = JsonPath::root().key(side);
        let Some(identity) = map.get(side).and_then(Value::as_object) else {
            rows.mark(
                "UAIX-05",
                Verdict::NotApplicable,
                None,
                format!("{side} is missing or not an object (see UAIX-01)"),
            );
            continue;
        };
        let id_key = if identity.contains_key("id") || !identity.contains_key("agent_id") {
            "id"
        } else {
            "agent_id"
        };
        let id_path = at.key(id_key);
        match identity.get(id_key) {
            Some(id) if is_token(id) => rows.pass("UAIX-05", evidence(&id_path, root)),
            Some(_) => rows.fail(
                "UAIX-05",
                evidence(&id_path, root),
                format!("{id_path} is not a non-empty identifier without whitespace"),
            ),
            None => rows.fail(
                "UAIX-05",
                evidence(&id_path, root),
                format!("{at} has no id"),
            ),
        }
        for member in IDENTITY_TEXT_MEMBERS {
            if let Some(value) = identity.get(member).filter(|v| !v.is_string()) {
                let path = at.key(member);
                rows.fail(
                    "UAIX-05",
                    evidence(&path, root),
                    format!("{path} is {}; expected string", type_name(value)),
                );
            }
        }
    }
    let target_id = map
        .get("target")
        .and_then(|t| t.get("id").or_else(|| t.get("agent_id")))
        .and_then(Value::as_str);
    let body_target = map
        .get("body")
        .and_then(|b| b.get("target_agent_id"))
        .and_then(Value::as_str);
    if let (Some(target), Some(named)) = (target_id, body_target) {
        if target != named {
            let path = JsonPath::root().key("body").key("target_agent_id");
            rows.warn(
                "UAIX-05",
                evidence(&path, root),
                format!(
                    "body.target_agent_id '{}' differs from the target's id '{}'",
                    clip(named),
                    clip(target)
                ),
            );
        }
    }
}

fn check_correlation(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    let Some(conversation) = map.get("conversation").and_then(Value::as_object) else {
        rows.fail(
            "UAIX-06",
            evidence(&JsonPath::root().key("conversation"), root),
            "conversation.correlation_id missing (no conversation object)",
        );
        return;
    };
    let path = JsonPath::root().key("conversation").key("correlation_id");
    match conversation.get("correlation_id") {
        None => rows.fail("UAIX-06", evidence(&path, root), format!("{path} missing")),
        Some(id) if is_token(id) => rows.pass("UAIX-06", evidence(&path, root)),
        Some(_) => rows.fail(
            "UAIX-06",
            evidence(&path, root),
            format!("{path} is malformed (not a non-empty identifier without whitespace)"),
        ),
    }
}

fn check_delivery(map: &Map<String, Value>, root: &Value, rows: &mut Rows) {
    let at = JsonPath::root().key("delivery");
    let delivery = map.get("delivery").and_then(Value::as_object);
    for member in ["idempotency_key", "fallback_directive"] {
        let path = at.key(member);
        let value = delivery.and_then(|d| d.get(member));
        let present = match value {
            Some(Value::String(text)) => !text.trim().is_empty(),
            Some(Value::Object(object)) => member == "fallback_directive" && !object.is_empty(),
            _ => false,
        };
        if present {
            rows.pass("UAIX-07", evidence(&path, root));
        } else if value.is_some() {
            rows.fail(
                "UAIX-07",
                evidence(&path, root),
                format!("{path} is empty or not a string"),
            );
        } else {
            rows.fail("UAIX-07", evidence(&path, root), format!("{path} missing"));
        }
    }
}

fn parse_instant(value: &Value) -> Option<DateTime<Utc>> {
    value
        .as_str()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
}

/// The findings name the expiry, never the clock: a run states its clock once, where its
/// report has a head (`--now`), so two runs of the same packets print the same findings.
fn check_expiry(root: &Value, now: DateTime<Utc>, rows: &mut Rows) {
    let path = JsonPath::root().key("delivery").key("expires_at");
    match path.lookup(root) {
        None | Some(Value::Null) => rows.mark(
            "UAIX-08",
            Verdict::NotApplicable,
            None,
            "no delivery.expires_at (the expiry field name is an assumption)",
        ),
        Some(value) => match parse_instant(value) {
            None => rows.mark(
                "UAIX-08",
                Verdict::Unverifiable,
                Some(evidence(&path, root)),
                format!("{path} is not a date-time; expiry cannot be judged"),
            ),
            Some(expires) if expires <= now => rows.fail(
                "UAIX-08",
                evidence(&path, root),
                format!(
                    "expired packet: {path} is {}, at or before the run's clock",
                    expires.to_rfc3339_opts(SecondsFormat::AutoSi, true)
                ),
            ),
            Some(_) => rows.pass("UAIX-08", evidence(&path, root)),
        },
    }
    let delegated = JsonPath::root()
        .key("body")
        .key("delegated_authorization")
        .key("expires_at");
    if let Some(expires) = delegated.lookup(root).and_then(parse_instant) {
        if expires <= now {
            rows.warn(
                "UAIX-08",
                evidence(&delegated, root),
                format!("the delegated authorization expired ({delegated}) at or before the run's clock"),
            );
        }
    }
}

fn check_claims(root: &Value, secrets: &[SecretHit], rows: &mut Rows) {
    let hits = claim_hits(root);
    if hits.is_empty() {
        rows.pass("UAIX-09", whole_packet());
    }
    for hit in hits {
        let sentence = if secrets.iter().any(|s| s.path == hit.path) {
            "<sentence not shown: the string also looks like a secret>".to_owned()
        } else {
            clip(&hit.sentence)
        };
        rows.fail(
            "UAIX-09",
            evidence(&hit.path, root),
            format!(
                "unsupported claim about UAIX ({}) at {}: \"{sentence}\"",
                hit.claim, hit.path
            ),
        );
    }
}

fn check_secrets(hits: &[SecretHit], rows: &mut Rows) {
    if hits.is_empty() {
        rows.pass("UAIX-10", whole_packet());
    }
    for hit in hits.iter() {
        rows.fail(
            "UAIX-10",
            redacted_evidence(&hit.path, hit.chars),
            format!(
                "secret-like string at {} ({}); value not shown",
                hit.path, hit.pattern
            ),
        );
    }
}

fn check_blockers(root: &Value, rows: &mut Rows) {
    let mut stack = vec![(JsonPath::root(), root)];
    let mut found = false;
    while let Some((path, value)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    let child = path.key(key);
                    if key == "blockers" && super::py::truthy(item) {
                        found = true;
                        rows.warn(
                            "UAIX-11",
                            evidence(&child, root),
                            format!("{child} lists blockers: authorization, secret, destructive-action or boundary-conflict blockers require human review"),
                        );
                    }
                    stack.push((child, item));
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    stack.push((path.index(index), item));
                }
            }
            _ => {}
        }
    }
    if !found {
        rows.mark(
            "UAIX-11",
            Verdict::NotApplicable,
            None,
            "no blockers in this packet",
        );
    }
}
