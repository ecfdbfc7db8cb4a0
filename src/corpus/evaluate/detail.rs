//! Everything a view shows for one packet, derived again on demand from its bytes.

use super::migration::migration_reading;
use super::reading::{converted_kind, parse, read};
use super::summarize::unaudited_bundle_event;
use super::summary::EvaluateOptions;
use crate::a2a::{convert_shared, Mode};
use crate::corpus::classify::{classify_root, Root};
use crate::corpus::{Classification, PacketKind, Source};
use crate::freeze::{
    audit, explain_conversion, relabel_outcome, Audit, Explanation, RelabelOutcome,
};
use crate::json::{scan_duplicate_keys, DuplicateKey, RootReading};
use crate::migrate::{Choices, Migration};
use crate::profiles::{self, ProfileReport};
use serde_json::Value;
use std::sync::Arc;

/// A bundle file's classification, opening it once more (kind `bundle` even when it cannot
/// be read: the reason says why).
fn bundle_classification(path: &std::path::Path) -> Classification {
    match crate::corpus::bundle_packets::open_packets(path, &crate::bundle::Limits::default()) {
        Ok(opened) => crate::corpus::classify_bundle(&opened.report),
        Err(error) => Classification {
            kind: PacketKind::Bundle,
            reason: format!(
                "assay evidence bundle (.tar.gz) that cannot be read: {}",
                error.reason
            ),
        },
    }
}

/// Everything a view shows for one packet.
#[derive(Clone, Debug)]
pub struct PacketDetail {
    pub source: Source,
    pub classification: Classification,
    /// The packet's text, shared with its conversions (each explanation's packet).
    pub bytes: Arc<[u8]>,
    /// Whether `bytes` parse as JSON.
    is_json: bool,
    /// The parsed tree, until the migration takes it to migrate in place: views read it
    /// ([`PacketDetail::parsed`]) without parsing again, and a big object is never two trees
    /// (the detail's and the migration's).
    tree: KeptTree,
    /// Repeated keys, scanned when a view first asks ([`PacketDetail::duplicate_keys`]): an
    /// object of 500k different repeated keys holds a path each, about 50 MB, and only the
    /// findings view lists them.
    duplicate_keys: std::sync::OnceLock<Vec<DuplicateKey>>,
    /// Raw packets: the explanation in each evaluated mode, strict first.
    pub explanations: Vec<Explanation>,
    /// Canonical input: the freeze audit.
    pub audit: Option<Audit>,
    /// Master/sub, ContextCore and UAIX packets: the profile report.
    pub profile: Option<ProfileReport>,
    /// A2A protocol objects: the migration to the other version (v0.3 -> v1.0, v1.0 -> v0.3),
    /// run when a view first asks for it ([`PacketDetail::migration`]): its result and step
    /// records are the largest part of a big object's detail, and most views never show them.
    migration: std::sync::OnceLock<Option<Migration>>,
    /// Raw adapter packets: what relabelling the packet as A2A 1.0 does at the adapter.
    pub relabel: Option<RelabelOutcome>,
}

impl PacketDetail {
    /// Every repeated key of the packet with its path (scanned on the first call).
    pub fn duplicate_keys(&self) -> &[DuplicateKey] {
        self.duplicate_keys
            .get_or_init(|| scan_duplicate_keys(&self.bytes))
    }

    /// The packet as a JSON tree (`None`: not JSON): the detail's own until the migration
    /// has taken it, then parsed again on every call. Callers keep what they build from it,
    /// not the tree.
    pub fn parsed(&self) -> Option<Arc<Value>> {
        if !self.is_json {
            return None;
        }
        match self.tree.get() {
            Some(tree) => Some(tree),
            None => parse(&self.bytes).ok().map(Arc::new),
        }
    }

    /// Whether the packet is JSON (without parsing it again).
    pub fn is_json(&self) -> bool {
        self.is_json
    }

    /// The migration of an A2A protocol object (run on the first call, on a tree of its own
    /// that it migrates in place, keeping the input's canonical text for its replays),
    /// without its result tree (`result` is `null`: [`Migration::result_without`] builds it).
    pub fn migration(&self) -> Option<&Migration> {
        self.migration
            .get_or_init(|| {
                let (direction, hints) = migration_reading(self.classification.kind, &self.source)?;
                // The detail's tree when nobody else holds it (views drop theirs once their
                // lines are built), otherwise parsed again: never a copy beside another.
                let value = match self.tree.take().map(Arc::try_unwrap) {
                    Some(Ok(value)) => value,
                    _ => parse(&self.bytes).ok()?,
                };
                let mut migration =
                    Migration::run_owned_with(value, &hints, direction, &Choices::none()).ok()?;
                // Views show its records and replay its steps for diffs; the result tree, as
                // big as the packet's, would only sit beside it.
                migration.drop_result();
                Some(migration)
            })
            .as_ref()
    }

    /// The migration when something has asked for it already; `None` without running it.
    pub fn migration_if_run(&self) -> Option<&Migration> {
        self.migration.get().and_then(Option::as_ref)
    }

    pub fn explanation(&self, mode: Mode) -> Option<&Explanation> {
        self.explanations
            .iter()
            .find(|explanation| explanation.mode() == mode)
    }
}

