//! Everything a view shows for one packet, derived again on demand from its bytes.

use super::migration::migration_reading;
use super::reading::{converted_kind, read};
use super::summarize::unaudited_bundle_event;
use super::summary::EvaluateOptions;
use crate::a2a::{convert_shared, Conversion, Mode, Packet};
use crate::corpus::classify::{classify_converted, classify_root, Root};
use crate::corpus::{Classification, PacketKind, Source};
use crate::freeze::{
    audit, explain_conversion, relabel_outcome, Audit, Explanation, RelabelOutcome,
};
use crate::json::{
    over_tree_cap, parse_tree_within, scan_duplicate_keys_up_to, tree_cap, DuplicateKeys, JsonType,
    RootReading,
};
use crate::migrate::{Choices, Migration, MigrationInput};
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
    /// The JSON root's type (`None`: `bytes` are not JSON).
    root: Option<JsonType>,
    /// Why there is no tree of the packet, once a reading found it over `json::tree_cap`:
    /// asked again, the answer comes without building the capped tree once more.
    over_cap: std::sync::OnceLock<String>,
    /// The parsed tree, until the migration takes it to migrate in place: views read it
    /// ([`PacketDetail::parsed`]) without parsing again, and a big object is never two trees
    /// (the detail's and the migration's).
    tree: KeptTree,
    /// Repeated keys, scanned when a view first asks ([`PacketDetail::duplicate_keys`]): an
    /// object of 500k different repeated keys holds a path each, about 50 MB, and only the
    /// findings view lists them, the first [`LISTED_DUPLICATE_KEYS`] of them.
    duplicate_keys: std::sync::OnceLock<DuplicateKeys>,
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

/// How many repeated keys a detail keeps with their paths; the rest are counted. A screen
/// shows a few dozen lines; `explain` lists every one.
const LISTED_DUPLICATE_KEYS: usize = 1000;

/// Why a packet's detail gives no tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoTree {
    /// The bytes are not JSON.
    NotJson,
    /// Valid JSON whose tree would pass `json::tree_cap`: the sentence that says so.
    OverCap(String),
}

impl PacketDetail {
    /// The packet's first `LISTED_DUPLICATE_KEYS` (1,000) repeated keys with their paths, and how
    /// many it repeats in all (scanned on the first call).
    pub fn duplicate_keys(&self) -> &DuplicateKeys {
        self.duplicate_keys
            .get_or_init(|| scan_duplicate_keys_up_to(&self.bytes, LISTED_DUPLICATE_KEYS))
    }

    /// The packet as a JSON tree (`None`: not JSON, or over the tree's memory cap; see
    /// [`PacketDetail::tree`] for which).
    pub fn parsed(&self) -> Option<Arc<Value>> {
        self.tree().ok()
    }

    /// The packet as a JSON tree: the detail's own until the migration has taken it, then
    /// parsed again on every call, within `json::tree_cap` like every tree of a packet (an
    /// array of a million small objects is valid JSON whose tree costs 50 times its text).
    /// Callers keep what they build from it, not the tree.
    pub fn tree(&self) -> Result<Arc<Value>, NoTree> {
        match self.tree.get() {
            Some(tree) => Ok(tree),
            None => self.parse_within_cap().map(Arc::new),
        }
    }

    /// Whether the packet has a tree within `json::tree_cap` ([`PacketDetail::tree`] would
    /// give one), found without building it.
    pub fn tree_fits(&self) -> Result<(), NoTree> {
        let root = self.root.ok_or(NoTree::NotJson)?;
        if let Some(reason) = self.over_cap.get() {
            return Err(NoTree::OverCap(reason.clone()));
        }
        if self.tree.get().is_some() {
            return Ok(());
        }
        let cap = tree_cap(self.bytes.len());
        if crate::json::tree_fits(&self.bytes, cap) {
            return Ok(());
        }
        // JSON (it has a root) whose tree would pass the cap.
        Err(NoTree::OverCap(
            self.over_cap
                .get_or_init(|| over_tree_cap(root, cap))
                .clone(),
        ))
    }

