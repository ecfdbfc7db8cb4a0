//! A comparison that keeps only what `diff` shows ([`compare_changes`]) against the one that
//! keeps every pair ([`compare`]), on real streams.

use super::*;
use crate::corpus::{EvaluateOptions, PipelineOptions};
use std::io::BufRead;

/// The first `count` packets of the recorded mix, as NDJSON lines (not all of them UTF-8).
fn mix(count: usize) -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mix = std::fs::File::open(root.join("tests/data/oracle/a2a-mixed-20k.ndjson.gz")).unwrap();
    std::io::BufReader::new(flate2::read::GzDecoder::new(mix))
        .split(b'\n')
        .take(count)
        .map(Result::unwrap)
        .collect()
}

fn write(path: &Path, lines: &[Vec<u8>]) {
    let text: Vec<u8> = lines
        .iter()
        .flat_map(|line| line.iter().chain(b"\n"))
        .copied()
        .collect();
    std::fs::write(path, text).unwrap();
}

/// The first of `lines` from `from` on that holds `old`, with it replaced by `new` there.
fn edit(lines: &mut [Vec<u8>], from: usize, old: &str, new: &str) {
    let (at, found) = lines[from..]
        .iter()
        .enumerate()
        .find_map(|(at, line)| Some((from + at, memchr::memmem::find(line, old.as_bytes())?)))
        .unwrap();
    lines[at].splice(found..found + old.len(), new.bytes());
}

fn options() -> CompareOptions {
    CompareOptions::new(
        Mode::Strict,
        EvaluateOptions::default(),
        PipelineOptions::default(),
    )
}

/// What a face shows of a comparison: each side's count, the summary, and each pair that is
/// not unchanged with its sources and states, in order.
fn shown(comparison: &Comparison) -> (usize, usize, Summary, Vec<String>) {
    let source = |side: &Side, index: Option<u32>| {
        index.map(|index| side.source(&side.records[index as usize]).to_string())
    };
    let pairs = comparison
        .pairs
        .iter()
        .filter(|pair| pair.change != ChangeKind::Unchanged)
        .map(|pair| {
            format!(
                "{:?} {:?} {:?} {:?}",
                pair.change,
                source(&comparison.base, pair.base),
                source(&comparison.candidate, pair.candidate),
                comparison.states(pair)
            )
        })
        .collect();
    (
        comparison.base.packets,
        comparison.candidate.packets,
        comparison.summary,
        pairs,
    )
}

#[test]
fn keeping_only_the_gaps_gives_every_change_the_whole_comparison_gives() {
    let dir = tempfile::tempdir().unwrap();
    let base_lines = mix(600);
    // A line dropped, one added, one's agent renamed, one's task id changed, a line that is
    // not JSON, and a second packet changed far from the first.
    let mut candidate = base_lines.clone();
    candidate.remove(40);
    candidate.insert(120, base_lines[7].clone());
    edit(&mut candidate, 0, "\"agent://", "\"agent://changed-");
    edit(&mut candidate, 300, "\"task-", "\"task-other-");
    candidate.insert(450, b"{not json".to_vec());
    edit(&mut candidate, 580, "a", "b");
    let (base, changed) = (
        dir.path().join("base.ndjson"),
        dir.path().join("candidate.ndjson"),
    );
    write(&base, &base_lines);
    write(&changed, &candidate);
    let whole = compare(&base, &changed, &options()).unwrap();
    let kept = compare_changes(&base, &changed, &options()).unwrap();
    assert_eq!(shown(&kept), shown(&whole));
    assert!(
        kept.summary.changed >= 2 && kept.summary.added >= 2,
        "{:?}",
        kept.summary
    );
    // Only the packets in a gap keep a record, and no unchanged pair is kept.
    assert!(kept.base.records.len() < 20 && kept.candidate.records.len() < 20);
    assert!(kept
        .pairs
        .iter()
        .all(|pair| pair.change != ChangeKind::Unchanged));
    // A side against itself: nothing is read again.
    let same = compare_changes(&base, &base, &options()).unwrap();
    assert_eq!(
        shown(&same),
        shown(&compare(&base, &base, &options()).unwrap())
    );
    assert_eq!(same.summary.unchanged, 600);
}

#[test]
fn a_side_that_changed_before_its_gaps_were_read_again_is_not_compared() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ndjson");
    let lines = mix(50);
    write(&path, &lines);
    let mut side = read_side_keeping(&path, &options(), Keeping::FullKeys).unwrap();
    assert_eq!((side.packets, side.records.len()), (50, 0));
    let mut edited = lines.clone();
    edit(&mut edited, 10, "a", "b");
    write(&path, &edited);
    let gap = std::slice::from_ref(&(9..12));
    let error = side.read_gaps(gap, &options()).unwrap_err();
    assert!(
        error.reason.contains("changed while it was compared"),
        "{error}"
    );
    // Unchanged on disk, the same gap is read again into its records.
    write(&path, &lines);
    let mut side = read_side_keeping(&path, &options(), Keeping::FullKeys).unwrap();
    side.read_gaps(&[9..12, 40..41], &options()).unwrap();
    let lines: Vec<_> = side.records.iter().map(|record| record.line).collect();
    assert_eq!(lines, vec![10, 11, 12, 41]);
}
