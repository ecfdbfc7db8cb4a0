//! The bundle's digests (spec §4-§6): per-event content hash over the JCS text of
//! `{data, datacontenttype, specversion, subject?, type}`, the flat run root over the content
//! hashes in stored order, and the manifest's file-hash normalization.

use crate::json::{write_jcs, write_jcs_string};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// `"sha256:" + lowercase hex`.
pub fn sha256_text(bytes: &[u8]) -> String {
    hex_digest(Sha256::digest(bytes).as_slice())
}

pub fn hex_digest(digest: &[u8]) -> String {
    let mut out = String::with_capacity(7 + 2 * digest.len());
    out.push_str("sha256:");
    crate::json::push_hex(digest, &mut out);
    out
}

/// The JCS bytes a content hash is taken over. Member names in JCS order: `data` <
/// `datacontenttype` < `specversion` < `subject` < `type` (all ASCII, so byte order is UTF-16
/// order); `subject` only when present.
fn content_hash_input(
    data: &Value,
    datacontenttype: &str,
    specversion: &str,
    subject: Option<&str>,
    type_: &str,
) -> String {
    let mut out = String::with_capacity(1024);
    write_content_hash_input(
        |out| write_jcs(data, out),
        datacontenttype,
        specversion,
        subject,
        type_,
        &mut out,
    );
    out
}

/// What the content-hash input starts with; `data`'s JCS text follows it directly.
pub(crate) const DATA_OPEN: &str = "{\"data\":";

/// The one writer of the content-hash envelope; `write_data` appends the JCS text of `data`
/// (from a `serde_json::Value`, or from the verifier's borrowed fast tree), so both routes
/// hash the same bytes by construction.
pub(crate) fn write_content_hash_input(
    write_data: impl FnOnce(&mut String),
    datacontenttype: &str,
    specversion: &str,
    subject: Option<&str>,
    type_: &str,
    out: &mut String,
) {
    out.push_str(DATA_OPEN);
    write_data(out);
    out.push_str(",\"datacontenttype\":");
    write_jcs_string(datacontenttype, out);
    out.push_str(",\"specversion\":");
    write_jcs_string(specversion, out);
    if let Some(subject) = subject {
        out.push_str(",\"subject\":");
        write_jcs_string(subject, out);
    }
    out.push_str(",\"type\":");
    write_jcs_string(type_, out);
    out.push('}');
}

pub fn content_hash(
    data: &Value,
    datacontenttype: &str,
    specversion: &str,
    subject: Option<&str>,
    type_: &str,
) -> String {
    sha256_text(content_hash_input(data, datacontenttype, specversion, subject, type_).as_bytes())
}

/// Run root, fed one content hash at a time: SHA-256 over `h0 "\n" h1 "\n" ...`.
#[derive(Clone, Default)]
pub struct RunRoot(Sha256);

impl RunRoot {
    pub fn push(&mut self, content_hash: &str) {
        self.0.update(content_hash.as_bytes());
        self.0.update(b"\n");
    }

    pub fn finish(self) -> String {
        hex_digest(self.0.finalize().as_slice())
    }
}

pub fn run_root<'a>(hashes: impl IntoIterator<Item = &'a str>) -> String {
    let mut root = RunRoot::default();
    for hash in hashes {
        root.push(hash);
    }
    root.finish()
}

/// The manifest's `files[..].sha256` as the verifier compares it: `sha256:` added when
/// missing, nothing else changed (upper-case hex stays different).
pub(crate) fn normalize_file_hash(stored: &str) -> String {
    if stored.starts_with("sha256:") {
        stored.to_owned()
    } else {
        format!("sha256:{stored}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spec_worked_content_hash() {
        let input = content_hash_input(
            &json!({"k": "v"}),
            "application/json",
            "1.0",
            None,
            "assay.test",
        );
        assert_eq!(
            input,
            r#"{"data":{"k":"v"},"datacontenttype":"application/json","specversion":"1.0","type":"assay.test"}"#
        );
        assert_eq!(
            sha256_text(input.as_bytes()),
            "sha256:72553aade62c46bad2704347c8b38e61a791e57cb440be6d65c891c178728ac0"
        );
    }

    #[test]
    fn spec_worked_run_root() {
        let root = run_root([
            "sha256:9cd80c52de13907d4f69e8e0343740010fdd6438f4fec7a87bff8dd6080e89bd",
            "sha256:2e0d8b70e9e057f68c23684fbb3faf97b84c48d8a968a6deaafd7413b7a75407",
        ]);
        assert_eq!(
            root,
            "sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb"
        );
        assert_eq!(
            run_root([]),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn numbers_hash_as_doubles() {
        let a = content_hash(
            &json!({"n": 2.0}),
            "application/json",
            "1.0",
            Some("s"),
            "t",
        );
        let b = content_hash(&json!({"n": 2}), "application/json", "1.0", Some("s"), "t");
        assert_eq!(a, b);
    }

    #[test]
    fn file_hash_normalization() {
        assert_eq!(normalize_file_hash("ab"), "sha256:ab");
        assert_eq!(normalize_file_hash("sha256:ab"), "sha256:ab");
        assert_eq!(normalize_file_hash("SHA256:ab"), "sha256:SHA256:ab");
    }
}