    /// A tree of the packet's bytes of its own, within `json::tree_cap`.
    fn parse_within_cap(&self) -> Result<Value, NoTree> {
        let root = self.root.ok_or(NoTree::NotJson)?;
        if let Some(reason) = self.over_cap.get() {
            return Err(NoTree::OverCap(reason.clone()));
        }
        let cap = tree_cap(self.bytes.len());
        match parse_tree_within(&self.bytes, cap) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(NoTree::OverCap(
                self.over_cap
                    .get_or_init(|| over_tree_cap(root, cap))
                    .clone(),
            )),
            Err(_) => Err(NoTree::NotJson),
        }
    }

    /// Whether the packet is JSON (without parsing it again).
    #[cfg(test)]
    fn is_json(&self) -> bool {
        self.root.is_some()
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
                    _ => self.parse_within_cap().ok()?,
                };
                let mut migration = Migration::run(
                    MigrationInput::from(value).hints(&hints),
                    direction,
                    &Choices::none(),
                )
                .ok()?;
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
    fn new(tree: Option<Arc<Value>>) -> KeptTree {
        KeptTree(std::sync::Mutex::new(tree))
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
    let own_bundle = source.line.is_none() && crate::bundle::is_bundle_path(&source.path);
    // The conversions first, sharing the text: a raw packet is classified from their typed
    // fields as `check` classifies it, without the tree the classifier would read (a raw
    // packet of 200k top-level keys, 6.8 MB at 400k, is a 55 MB tree). The explanations
    // read the text too: each conversion parsed a tree of its own, and `render` of that
    // packet at 200k keys held five trees (640 MiB).
    let packet = Packet::shared(Arc::clone(&bytes));
    let conversions: Vec<Conversion> = match own_bundle {
        true => Vec::new(),
        false => options
            .modes
            .iter()
            .map(|&mode| convert_shared(&packet, &options.conversion.with_mode(mode)))
            .collect(),
    };
    let by_fields = conversions
        .first()
        .and_then(Conversion::a2a_unmapped_keys)
        .and_then(|keys| classify_converted(keys, source.file_name()));
    let (classification, reading) = match by_fields {
        Some(classification) => (classification, None),
        None => {
            // An object's tree, kept by the detail until its migration takes it (see
            // `PacketDetail::tree`); an array or a scalar is read without one (see
            // `json::read_root`).
            let reading = read(&bytes);
            let classification = if own_bundle {
                // A bundle's own packet (its bytes are its manifest): the kind is the
                // bundle's, whatever its manifest holds.
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
            (classification, Some(reading))
        }
    };
    // Classified from typed fields: a JSON object.
    let root = match &reading {
        Some(reading) => reading.as_ref().ok().map(RootReading::json_type),
        None => Some(JsonType::Object),
    };
    let over_cap = std::sync::OnceLock::new();
    if let Some(Ok(RootReading::ObjectOverCap { cap })) = &reading {
        let _ = over_cap.set(over_tree_cap(JsonType::Object, *cap));
    }
    let tree = reading
        .and_then(Result::ok)
        .and_then(RootReading::into_tree);
    let explanations = match converted_kind(classification.kind) {
        true => conversions.into_iter().map(explain_conversion).collect(),
        false => Vec::new(),
    };
    let parsed = tree.as_ref();
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
    // A converted packet's views parse a tree when they need one (the what-if panel).
    let kept_tree = tree
        .filter(|_| !converted_kind(classification.kind))
        .map(Arc::new);
    let relabel = (classification.kind == PacketKind::RawA2a)
        .then(|| relabel_outcome(&bytes, &options.conversion))
        .flatten();
    PacketDetail {
        source,
        classification,
        bytes,
        root,
        over_cap,
        tree: KeptTree::new(kept_tree),
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

    /// `open`, `count` small objects `{"a":1,"a":2}` comma-separated, `close`: 50k of them
    /// (700 kB) make a tree over `json::tree_cap` (about 40 MB against 33).
    fn small_objects(open: &str, count: usize, close: &str) -> Vec<u8> {
        let objects = vec![r#"{"a":1,"a":2}"#; count];
        format!("{open}{}{close}", objects.join(",")).into_bytes()
    }

    #[test]
    fn a_tree_over_the_cap_is_refused_with_the_reason_for_either_root() {
        for (bytes, root) in [
            (small_objects(r#"{"x":["#, 50_000, "]}"), "an object"),
            (small_objects("[", 50_000, "]"), "an array"),
        ] {
            let detail = detail(Source::file("big.json"), bytes, &EvaluateOptions::default());
            assert_eq!(detail.classification.kind, PacketKind::RawA2a);
            assert!(detail.is_json() && detail.parsed().is_none());
            assert_eq!(detail.tree_fits(), detail.tree().map(|_| ()));
            for _ in 0..2 {
                match detail.tree() {
                    Err(NoTree::OverCap(reason)) => assert!(
                        reason
                            .starts_with(&format!("the JSON root is {root} whose tree would pass")),
                        "{reason}"
                    ),
                    other => panic!("{root}: {other:?}"),
                }
            }
            // Its repeated keys: the first listed, all counted.
            let duplicates = detail.duplicate_keys();
            assert_eq!(duplicates.first.len(), LISTED_DUPLICATE_KEYS);
            assert_eq!(duplicates.total, 50_000);
        }
        let small = detail(
            Source::file("small.json"),
            small_objects("[", 3, "]"),
            &EvaluateOptions::default(),
        );
        assert_eq!(
            small.tree().map(|tree| tree.as_array().map(Vec::len)),
            Ok(Some(3))
        );
        assert_eq!(small.tree_fits(), Ok(()));
        let raw = detail(
            Source::file("raw.json"),
            br#"{"protocol":"a2a","version":"0.2","event_type":"x","agent":{"id":"a"}}"#.to_vec(),
            &EvaluateOptions::default(),
        );
        assert_eq!(raw.tree_fits(), Ok(()));
        assert!(raw.tree().is_ok());
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
