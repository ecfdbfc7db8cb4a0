//! The `discovery` (G4-A) and `handoff` (K1-A) objects. Each is fixed by a few booleans, so
//! every possible object, and its digest, is built once from the builders here and then
//! looked up.

use crate::json::{canonical_bytes, digest_bytes, Digest};
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// The K1-A handoff flags: `visible`, `task_ref_visible`, `message_ref_visible`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoffFlags {
    pub visible: bool,
    pub task_ref_visible: bool,
    pub message_ref_visible: bool,
}

impl HandoffFlags {
    fn index(self) -> usize {
        usize::from(self.visible) << 2
            | usize::from(self.task_ref_visible) << 1
            | usize::from(self.message_ref_visible)
    }

    pub fn object(self) -> &'static Value {
        &handoff_table()[self.index()].0
    }

    pub fn digest(self) -> Digest {
        handoff_table()[self.index()].1
    }

    pub fn canonical_bytes(self) -> &'static [u8] {
        &handoff_table()[self.index()].2
    }
}

/// The G4-A discovery flags: `agent_card_visible`, `extended_card_access_visible`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscoveryFlags {
    pub agent_card_visible: bool,
    pub extended_card_access_visible: bool,
}

impl DiscoveryFlags {
    /// Read from the raw `attributes.assay_g4`, which must be an object.
    pub fn of(attributes: Option<&Value>) -> DiscoveryFlags {
        let g4 = attributes
            .and_then(|attributes| attributes.get("assay_g4"))
            .filter(|g4| g4.is_object());
        let flag = |member: &str| {
            g4.and_then(|g4| g4.get(member))
                .and_then(|object| object.get("visible"))
                == Some(&Value::Bool(true))
        };
        DiscoveryFlags {
            agent_card_visible: flag("agent_card"),
            extended_card_access_visible: flag("extended_card_access"),
        }
    }

    fn index(self) -> usize {
        usize::from(self.agent_card_visible) << 1 | usize::from(self.extended_card_access_visible)
    }

    pub fn object(self) -> &'static Value {
        &discovery_table()[self.index()].0
    }

    pub fn digest(self) -> Digest {
        discovery_table()[self.index()].1
    }

    pub fn canonical_bytes(self) -> &'static [u8] {
        &discovery_table()[self.index()].2
    }
}

/// Each possible object with its digest and canonical bytes.
type Entry = (Value, Digest, Vec<u8>);

fn entry(object: Value) -> Entry {
    let bytes = canonical_bytes(&object);
    (object, digest_bytes(&bytes), bytes)
}

fn handoff_table() -> &'static [Entry; 8] {
    static TABLE: OnceLock<[Entry; 8]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|bits| {
            entry(handoff_object(bits & 4 != 0, bits & 2 != 0, bits & 1 != 0))
        })
    })
}

fn discovery_table() -> &'static [Entry; 4] {
    static TABLE: OnceLock<[Entry; 4]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|bits| entry(discovery_object(bits & 2 != 0, bits & 1 != 0)))
    })
}

/// The discovery object for its two observable flags (the other two follow from them).
pub(crate) fn discovery_object(
    agent_card_visible: bool,
    extended_card_access_visible: bool,
) -> Value {
    let mut discovery = Map::new();
    discovery.insert("agent_card_visible".into(), Value::Bool(agent_card_visible));
    discovery.insert(
        "agent_card_source_kind".into(),
        Value::String(
            if agent_card_visible {
                "attributes"
            } else {
                "unknown"
            }
            .to_owned(),
        ),
    );
    discovery.insert(
        "extended_card_access_visible".into(),
        Value::Bool(extended_card_access_visible),
    );
    discovery.insert("signature_material_visible".into(), Value::Bool(false));
    Value::Object(discovery)
}

/// The handoff object for its three booleans (`source_kind` follows `visible`).
pub(crate) fn handoff_object(
    visible: bool,
    task_ref_visible: bool,
    message_ref_visible: bool,
) -> Value {
    let mut handoff = Map::new();
    handoff.insert("visible".into(), Value::Bool(visible));
    handoff.insert(
        "source_kind".into(),
        Value::String(if visible { "typed_payload" } else { "unknown" }.to_owned()),
    );
    handoff.insert("task_ref_visible".into(), Value::Bool(task_ref_visible));
    handoff.insert(
        "message_ref_visible".into(),
        Value::Bool(message_ref_visible),
    );
    Value::Object(handoff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_digests_match_the_spec() {
        // (visible, task_ref_visible, message_ref_visible) and the spec's digest.
        let legal = [
            (
                (false, false, false),
                "60e992b4881c03d816cd94929856d8c8cade113f62273d42a8a75412533a294a",
            ),
            (
                (true, true, true),
                "e478af7359a254678c90b5eb2737d63f79c6d667a2b5c4bc323442f07d09d33b",
            ),
            (
                (true, false, true),
                "0be260743587b9594018a4ab7809560157be088be0372a8ae7c7faa6a744effe",
            ),
            (
                (true, true, false),
                "c956bc2d9e8ddd8e2f914f1b0ea5393625fd354248c614a0251687f816d0d623",
            ),
            (
                (true, false, false),
                "d38c94c8e5bc2259dbae7a2b92bf1cfa6d0f57cb011b1b7e70dc6f9277330b5b",
            ),
        ];
        for ((visible, task_ref_visible, message_ref_visible), digest) in legal {
            let flags = HandoffFlags {
                visible,
                task_ref_visible,
                message_ref_visible,
            };
            assert_eq!(flags.digest().to_hex(), digest);
            assert_eq!(flags.canonical_bytes(), canonical_bytes(flags.object()));
        }
        let defaults = DiscoveryFlags::of(None);
        assert_eq!(
            defaults.digest().to_hex(),
            "26b4d9c0105f4cc26d4b413e7b6b27effe5829f9f319a60b91ca490fd7776a13"
        );
        assert_eq!(defaults.object(), &discovery_object(false, false));
    }

    #[test]
    fn discovery_reads_assay_g4_objects_only() {
        let attributes = serde_json::json!({"assay_g4": {"agent_card": {"visible": true},
            "extended_card_access": {"visible": "true"}}});
        let flags = DiscoveryFlags::of(Some(&attributes));
        assert!(flags.agent_card_visible && !flags.extended_card_access_visible);
        let not_object = serde_json::json!({"assay_g4": [{"agent_card": {"visible": true}}]});
        assert_eq!(
            DiscoveryFlags::of(Some(&not_object)),
            DiscoveryFlags::of(None)
        );
    }
}
