//! Who answers the reads the inspector asks for (`state::reads`): a packet's detail read
//! again from its file, a search through the listed packets' text. The runtime's threads
//! call it; the headless driver on its own thread.

use crate::a2a::Mode;
use crate::bundle::BundleCache;
use crate::corpus::{
    detail_with_bundle, reread_packet_in, CheckOptions, RawPacket, Source, DEFAULT_MAX_FILE_BYTES,
};
use crate::golden::{GoldenEntry, ManifestIndex};
use crate::tui::state::reads::{
    AttestationShown, DetailAnswer, DetailRequest, SearchEvent, SearchRequest,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The entry `index` records for `source`, read from its file.
fn entry_in(index: &ManifestIndex, source: &Source) -> Result<Option<GoldenEntry>, String> {
    let (dir, key) = crate::corpus::manifest_key(source);
    index.entry(&key).map_err(|error| {
        format!(
            "{}: cannot read the entry for {key}: {error}",
            crate::golden::manifest_path(&dir).display()
        )
    })
}

/// How often a running search reports, in packets.
const SEARCH_REPORT_EVERY: usize = 8192;

/// A directory's golden manifest indexed on disk (`None`: there is none), or why not. The
/// index notes where each entry lies (24 bytes a packet) and reads one back when asked: a
/// million-line directory's 646 MB manifest is never held as a tree.
type CachedManifest = Result<Option<Arc<ManifestIndex>>, String>;

/// Answers reads. It keeps what it read for the current load (manifests by directory, opened
/// bundles) so that stepping through a directory or a bundle reads each once; it is shared by
/// the detail thread and the search threads.
#[derive(Default)]
pub struct Reader {
    options: CheckOptions,
    epoch: AtomicU64,
    manifests: Mutex<HashMap<PathBuf, CachedManifest>>,
    bundles: BundleCache,
}

impl Reader {
    /// The options the packets were loaded with.
    pub fn options(&self) -> &CheckOptions {
        &self.options
    }

    pub fn new(options: CheckOptions) -> Reader {
        Reader {
            options,
            ..Default::default()
        }
    }

    /// The bundles this reader opened (tests count how often).
    pub fn bundles(&self) -> &BundleCache {
        &self.bundles
    }

    /// Forgets what was read for an older load.
    fn enter_epoch(&self, epoch: u64) {
        if self.epoch.swap(epoch, Ordering::SeqCst) != epoch {
            self.manifests_lock().clear();
            self.bundles.clear();
        }
    }

    fn manifests_lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, CachedManifest>> {
        // A thread that panicked while holding the lock left a map that is still whole.
        self.manifests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads the selected packet's detail.
    pub fn detail(&self, request: DetailRequest) -> DetailAnswer {
        self.enter_epoch(request.epoch);
        let source = &request.source;
        let expected =
            Mode::BOTH.map(|mode| crate::tui::runtime::pairing::expected_payload(source, mode));
        // The run's own index when it has one (the manifest is not scanned again).
        let golden = match request
            .checker
            .as_ref()
            .and_then(|checker| checker.manifest_of(source))
        {
            Some(index) => entry_in(index, source),
            None => self.golden_entry(source),
        };
        let bundle = request
            .bundle
            .is_some()
            .then(|| self.inspect_bundle(&source.path));
        let attestation = request
            .bundle
            .as_ref()
            .filter(|_| !self.options.trusted_keys.is_empty())
            .map(|_| self.judge_attestation(&source.path));
        let mut check = None;
        let result = reread_packet_in(
            source,
            request.offset,
            DEFAULT_MAX_FILE_BYTES,
            &self.bundles,
        )
        .map_err(|error| error.reason)
        .map(|bytes| {
            let packet = RawPacket {
                source: source.clone(),
                offset: request.offset,
                bytes,
                bundle: request.bundle.clone(),
                in_bundle: request.in_bundle.clone(),
            };
            check = request
                .checker
                .as_ref()
                .map(|checker| Box::new(checker.check(&packet)));
            detail_with_bundle(
                packet.source,
                packet.bytes,
                &self.options.evaluate,
                request.bundle.as_deref(),
            )
        });
        DetailAnswer {
            generation: request.generation,
            packet: request.packet,
            result,
            check,
            expected,
            golden,
            bundle,
            attestation,
        }
    }

    /// The attestation beside a bundle, judged against the trusted keys.
    fn judge_attestation(&self, path: &Path) -> AttestationShown {
        use crate::bundle::attest::judge_bundle_file;
        use crate::report::attestation_text::{attestation_lines, state_name};
        let keys = &self.options.trusted_keys;
        let judged = judge_bundle_file(path, None, keys);
        AttestationShown {
            state: state_name(&judged),
            refused: judged.is_refused(),
            lines: attestation_lines(&judged, keys),
        }
    }

    /// The golden entry recorded for `source`, indexing its manifest once per load (the
    /// index `check` reads entries through).
    fn golden_entry(&self, source: &Source) -> Result<Option<GoldenEntry>, String> {
        let (dir, _) = crate::corpus::manifest_key(source);
        let cached = self.manifests_lock().get(&dir).cloned();
        let manifest = match cached {
            Some(manifest) => manifest,
            None => {
                let read = ManifestIndex::open(&dir)
                    .map(|manifest| manifest.map(Arc::new))
                    .map_err(|error| {
                        format!("{}: {error}", crate::golden::manifest_path(&dir).display())
                    });
                self.manifests_lock().insert(dir, read.clone());
                read
            }
        }?;
        match manifest {
            None => Ok(None),
            Some(manifest) => entry_in(&manifest, source),
        }
    }

    /// What the Bundle view compares, from the bundle opened through upstream's limits.
    fn inspect_bundle(
        &self,
        path: &Path,
    ) -> Result<Arc<crate::bundle::inspect::Inspection>, String> {
        let bundle = self
            .bundles
            .open(path, &crate::bundle::Limits::default())
            .map_err(|error| error.reason())?;
        Ok(Arc::new(crate::bundle::inspect::inspect(&bundle)))
    }

    /// Runs a search, reporting through `report` every few thousand packets and at the end;
    /// stops (without a `Done`) as soon as `current` says the search was superseded or
    /// cancelled, or `report` returns false.
    pub fn search(
        &self,
        request: &SearchRequest,
        current: &dyn Fn() -> bool,
        report: &mut dyn FnMut(SearchEvent) -> bool,
    ) {
        let mut matches = Vec::new();
        for (scanned, (index, source, offset)) in request.order().enumerate() {
            if scanned % SEARCH_REPORT_EVERY == 0 && scanned > 0 {
                if !current() {
                    return;
                }
                let progress = SearchEvent::Progress {
                    scanned,
                    matches: matches.len(),
                    first: matches.first().copied(),
                };
                if !report(progress) {
                    return;
                }
            }
            if self.matches(source, offset, &request.needle) {
                matches.push(index);
                // The first match is what Enter selects: say so at once, not at the next report.
                if matches.len() == 1 {
                    let found = SearchEvent::Progress {
                        scanned: scanned + 1,
                        matches: 1,
                        first: Some(index),
                    };
                    if !current() || !report(found) {
                        return;
                    }
                }
            }
        }
        if current() {
            report(SearchEvent::Done { matches });
        }
    }

    /// Whether the packet's name or text contains `needle` (lower-cased). A bundle's events
    /// come from the bundle as the reader keeps it: a search through a 100,000-event bundle
    /// opens it once.
    fn matches(&self, source: &Source, offset: u64, needle: &str) -> bool {
        if source.to_string().to_lowercase().contains(needle) {
            return true;
        }
        match reread_packet_in(source, offset, DEFAULT_MAX_FILE_BYTES, &self.bundles) {
            Ok(bytes) => String::from_utf8_lossy(&bytes)
                .to_lowercase()
                .contains(needle),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::state::app::{App, ListedPacket};
    use crate::tui::state::reads::Read;
    use crate::tui::update::{update, Action, Effect};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn loaded(root: &str) -> (App, Reader) {
        let reader = Reader::new(CheckOptions::default());
        let mut app = App::new(vec![PathBuf::from(root)], CheckOptions::default(), false);
        crate::tui::runtime::drive::load_blocking(&mut app, &reader);
        (app, reader)
    }

    fn key(c: char) -> Action {
        Action::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    #[test]
    fn a_new_selection_asks_for_its_detail_and_takes_only_the_latest_answer() {
        let (mut app, reader) = loaded("fixtures/a2a");
        let effects = update(&mut app, key('j'));
        let [Effect::Read(Read::Detail(first))] = effects.as_slice() else {
            panic!("expected one detail read, got {effects:?}");
        };
        assert!(app.selected_detail().is_none(), "nothing is read in update");
        let effects = update(&mut app, key('j'));
        let [Effect::Read(Read::Detail(second))] = effects.as_slice() else {
            panic!("expected one detail read, got {effects:?}");
        };
        // The answer to the first request arrives late: it is not shown for the second packet.
        let stale = reader.detail(first.clone());
        update(&mut app, Action::Detail(Box::new(stale)));
        assert!(app.selected_detail().is_none());
        let answer = reader.detail(second.clone());
        update(&mut app, Action::Detail(Box::new(answer)));
        let shown = app.selected_detail().map(|detail| detail.source.clone());
        assert_eq!(shown.as_ref(), Some(&second.source));
    }

    #[test]
    fn a_search_reports_progress_and_its_matches_in_order() {
        let (app, reader) = loaded("fixtures/a2a");
        let request = SearchRequest {
            generation: 1,
            needle: "agent://worker".to_owned(),
            packets: app.packets.clone(),
            listed: app.list.listed.clone(),
            start: 0,
        };
        let mut events = Vec::new();
        reader.search(&request, &|| true, &mut |event| {
            events.push(event);
            true
        });
        let Some(SearchEvent::Done { matches }) = events.last() else {
            panic!("no end: {events:?}");
        };
        assert!(matches.len() > 1, "{matches:?}");
        assert!(events.contains(&SearchEvent::Progress {
            scanned: request
                .order()
                .position(|(index, ..)| index == matches[0])
                .unwrap()
                + 1,
            matches: 1,
            first: Some(matches[0]),
        }));
        // A superseded search stops without an end.
        let mut ended = false;
        reader.search(&request, &|| false, &mut |event| {
            ended |= matches!(event, SearchEvent::Done { .. });
            true
        });
        assert!(!ended);
    }

    /// One verdict: the selected packet's check, made again for its detail, is the check its
    /// load made (status, each mode's, the findings' kinds), for every packet of every fixture
    /// (bundles and their events, profiles, goldens that differ included).
    #[test]
    fn the_detail_checks_every_packet_as_its_load_did() {
        let (app, reader) = loaded("fixtures");
        assert!(app.packets.len() > 100, "{}", app.packets.len());
        for (index, listed) in app.packets.iter().enumerate() {
            let answer = reader.detail(app.detail_request(index, 1));
            let check = answer.check.expect("a check for every packet read again");
            let relisted = ListedPacket::new(&check, &listed.checker);
            assert_eq!(check.summary.source, listed.source);
            assert_eq!(
                (relisted.status, relisted.modes, relisted.kind),
                (listed.status, listed.modes, listed.kind),
                "{}",
                listed.source
            );
            for kind in crate::corpus::FindingKind::ALL {
                assert_eq!(
                    relisted.has_finding(kind),
                    listed.has_finding(kind),
                    "{} {kind:?}",
                    listed.source
                );
            }
        }
    }

    /// The state's modules ask for reads; none of them reads. A reading call slipped into
    /// one of them fails here.
    #[test]
    fn the_state_modules_call_no_reading_function() {
        let readers = [
            "std::fs",
            "File::open",
            "read_file",
            "reread_packet",
            "read_manifest",
            "pairing::",
            "BundleCache",
            "CorpusCheck",
        ];
        // Every file of the two layers below the runtime.
        let mut files = Vec::new();
        for layer in ["src/tui/state", "src/tui/update"] {
            for entry in std::fs::read_dir(layer).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|extension| extension == "rs") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 10, "{files:?}");
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            for reader in readers {
                assert!(!text.contains(reader), "{} calls {reader}", path.display());
            }
        }
    }
}
