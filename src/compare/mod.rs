//! Comparing two runs at the handoff seam: each side a bundle, a directory, an NDJSON stream
//! or one file, read through the corpus pipeline (`check`'s reading, its one classifier and
//! its packet summaries); packets paired (see `align`); each pair `unchanged`, `changed`,
//! `added` or `removed`. A pair's detail ([`Comparison::change`]) is derived again from the
//! packets' bytes: the named handoff state on each side, each flag that changed with the rule
//! row that decided it, and the other paths that changed. [`compare`] keeps a record of a few
//! dozen bytes per packet and every pair (the Compare view lists them); [`compare_changes`]
//! (`diff`) keeps 8 bytes a packet while the sides are aligned and a record only for the
//! packets left in a gap, with the unchanged pairs counted. Only the pairs shown are read
//! again in full.
//!
//! Times, run ids, event ids, content hashes and sequence numbers differ between any two runs
//! by construction: they are left out of the compared documents and reported once per side
//! ([`side::RunSummary`], with a bundle's verdict and run root).

mod align;
mod change;
mod document;
mod options;
mod record;
mod side;
#[cfg(test)]
mod tests;

pub use align::{
    align_paths, align_sequences, full_key_ops, gap_ranges, pair_gaps, ChangeKind, Pair,
};
pub use change::{Change, Explained, FieldChange, FlagChange, MAX_FIELDS};
pub use document::{payload_of, RUN_SCOPED};
pub use options::CompareOptions;
pub use record::{Record, WHOLE_FILE};
pub use side::{
    read_side, read_side_keeping, shape_of, AttestationFacts, BundleFacts, Keeping, RunSummary,
    Side, SideShape,
};

use crate::a2a::Mode;
use crate::corpus::LoadError;
use crate::freeze::HandoffState;
use serde::Serialize;
use std::path::Path;

/// The counts a comparison's summary gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    pub unchanged: usize,
    /// Changed pairs whose named handoff state differs.
    pub state_changes: usize,
    /// Two bundles whose attestations, judged against the same trusted keys, differ in state
    /// or signer.
    pub signer_changed: bool,
}

impl Summary {
    pub fn anything_changed(&self) -> bool {
        self.added + self.removed + self.changed > 0 || self.signer_changed
    }
}

/// Two runs, paired.
pub struct Comparison {
    pub base: Side,
    pub candidate: Side,
    pub mode: Mode,
    /// Every pair; of a comparison made by [`compare_changes`], those that are not unchanged
    /// (the summary counts those).
    pub pairs: Vec<Pair>,
    pub summary: Summary,
    options: CompareOptions,
    bundles: (crate::bundle::BundleCache, crate::bundle::BundleCache),
}

/// Two bundle sides' attestations when both were judged and they differ (state or signer):
/// who signed one run is not who signed the other.
pub fn signer_change<'s>(
    base: &'s Side,
    candidate: &'s Side,
) -> Option<(&'s AttestationFacts, &'s AttestationFacts)> {
    let judged = |side: &'s Side| side.run.bundle.as_ref()?.attestation.as_ref();
    let (old, new) = (judged(base)?, judged(candidate)?);
    (old != new).then_some((old, new))
}

/// Reads both sides and pairs their packets, every pair kept (what the Compare view lists).
/// `Err` names the side that cannot be read at all.
pub fn compare(
    base: &Path,
    candidate: &Path,
    options: &CompareOptions,
) -> Result<Comparison, LoadError> {
    let (base, candidate) = both(base, candidate, |path| read_side(path, options))?;
    Ok(Comparison::of(base, candidate, options.clone()))
}

