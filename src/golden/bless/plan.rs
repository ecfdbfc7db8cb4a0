//! A bless planned in memory, for the tests' few entries. Nothing writes a plan:
//! `write_bless` streams the merge to the file.

use super::change::Change;
use super::merge::{merge_bless, BlessSink, Existing, MergeError};
use crate::a2a::{ConvertOptions, Mode};
use crate::golden::{GoldenEntry, GoldenManifest, PacketKey};
use std::collections::BTreeMap;
use std::io;

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
    pub(crate) fn is_unchanged(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Collects a merge in memory.
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

/// `merge_bless` into a plan held in memory, for a few entries; `bless` and the inspector's
/// accept stream through `write_bless` instead.
pub fn plan_bless(
    existing: Option<&GoldenManifest>,
    recorded: BTreeMap<PacketKey, GoldenEntry>,
    modes: &[Mode],
    options: &ConvertOptions,
    still_exists: &dyn Fn(&PacketKey) -> bool,
    prune: bool,
) -> Result<BlessPlan, MergeError> {
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
    )?;
    Ok(BlessPlan {
        manifest: sink.manifest,
        changes: sink.changes,
        unchanged: counts.unchanged,
        kept_gone: sink.kept_gone,
    })
}
