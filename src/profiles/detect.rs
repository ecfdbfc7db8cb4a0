//! Which handoff profile a JSON value is shaped like. Detection is by distinctive keys only;
//! it never claims A2A adapter packets (`protocol` / `event_type`), canonical adapter payloads
//! (`adapter_id`), evidence events (`specversion`) or A2A protocol objects, whatever else
//! they carry.

use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::str::FromStr;

enum_with_all! {
    /// A profile, and for ContextCore which of its three shapes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    pub enum ProfileKind {
        /// Agent Handoff Contract (Master/Sub) record.
        #[serde(rename = "ahc")]
        Ahc,
        /// ContextCore `handoff_message` (doc §3/§4).
        #[serde(rename = "cc-msg")]
        CcMsg,
        /// ContextCore governance `HandoffContract` v1 (closed schema).
        #[serde(rename = "cc-contract")]
        CcContract,
        /// ContextCore on-disk record (camelCase).
        #[serde(rename = "cc-store")]
        CcStore,
        /// UAIX `uai.agent.handoff.v1` envelope.
        #[serde(rename = "uaix")]
        Uaix,
    }
}

impl ProfileKind {
    /// The short name used by `--as` and in JSON output.
    pub fn id(self) -> &'static str {
        match self {
            ProfileKind::Ahc => "ahc",
            ProfileKind::CcMsg => "cc-msg",
            ProfileKind::CcContract => "cc-contract",
            ProfileKind::CcStore => "cc-store",
            ProfileKind::Uaix => "uaix",
        }
    }

    /// A person's name for the profile and shape.
    pub fn label(self) -> &'static str {
        match self {
            ProfileKind::Ahc => "Agent Handoff Contract (Master/Sub) record",
            ProfileKind::CcMsg => "ContextCore CC-MSG (handoff_message)",
            ProfileKind::CcContract => "ContextCore CC-CONTRACT (HandoffContract v1)",
            ProfileKind::CcStore => "ContextCore CC-STORE (storage record)",
            ProfileKind::Uaix => "UAIX uai.agent.handoff.v1 envelope",
        }
    }

    /// The rule table the profile is evaluated against.
    pub fn table(self) -> &'static crate::rules::RuleTable {
        match self {
            ProfileKind::Ahc => &super::AHC_TABLE,
            ProfileKind::CcMsg | ProfileKind::CcContract | ProfileKind::CcStore => &super::CC_TABLE,
            ProfileKind::Uaix => &super::UAIX_TABLE,
        }
    }
}

impl fmt::Display for ProfileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for ProfileKind {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProfileKind::ALL
            .into_iter()
            .find(|kind| kind.id().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let names: Vec<&str> = ProfileKind::ALL.iter().map(|k| k.id()).collect();
                format!(
                    "unknown profile '{text}' (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Which profile a value was taken as, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProfileDetection {
    pub kind: ProfileKind,
    pub reason: String,
}

impl ProfileDetection {
    pub(crate) fn forced(kind: ProfileKind) -> ProfileDetection {
        ProfileDetection {
            kind,
            reason: format!("evaluated as {} because it was asked for (--as)", kind.id()),
        }
    }
}

/// Keys whose presence means another part of the inspector owns the value.
const FOREIGN_KEYS: [(&str, &str); 12] = [
    ("protocol", "an A2A adapter packet"),
    ("event_type", "an A2A adapter packet"),
    ("adapter_id", "a canonical adapter payload"),
    ("specversion", "an evidence event"),
    ("jsonrpc", "an A2A JSON-RPC object"),
    ("contextId", "an A2A protocol object"),
    ("messageId", "an A2A message"),
    ("taskId", "an A2A protocol object"),
    ("artifactId", "an A2A artifact"),
    ("parts", "an A2A message or artifact"),
    ("protocolVersion", "an A2A agent card"),
    ("skills", "an A2A agent card"),
];

/// Keys only the master/sub record uses.
const AHC_KEYS: [&str; 5] = [
    "input_scope",
    "actions_taken",
    "rulebook_update",
    "attempted_mutations",
    "next_action",
];

/// camelCase keys of the ContextCore storage record.
const CC_STORE_KEYS: [&str; 6] = [
    "fromAgent",
    "toAgent",
    "capabilityId",
    "expectedOutput",
    "timeoutMs",
    "resultTraceId",
];

/// Detects the profile of `value`, or `None` when it is none of them (or belongs to A2A).
pub fn detect(value: &Value) -> Option<ProfileDetection> {
    let map = value.as_object()?;
    if FOREIGN_KEYS.iter().any(|(key, _)| map.contains_key(*key)) {
        return None;
    }
    if map.get("kind").is_some_and(Value::is_string) && map.contains_key("status") {
        return None; // an A2A Task or status update (`kind` discriminator)
    }
    detect_uaix(map)
        .or_else(|| detect_ahc(map))
        .or_else(|| detect_cc_contract(map))
        .or_else(|| detect_cc_store(map))
        .or_else(|| detect_cc_msg(map))
}

fn present<'a>(map: &Map<String, Value>, keys: &[&'a str]) -> Vec<&'a str> {
    keys.iter()
        .copied()
        .filter(|key| map.contains_key(*key))
        .collect()
}

fn found(kind: ProfileKind, reason: String) -> Option<ProfileDetection> {
    Some(ProfileDetection { kind, reason })
}

