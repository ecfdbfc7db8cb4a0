//! What a golden manifest records for a packet that is not converted: a canonical payload,
//! event or batch (audited), an A2A protocol object (migrated), a master/sub, ContextCore or
//! UAIX packet (evaluated against its profile). Per packet: its kind, the digest `digest`
//! prints for it (the whole object, canonical: any change to its content is drift, as in a
//! snapshot test) and what `check` concluded (the ids of failing and warning findings, the
//! named handoff state of canonical input, the digest of an A2A object's migrated form).
//! An intentional negative records its failing ids, so failing is what it is expected to do.
//!
//! An evidence bundle records its verdict (`valid` or upstream's error code) and run root;
//! its `object` is the canonical digest of its `manifest.json`. Its events are recorded one
//! by one as `event` objects (`BUNDLE:SEQ`), so an edited and re-sealed bundle that upstream's
//! verifier accepts still shows as drift.

use crate::freeze::HandoffState;
use crate::json::Digest;
use crate::packet::PacketKind;
use serde_json::{json, Value};

/// The manifest keys of an object golden, in the order they are written.
pub const OBJECT_KEYS: [&str; 9] = [
    "kind", "object", "state", "migrated", "verdict", "run_root", "signer", "failing", "warning",
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectGolden {
    pub kind: PacketKind,
    /// The canonical digest of the whole object.
    pub object: Digest,
    /// Canonical input: the named state of its (first) handoff object, when legal.
    pub state: Option<HandoffState>,
    /// A2A objects: the digest of the migrated form (v0.3 -> v1.0, or v1.0 -> v0.3).
    pub migrated: Option<Digest>,
    /// Bundles: `valid` or upstream's error code.
    pub verdict: Option<String>,
    /// Bundles that verify: the run root (`sha256:HEX`).
    pub run_root: Option<String>,
    /// Bundles whose attestation a trusted key verified: that key's keyid (`sha256:HEX`).
    /// Recorded by a run given trusted keys; a run given none does not judge it (`check`
    /// keeps the golden's record of it then).
    pub signer: Option<String>,
    /// Ids of the findings that fail it (audit errors, failing profile rows, migration
    /// findings, `mixed-versions`), in the order `check` reports them.
    pub failing: Vec<String>,
    /// Ids of the findings that only warn.
    pub warning: Vec<String>,
}

impl ObjectGolden {
    /// Every field by name with its value as written, `None` when absent: what `check`
    /// compares and `bless` reports, one field at a time.
    pub fn fields(&self) -> [(&'static str, Option<String>); 9] {
        let list = |ids: &[String]| ids.join(" ");
        [
            ("kind", Some(self.kind.tag().to_owned())),
            ("object", Some(self.object.to_hex())),
            ("state", self.state.map(|state| state.key().to_owned())),
            ("migrated", self.migrated.map(|digest| digest.to_hex())),
            ("verdict", self.verdict.clone()),
            ("run_root", self.run_root.clone()),
            ("signer", self.signer.clone()),
            ("failing", Some(list(&self.failing))),
            ("warning", Some(list(&self.warning))),
        ]
    }

    /// The record as JSON, keys in manifest order (for diffs).
    pub fn to_json(&self) -> Value {
        let mut map = serde_json::Map::new();
        map.insert("kind".into(), json!(self.kind.tag()));
        map.insert("object".into(), json!(self.object.to_hex()));
        if let Some(state) = self.state {
            map.insert("state".into(), json!(state.key()));
        }
        if let Some(migrated) = self.migrated {
            map.insert("migrated".into(), json!(migrated.to_hex()));
        }
        if let Some(verdict) = &self.verdict {
            map.insert("verdict".into(), json!(verdict));
        }
        if let Some(run_root) = &self.run_root {
            map.insert("run_root".into(), json!(run_root));
        }
        if let Some(signer) = &self.signer {
            map.insert("signer".into(), json!(signer));
        }
        map.insert("failing".into(), json!(self.failing));
        map.insert("warning".into(), json!(self.warning));
        Value::Object(map)
    }

    /// One line for people: `a2a-0.3 object 1a2b3c4d5e6f failing [mixed-versions]`.
    pub fn describe(&self) -> String {
        let mut parts = vec![
            self.kind.tag().to_owned(),
            format!("object {}", self.object.short(12)),
        ];
        if let Some(state) = self.state {
            parts.push(state.key().to_owned());
        }
        if let Some(migrated) = self.migrated {
            parts.push(format!("migrated {}", migrated.short(12)));
        }
        if let Some(verdict) = &self.verdict {
            parts.push(format!("verdict {verdict}"));
        }
        if let Some(run_root) = &self.run_root {
            let hex = run_root.strip_prefix("sha256:").unwrap_or(run_root);
            parts.push(format!("run root {}", hex.get(..12).unwrap_or(hex)));
        }
        if let Some(signer) = &self.signer {
            let hex = signer.strip_prefix("sha256:").unwrap_or(signer);
            parts.push(format!(
                "attested by keyid {}",
                hex.get(..12).unwrap_or(hex)
            ));
        }
        if !self.failing.is_empty() {
            parts.push(format!("failing [{}]", self.failing.join(" ")));
        }
        if !self.warning.is_empty() {
            parts.push(format!("warning [{}]", self.warning.join(" ")));
        }
        parts.join(" ")
    }

    /// The manifest lines of this record (without the enclosing entry), `indent`ed.
    pub(crate) fn render_fields(&self, quoted: &dyn Fn(&str) -> String) -> Vec<String> {
        let list = |ids: &[String]| {
            let items: Vec<String> = ids.iter().map(|id| quoted(id)).collect();
            format!("[{}]", items.join(", "))
        };
        let mut fields = vec![
            format!("\"kind\": {}", quoted(self.kind.tag())),
            format!("\"object\": \"{}\"", self.object),
        ];
        if let Some(state) = self.state {
            fields.push(format!("\"state\": {}", quoted(state.key())));
        }
        if let Some(migrated) = self.migrated {
            fields.push(format!("\"migrated\": \"{migrated}\""));
        }
        if let Some(verdict) = &self.verdict {
            fields.push(format!("\"verdict\": {}", quoted(verdict)));
        }
        if let Some(run_root) = &self.run_root {
            fields.push(format!("\"run_root\": {}", quoted(run_root)));
        }
        if let Some(signer) = &self.signer {
            fields.push(format!("\"signer\": {}", quoted(signer)));
        }
        fields.push(format!("\"failing\": {}", list(&self.failing)));
        fields.push(format!("\"warning\": {}", list(&self.warning)));
        fields
    }
}

/// Whether packets of `kind` get an object golden.
pub fn records_object(kind: PacketKind) -> bool {
    kind.canonical_shape().is_some()
        || kind.is_profile()
        || kind.is_a2a_object()
        || kind == PacketKind::Bundle
}
