//! Planning a bless: merging what a run recorded into a directory's existing manifest. The
//! plan says every change before anything is written, and never drops the entry of a packet
//! that still exists; entries of packets that are gone are dropped only when asked (`prune`).

use super::content::{before, Before, Content, BEFORE_DIGEST_ONLY};
use super::diff::diff_json;
use super::index::ManifestIndex;
use super::manifest::{GoldenEntry, GoldenManifest, PacketKey, RecordedOptions};
use crate::a2a::{ConvertOptions, Mode};
use crate::json::safe_text;
use std::collections::BTreeMap;
use std::fmt;
use std::io;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A packet recorded for the first time.
    Added { key: PacketKey, summary: String },
    /// A recorded field changed: `field` is `strict.payload`, `duplicate_keys`, ...
    Updated {
        key: PacketKey,
        field: String,
        from: String,
        to: String,
        /// What the change means, one line each: the payload's or object's changed paths
        /// (before -> after), the handoff state in the freeze's words, or why the before is
        /// unknown.
        detail: Vec<String>,
    },
    /// The entry of a packet that is gone, dropped because `prune` was asked.
    Removed { key: PacketKey },
    /// The recorded conversion options changed (every entry was recorded again).
    Options { from: String, to: String },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |key: &PacketKey| safe_text(&key.to_string()).into_owned();
        match self {
            Change::Added { key, summary } => write!(f, "+ {}  {summary}", name(key)),
            Change::Updated {
                key,
                field,
                from,
                to,
                detail,
            } => {
                write!(f, "~ {}  {field}: {from} -> {to}", name(key))?;
                for line in detail {
                    write!(f, "\n      {line}")?;
                }
                Ok(())
            }
            Change::Removed { key } => write!(f, "- {}  (packet gone; --prune)", name(key)),
            Change::Options { from, to } => write!(f, "~ options: {from} -> {to}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlessPlan {
    pub manifest: GoldenManifest,
    pub changes: Vec<Change>,
    /// Entries recorded again with no change.
    pub unchanged: usize,
    /// Entries of packets that are gone, kept because `prune` was not asked.
    pub kept_gone: Vec<PacketKey>,
}

impl BlessPlan {
    pub fn is_unchanged(&self) -> bool {
        self.changes.is_empty()
    }
}

fn describe_entry(entry: &GoldenEntry) -> String {
    if let Some(object) = &entry.object {
        return safe_text(&object.describe()).into_owned();
    }
    let mut parts: Vec<String> = Mode::BOTH
        .iter()
        .filter_map(|&mode| {
            entry
                .mode(mode)
                .map(|golden| format!("{mode}: {}", golden.describe()))
        })
        .collect();
    if !entry.duplicate_keys.is_empty() {
        parts.push(format!("duplicate keys {}", entry.duplicate_keys.join(" ")));
    }
    safe_text(&parts.join("; ")).into_owned()
}

fn shown(value: &Option<String>) -> String {
    value
        .as_deref()
        .map_or("absent".to_owned(), super::manifest::shown_value)
}

fn describe_options(options: &RecordedOptions) -> String {
    let parts: Vec<String> = options
        .fields()
        .into_iter()
        .map(|(key, value)| match value {
            serde_json::Value::String(text) => format!("{key} {text}"),
            other => format!("{key} {other}"),
        })
        .collect();
    safe_text(&parts.join(", ")).into_owned()
}

/// Where a streaming bless merge sends what it finds, in order.
pub trait BlessSink {
    /// The next entry of the new manifest (key order).
    fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> io::Result<()>;
    /// A change, in the order a person reads them: options, then per packet in key order,
    /// then the pruned entries.
    fn change(&mut self, change: &Change) -> io::Result<()>;
    /// An entry of a packet that is gone, kept because `prune` was not asked.
    fn kept_gone(&mut self, _key: &PacketKey) {}
}

/// A sink that keeps nothing: a merge run only to learn whether it would be refused.
pub struct DiscardSink;

impl BlessSink for DiscardSink {
    fn entry(&mut self, _key: &PacketKey, _entry: &GoldenEntry) -> io::Result<()> {
        Ok(())
    }
    fn change(&mut self, _change: &Change) -> io::Result<()> {
        Ok(())
    }
}

/// What a merge counted (its changes and entries went to the sink).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlessCounts {
    pub changes: usize,
    pub unchanged: usize,
    pub kept_gone: usize,
}