fn detect_uaix(map: &Map<String, Value>) -> Option<ProfileDetection> {
    match map.get("profile").and_then(Value::as_str) {
        Some("uai.agent.handoff.v1") => found(
            ProfileKind::Uaix,
            "`profile` is \"uai.agent.handoff.v1\"".into(),
        ),
        Some(_) => None, // another UAIX profile (or an unrelated `profile` field)
        None => {
            let envelope = present(
                map,
                &[
                    "body",
                    "delivery",
                    "conversation",
                    "integrity",
                    "provenance",
                ],
            );
            (map.contains_key("uai_version") && envelope.len() >= 2).then(|| ProfileDetection {
                kind: ProfileKind::Uaix,
                reason: format!(
                    "`uai_version` with UAIX envelope members {} (no `profile` naming another UAIX profile)",
                    envelope.join(", ")
                ),
            })
        }
    }
}

fn detect_ahc(map: &Map<String, Value>) -> Option<ProfileDetection> {
    let keys = present(map, &AHC_KEYS);
    let enough = keys.len() >= 2 || (map.contains_key("handoff_id") && !keys.is_empty());
    if !enough || map.contains_key("schema_version") || map.contains_key("capability_id") {
        return None;
    }
    found(
        ProfileKind::Ahc,
        format!("master/sub handoff record keys {}", keys.join(", ")),
    )
}

fn detect_cc_contract(map: &Map<String, Value>) -> Option<ProfileDetection> {
    let core = present(
        map,
        &[
            "handoff_id",
            "capability_id",
            "expected_output",
            "from_agent",
            "to_agent",
        ],
    );
    if map.contains_key("schema_version") && !core.is_empty() {
        return found(
            ProfileKind::CcContract,
            format!(
                "`schema_version` with HandoffContract keys {}",
                core.join(", ")
            ),
        );
    }
    if map.contains_key("handoff_id") && map.contains_key("capability_id") {
        return found(
            ProfileKind::CcContract,
            "`handoff_id` with `capability_id` (HandoffContract naming; no `schema_version`)"
                .into(),
        );
    }
    None
}

fn detect_cc_store(map: &Map<String, Value>) -> Option<ProfileDetection> {
    let keys = present(map, &CC_STORE_KEYS);
    (keys.len() >= 2).then(|| ProfileDetection {
        kind: ProfileKind::CcStore,
        reason: format!("camelCase ContextCore storage keys {}", keys.join(", ")),
    })
}

fn detect_cc_msg(map: &Map<String, Value>) -> Option<ProfileDetection> {
    let keys = present(
        map,
        &[
            "capability_id",
            "expected_output",
            "from_agent",
            "to_agent",
            "task",
        ],
    );
    (map.contains_key("capability_id") && keys.len() >= 2 && !map.contains_key("handoff_id")).then(
        || ProfileDetection {
            kind: ProfileKind::CcMsg,
            reason: format!("ContextCore handoff_message keys {}", keys.join(", ")),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(value: Value) -> Option<ProfileKind> {
        detect(&value).map(|d| d.kind)
    }

    #[test]
    fn detects_each_shape() {
        assert_eq!(
            kind(json!({"handoff_id":"h","task_id":"t","actions_taken":[],"rulebook_update":{}})),
            Some(ProfileKind::Ahc)
        );
        assert_eq!(
            kind(json!({"schema_version":"v1","handoff_id":"h"})),
            Some(ProfileKind::CcContract)
        );
        assert_eq!(
            kind(json!({"handoff_id":"h","capability_id":"c","from_agent":"a"})),
            Some(ProfileKind::CcContract)
        );
        assert_eq!(
            kind(json!({"id":"h","fromAgent":"a","toAgent":"b","capabilityId":"c"})),
            Some(ProfileKind::CcStore)
        );
        assert_eq!(
            kind(json!({"id":"h","from_agent":"a","capability_id":"c","task":"t"})),
            Some(ProfileKind::CcMsg)
        );
        assert_eq!(
            kind(json!({"profile":"uai.agent.handoff.v1"})),
            Some(ProfileKind::Uaix)
        );
        assert_eq!(
            kind(json!({"uai_version":"1.0","body":{},"delivery":{}})),
            Some(ProfileKind::Uaix)
        );
    }

    #[test]
    fn leaves_a2a_and_other_owners_alone() {
        for foreign in [
            json!({"protocol":"a2a","handoff_id":"h","actions_taken":[],"next_action":{}}),
            json!({"event_type":"x","capability_id":"c","task":"t","from_agent":"a"}),
            json!({"adapter_id":"a","handoff_id":"h","capability_id":"c"}),
            json!({"specversion":"1.0","profile":"uai.agent.handoff.v1"}),
            json!({"kind":"task","id":"t","status":{"state":"working"},"artifacts":[]}),
            json!({"messageId":"m","role":"user","parts":[]}),
            json!({"jsonrpc":"2.0","method":"message/send"}),
            json!({"profile":"uai.intent.request.v1","uai_version":"1.0","body":{},"delivery":{}}),
            json!({"schema_version":"v1"}),
            json!([1, 2]),
            json!("handoff_id"),
        ] {
            assert_eq!(kind(foreign.clone()), None, "claimed {foreign}");
        }
    }

    #[test]
    fn profile_kinds_parse_from_their_ids() {
        for kind in ProfileKind::ALL {
            assert_eq!(kind.id().parse::<ProfileKind>(), Ok(kind));
        }
        assert!("a2a".parse::<ProfileKind>().is_err());
    }
}
