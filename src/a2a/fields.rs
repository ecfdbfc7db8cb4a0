//! Typed fields (spec section 3): a field is typed only when it is a JSON string at that exact
//! path; any other JSON type counts as absent.

use super::event::CanonicalType;
use super::flags::HandoffFlags;
use super::raw::{RawPacket, Text};
use super::unmapped::UnmappedKeys;
use std::borrow::Cow;

/// The top-level keys the adapter maps; every other top-level key is unmapped.
pub const RECOGNISED_TOP_LEVEL_KEYS: [&str; 9] = [
    "protocol",
    "version",
    "event_type",
    "timestamp",
    "agent",
    "task",
    "artifact",
    "message",
    "attributes",
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypedFields {
    pub event_type: Option<String>,
    pub timestamp: Option<String>,
    pub agent_id: Option<String>,
    pub agent_name: Option<String>,
    pub agent_role: Option<String>,
    /// String items of `agent.capabilities`, sorted; `None` unless it is an array.
    pub agent_capabilities: Option<Vec<String>>,
    pub task_id: Option<String>,
    pub task_status: Option<String>,
    pub task_kind: Option<String>,
    pub artifact_id: Option<String>,
    pub artifact_name: Option<String>,
    pub artifact_media_type: Option<String>,
    pub message_id: Option<String>,
    pub message_role: Option<String>,
    /// Unmapped top-level keys, distinct, in byte order.
    pub unmapped_keys: UnmappedKeys,
}

fn owned(text: Option<Text<'_>>) -> Option<String> {
    text.map(Cow::into_owned)
}

impl TypedFields {
    /// K1-A v1: the positive typed rule, or the defaults. These are the typed fields before
    /// substitution, so a substituted id is never a visible reference.
    pub(crate) fn handoff_flags(&self, canonical_type: CanonicalType) -> HandoffFlags {
        let visible = canonical_type == CanonicalType::TaskRequested
            && self.task_kind.as_deref() == Some("delegation");
        HandoffFlags {
            visible,
            task_ref_visible: visible && self.task_id.is_some(),
            message_ref_visible: visible && self.message_id.is_some(),
        }
    }

    /// The typed fields of a packet read by `RawPacket` (strings only, last value wins).
    pub(super) fn from_raw(raw: RawPacket<'_>) -> TypedFields {
        let [agent_id, agent_name, agent_role] = raw.agent.strings;
        let [task_id, task_status, task_kind] = raw.task.strings;
        let [artifact_id, artifact_name, artifact_media_type] = raw.artifact.strings;
        let [message_id, message_role, _] = raw.message.strings;
        let agent_capabilities = raw.agent.capabilities.map(|items| {
            let mut strings: Vec<String> = items.into_iter().map(Cow::into_owned).collect();
            strings.sort_unstable();
            strings
        });
        TypedFields {
            event_type: owned(raw.event_type),
            timestamp: owned(raw.timestamp),
            agent_id: owned(agent_id),
            agent_name: owned(agent_name),
            agent_role: owned(agent_role),
            agent_capabilities,
            task_id: owned(task_id),
            task_status: owned(task_status),
            task_kind: owned(task_kind),
            artifact_id: owned(artifact_id),
            artifact_name: owned(artifact_name),
            artifact_media_type: owned(artifact_media_type),
            message_id: owned(message_id),
            message_role: owned(message_role),
            unmapped_keys: UnmappedKeys::of(raw.unmapped_keys),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> TypedFields {
        TypedFields::from_raw(RawPacket::parse(bytes).unwrap())
    }

    #[test]
    fn only_strings_are_typed() {
        let fields = read(
            br#"{"zeta": 2, "agent": {"id": 7, "role": "planner", "capabilities": ["b", 1, "a"]},
            "task": {"id": null, "kind": ["delegation"]}, "message": "msg-1", "extra": 1}"#,
        );
        assert_eq!(fields.agent_id, None);
        assert_eq!(fields.agent_role.as_deref(), Some("planner"));
        assert_eq!(
            fields.agent_capabilities,
            Some(vec!["a".to_owned(), "b".to_owned()])
        );
        assert_eq!(fields.task_id, None);
        assert_eq!(fields.task_kind, None);
        assert_eq!(fields.message_id, None);
        assert_eq!(
            fields.unmapped_keys.iter().collect::<Vec<_>>(),
            vec!["extra", "zeta"]
        );
    }

    #[test]
    fn capabilities_that_are_not_an_array_are_absent() {
        assert_eq!(
            read(br#"{"agent": {"capabilities": "search"}}"#).agent_capabilities,
            None
        );
    }
}
