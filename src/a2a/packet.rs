//! The raw packet as a parsed `Value`, built on first use. The conversion reads its fields
//! in one borrowing pass and never needs the tree; explanations do, for evidence paths.

use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The packet's bytes, parsed into a `Value` on the first `as_ref()`. Empty when the packet
/// was rejected before it was read (over `max_payload_bytes`). The bytes and the tree are
/// shared by clones: the inspector's detail converts one packet in every mode from one
/// `Packet` ([`super::convert_shared`]), and a copy of the text per conversion of a 4.6 MB
/// packet was 27 MB beside its one text, a tree per conversion of a packet of 200k keys
/// 20 MB each.
#[derive(Clone, Debug, Default)]
pub struct Packet {
    bytes: Option<Arc<[u8]>>,
    parsed: Arc<OnceLock<Option<Arc<Value>>>>,
}

impl Packet {
    pub(super) fn of(bytes: &[u8]) -> Packet {
        Packet::shared(bytes.into())
    }

    /// The packet of bytes someone else holds too, without copying them.
    pub fn shared(bytes: Arc<[u8]>) -> Packet {
        Packet {
            bytes: Some(bytes),
            parsed: Arc::default(),
        }
    }

    /// The parsed packet, when it is JSON, parsed on first use and shared. Named like
    /// `Option::as_ref`: callers read it as an optional tree.
    pub fn as_ref(&self) -> Option<&Value> {
        self.parsed
            .get_or_init(|| self.parse().map(Arc::new))
            .as_deref()
    }

    /// The bytes (`None`: rejected before they were read).
    pub fn bytes(&self) -> Option<&[u8]> {
        self.bytes.as_deref()
    }

    /// The bytes as shared (`None`: rejected before they were read).
    pub(super) fn shared_bytes(&self) -> Option<Arc<[u8]>> {
        self.bytes.clone()
    }

    fn parse(&self) -> Option<Value> {
        self.bytes.as_deref().and_then(crate::json::tree_within_cap)
    }

    /// The parsed value, parsing now if nothing asked for it yet (a copy when another
    /// conversion shares the tree).
    pub fn into_value(self) -> Option<Value> {
        self.as_ref();
        let tree = match Arc::try_unwrap(self.parsed) {
            Ok(parsed) => parsed.into_inner().flatten()?,
            Err(shared) => Arc::clone(shared.get()?.as_ref()?),
        };
        Some(Arc::try_unwrap(tree).unwrap_or_else(|shared| Value::clone(&shared)))
    }

    /// The parsed packet, given up (parsed now if it was not yet): for a caller that edits
    /// the tree in place rather than copy it. Later `as_ref()` calls parse the bytes again.
    /// A tree another conversion shares stays with it; this one's is parsed anew.
    pub fn take(&mut self) -> Option<Value> {
        match Arc::get_mut(&mut self.parsed) {
            Some(parsed) => match parsed.take() {
                Some(None) => return None,
                Some(Some(tree)) => {
                    if let Ok(value) = Arc::try_unwrap(tree) {
                        return Some(value);
                    }
                }
                None => {}
            },
            // Shared with another conversion, which keeps it: this one starts over.
            None => self.parsed = Arc::default(),
        }
        self.parse()
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

    #[test]
    fn clones_share_one_tree_and_give_it_up_without_taking_it_from_each_other() {
        let bytes: Arc<[u8]> = Arc::from(&br#"{"a":[1]}"#[..]);
        let expected = serde_json::json!({"a": [1]});
        let packet = Packet::shared(bytes);
        let mut other = packet.clone();
        let first: *const Value = packet.as_ref().unwrap();
        assert!(std::ptr::eq(first, other.as_ref().unwrap()), "parsed once");
        assert_eq!(other.take(), Some(expected.clone()));
        assert!(
            std::ptr::eq(first, packet.as_ref().unwrap()),
            "still shared"
        );
        assert_eq!(packet.clone().into_value(), Some(expected.clone()));
        assert_eq!(packet.into_value(), Some(expected));
    }
}
