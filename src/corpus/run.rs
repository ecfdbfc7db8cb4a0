//! Checking a whole corpus: walk the paths, load each directory's golden manifest once, pair
//! raw packets with their expected payloads, and check every packet on the pipeline.

use super::check::{check_packet, CheckOptions, GoldenLookup, PacketCheck};
use super::pair::{manifest_key, Pairing};
use super::pipeline::{stream_packets, PipelineOptions};
use super::{walk, LoadError, RawPacket, Shard, Source, WalkItem, GOLDEN_MANIFEST_NAME};
use crate::a2a::ConvertOptions;
use crate::golden::{manifest_path, GoldenEntry, ManifestIndex};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One result of a corpus check, in walk order.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckItem {
    Packet(Box<PacketCheck>),
    /// A file, line or manifest that could not be used, with the reason.
    LoadError(LoadError),
}

#[derive(Clone, Debug)]
enum ManifestState {
    /// No manifest; the words to say so (made once per directory, not per packet).
    Absent(String),
    /// Indexed on disk: entries are read when a packet asks (`golden::ManifestIndex`).
    Loaded(Arc<ManifestIndex>),
    /// Malformed, unreadable or recorded under other options (already reported).
    Unusable(String),
}

/// The golden manifests of the directories a walk reached.
#[derive(Clone, Debug, Default)]
pub struct Manifests {
    dirs: HashMap<PathBuf, ManifestState>,
}

/// The directory whose manifest records a packet file (`manifest_key`'s, without allocating).
fn manifest_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

impl Manifests {
    /// Loads the manifest of every directory holding a walked file. With
    /// `require_matching_options`, a manifest recorded under other conversion options is
    /// unusable (and reported): its digests would all differ for that reason alone.
    pub fn load(
        items: &[WalkItem],
        conversion: &ConvertOptions,
        require_matching_options: bool,
    ) -> (Manifests, Vec<LoadError>) {
        let mut manifests = Manifests::default();
        let mut errors = Vec::new();
        for item in items {
            let WalkItem::File { path, .. } = item else {
                continue;
            };
            let (dir, _) = manifest_key(&Source::file(path.clone()));
            if manifests.dirs.contains_key(&dir) {
                continue;
            }
            let shown = |text: String| crate::json::safe_text(&text).into_owned();
            let state = match ManifestIndex::open(&dir) {
                Ok(None) => ManifestState::Absent(shown(format!(
                    "no {GOLDEN_MANIFEST_NAME} in {}",
                    dir.display()
                ))),
                Ok(Some(manifest)) => {
                    let differences = manifest.options.differences(conversion);
                    if require_matching_options && !differences.is_empty() {
                        errors.push(LoadError {
                            source: Source::file(manifest_path(&dir)),
                            reason: format!(
                                "golden manifest recorded under other conversion options; run with {}",
                                differences.join(" ")
                            ),
                        });
                        ManifestState::Unusable(shown(format!(
                            "{} cannot be used (reported above)",
                            manifest_path(&dir).display()
                        )))
                    } else {
                        ManifestState::Loaded(Arc::new(manifest))
                    }
                }
                Err(error) => {
                    errors.push(LoadError {
                        source: Source::file(manifest_path(&dir)),
                        reason: format!("malformed golden manifest: {error}"),
                    });
                    ManifestState::Unusable(shown(format!(
                        "{} cannot be used (reported above)",
                        manifest_path(&dir).display()
                    )))
                }
            };
            manifests.dirs.insert(dir, state);
        }
        (manifests, errors)
    }

    /// The loaded manifest of `dir`, if it has a usable one.
    pub fn get(&self, dir: &Path) -> Option<&ManifestIndex> {
        match self.dirs.get(dir) {
            Some(ManifestState::Loaded(manifest)) => Some(manifest),
            _ => None,
        }
    }

    /// Looks a packet up; `entry` receives its entry (read from the manifest file), `reason`
    /// the words for a missing entry when they have to be made for this packet.
    pub fn lookup<'a>(
        &'a self,
        source: &Source,
        entry: &'a mut Option<GoldenEntry>,
        reason: &'a mut String,
    ) -> GoldenLookup<'a> {
        let dir = manifest_dir(&source.path);
        match self.dirs.get(dir) {
            Some(ManifestState::Loaded(manifest)) => {
                let (_, key) = manifest_key(source);
                match manifest.entry(&key) {
                    Ok(Some(found)) => return GoldenLookup::Entry(entry.insert(found)),
                    Ok(None) => {}
                    Err(error) => {
                        *reason = crate::json::safe_text(&format!(
                            "cannot read the entry for {key} in {}: {error}",
                            manifest_path(dir).display()
                        ))
                        .into_owned();
                        return GoldenLookup::Missing(reason);
                    }
                }
                *reason = crate::json::safe_text(&format!(
                    "no entry for {key} in {}",
                    manifest_path(dir).display()
                ))
                .into_owned();
                GoldenLookup::Missing(reason)
            }
            Some(ManifestState::Absent(words) | ManifestState::Unusable(words)) => {
                GoldenLookup::Missing(words)
            }
            None => {
                *reason = format!("no {GOLDEN_MANIFEST_NAME} in {}", dir.display());
                GoldenLookup::Missing(reason)
            }
        }
    }
}

