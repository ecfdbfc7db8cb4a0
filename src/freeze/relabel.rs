//! What an A2A v0.3 -> v1.0 migration means for the handoff seam: the adapter accepts only
//! versions `>=0.2 <1.0` (conversion row C7), so a raw packet relabelled `1.0` is rejected
//! before any handoff rule runs. This puts the packet's outcome as sent next to its outcome
//! relabelled, per mode.

use super::explain::{explain_conversion, Explanation};
use crate::a2a::{convert_shared, ConvertOptions, Mode};
use serde_json::Value;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct RelabelOutcome {
    /// The version as sent (`None` when the packet had no string version).
    pub sent_version: Option<String>,
    /// Per mode: the explanation as sent, then relabelled `1.0`.
    pub modes: Vec<(Mode, Explanation, Explanation)>,
}

pub const RELABELLED_VERSION: &str = "1.0";

/// `None` when the bytes are not a JSON object (nothing to relabel). The four conversions
/// share `bytes` and the one relabelled text (no copy of the packet each).
pub fn relabel_outcome(bytes: &Arc<[u8]>, options: &ConvertOptions) -> Option<RelabelOutcome> {
    // Only an object has a version to relabel: an array of a million small objects is not
    // parsed into the tree that would cost 50 times its text.
    if !crate::json::may_be_an_object(bytes) {
        return None;
    }
    let mut packet: Value = serde_json::from_slice(bytes).ok()?;
    let object = packet.as_object_mut()?;
    let sent_version = object
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    object.insert("version".into(), Value::String(RELABELLED_VERSION.into()));
    let relabelled: Arc<[u8]> = serde_json::to_vec(&packet).ok()?.into();
    // The text is what is converted; the tree would only sit beside four conversions.
    drop(packet);
    let modes = Mode::BOTH
        .into_iter()
        .map(|mode| {
            let options = options.with_mode(mode);
            (
                mode,
                explain_conversion(convert_shared(bytes, &options)),
                explain_conversion(convert_shared(&relabelled, &options)),
            )
        })
        .collect();
    Some(RelabelOutcome {
        sent_version,
        modes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::HandoffState;

    #[test]
    fn a_positive_packet_relabelled_1_0_is_rejected_by_c7() {
        let packet = br#"{"protocol":"a2a","version":"0.3","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;
        let outcome = relabel_outcome(&Arc::from(&packet[..]), &ConvertOptions::default()).unwrap();
        assert_eq!(outcome.sent_version.as_deref(), Some("0.3"));
        for (_, sent, relabelled) in &outcome.modes {
            assert_eq!(sent.state, Some(HandoffState::TaskRefOnly));
            let error = relabelled.conversion.error().unwrap();
            assert_eq!(
                (error.rule, error.message.as_str()),
                ("C7", "unsupported A2A version: 1.0")
            );
        }
    }
}