/// [`compare`] keeping only what `diff` shows: two sequences are read by each packet's full
/// key alone (8 bytes a packet), aligned over those, and read again for the records of the
/// packets left in a gap, which the alignment's other levels pair as [`compare`] does; the
/// unchanged pairs are counted, not kept. The same pairs and summary as [`compare`], in a
/// fifth of its memory. Two directories pair by path, which needs every record: [`compare`].
pub fn compare_changes(
    base: &Path,
    candidate: &Path,
    options: &CompareOptions,
) -> Result<Comparison, LoadError> {
    let directory = |path| shape_of(path).ok() == Some(SideShape::Directory);
    if directory(base) && directory(candidate) {
        return compare(base, candidate, options);
    }
    let (mut base, mut candidate) = both(base, candidate, |path| {
        read_side_keeping(path, options, Keeping::FullKeys)
    })?;
    let ops = full_key_ops(base.full_keys(), candidate.full_keys());
    let (base_gaps, candidate_gaps) = gap_ranges(&ops);
    let (read_base, read_candidate) = std::thread::scope(|scope| {
        let candidate = scope.spawn(|| candidate.read_gaps(&candidate_gaps, options));
        let base = base.read_gaps(&base_gaps, options);
        (base, candidate.join())
    });
    read_base?;
    read_candidate.unwrap_or_else(|_| Err(stopped(&candidate.path)))?;
    side::share_types(&base, &mut candidate);
    let (pairs, unchanged) = pair_gaps(&ops, (&base.records, &candidate.records));
    Ok(Comparison::paired(
        base,
        candidate,
        pairs,
        unchanged,
        options.clone(),
    ))
}

/// Both sides read at once: each is one reading thread feeding the shared worker pool.
fn both(
    base: &Path,
    candidate: &Path,
    read: impl Fn(&Path) -> Result<Side, LoadError> + Sync,
) -> Result<(Side, Side), LoadError> {
    let (base, candidate_read) = std::thread::scope(|scope| {
        let candidate = scope.spawn(|| read(candidate));
        (read(base), candidate.join())
    });
    let candidate_read = candidate_read.unwrap_or_else(|_| Err(stopped(candidate)));
    Ok((base?, candidate_read?))
}

fn stopped(path: &Path) -> LoadError {
    LoadError {
        source: crate::corpus::Source::file(path),
        reason: "reading stopped unexpectedly".to_owned(),
    }
}

impl Comparison {
    /// Pairs two sides already read: by path when both are directories, else by sequence.
    pub fn of(base: Side, mut candidate: Side, options: CompareOptions) -> Comparison {
        side::share_types(&base, &mut candidate);
        let pairs = if base.shape == SideShape::Directory && candidate.shape == SideShape::Directory
        {
            align_paths(&base, &candidate)
        } else {
            align_sequences(&base.records, &candidate.records)
        };
        Comparison::paired(base, candidate, pairs, 0, options)
    }

    /// Two sides and their pairs, with `unchanged` more unchanged pairs that are not kept.
    fn paired(
        base: Side,
        candidate: Side,
        pairs: Vec<Pair>,
        unchanged: usize,
        options: CompareOptions,
    ) -> Comparison {
        let mut summary = Summary {
            unchanged,
            ..Summary::default()
        };
        for pair in &pairs {
            match pair.change {
                ChangeKind::Added => summary.added += 1,
                ChangeKind::Removed => summary.removed += 1,
                ChangeKind::Unchanged => summary.unchanged += 1,
                ChangeKind::Changed => {
                    summary.changed += 1;
                    let (old, new) = states(&base, &candidate, pair);
                    summary.state_changes += usize::from(old != new);
                }
            }
        }
        summary.signer_changed = signer_change(&base, &candidate).is_some();
        Comparison {
            mode: options.mode,
            base,
            candidate,
            pairs,
            summary,
            options,
            bundles: Default::default(),
        }
    }

    /// A pair in full, read again from both sides.
    pub fn change(&self, pair: &Pair) -> Change {
        change::change_of(
            pair,
            (&self.base, &self.candidate),
            &self.options.evaluate.conversion,
            (&self.bundles.0, &self.bundles.1),
        )
    }