#[derive(Debug)]
pub enum MergeError {
    /// The bless must not happen (the words say why); nothing of it may be written.
    Refused(String),
    /// Reading the recorded entries or writing to the sink failed.
    Io(io::Error),
}

impl From<io::Error> for MergeError {
    fn from(error: io::Error) -> Self {
        MergeError::Io(error)
    }
}

/// The manifest a bless merges into: its options and its entries in key order, read one at a
/// time (from the file, for `bless`; from memory, for the inspector's accept).
pub struct Existing<'a> {
    pub options: &'a RecordedOptions,
    pub entries: Box<dyn Iterator<Item = io::Result<(PacketKey, GoldenEntry)>> + 'a>,
}

impl<'a> From<&'a GoldenManifest> for Existing<'a> {
    fn from(manifest: &'a GoldenManifest) -> Self {
        Existing {
            options: &manifest.options,
            entries: Box::new(
                manifest
                    .packets
                    .iter()
                    .map(|(key, entry)| Ok((key.clone(), entry.clone()))),
            ),
        }
    }
}

impl<'a> From<&'a ManifestIndex> for Existing<'a> {
    fn from(index: &'a ManifestIndex) -> Self {
        Existing {
            options: &index.options,
            entries: index.entries(),
        }
    }
}

/// Merges `recorded` (this run's entries for `modes`, in key order) into `existing`, one
/// entry at a time: the new manifest's entries and the changes go to `sink` as they are
/// found, so nothing per packet is held here (the keys of pruned entries excepted: they are
/// reported last). The new manifest's options are always `RecordedOptions::of(options)`.
///
/// `still_exists` says whether a packet not recorded in this run is still there (its file
/// exists and was not read in this run, for instance because only some files were named).
/// Refused when the options differ from the recorded ones while some entries would keep
/// digests recorded under the old options; that is found on the way, after some output went
/// to `sink`, so a caller that must not show half a merge runs it first with `DiscardSink`.
pub fn merge_bless(
    existing: Option<Existing<'_>>,
    recorded: &mut dyn Iterator<Item = io::Result<(PacketKey, GoldenEntry)>>,
    modes: &[Mode],
    options: &ConvertOptions,
    still_exists: &dyn Fn(&PacketKey) -> bool,
    prune: bool,
    sink: &mut dyn BlessSink,
) -> Result<BlessCounts, MergeError> {
    let current_options = RecordedOptions::of(options);
    let mut counts = BlessCounts::default();
    let mut change = |sink: &mut dyn BlessSink, change: Change| -> io::Result<()> {
        counts.changes += 1;
        sink.change(&change)
    };
    // Only set when the options change: then no entry may keep digests of the old ones.
    let mut stale_check = None;
    let (old_options, mut old_entries) = match existing {
        Some(existing) => (Some(existing.options), existing.entries),
        None => (
            None,
            Box::new(std::iter::empty()) as Box<dyn Iterator<Item = _>>,
        ),
    };
    if let Some(recorded_options) = old_options.filter(|&old| *old != current_options) {
        let old = describe_options(recorded_options);
        let new = describe_options(&current_options);
        let hint = recorded_options.differences(options).join(" ");
        stale_check = Some(move |stale: &PacketKey| {
            MergeError::Refused(format!(
                "the manifest was recorded with {old} and this run uses {new}; entries such as {} would keep digests from the old options. Bless the whole directory in both modes (with --prune if packets are gone), or run with {hint}",
                safe_text(&stale.to_string()),
            ))
        });
        change(
            sink,
            Change::Options {
                from: describe_options(recorded_options),
                to: describe_options(&current_options),
            },
        )?;
    }
    let partial_modes = modes.len() < Mode::BOTH.len();
    // The old manifest's next entry not yet merged.
    let mut pending = old_entries.next().transpose()?;
    let mut pruned: Vec<PacketKey> = Vec::new();
    // An entry of the old manifest that this run did not record: kept, or gone.
    let mut not_recorded = |key: &PacketKey,
                            entry: &GoldenEntry,
                            sink: &mut dyn BlessSink,
                            counts_kept: &mut usize|
     -> Result<(), MergeError> {
        let exists = still_exists(key);
        if let Some(refusal) = &stale_check {
            if !prune || exists {
                return Err(refusal(key));
            }
        }
        if exists {
            sink.entry(key, entry)?;
        } else if prune {
            pruned.push(key.clone());
        } else {
            *counts_kept += 1;
            sink.kept_gone(key);
            sink.entry(key, entry)?;
        }
        Ok(())
    };
    let mut kept_gone = 0;
    let mut unchanged = 0;
    for item in recorded {
        let (key, entry) = item?;
        let mut old = None;
        while let Some((old_key, old_entry)) = pending.take() {
            match old_key.cmp(&key) {
                std::cmp::Ordering::Less => {
                    not_recorded(&old_key, &old_entry, sink, &mut kept_gone)?;
                    pending = old_entries.next().transpose()?;
                }
                std::cmp::Ordering::Equal => {
                    old = Some(old_entry);
                    pending = old_entries.next().transpose()?;
                    break;
                }
                std::cmp::Ordering::Greater => {
                    pending = Some((old_key, old_entry));
                    break;
                }
            }
        }
        let Some(old) = old else {
            let mut fresh = GoldenEntry {
                duplicate_keys: entry.duplicate_keys.clone(),
                object: entry.object.clone(),
                ..GoldenEntry::default()
            };
            fresh.content.object = entry.content.object.clone();
            for &mode in modes {
                fresh.set_mode(mode, entry.mode(mode).cloned());
                fresh.content.modes[mode.index()] = entry.content.modes[mode.index()].clone();
            }
            change(
                sink,
                Change::Added {
                    key: key.clone(),
                    summary: describe_entry(&fresh),
                },
            )?;
            sink.entry(&key, &fresh)?;
            continue;
        };
        if let (Some(refusal), true) = (&stale_check, partial_modes) {
            return Err(refusal(&key));
        }
        let merged = merge_entry(&old, &entry, modes);
        let updates = entry_changes(&key, &old, &merged);
        if updates.is_empty() {
            unchanged += 1;
        }
        for update in updates {
            change(sink, update)?;
        }
        sink.entry(&key, &merged)?;
    }
    while let Some((old_key, old_entry)) = pending.take() {
        not_recorded(&old_key, &old_entry, sink, &mut kept_gone)?;
        pending = old_entries.next().transpose()?;
    }
    for key in pruned {
        change(sink, Change::Removed { key })?;
    }
    Ok(BlessCounts {
        unchanged,
        kept_gone,
        ..counts
    })
}