/// Whether a walked file is a golden manifest rather than a packet.
pub fn is_manifest_file(path: &Path) -> bool {
    path.file_name().and_then(|name| name.to_str()) == Some(GOLDEN_MANIFEST_NAME)
}

/// What a corpus run saw besides its results.
pub struct CorpusRun {
    pub items: Vec<WalkItem>,
    pub manifests: Manifests,
}

/// Checks every packet under `paths`; `sink` gets manifest errors first, then every packet
/// or load error in walk order.
pub fn check_corpus(
    paths: &[PathBuf],
    options: &CheckOptions,
    pipeline: PipelineOptions,
    require_matching_options: bool,
    sink: &mut dyn FnMut(CheckItem),
) -> Result<CorpusRun, String> {
    check_corpus_with(
        paths,
        options,
        pipeline,
        require_matching_options,
        &|item| item,
        &mut |item| sink(item),
    )
}

/// `check_corpus` with `post` applied to every result on the worker threads (rendering an
/// output line there keeps the ordered, single-threaded sink short).
pub fn check_corpus_with<T: Send>(
    paths: &[PathBuf],
    options: &CheckOptions,
    pipeline: PipelineOptions,
    require_matching_options: bool,
    post: &(dyn Fn(CheckItem) -> T + Sync),
    sink: &mut dyn FnMut(T),
) -> Result<CorpusRun, String> {
    check_corpus_shard(
        paths,
        options,
        pipeline,
        require_matching_options,
        None,
        post,
        sink,
    )
}

/// `check_corpus_with` over one shard of the walk (`None`: all of it). A manifest's load
/// error belongs to the shard holding the first walked file of its directory, so the shards
/// together report it once, in the place the unsharded run does. Pairing sees the whole walk:
/// a raw packet pairs with its expected payloads whichever shard they fall in.
pub fn check_corpus_shard<T: Send>(
    paths: &[PathBuf],
    options: &CheckOptions,
    pipeline: PipelineOptions,
    require_matching_options: bool,
    shard: Option<Shard>,
    post: &(dyn Fn(CheckItem) -> T + Sync),
    sink: &mut dyn FnMut(T),
) -> Result<CorpusRun, String> {
    let run = RunSpec::new(paths, options, pipeline, require_matching_options, shard);
    run_checked(run, &mut |_| {}, post, sink)
}

/// `check_corpus`, handing `share` the run's [`PacketChecker`] before the first packet: what
/// checks one packet again exactly as this run did (the inspector keeps a compact row per
/// packet and checks the selected one again for its detail).
pub fn check_corpus_sharing(
    paths: &[PathBuf],
    options: &CheckOptions,
    pipeline: PipelineOptions,
    require_matching_options: bool,
    share: &mut dyn FnMut(&Arc<PacketChecker>),
    sink: &mut dyn FnMut(CheckItem),
) -> Result<CorpusRun, String> {
    let run = RunSpec::new(paths, options, pipeline, require_matching_options, None);
    run_checked(run, share, &|item| item, &mut |item| sink(item))
}

/// What a corpus run is asked to do.
struct RunSpec<'a> {
    paths: &'a [PathBuf],
    options: &'a CheckOptions,
    pipeline: PipelineOptions,
    require_matching_options: bool,
    shard: Option<Shard>,
}

impl<'a> RunSpec<'a> {
    fn new(
        paths: &'a [PathBuf],
        options: &'a CheckOptions,
        pipeline: PipelineOptions,
        require_matching_options: bool,
        shard: Option<Shard>,
    ) -> RunSpec<'a> {
        RunSpec {
            paths,
            options,
            pipeline,
            require_matching_options,
            shard,
        }
    }
}

/// What every packet of a run is checked against: the options, the directories' golden
/// manifests (indexed on disk), the walk's expected payload files and the PATHs named. A
/// packet read again and checked here gets the verdict the run gave it (the same
/// `check_packet` with the same golden lookup and pairing).
pub struct PacketChecker {
    options: CheckOptions,
    manifests: Manifests,
    pairing: Pairing,
    named: HashSet<PathBuf>,
}

