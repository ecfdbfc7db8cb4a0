//! The DSSE envelope as upstream reads and writes it: a JSON object with `payload` (standard
//! base64 with padding), `payloadType` and `signatures` (`keyid`, `sig`), read as serde reads
//! upstream's type (unknown members ignored), written as `serde_json::to_string_pretty` writes
//! it plus a newline (members in that order).

use serde::{Deserialize, Serialize};

/// Envelope files larger than this are not read (an attestation is about 1.2 kB): a load
/// error naming the file, not a verdict.
pub const MAX_ENVELOPE_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub payload: String,
    #[serde(rename = "payloadType")]
    pub payload_type: String,
    pub signatures: Vec<EnvelopeSignature>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvelopeSignature {
    /// DSSE makes it optional; upstream never compares it with the key that verifies.
    #[serde(default)]
    pub keyid: String,
    pub sig: String,
}

impl Envelope {
    /// Check 1: the bytes as an envelope, or serde's reason (with line and column).
    pub fn read(bytes: &[u8]) -> Result<Envelope, String> {
        serde_json::from_slice(bytes).map_err(|e| e.to_string())
    }

    /// The text upstream's `attest` writes: pretty JSON (two-space indent) and a newline.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_three_members() {
        let envelope = Envelope::read(
            br#"{"signatures":[{"sig":"c2ln","keyid":"k"}],"payloadType":"t","payload":"e30=","x":1}"#,
        )
        .unwrap();
        assert_eq!(envelope.payload_type, "t");
        assert_eq!(
            envelope.to_text(),
            "{\n  \"payload\": \"e30=\",\n  \"payloadType\": \"t\",\n  \"signatures\": [\n    {\n      \"keyid\": \"k\",\n      \"sig\": \"c2ln\"\n    }\n  ]\n}\n"
        );
    }

    #[test]
    fn what_is_not_an_envelope_says_why() {
        assert_eq!(
            Envelope::read(b"{\"payload\":").unwrap_err(),
            "EOF while parsing a value at line 1 column 11"
        );
        let missing = Envelope::read(br#"{"payload":"","payloadType":""}"#).unwrap_err();
        assert!(
            missing.starts_with("missing field `signatures`"),
            "{missing}"
        );
        let keyless =
            Envelope::read(br#"{"payload":"","payloadType":"","signatures":[{"sig":""}]}"#);
        assert_eq!(keyless.unwrap().signatures[0].keyid, "");
    }
}
