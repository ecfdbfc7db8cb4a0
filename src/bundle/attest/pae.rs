//! DSSE's pre-authentication encoding: the bytes a signature covers.

/// `DSSEv1 LEN(type) type LEN(payload) payload`, lengths in decimal ASCII: the type is bound
/// to the signature, so a signature over the same payload under another type never verifies.
pub fn pae(payload_type: &str, payload: &[u8]) -> Vec<u8> {
    let head = format!(
        "DSSEv1 {} {payload_type} {} ",
        payload_type.len(),
        payload.len()
    );
    let mut bytes = Vec::with_capacity(head.len() + payload.len());
    bytes.extend_from_slice(head.as_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specs_example() {
        assert_eq!(
            pae("application/vnd.in-toto+json", b"{}"),
            b"DSSEv1 28 application/vnd.in-toto+json 2 {}"
        );
        // Lengths are bytes, not characters.
        assert_eq!(pae("t", "é".as_bytes()), "DSSEv1 1 t 2 é".as_bytes());
        assert_eq!(pae("", b""), b"DSSEv1 0  0 ");
    }
}
