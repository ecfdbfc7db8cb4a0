//! The streaming merge of a run's entries into the existing manifest, one entry at a time,
//! with its sink, its counts and its refusal.

use super::change::{entry_changes, Change};
use super::describe::{describe_entry, describe_options};
use crate::a2a::{ConvertOptions, Mode};
use crate::golden::{GoldenEntry, GoldenManifest, ManifestIndex, PacketKey, RecordedOptions};
use crate::json::safe_text;
use std::io;

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

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Refused(reason) => f.write_str(reason),
            MergeError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Refused(_) => None,
            MergeError::Io(error) => Some(error),
        }
    }
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