/// A detail's tree, shared with the views until the migration takes it.
#[derive(Debug, Default)]
struct KeptTree(std::sync::Mutex<Option<Arc<Value>>>);

impl KeptTree {
    fn new(tree: Option<Value>) -> KeptTree {
        KeptTree(std::sync::Mutex::new(tree.map(Arc::new)))
    }

    fn get(&self) -> Option<Arc<Value>> {
        self.lock().clone()
    }

    fn take(&self) -> Option<Arc<Value>> {
        self.lock().take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Value>>> {
        // A panic while holding the lock leaves the Option whole: its value is still good.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clone for KeptTree {
    fn clone(&self) -> KeptTree {
        KeptTree(std::sync::Mutex::new(self.get()))
    }
}

/// Evaluates one packet in full.
pub fn detail(source: Source, bytes: Vec<u8>, options: &EvaluateOptions) -> PacketDetail {
    detail_with_bundle(source, bytes, options, None)
}

/// `detail`, given the report of the bundle whose own packet this is when the caller holds
/// it (a view that loaded the bundle): then the bundle is not opened again to classify it.
pub fn detail_with_bundle(
    source: Source,
    bytes: Vec<u8>,
    options: &EvaluateOptions,
    bundle: Option<&crate::bundle::BundleReport>,
) -> PacketDetail {
    let bytes: Arc<[u8]> = bytes.into();
    // Kept by the detail until its migration takes it (see `PacketDetail::tree`).
    // An object's tree; an array or a scalar is read without one (see `json::read_root`).
    let reading = read(&bytes);
    let classification = if source.line.is_none() && crate::bundle::is_bundle_path(&source.path) {
        // A bundle's own packet (its bytes are its manifest): the kind is the bundle's,
        // whatever its manifest holds.
        match bundle {
            Some(report) => crate::corpus::classify_bundle(report),
            None => bundle_classification(&source.path),
        }
    } else {
        classify_root(
            reading.as_ref().map(Root::of).map_err(String::as_str),
            source.file_name(),
        )
    };
    let is_json = reading.is_ok();
    let mut reading = reading.ok();
    // A converted packet's conversions (six with the relabel outcome, which parses a tree of
    // its own) read the text, not the detail's tree: it is dropped while they run and parsed
    // again after, so two trees of the packet never meet (a raw packet of 200k repeated
    // top-level keys, 4.6 MB: 83 -> 71 MiB in the debug build's `render`).
    let tree_dropped_while_converting = converted_kind(classification.kind)
        && reading.as_ref().and_then(RootReading::tree).is_some();
    if tree_dropped_while_converting {
        reading = None;
    }
    let explanations = if converted_kind(classification.kind) {
        options
            .modes
            .iter()
            .map(|&mode| {
                explain_conversion(convert_shared(&bytes, &options.conversion.with_mode(mode)))
            })
            .collect()
    } else {
        Vec::new()
    };
    let parsed = reading.as_ref().and_then(RootReading::tree);
    let audit = match (classification.kind.canonical_shape(), parsed) {
        (Some(_), Some(value)) if unaudited_bundle_event(&source, value) => None,
        (Some(shape), Some(value)) => Some(audit(value, shape)),
        _ => None,
    };
    let profile = match parsed {
        Some(value) if classification.kind.is_profile() => Some(profiles::evaluate(
            value,
            &bytes,
            Some(&source.path),
            &options.profile,
        )),
        _ => None,
    };
    let relabel = (classification.kind == PacketKind::RawA2a)
        .then(|| relabel_outcome(&bytes, &options.conversion))
        .flatten();
    let tree = match reading {
        Some(reading) => reading.into_tree(),
        None if tree_dropped_while_converting => parse(&bytes).ok(),
        None => None,
    };
    PacketDetail {
        source,
        classification,
        bytes,
        is_json,
        tree: KeptTree::new(tree),
        duplicate_keys: std::sync::OnceLock::new(),
        explanations,
        audit,
        profile,
        migration: std::sync::OnceLock::new(),
        relabel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::HandoffState;

    #[test]
    fn details_explain_each_mode() {
        let detail = detail(
            Source::file("p.json"),
            br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#.to_vec(),
            &EvaluateOptions::default(),
        );
        assert_eq!(detail.explanations.len(), 2);
        assert_eq!(
            detail.explanation(Mode::Lenient).unwrap().state,
            Some(HandoffState::TaskRefOnly)
        );
    }

    #[test]
    fn the_migration_takes_the_details_tree_and_views_still_get_one() {
        let text = r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"}}"#;
        let detail = detail(
            Source::file("t.json"),
            text.as_bytes().to_vec(),
            &EvaluateOptions::default(),
        );
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(detail.parsed().as_deref(), Some(&value));
        assert!(detail.tree.get().is_some());
        assert!(!detail.migration().unwrap().steps.is_empty());
        // Taken and migrated in place: the views parse the bytes again.
        assert!(detail.tree.get().is_none());
        assert_eq!(detail.parsed().as_deref(), Some(&value));
        let not_json = super::detail(
            Source::file("x.json"),
            b"{".to_vec(),
            &EvaluateOptions::default(),
        );
        assert!(not_json.parsed().is_none() && !not_json.is_json());
    }
}