impl PacketChecker {
    /// Checks one packet as the run does.
    pub fn check(&self, packet: &RawPacket) -> PacketCheck {
        let (mut entry, mut reason) = (None, String::new());
        let lookup = self
            .manifests
            .lookup(&packet.source, &mut entry, &mut reason);
        let paired = match packet.source.line {
            None => self.pairing.paired(
                &packet.source.path,
                self.named.contains(&*packet.source.path),
            ),
            Some(_) => [None, None],
        };
        check_packet(packet, &self.options, lookup, &paired)
    }

    /// The usable manifest that records `source`, as this run indexed it.
    pub fn manifest_of(&self, source: &Source) -> Option<&ManifestIndex> {
        self.manifests.get(manifest_dir(&source.path))
    }
}

impl std::fmt::Debug for PacketChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PacketChecker")
            .field("named", &self.named)
            .finish_non_exhaustive()
    }
}

fn run_checked<T: Send>(
    run: RunSpec<'_>,
    share: &mut dyn FnMut(&Arc<PacketChecker>),
    post: &(dyn Fn(CheckItem) -> T + Sync),
    sink: &mut dyn FnMut(T),
) -> Result<CorpusRun, String> {
    let RunSpec {
        paths,
        options,
        pipeline,
        require_matching_options,
        shard,
    } = run;
    let walked = walk(paths, &options.walk);
    let range = shard.map_or(0..walked.len(), |shard| shard.range(walked.len()));
    let earlier_dirs: HashSet<&Path> = walked[..range.start]
        .iter()
        .filter_map(|item| match item {
            WalkItem::File { path, .. } => Some(manifest_dir(path)),
            WalkItem::Error(_) => None,
        })
        .collect();
    let items = &walked[range.clone()];
    let (manifests, errors) = Manifests::load(
        items,
        &options.evaluate.conversion,
        require_matching_options,
    );
    for error in errors {
        if earlier_dirs.contains(manifest_dir(&error.source.path)) {
            continue;
        }
        sink(post(CheckItem::LoadError(error)));
    }
    let listed = walked.iter().filter_map(|item| match item {
        WalkItem::File { path, .. } => Some(path.clone()),
        WalkItem::Error(_) => None,
    });
    let checker = Arc::new(PacketChecker {
        options: options.clone(),
        manifests,
        pairing: Pairing::new(listed),
        named: paths.iter().cloned().collect(),
    });
    share(&checker);
    stream_packets(
        items,
        pipeline,
        &is_manifest_file,
        |item| {
            post(match item {
                Err(error) => CheckItem::LoadError(error),
                Ok(packet) => CheckItem::Packet(Box::new(checker.check(&packet))),
            })
        },
        sink,
    )?;
    let items = match shard {
        None => walked,
        Some(_) => items.to_vec(),
    };
    Ok(CorpusRun {
        items,
        manifests: checker.manifests.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::{write_manifest, GoldenManifest};

    const POSITIVE: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;

    fn statuses(paths: &[PathBuf]) -> Vec<String> {
        let mut out = Vec::new();
        check_corpus(
            paths,
            &CheckOptions::default(),
            PipelineOptions::default(),
            true,
            &mut |item| {
                out.push(match item {
                    CheckItem::Packet(check) => format!(
                        "{} {}",
                        check.summary.source.file_name().unwrap_or(""),
                        check.status.key()
                    ),
                    CheckItem::LoadError(error) => format!("load {}", error.reason),
                })
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn manifests_are_found_per_directory_and_skipped_as_packets() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), POSITIVE).unwrap();
        std::fs::write(dir.path().join("b.json"), POSITIVE).unwrap();
        let paths = [dir.path().to_path_buf()];
        assert_eq!(
            statuses(&paths),
            vec!["a.json no_golden", "b.json no_golden"]
        );
        // Record a.json only.
        let mut recorded = None;
        check_corpus(
            &[dir.path().join("a.json")],
            &CheckOptions::default(),
            PipelineOptions::default(),
            true,
            &mut |item| {
                if let CheckItem::Packet(check) = item {
                    recorded = check.recorded();
                }
            },
        )
        .unwrap();
        let mut manifest = GoldenManifest::new(&ConvertOptions::default());
        manifest
            .packets
            .insert(crate::golden::PacketKey::file("a.json"), recorded.unwrap());
        write_manifest(dir.path(), &manifest).unwrap();
        assert_eq!(
            statuses(&paths),
            vec!["a.json conforms", "b.json no_golden"]
        );
        // A broken manifest is reported, and nothing is compared against it.
        std::fs::write(dir.path().join("goldens.json"), "{\"format\":1}").unwrap();
        let shown = statuses(&paths);
        assert!(
            shown[0].starts_with("load malformed golden manifest: $.format"),
            "{shown:?}"
        );
        assert_eq!(&shown[1..], ["a.json no_golden", "b.json no_golden"]);
    }
}
