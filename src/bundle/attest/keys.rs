//! Ed25519 keys as files (private: PKCS#8 PEM, what upstream's `attest --key` reads; public:
//! SubjectPublicKeyInfo PEM) and upstream's keyid. Which keys to trust is the reader's
//! decision: nothing here says a key belongs to anyone.

use crate::bundle::hash::sha256_text;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey};
use ed25519_dalek::{SigningKey, VerifyingKey};

/// The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the 32-byte key follows.
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

/// Key files larger than this are not key files (a PEM Ed25519 key is about 120 bytes).
pub const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

/// A public key the reader chose to trust, with its keyid and where it came from.
#[derive(Clone, Debug)]
pub struct TrustedKey {
    pub key: VerifyingKey,
    /// `sha256:` + the hex SHA-256 of the key's SubjectPublicKeyInfo DER.
    pub keyid: String,
    /// The key file as the reader named it.
    pub source: String,
}

impl TrustedKey {
    pub fn new(key: VerifyingKey, source: impl Into<String>) -> TrustedKey {
        TrustedKey {
            keyid: keyid(&key),
            key,
            source: source.into(),
        }
    }

    /// A public key from its SPKI PEM text; a private key is refused with a reason (a reader
    /// verifies with the public half only).
    pub(crate) fn from_pem(text: &str, source: impl Into<String>) -> Result<TrustedKey, String> {
        if text.contains("PRIVATE KEY-----") {
            return Err(
                "holds a private key; verifying takes the public key (-----BEGIN PUBLIC KEY-----)"
                    .into(),
            );
        }
        let key = VerifyingKey::from_public_key_pem(text.trim())
            .map_err(|e| format!("not an Ed25519 public key (SPKI PEM): {e}"))?;
        Ok(TrustedKey::new(key, source))
    }
}

/// A signing key from its PKCS#8 PEM text.
pub fn signing_key_from_pem(text: &str) -> Result<SigningKey, String> {
    SigningKey::from_pkcs8_pem(text.trim())
        .map_err(|e| format!("not an Ed25519 private key (PKCS#8 PEM): {e}"))
}

/// Upstream's keyid: `sha256:` + lowercase hex of SHA-256 over the SPKI DER.
pub fn keyid(key: &VerifyingKey) -> String {
    let mut der = Vec::with_capacity(44);
    der.extend_from_slice(&SPKI_PREFIX);
    der.extend_from_slice(key.as_bytes());
    sha256_text(&der)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The shared samples' key a: Ed25519 from the seed 0x11 x 32.
    const KEY_A: &str = "-----BEGIN PRIVATE KEY-----\nMFECAQEwBQYDK2VwBCIEIBERERERERERERERERERERERERERERERERERERERERER\ngSEA0EqyMnQrtKs6E2i9RhXk5tAiSrcaAWuvhSCjMsl3hzc=\n-----END PRIVATE KEY-----\n";
    const KEY_A_PUB: &str = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA0EqyMnQrtKs6E2i9RhXk5tAiSrcaAWuvhSCjMsl3hzc=\n-----END PUBLIC KEY-----\n";
    const KEY_A_ID: &str =
        "sha256:503d8ee46d581c649966569ae095e27041de83322e8e0480e5539e00d2d5d874";

    #[test]
    fn key_a_reads_both_ways_and_has_upstreams_keyid() {
        let signing = signing_key_from_pem(KEY_A).unwrap();
        assert_eq!(signing.to_bytes(), [0x11; 32]);
        let public = TrustedKey::from_pem(KEY_A_PUB, "key-a.pub.pem").unwrap();
        assert_eq!(public.key, signing.verifying_key());
        assert_eq!(public.keyid, KEY_A_ID);
        assert_eq!(keyid(&signing.verifying_key()), KEY_A_ID);
    }

    #[test]
    fn a_private_key_or_garbage_is_not_a_trusted_key() {
        let private = TrustedKey::from_pem(KEY_A, "key-a.pem").unwrap_err();
        assert!(private.contains("private key"), "{private}");
        let garbage = TrustedKey::from_pem("hello", "x").unwrap_err();
        assert!(
            garbage.starts_with("not an Ed25519 public key"),
            "{garbage}"
        );
        assert!(signing_key_from_pem(KEY_A_PUB).is_err());
    }
}