/// `old` with this run's record of the blessed `modes` (and duplicate keys, object) in it.
fn merge_entry(old: &GoldenEntry, entry: &GoldenEntry, modes: &[Mode]) -> GoldenEntry {
    let mut merged = old.clone();
    merged.duplicate_keys = entry.duplicate_keys.clone();
    // An object golden does not depend on the modes; a packet that became (or stopped
    // being) an object of some kind loses the other kind's record.
    merged.object = entry.object.clone();
    merged.content.object = entry.content.object.clone();
    if entry.object.is_some() {
        merged.modes = [None, None];
        merged.content.modes = [None, None];
    } else {
        for &mode in modes {
            merged.set_mode(mode, entry.mode(mode).cloned());
            merged.content.modes[mode.index()] = entry.content.modes[mode.index()].clone();
        }
    }
    merged
}

/// The field-by-field changes from `old` to `merged`, in the order they are shown.
fn entry_changes(key: &PacketKey, old: &GoldenEntry, merged: &GoldenEntry) -> Vec<Change> {
    let mut changes = Vec::new();
    let update = |field: String, from: String, to: String, detail: Vec<String>| Change::Updated {
        key: key.clone(),
        field,
        from,
        to,
        detail,
    };
    if old.duplicate_keys != merged.duplicate_keys {
        changes.push(update(
            "duplicate_keys".to_owned(),
            list_or_none(&old.duplicate_keys),
            list_or_none(&merged.duplicate_keys),
            Vec::new(),
        ));
    }
    match (&old.object, &merged.object) {
        (Some(from), Some(to)) => {
            let mut any = false;
            for ((field, before), (_, after)) in from.fields().into_iter().zip(to.fields()) {
                if before != after {
                    any = true;
                    let detail = match field {
                        "object" => content_detail(
                            old.content.object.as_ref(),
                            from.object,
                            merged.content.object.as_ref(),
                        ),
                        "state" => state_detail(from.state, to.state),
                        _ => Vec::new(),
                    };
                    changes.push(update(
                        field.to_owned(),
                        shown(&before),
                        shown(&after),
                        detail,
                    ));
                }
            }
            if !any {
                changes.extend(content_recorded(
                    key,
                    "content",
                    old.content.object.as_ref(),
                    merged.content.object.as_ref(),
                    &to.object,
                ));
            }
        }
        (None, None) => {}
        (from, to) => changes.push(update(
            "object".to_owned(),
            from.as_ref()
                .map_or("absent".to_owned(), |golden| golden.describe()),
            to.as_ref()
                .map_or("absent".to_owned(), |golden| golden.describe()),
            Vec::new(),
        )),
    }
    for mode in Mode::BOTH {
        let (from, to) = (old.mode(mode), merged.mode(mode));
        if from == to {
            if let Some(payload) = to.and_then(|golden| golden.payload.as_ref()) {
                changes.extend(content_recorded(
                    key,
                    &format!("{mode}.content"),
                    old.content.modes[mode.index()].as_ref(),
                    merged.content.modes[mode.index()].as_ref(),
                    payload,
                ));
            }
            continue;
        }
        match (from, to) {
            (Some(from), Some(to)) => {
                let index = mode.index();
                for ((field, before), (_, after)) in from.fields().into_iter().zip(to.fields()) {
                    if before != after {
                        let detail = match (field, from.payload) {
                            ("payload", Some(digest)) => content_detail(
                                old.content.modes[index].as_ref(),
                                digest,
                                merged.content.modes[index].as_ref(),
                            ),
                            ("state", _) => state_detail(from.state, to.state),
                            _ => Vec::new(),
                        };
                        changes.push(update(
                            format!("{mode}.{field}"),
                            shown(&before),
                            shown(&after),
                            detail,
                        ));
                    }
                }
            }
            (from, to) => changes.push(update(
                mode.name().to_owned(),
                from.map_or("absent".to_owned(), |golden| golden.describe()),
                to.map_or("absent".to_owned(), |golden| golden.describe()),
                Vec::new(),
            )),
        }
    }
    changes
}

