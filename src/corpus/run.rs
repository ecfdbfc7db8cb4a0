//! Checking a whole corpus: walk the paths, load each directory's golden manifest once, pair
//! raw packets with their expected payloads, and check every packet on the pipeline.

use super::check::{check_packet, CheckOptions, GoldenLookup, PacketCheck};
use super::pair::{manifest_key, Pairing};
use super::pipeline::{stream_parts_while, PipelineOptions};
use super::shard_plan::ShardPlan;
use super::sink::{CheckSink, ControlFlow, RunError};
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

impl CheckItem {
    /// The packet's source, or the input that yielded none.
    pub fn source(&self) -> &Source {
        match self {
            CheckItem::Packet(check) => &check.summary.source,
            CheckItem::LoadError(error) => &error.source,
        }
    }
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

/// Whether a walked file is a golden manifest (or the pending goldens beside one) rather
/// than a packet.
pub fn is_manifest_file(path: &Path) -> bool {
    crate::golden::ManifestFile::is_named(path)
}

/// What a corpus run saw besides its results.
pub struct CorpusRun {
    pub items: Vec<WalkItem>,
    pub manifests: Manifests,
}

/// Which golden manifests a run compares against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestOptions {
    /// A manifest recorded under other conversion options is unusable, and reported: its
    /// digests would all differ for that reason alone (`check`, the inspector).
    MustMatch,
    /// Every manifest is read whatever options recorded it (`bless` records anew under the
    /// run's options and says what changed).
    AnyOptions,
}

/// One corpus check, configured as a builder (as ripgrep's `WalkBuilder`): the PATHs and the
/// check options, then the pipeline, the shard and the manifest rule where they differ from
/// the defaults, then [`CorpusCheck::run`] with a sink.
#[derive(Clone, Debug)]
pub struct CorpusCheck<'a> {
    paths: &'a [PathBuf],
    options: &'a CheckOptions,
    pipeline: PipelineOptions,
    manifests: ManifestOptions,
    shard: Option<Shard>,
}

impl<'a> CorpusCheck<'a> {
    /// Every packet under `paths`, on the default pipeline, against manifests recorded under
    /// the same options.
    pub fn new(paths: &'a [PathBuf], options: &'a CheckOptions) -> CorpusCheck<'a> {
        CorpusCheck {
            paths,
            options,
            pipeline: PipelineOptions::default(),
            manifests: ManifestOptions::MustMatch,
            shard: None,
        }
    }

    pub fn pipeline(mut self, pipeline: PipelineOptions) -> Self {
        self.pipeline = pipeline;
        self
    }

    pub fn manifests(mut self, manifests: ManifestOptions) -> Self {
        self.manifests = manifests;
        self
    }

    /// One shard of the walk (`None`: all of it). A manifest's load error belongs to the
    /// shard holding the first walked file of its directory, so the shards together report
    /// it once, in the place the unsharded run does. Pairing sees the whole walk: a raw
    /// packet pairs with its expected payloads whichever shard they fall in.
    pub fn shard(mut self, shard: Option<Shard>) -> Self {
        self.shard = shard;
        self
    }

    /// Runs the check; `sink` takes every result in walk order.
    pub fn run<S: CheckSink<CheckItem>>(
        self,
        sink: &mut S,
    ) -> Result<CorpusRun, RunError<S::Error>> {
        self.run_prepared(&|item| item, sink)
    }

    /// `run` with `prepare` applied to every result on the worker threads (rendering an
    /// output line there keeps the ordered, single-threaded sink short).
    pub fn run_prepared<T: Send, S: CheckSink<T>>(
        self,
        prepare: &(dyn Fn(CheckItem) -> T + Sync),
        sink: &mut S,
    ) -> Result<CorpusRun, RunError<S::Error>> {
        self.plan().run_prepared(prepare, sink)
    }

    /// Walks the PATHs and plans the shard, before anything is checked: what a face states
    /// ahead of the results (a shard's plan digest) is known then.
    pub fn plan(self) -> PlannedCheck<'a> {
        let walked = walk(self.paths, &self.options.walk);
        let plan = self.shard.map(|shard| ShardPlan::of_walk(shard, &walked));
        PlannedCheck {
            check: self,
            walked,
            plan,
        }
    }
}

/// A [`CorpusCheck`] walked and planned ([`CorpusCheck::plan`]), ready to run.
#[derive(Clone, Debug)]
pub struct PlannedCheck<'a> {
    check: CorpusCheck<'a>,
    walked: Vec<WalkItem>,
    /// `None`: no shard, the whole walk.
    plan: Option<ShardPlan>,
}

