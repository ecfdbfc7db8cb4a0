//! The five legal `handoff` objects, named, with their digests (conversion spec §9).

use crate::json::{digest_value, Digest};
use serde::Serialize;
use serde_json::Value;

enum_with_all! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HandoffState {
        Defaults,
        TaskAndMessageRefs,
        MessageRefOnly,
        TaskRefOnly,
        NoRefs,
    }
}

impl HandoffState {
    pub fn name(self) -> &'static str {
        match self {
            HandoffState::Defaults => "defaults (not visible)",
            HandoffState::TaskAndMessageRefs => "typed positive: task + message refs",
            HandoffState::MessageRefOnly => "typed positive: message ref only",
            HandoffState::TaskRefOnly => "typed positive: task ref only",
            HandoffState::NoRefs => "typed positive: no refs",
        }
    }

    /// The stable snake_case key used in JSON output and golden manifests.
    pub fn key(self) -> &'static str {
        match self {
            HandoffState::Defaults => "defaults",
            HandoffState::TaskAndMessageRefs => "task_and_message_refs",
            HandoffState::MessageRefOnly => "message_ref_only",
            HandoffState::TaskRefOnly => "task_ref_only",
            HandoffState::NoRefs => "no_refs",
        }
    }

    pub fn from_key(key: &str) -> Option<HandoffState> {
        HandoffState::ALL
            .into_iter()
            .find(|state| state.key() == key)
    }

    /// A short label for lists.
    pub fn short(self) -> &'static str {
        match self {
            HandoffState::Defaults => "defaults",
            HandoffState::TaskAndMessageRefs => "task+msg",
            HandoffState::MessageRefOnly => "msg only",
            HandoffState::TaskRefOnly => "task only",
            HandoffState::NoRefs => "no refs",
        }
    }

    /// The digest the spec publishes for this state.
    pub fn digest_hex(self) -> &'static str {
        match self {
            HandoffState::Defaults => {
                "60e992b4881c03d816cd94929856d8c8cade113f62273d42a8a75412533a294a"
            }
            HandoffState::TaskAndMessageRefs => {
                "e478af7359a254678c90b5eb2737d63f79c6d667a2b5c4bc323442f07d09d33b"
            }
            HandoffState::MessageRefOnly => {
                "0be260743587b9594018a4ab7809560157be088be0372a8ae7c7faa6a744effe"
            }
            HandoffState::TaskRefOnly => {
                "c956bc2d9e8ddd8e2f914f1b0ea5393625fd354248c614a0251687f816d0d623"
            }
            HandoffState::NoRefs => {
                "d38c94c8e5bc2259dbae7a2b92bf1cfa6d0f57cb011b1b7e70dc6f9277330b5b"
            }
        }
    }

    pub fn to_json(self) -> Value {
        let (visible, task_ref, message_ref) = match self {
            HandoffState::Defaults => (false, false, false),
            HandoffState::TaskAndMessageRefs => (true, true, true),
            HandoffState::MessageRefOnly => (true, false, true),
            HandoffState::TaskRefOnly => (true, true, false),
            HandoffState::NoRefs => (true, false, false),
        };
        serde_json::json!({
            "visible": visible,
            "source_kind": if visible { "typed_payload" } else { "unknown" },
            "task_ref_visible": task_ref,
            "message_ref_visible": message_ref,
        })
    }

    /// The state whose published digest this is. Compares bytes against the five digests
    /// parsed once (formatting hex for every packet of a large corpus showed in profiles).
    pub fn from_digest(digest: &Digest) -> Option<HandoffState> {
        static DIGESTS: std::sync::OnceLock<[Option<Digest>; 5]> = std::sync::OnceLock::new();
        let digests = DIGESTS
            .get_or_init(|| HandoffState::ALL.map(|state| Digest::from_hex(state.digest_hex())));
        HandoffState::ALL
            .into_iter()
            .zip(digests)
            .find(|(_, known)| known.as_ref() == Some(digest))
            .map(|(state, _)| state)
    }
}

/// The named legal state of a `handoff` value, or `None` when it is not one of the five.
pub fn handoff_state(handoff: &Value) -> Option<HandoffState> {
    HandoffState::from_digest(&digest_value(handoff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_digests_match_the_objects() {
        for state in HandoffState::ALL {
            assert_eq!(
                digest_value(&state.to_json()).to_hex(),
                state.digest_hex(),
                "{state:?}"
            );
            assert_eq!(handoff_state(&state.to_json()), Some(state));
            assert_eq!(HandoffState::from_key(state.key()), Some(state));
            assert_eq!(
                serde_json::to_value(state).unwrap(),
                Value::String(state.key().to_owned())
            );
        }
    }

    #[test]
    fn illegal_objects_have_no_state() {
        let mut illegal = HandoffState::Defaults.to_json();
        illegal["task_ref_visible"] = Value::Bool(true);
        assert_eq!(handoff_state(&illegal), None);
        assert_eq!(handoff_state(&Value::Null), None);
    }
}