/// Changed paths listed per changed payload or object; the rest are counted.
const DETAIL_PATHS: usize = 12;

/// What changed inside a payload or object whose digest changed: its paths (before -> after)
/// when the old golden kept the content, else why the before is unknown.
fn content_detail(
    old: Option<&Content>,
    old_digest: crate::json::Digest,
    new: Option<&Content>,
) -> Vec<String> {
    let recorded = match before(old, old_digest, new.is_some()) {
        Before::Known(value) => value,
        Before::Unknown(BEFORE_DIGEST_ONLY) => {
            return vec![
                "before unknown: the golden stored only the digest (this bless records the content)"
                    .to_owned(),
            ]
        }
        Before::Unknown(why) => return vec![why.to_owned()],
    };
    let Some(current) = new.and_then(Content::value) else {
        return Vec::new();
    };
    let diff = diff_json(&recorded, &current, "recorded", "current");
    let mut lines: Vec<String> = diff
        .changes
        .iter()
        .take(DETAIL_PATHS)
        .map(|change| change.describe())
        .collect();
    if diff.total_changes > DETAIL_PATHS {
        lines.push(format!(
            "... and {} more",
            diff.total_changes - DETAIL_PATHS
        ));
    }
    lines
}

/// A changed handoff state in the freeze's words (visibility only).
fn state_detail(
    from: Option<crate::freeze::HandoffState>,
    to: Option<crate::freeze::HandoffState>,
) -> Vec<String> {
    match (from, to) {
        (Some(from), Some(to)) if from != to => {
            vec![format!("handoff state: {} -> {}", from.name(), to.name())]
        }
        _ => Vec::new(),
    }
}

