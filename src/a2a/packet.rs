//! The raw packet as a parsed `Value`, built on first use. The conversion reads its fields
//! in one borrowing pass and never needs the tree; explanations do, for evidence paths.

use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The packet's bytes, parsed into a `Value` on the first `as_ref()`. Empty when the packet
/// was rejected before it was read (over `max_payload_bytes`). The bytes are shared: the
/// inspector's detail converts one packet in every mode (and relabelled), and a copy per
/// conversion of a 4.6 MB packet was 27 MB beside its one text.
#[derive(Clone, Debug, Default)]
pub struct Packet {
    bytes: Option<Arc<[u8]>>,
    parsed: OnceLock<Option<Value>>,
}

impl Packet {
    pub(super) fn of(bytes: &[u8]) -> Packet {
        Packet::shared(bytes.into())
    }

    /// The packet of bytes someone else holds too, without copying them.
    pub(super) fn shared(bytes: Arc<[u8]>) -> Packet {
        Packet {
            bytes: Some(bytes),
            parsed: OnceLock::new(),
        }
    }

    /// The parsed packet, when it is JSON. Named like `Option::as_ref` so code written
    /// against the former `Option<Value>` field reads the same.
    pub fn as_ref(&self) -> Option<&Value> {
        self.parsed
            .get_or_init(|| self.bytes.as_deref().and_then(crate::json::tree_within_cap))
            .as_ref()
    }

    /// The parsed value, parsing now if nothing asked for it yet.
    pub fn into_value(self) -> Option<Value> {
        self.as_ref();
        self.parsed.into_inner().flatten()
    }

    /// The parsed packet, given up (parsed now if it was not yet): for a caller that edits
    /// the tree in place rather than copy it. Later `as_ref()` calls parse the bytes again.
    pub fn take(&mut self) -> Option<Value> {
        let parsed = self
            .parsed
            .take()
            .unwrap_or_else(|| self.bytes.as_deref().and_then(crate::json::tree_within_cap));
        parsed
    }

    pub fn is_some(&self) -> bool {
        self.as_ref().is_some()
    }

    pub fn is_none(&self) -> bool {
        !self.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_on_demand_and_only_json() {
        assert_eq!(
            Packet::of(br#"{"a":[1]}"#).as_ref(),
            Some(&serde_json::json!({"a": [1]}))
        );
        assert!(Packet::of(b"{").is_none());
        assert!(Packet::default().is_none());
    }

    #[test]
    fn a_taken_tree_is_parsed_again_when_asked_for() {
        let mut packet = Packet::of(br#"{"a":1}"#);
        let expected = serde_json::json!({"a": 1});
        assert_eq!(packet.take(), Some(expected.clone()));
        assert_eq!(packet.as_ref(), Some(&expected));
        assert_eq!(packet.take(), Some(expected));
        assert_eq!(Packet::of(b"{").take(), None);
    }
}
