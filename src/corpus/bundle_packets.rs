//! A bundle as the rest of the inspector sees it: one packet of kind `bundle` (its
//! verification report) and one packet of kind `event` per readable line, named
//! `BUNDLE:SEQ`, which every face (check, ls, explain, digest, the TUI) treats like any other
//! canonical evidence event.
//!
//! SEQ is the line's position in the first `events.ndjson` member, from 0: for a bundle that
//! verifies it is the event's `assayseq` (the verifier requires them contiguous from 0); for
//! a rejected one it is still a stable name for the line. Only lines that parse as JSON
//! objects become packets (spec §15: what an unverified open lists); the rest are covered by
//! the bundle's own finding.
//!
//! Library entry point for other faces: [`open_packets`] gives, for one bundle path,
//! - `report`: upstream's verdict (code, class, message, step, compared values), the §15
//!   counts and the A2A lint outcomes; `steps::outcomes(report.verdict.as_ref().map(|_| ()))`
//!   lists every check of §9 with pass / FAIL / not reached;
//! - `bundle`: what the reader kept: `manifest_text`, and `events` (every stored line with its
//!   terminator, and per line `LineFacts`: stored and recomputed content hash, type, seq);
//! - `packet` and `events`: the packets `check` sees (`check_packet` on each gives the
//!   same verdict as `check`); `reread_event` reads one line again.

use crate::bundle::{open_path, Bundle, BundleCache, BundleReport, EventLines, Limits};
use crate::packet::{LoadError, RawPacket, Source};
use std::path::Path;
use std::sync::Arc;

/// An opened bundle: the full reader's result (manifest bytes, every stored line with its
/// recomputed and stored hashes), its report, and its event packets in stored order.
pub struct BundlePackets {
    pub bundle: Bundle,
    pub report: Arc<BundleReport>,
    /// The packet of kind `bundle`: source is the bundle's path, bytes are its
    /// `manifest.json` (empty when none was read), `bundle` holds the report.
    pub packet: RawPacket,
    /// One packet per readable line, `BUNDLE:SEQ`; `offset` is SEQ (see `reread_event`).
    pub events: Vec<RawPacket>,
}

/// Opens a bundle file through the input layer and the given limits (nothing is extracted
/// to disk) and turns it into packets. `Err` only when the file cannot be opened at all; a
/// bundle that fails verification is `Ok`, with the failure in its report.
pub fn open_packets(path: &Path, limits: &Limits) -> Result<BundlePackets, LoadError> {
    let bundle = open_path(path, limits).map_err(|error| LoadError {
        source: Source::file(path),
        reason: error.reason(),
    })?;
    Ok(packets_of(path, bundle))
}

/// Turns an opened bundle into its report and packets.
pub fn packets_of(path: &Path, bundle: Bundle) -> BundlePackets {
    let (report, packet) = report_of(path, &bundle);
    let events = event_packets(path, &bundle, &report).collect();
    BundlePackets {
        bundle,
        report,
        packet,
        events,
    }
}

/// The event packets of an opened bundle, one at a time in stored order (each a copy of its
/// line): what a reader that hands packets on as it goes uses, so that a 100,000-event
/// bundle's lines are not held twice (once in the bundle, once in the packets) at the peak.
/// Each packet carries the bundle's report (`in_bundle`).
pub fn event_packets<'b>(
    path: &Path,
    bundle: &'b Bundle,
    report: &Arc<BundleReport>,
) -> impl Iterator<Item = RawPacket> + 'b {
    let shared: Arc<Path> = Arc::from(path);
    let report = Arc::clone(report);
    let lines = bundle.events.as_ref();
    let count = lines.map_or(0, EventLines::len);
    (0..count).filter_map(move |position| {
        let lines = lines?;
        // Only lines that parse as JSON objects (the verifier's facts say which).
        lines.facts.get(position).filter(|facts| facts.object)?;
        let mut packet = event_packet(&shared, position, lines.content(position).to_vec());
        packet.in_bundle = Some(Arc::clone(&report));
        Some(packet)
    })
}

/// An opened bundle's report and its own packet (kind `bundle`).
pub(crate) fn report_of(path: &Path, bundle: &Bundle) -> (Arc<BundleReport>, RawPacket) {
    let report = Arc::new(BundleReport::of(bundle));
    let packet = RawPacket {
        source: Source::file(path),
        offset: 0,
        bytes: bundle.manifest_text.clone().unwrap_or_default(),
        bundle: Some(report.clone()),
        in_bundle: None,
    };
    (report, packet)
}

fn event_packet(path: &Arc<Path>, position: usize, bytes: Vec<u8>) -> RawPacket {
    RawPacket {
        source: Source::line(path.clone(), position),
        offset: position as u64,
        bytes,
        bundle: None,
        in_bundle: None,
    }
}