/// A golden whose fields are unchanged but whose content is recorded for the first time (a
/// v1 manifest blessed again): a change, so the manifest is written.
fn content_recorded(
    key: &PacketKey,
    field: &str,
    old: Option<&Content>,
    new: Option<&Content>,
    digest: &crate::json::Digest,
) -> Option<Change> {
    (old.is_none() && new.is_some()).then(|| Change::Updated {
        key: key.clone(),
        field: field.to_owned(),
        from: "not recorded".to_owned(),
        to: format!("recorded (the JSON of digest {})", digest.short(12)),
        detail: Vec::new(),
    })
}

/// Collects a merge in memory (the TUI's accept, and tests).
struct PlanSink {
    manifest: GoldenManifest,
    changes: Vec<Change>,
    kept_gone: Vec<PacketKey>,
}

impl BlessSink for PlanSink {
    fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> io::Result<()> {
        self.manifest.packets.insert(key.clone(), entry.clone());
        Ok(())
    }
    fn change(&mut self, change: &Change) -> io::Result<()> {
        self.changes.push(change.clone());
        Ok(())
    }
    fn kept_gone(&mut self, key: &PacketKey) {
        self.kept_gone.push(key.clone());
    }
}

/// `merge_bless` into a plan held in memory, for a few entries (the TUI's accept of one
/// packet); `bless` streams instead.
pub fn plan_bless(
    existing: Option<&GoldenManifest>,
    recorded: BTreeMap<PacketKey, GoldenEntry>,
    modes: &[Mode],
    options: &ConvertOptions,
    still_exists: &dyn Fn(&PacketKey) -> bool,
    prune: bool,
) -> Result<BlessPlan, String> {
    let mut sink = PlanSink {
        manifest: GoldenManifest::new(options),
        changes: Vec::new(),
        kept_gone: Vec::new(),
    };
    let counts = merge_bless(
        existing.map(Existing::from),
        &mut recorded.into_iter().map(Ok),
        modes,
        options,
        still_exists,
        prune,
        &mut sink,
    )
    .map_err(|error| match error {
        MergeError::Refused(reason) => reason,
        MergeError::Io(error) => error.to_string(),
    })?;
    Ok(BlessPlan {
        manifest: sink.manifest,
        changes: sink.changes,
        unchanged: counts.unchanged,
        kept_gone: sink.kept_gone,
    })
}