    /// One packet read again and explained (`candidate`: of the candidate side).
    pub fn explain(
        &self,
        candidate: bool,
        index: u32,
    ) -> Result<
        (crate::corpus::Source, crate::corpus::PacketKind, Explained),
        crate::corpus::LoadError,
    > {
        let (side, cache) = if candidate {
            (&self.candidate, &self.bundles.1)
        } else {
            (&self.base, &self.bundles.0)
        };
        change::explain_side(side, index, &self.options.evaluate.conversion, cache)
    }

    /// The named state of each side of a pair.
    pub fn states(&self, pair: &Pair) -> (Option<HandoffState>, Option<HandoffState>) {
        states(&self.base, &self.candidate, pair)
    }

    /// The pairs that are not unchanged, grouped by state transition, most significant
    /// first (see [`Significance`]), in sequence order within a group.
    pub fn by_transition(&self) -> Vec<(Transition, Vec<usize>)> {
        let mut keyed: Vec<(Transition, usize)> = self
            .pairs
            .iter()
            .enumerate()
            .filter(|(_, pair)| pair.change != ChangeKind::Unchanged)
            .map(|(index, pair)| (self.transition(pair), index))
            .collect();
        keyed.sort_by_key(|(transition, index)| (*transition, *index));
        let mut groups: Vec<(Transition, Vec<usize>)> = Vec::new();
        for (transition, index) in keyed {
            match groups.last_mut() {
                Some((last, members)) if *last == transition => members.push(index),
                _ => groups.push((transition, vec![index])),
            }
        }
        groups
    }

    /// A pair's group.
    pub fn transition(&self, pair: &Pair) -> Transition {
        let (base, candidate) = self.states(pair);
        Transition {
            significance: Significance::of(pair.change, base, candidate),
            base,
            candidate,
        }
    }

    /// Inputs of either side that yielded no packet.
    pub fn errors(&self) -> impl Iterator<Item = &LoadError> {
        self.base.errors.iter().chain(&self.candidate.errors)
    }
}

fn states(
    base: &Side,
    candidate: &Side,
    pair: &Pair,
) -> (Option<HandoffState>, Option<HandoffState>) {
    (
        pair.base
            .and_then(|index| base.records[index as usize].state),
        pair.candidate
            .and_then(|index| candidate.records[index as usize].state),
    )
}

/// How much a pair matters to a reviewer of the handoff seam, most first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Significance {
    /// A handoff became visible or not visible.
    VisibilityChanged,
    /// Still visible, with other refs.
    StateChanged,
    /// A packet with a visible handoff came or went.
    VisibleAddedOrRemoved,
    /// Same state, other fields.
    FieldsChanged,
    AddedOrRemoved,
    Unchanged,
}

impl Significance {
    fn of(
        change: ChangeKind,
        base: Option<HandoffState>,
        candidate: Option<HandoffState>,
    ) -> Significance {
        let visible = |state: Option<HandoffState>| {
            state.is_some_and(|state| state != HandoffState::Defaults)
        };
        match change {
            ChangeKind::Unchanged => Significance::Unchanged,
            ChangeKind::Changed if visible(base) != visible(candidate) => {
                Significance::VisibilityChanged
            }
            ChangeKind::Changed if base != candidate => Significance::StateChanged,
            ChangeKind::Changed => Significance::FieldsChanged,
            _ if visible(base) || visible(candidate) => Significance::VisibleAddedOrRemoved,
            _ => Significance::AddedOrRemoved,
        }
    }
}

/// A group of pairs: how much they matter and the named state on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transition {
    pub significance: Significance,
    pub base: Option<HandoffState>,
    pub candidate: Option<HandoffState>,
}

/// A state's name, or what stands for none.
pub fn state_name(state: Option<HandoffState>) -> &'static str {
    state.map_or("no named handoff state", HandoffState::name)
}