/// The event packet SEQ of an opened bundle, or why there is none.
pub fn take_event(opened: BundlePackets, seq: usize) -> Result<RawPacket, LoadError> {
    let lines = opened.report.lines;
    let path = opened.packet.source.path.clone();
    opened
        .events
        .into_iter()
        .find(|event| event.source.line == Some(seq))
        .ok_or_else(|| LoadError {
            source: Source::line(path, seq),
            reason: format!(
                "no readable event {seq} in this bundle ({lines} event line(s); SEQ counts from 0)"
            ),
        })
}

/// Reads one event line of a bundle again: what a view does to show a packet it did not
/// keep. The bundle is opened (and verified) only when `bundles` does not keep it already,
/// so a view stepping through a bundle's events opens it once, not once per event.
pub fn reread_event(
    bundles: &BundleCache,
    path: &Path,
    seq: usize,
    limits: &Limits,
) -> Result<Vec<u8>, LoadError> {
    let fail = |reason: String| LoadError {
        source: Source::line(Arc::from(path), seq),
        reason,
    };
    let bundle = bundles
        .open(path, limits)
        .map_err(|error| fail(error.reason()))?;
    let lines = bundle
        .events
        .as_ref()
        .ok_or_else(|| fail("no events.ndjson member could be read".to_owned()))?;
    if seq >= lines.len() {
        return Err(fail(format!(
            "the bundle has {} event line(s), no line {seq}",
            lines.len()
        )));
    }
    Ok(lines.content(seq).to_vec())
}

/// The bytes of a bundle's own packet (its `manifest.json`, empty when none was read), as
/// `open_packets` gives them, through `bundles` as `reread_event`.
pub fn reread_manifest(
    bundles: &BundleCache,
    path: &Path,
    limits: &Limits,
) -> Result<Vec<u8>, LoadError> {
    let bundle = bundles.open(path, limits).map_err(|error| LoadError {
        source: Source::file(path),
        reason: error.reason(),
    })?;
    Ok(bundle.manifest_text.clone().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::is_bundle_path;
    use crate::bundle::lint_table::LintPacks;
    use serde_json::Value;

    fn data(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/bundles")
            .join(name)
    }

    #[test]
    fn a_valid_bundle_gives_one_packet_per_event_named_by_seq() {
        let opened = open_packets(&data("valid-02-two-events.tar.gz"), &Limits::default()).unwrap();
        assert!(opened.report.is_valid());
        assert_eq!(
            opened.report.run_root(),
            Some("sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb")
        );
        let names: Vec<String> = opened
            .events
            .iter()
            .map(|packet| packet.source.to_string())
            .collect();
        let base = data("valid-02-two-events.tar.gz").display().to_string();
        assert_eq!(names, vec![format!("{base}:0"), format!("{base}:1")]);
        assert!(opened.packet.bundle.is_some());
        assert_eq!(opened.report.verdict_key(), "valid");
        let bundles = BundleCache::default();
        let path = data("valid-02-two-events.tar.gz");
        let again = reread_event(&bundles, &path, 1, &Limits::default()).unwrap();
        assert_eq!(again, opened.events[1].bytes);
        assert_eq!(
            reread_event(&bundles, &path, 0, &Limits::default()).unwrap(),
            opened.events[0].bytes
        );
        assert!(reread_event(&bundles, &path, 2, &Limits::default()).is_err());
        assert_eq!(
            reread_manifest(&bundles, &path, &Limits::default()).unwrap(),
            opened.packet.bytes
        );
        // Every read above came from one open of the bundle.
        assert_eq!(bundles.opens(), 1);
    }

    #[test]
    fn a_rejected_bundle_still_lists_its_readable_events() {
        let opened = open_packets(
            &data("bad-events-edited-no-rehash.tar.gz"),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(opened.report.verdict_key(), "IntegrityEventHash");
        assert!(!opened.events.is_empty());
        assert_eq!(opened.report.event_count, Some(opened.events.len() as u64));
        let truncated =
            open_packets(&data("bad-gzip-truncated-half.tar.gz"), &Limits::default()).unwrap();
        assert!(!truncated.report.is_valid());
        assert!(open_packets(&data("no-such.tar.gz"), &Limits::default()).is_err());
    }

    /// The lint rules from the verifier's facts are the rules evaluated on each readable
    /// line parsed again with serde_json (what `packets_of` did before it reused the facts),
    /// for every bundle of the test set, valid and rejected.
    #[test]
    fn lint_from_the_verifiers_facts_equals_lint_from_a_fresh_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if !is_bundle_path(&path) {
                continue;
            }
            let opened = open_packets(&path, &Limits::default()).unwrap();
            let mut fresh = LintPacks::default();
            for event in &opened.events {
                let value: Value = serde_json::from_slice(&event.bytes).unwrap();
                fresh.add(event.offset as usize, &value);
            }
            assert_eq!(opened.report.lint, fresh.finish(), "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 10);
    }

    #[test]
    fn bundle_paths_by_name() {
        assert!(is_bundle_path(Path::new("d/x.tar.gz")));
        assert!(is_bundle_path(Path::new("x.tgz")));
        assert!(!is_bundle_path(Path::new("x.gz")));
        assert!(!is_bundle_path(Path::new("x.json")));
    }
}