impl PlannedCheck<'_> {
    /// The shard plan's digest (`None` without a shard): shards that agree on it cover the
    /// walk exactly once between them.
    pub fn plan_digest(&self) -> Option<&str> {
        self.plan.as_ref().map(|plan| plan.digest.as_str())
    }

    /// [`CorpusCheck::run_prepared`] of the planned check.
    pub fn run_prepared<T: Send, S: CheckSink<T>>(
        self,
        prepare: &(dyn Fn(CheckItem) -> T + Sync),
        sink: &mut S,
    ) -> Result<CorpusRun, RunError<S::Error>> {
        run_checked(self, prepare, sink)
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

fn run_checked<T: Send, S: CheckSink<T>>(
    run: PlannedCheck<'_>,
    prepare: &(dyn Fn(CheckItem) -> T + Sync),
    sink: &mut S,
) -> Result<CorpusRun, RunError<S::Error>> {
    let PlannedCheck {
        check:
            CorpusCheck {
                paths,
                options,
                pipeline,
                manifests,
                shard: _,
            },
        walked,
        plan,
    } = run;
    // A shard's items, each once (a stream it holds a piece of included).
    let shard_items: Option<Vec<WalkItem>> = plan.as_ref().map(|plan| {
        plan.parts
            .iter()
            .map(|part| walked[part.item].clone())
            .collect()
    });
    // The items earlier shards took: those before this shard's first, and that one too when
    // this shard continues a stream an earlier one began.
    let earlier = match &plan {
        None => 0,
        Some(plan) => {
            let first = plan.parts.first().map_or(walked.len(), |part| part.item);
            first + usize::from(plan.starts_inside_a_stream())
        }
    };
    let earlier_dirs: HashSet<&Path> = walked[..earlier]
        .iter()
        .filter_map(|item| match item {
            WalkItem::File { path, .. } => Some(manifest_dir(path)),
            WalkItem::Error(_) => None,
        })
        .collect();
    let items: &[WalkItem] = shard_items.as_deref().unwrap_or(&walked);
    let (loaded, errors) = Manifests::load(
        items,
        &options.evaluate.conversion,
        manifests == ManifestOptions::MustMatch,
    );
    let listed = walked.iter().filter_map(|item| match item {
        WalkItem::File { path, .. } => Some(path.clone()),
        WalkItem::Error(_) => None,
    });
    let checker = Arc::new(PacketChecker {
        options: options.clone(),
        manifests: loaded,
        pairing: Pairing::new(listed),
        named: paths.iter().cloned().collect(),
    });
    sink.checker(&checker);
    // The first stop or error the sink answers ends the run; nothing is handed on after it.
    let mut ended: Option<Result<(), S::Error>> = None;
    let mut take = |item: T| -> bool {
        match sink.take(item) {
            Ok(ControlFlow::Continue(())) => true,
            Ok(ControlFlow::Break(())) => {
                ended = Some(Ok(()));
                false
            }
            Err(error) => {
                ended = Some(Err(error));
                false
            }
        }
    };
    let mut going = true;
    for error in errors {
        if earlier_dirs.contains(manifest_dir(&error.source.path)) {
            continue;
        }
        if !take(prepare(CheckItem::LoadError(error))) {
            going = false;
            break;
        }
    }
    if going {
        let parts: Box<dyn Iterator<Item = _> + Send> = match &plan {
            Some(plan) => Box::new(
                plan.parts
                    .iter()
                    .map(|part| (&walked[part.item], part.piece)),
            ),
            None => Box::new(walked.iter().map(|item| (item, None))),
        };
        stream_parts_while(
            parts,
            pipeline,
            &is_manifest_file,
            |item| {
                prepare(match item {
                    Err(error) => CheckItem::LoadError(error),
                    Ok(packet) => CheckItem::Packet(Box::new(checker.check(&packet))),
                })
            },
            &mut take,
        )
        .map_err(RunError::Start)?;
    }
    if let Some(Err(error)) = ended {
        return Err(RunError::Sink(error));
    }
    Ok(CorpusRun {
        items: shard_items.unwrap_or(walked),
        manifests: checker.manifests.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Collect;
    use crate::golden::{write_manifest, GoldenManifest};

    const POSITIVE: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;

    fn statuses(paths: &[PathBuf]) -> Vec<String> {
        let mut out = Vec::new();
        CorpusCheck::new(paths, &CheckOptions::default())
            .run(&mut Collect(|item| {
                out.push(match item {
                    CheckItem::Packet(check) => format!(
                        "{} {}",
                        check.summary.source.file_name().unwrap_or(""),
                        check.status.key()
                    ),
                    CheckItem::LoadError(error) => format!("load {}", error.reason),
                })
            }))
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
        CorpusCheck::new(&[dir.path().join("a.json")], &CheckOptions::default())
            .run(&mut Collect(|item| {
                if let CheckItem::Packet(check) = item {
                    recorded = check.recorded();
                }
            }))
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

    /// A stream long enough that stopping early shows: 40 batches of packets.
    fn long_stream(dir: &Path) -> PathBuf {
        let path = dir.join("long.ndjson");
        let line = format!("{POSITIVE}\n");
        std::fs::write(&path, line.repeat(40 * crate::corpus::BATCH_PACKETS)).unwrap();
        path
    }

    /// A sink that stops (or fails) at its first item.
    struct FirstOnly {
        fail: bool,
    }

    impl CheckSink<CheckItem> for FirstOnly {
        type Error = &'static str;
        fn take(&mut self, _item: CheckItem) -> Result<ControlFlow<()>, &'static str> {
            match self.fail {
                true => Err("the disk is full"),
                false => Ok(ControlFlow::Break(())),
            }
        }
    }

    #[test]
    fn a_sink_that_stops_ends_the_run_within_a_few_batches() {
        let dir = tempfile::tempdir().unwrap();
        let paths = [long_stream(dir.path())];
        for fail in [false, true] {
            let checked = std::sync::atomic::AtomicUsize::new(0);
            let prepare = |item: CheckItem| {
                checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                item
            };
            let outcome = CorpusCheck::new(&paths, &CheckOptions::default())
                .run_prepared(&prepare, &mut FirstOnly { fail });
            match (fail, outcome) {
                (false, Ok(_)) => {}
                (true, Err(RunError::Sink(error))) => assert_eq!(error, "the disk is full"),
                (fail, outcome) => panic!("fail {fail}: {:?}", outcome.err()),
            }
            // The batch being handed on, those mapped and read ahead, and the one each
            // thread holds: never the 40 batches of the whole stream.
            let checked = checked.into_inner();
            assert!(
                checked <= 12 * crate::corpus::BATCH_PACKETS,
                "fail {fail}: {checked} packets checked after the sink stopped at the first"
            );
        }
    }
}