fn list_or_none(list: &[String]) -> String {
    if list.is_empty() {
        "none".to_owned()
    } else {
        safe_text(&list.join(" ")).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::ErrorKind;
    use crate::golden::ModeGolden;

    fn entry(error: ErrorKind) -> GoldenEntry {
        let golden = ModeGolden {
            error: Some(error),
            ..ModeGolden::default()
        };
        GoldenEntry {
            duplicate_keys: Vec::new(),
            modes: [Some(golden.clone()), Some(golden)],
            object: None,
            content: Default::default(),
        }
    }

    fn manifest_with(keys: &[&str]) -> GoldenManifest {
        let mut manifest = GoldenManifest::new(&ConvertOptions::default());
        for key in keys {
            manifest
                .packets
                .insert(PacketKey::file(*key), entry(ErrorKind::Measurement));
        }
        manifest
    }

    #[test]
    fn never_drops_existing_packets_and_prunes_only_when_asked() {
        let existing = manifest_with(&["a.json", "gone.json", "other.json"]);
        let recorded = BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]);
        let still_exists = |key: &PacketKey| key.file == "other.json";
        let plan = plan_bless(
            Some(&existing),
            recorded.clone(),
            &Mode::BOTH,
            &ConvertOptions::default(),
            &still_exists,
            false,
        )
        .unwrap();
        assert!(plan.is_unchanged());
        assert_eq!(plan.unchanged, 1);
        assert_eq!(plan.manifest, existing);
        assert_eq!(plan.kept_gone, vec![PacketKey::file("gone.json")]);

        let pruned = plan_bless(
            Some(&existing),
            recorded,
            &Mode::BOTH,
            &ConvertOptions::default(),
            &still_exists,
            true,
        )
        .unwrap();
        assert_eq!(
            pruned.changes,
            vec![Change::Removed {
                key: PacketKey::file("gone.json")
            }]
        );
        assert!(pruned
            .manifest
            .packets
            .contains_key(&PacketKey::file("other.json")));
    }

    #[test]
    fn reports_field_changes_and_additions() {
        let existing = manifest_with(&["a.json"]);
        let recorded = BTreeMap::from([
            (
                PacketKey::file("a.json"),
                entry(ErrorKind::StrictLossinessViolation),
            ),
            (PacketKey::file("b.json"), entry(ErrorKind::Measurement)),
        ]);
        let plan = plan_bless(
            Some(&existing),
            recorded,
            &[Mode::Lenient],
            &ConvertOptions::default(),
            &|_| true,
            false,
        )
        .unwrap();
        let shown: Vec<String> = plan.changes.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            vec![
                "~ a.json  lenient.error: measurement -> strict_lossiness_violation",
                "+ b.json  lenient: error measurement",
            ]
        );
        // Only the blessed mode changed; strict keeps its recorded value.
        let a = &plan.manifest.packets[&PacketKey::file("a.json")];
        assert_eq!(
            a.mode(Mode::Strict).unwrap().error,
            Some(ErrorKind::Measurement)
        );
        // A new packet gets only the modes blessed.
        let b = &plan.manifest.packets[&PacketKey::file("b.json")];
        assert!(b.mode(Mode::Strict).is_none());
    }

    #[test]
    fn odd_recorded_values_are_shown_whole_and_safe() {
        // 64 bytes that are not a digest, with multi-byte characters: never cut mid-character.
        let rule = "é".repeat(32);
        let mut old = entry(ErrorKind::Measurement);
        old.modes[0].as_mut().unwrap().rule = Some(rule.clone());
        let mut existing = manifest_with(&[]);
        existing.packets.insert(PacketKey::file("a.json"), old);
        let plan = plan_bless(
            Some(&existing),
            BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]),
            &Mode::BOTH,
            &ConvertOptions::default(),
            &|_| true,
            false,
        )
        .unwrap();
        assert_eq!(
            plan.changes[0].to_string(),
            format!("~ a.json  strict.rule: {rule} -> absent")
        );
    }

    #[test]
    fn changed_options_need_every_entry_recorded_again() {
        let existing = manifest_with(&["a.json", "b.json"]);
        let options = ConvertOptions {
            adapter_version: "9.0.0".to_owned(),
            ..ConvertOptions::default()
        };
        let partial = plan_bless(
            Some(&existing),
            BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]),
            &Mode::BOTH,
            &options,
            &|_| true,
            false,
        );
        assert!(partial.unwrap_err().contains("--adapter-version 3.4.0"));
        let full = plan_bless(
            Some(&existing),
            BTreeMap::from([
                (PacketKey::file("a.json"), entry(ErrorKind::Measurement)),
                (PacketKey::file("b.json"), entry(ErrorKind::Measurement)),
            ]),
            &Mode::BOTH,
            &options,
            &|_| true,
            false,
        )
        .unwrap();
        assert!(matches!(full.changes[0], Change::Options { .. }));
        assert_eq!(full.manifest.options.adapter_version, "9.0.0");
    }
}
