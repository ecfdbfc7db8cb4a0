//! What an A2A v0.3 -> v1.0 migration means for the handoff seam: the adapter accepts only
//! versions `>=0.2 <1.0` (conversion row C7), so a raw packet relabelled `1.0` is rejected
//! before any handoff rule runs. This puts the packet's outcome as sent next to its outcome
//! relabelled, per mode.

use super::states::{handoff_state, HandoffState};
use crate::a2a::{convert, Conversion, ConversionError, ConvertOptions, Mode};
#[cfg(test)]
use serde_json::Value;

#[derive(Clone, Debug)]
pub struct RelabelOutcome {
    /// The version as sent (`None` when the packet had no string version).
    pub sent_version: Option<String>,
    /// Per mode: the adapter's verdict as sent, then relabelled `1.0`.
    pub modes: Vec<(Mode, AdapterVerdict, AdapterVerdict)>,
}

/// What the adapter concluded of a packet in one mode, all that the relabelling shows: the
/// handoff state of what it emitted (`None`: not one of the five legal states), or why it
/// rejected it. Not the conversion: each kept its typed fields and the evidence of every
/// row, four of them per packet (a packet of 200k keys: 200 MiB).
pub type AdapterVerdict = Result<Option<HandoffState>, ConversionError>;

fn verdict(conversion: Conversion) -> AdapterVerdict {
    conversion
        .result
        .map(|converted| handoff_state(converted.handoff()))
}

pub const RELABELLED_VERSION: &str = "1.0";

/// `None` when the bytes are not a JSON object (nothing to relabel). The packet is relabelled
/// as text, never as a tree (a tree of a packet of 200k keys is about 20 MB, and its text
/// written again from it another copy).
pub fn relabel_outcome(bytes: &[u8], options: &ConvertOptions) -> Option<RelabelOutcome> {
    // Only an object has a version to relabel: an array of a million small objects is read
    // only as far as its first byte.
    if !crate::json::may_be_an_object(bytes) {
        return None;
    }
    let (sent_version, relabelled) = relabel_text(bytes)?;
    let modes = Mode::BOTH
        .into_iter()
        .map(|mode| {
            let options = options.with_mode(mode);
            (
                mode,
                verdict(convert(bytes, &options)),
                verdict(convert(&relabelled, &options)),
            )
        })
        .collect();
    Some(RelabelOutcome {
        sent_version,
        modes,
    })
}

/// The packet written again from its tree with `version` set to `1.0`: the reference the
/// text's relabelling is held to.
#[cfg(test)]
fn relabel_tree(mut packet: Value) -> Option<(Option<String>, Vec<u8>)> {
    let object = packet.as_object_mut()?;
    let sent_version = object
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    object.insert("version".into(), Value::String(RELABELLED_VERSION.into()));
    Some((sent_version, serde_json::to_vec(&packet).ok()?))
}

/// The packet relabelled without a tree: its text with a `"version":"1.0"` member appended.
/// The conversion reads a repeated key's last value, as the adapter's `json.loads` does, so
/// it converts this text as it converts the tree's written again (a test below holds the
/// two equal on every fixture). `None` when the bytes are not a JSON object.
fn relabel_text(bytes: &[u8]) -> Option<(Option<String>, Vec<u8>)> {
    let packet = crate::a2a::RawPacket::parse(bytes).ok()?;
    if !packet.is_object {
        return None;
    }
    let sent_version = packet.version.map(|version| version.into_owned());
    let body = bytes.trim_ascii_end().strip_suffix(b"}")?;
    let empty = body.trim_ascii_end().ends_with(b"{");
    let mut relabelled = Vec::with_capacity(bytes.len() + 20);
    relabelled.extend_from_slice(body);
    if !empty {
        relabelled.push(b',');
    }
    relabelled.extend_from_slice(br#""version":""#);
    relabelled.extend_from_slice(RELABELLED_VERSION.as_bytes());
    relabelled.extend_from_slice(br#""}"#);
    Some((sent_version, relabelled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::HandoffState;

    /// What the adapter concluded: the payload's digest or the rule that rejected it.
    fn digest_or_rule(conversion: &Conversion) -> Result<String, &'static str> {
        match conversion.converted() {
            Some(converted) => Ok(converted.payload_digest().to_hex()),
            None => Err(conversion.error().map_or("", |error| error.rule)),
        }
    }

    #[test]
    fn relabelling_the_text_converts_as_relabelling_the_tree() {
        let mut packets: Vec<Vec<u8>> = vec![
            b"{}".to_vec(),
            b" { } ".to_vec(),
            br#"{"version":"0.3","version":"0.2"}"#.to_vec(),
            br#"{"version":3}"#.to_vec(),
        ];
        packets.extend(crate::json::test_fixtures::a2a_fixture_texts());
        for bytes in packets {
            let Ok(Value::Object(_)) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            let tree = relabel_tree(serde_json::from_slice(&bytes).unwrap()).unwrap();
            let text = relabel_text(&bytes).unwrap();
            assert_eq!(tree.0, text.0, "{}", String::from_utf8_lossy(&bytes));
            for mode in Mode::BOTH {
                let options = ConvertOptions::default().with_mode(mode);
                let convert = |text: &[u8]| digest_or_rule(&convert(text, &options));
                assert_eq!(
                    convert(&tree.1),
                    convert(&text.1),
                    "{}",
                    String::from_utf8_lossy(&text.1)
                );
            }
        }
    }

    #[test]
    fn a_positive_packet_relabelled_1_0_is_rejected_by_c7() {
        let packet = br#"{"protocol":"a2a","version":"0.3","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;
        let outcome = relabel_outcome(packet, &ConvertOptions::default()).unwrap();
        assert_eq!(outcome.sent_version.as_deref(), Some("0.3"));
        for (_, sent, relabelled) in &outcome.modes {
            assert_eq!(sent, &Ok(Some(HandoffState::TaskRefOnly)));
            let error = relabelled.as_ref().unwrap_err();
            assert_eq!(
                (error.rule, error.message.as_str()),
                ("C7", "unsupported A2A version: 1.0")
            );
        }
    }
}
