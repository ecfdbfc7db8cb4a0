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
    let (sent_version, relabelled) =
        match crate::json::parse_tree_within(bytes, crate::json::tree_cap(bytes.len())) {
            Ok(Some(packet)) => relabel_tree(packet)?,
            Ok(None) => relabel_text(bytes)?,
            Err(_) => return None,
        };
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

/// The packet written again from its tree with `version` set to `1.0`.
fn relabel_tree(mut packet: Value) -> Option<(Option<String>, Arc<[u8]>)> {
    let object = packet.as_object_mut()?;
    let sent_version = object
        .get("version")
        .and_then(Value::as_str)
        .map(str::to_owned);
    object.insert("version".into(), Value::String(RELABELLED_VERSION.into()));
    // The text is what is converted; the tree would only sit beside four conversions.
    Some((sent_version, serde_json::to_vec(&packet).ok()?.into()))
}

/// An object whose tree would pass `json::tree_cap`, relabelled without one: its text with a
/// `"version":"1.0"` member appended. The conversion reads a repeated key's last value, as
/// the adapter's `json.loads` does, so it converts this text as it converts the tree's (a
/// test below holds the two equal on every fixture).
fn relabel_text(bytes: &[u8]) -> Option<(Option<String>, Arc<[u8]>)> {
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
    Some((sent_version, relabelled.into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::HandoffState;

    /// What the adapter concluded: the payload's digest or the rule that rejected it.
    fn verdict(explanation: &Explanation) -> Result<String, &'static str> {
        match explanation.conversion.converted() {
            Some(converted) => Ok(converted.payload_digest().to_hex()),
            None => Err(explanation
                .conversion
                .error()
                .map_or("", |error| error.rule)),
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
        let mut seen = 0;
        for entry in std::fs::read_dir("fixtures/a2a").unwrap() {
            let path = entry.unwrap().path();
            if path
                .extension()
                .is_some_and(|extension| extension == "json")
            {
                packets.push(std::fs::read(&path).unwrap());
                seen += 1;
            }
        }
        assert!(seen > 10, "fixtures/a2a holds the raw packets");
        for bytes in packets {
            let Ok(Value::Object(_)) = serde_json::from_slice::<Value>(&bytes) else {
                continue;
            };
            let tree = relabel_tree(serde_json::from_slice(&bytes).unwrap()).unwrap();
            let text = relabel_text(&bytes).unwrap();
            assert_eq!(tree.0, text.0, "{}", String::from_utf8_lossy(&bytes));
            for mode in Mode::BOTH {
                let options = ConvertOptions::default().with_mode(mode);
                let convert =
                    |text: &Arc<[u8]>| verdict(&explain_conversion(convert_shared(text, &options)));
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
