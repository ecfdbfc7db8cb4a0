//! The one line-diff model: a diff of two texts as [`DiffLine`]s (tag, line numbers on each
//! side, terminal-safe text), grouped in hunks with context ([`text_hunks`], streamed by
//! [`with_text_lines`] / [`with_text_hunk_lines`]) or whole ([`all_lines`]). Presentations
//! draw over it: unified text ([`write_unified`]: golden diffs, migration diffs), the
//! migrate trace, the inspector's Migrate tab and Digests tab (unified and side by side).
//!
//! Diffs have a time bound. Myers' algorithm costs O((N+M)·D): two large texts that differ
//! everywhere (a 120 KB file whose every line a migration step changes, two unrelated paired
//! payloads) take seconds to minutes. Past the bound `similar` stops refining and reports the
//! rest as replaced lines: still a correct diff, only a coarser one.

use super::safe_text;
use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};
use std::time::Duration;

/// How long one diff may refine before it settles for a coarser answer. Ordinary packets
/// finish in well under a millisecond, so only pathological inputs ever reach it.
pub const LINE_DIFF_TIMEOUT: Duration = Duration::from_millis(250);

/// `TextDiff::from_lines` with the time bound.
pub fn bounded_line_diff<'a>(old: &'a str, new: &'a str) -> TextDiff<'a, 'a, 'a, str> {
    TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(LINE_DIFF_TIMEOUT)
        .diff_lines(old, new)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineTag {
    Same,
    Removed,
    Added,
}

impl LineTag {
    pub fn sign(self) -> char {
        match self {
            LineTag::Same => ' ',
            LineTag::Removed => '-',
            LineTag::Added => '+',
        }
    }
}

/// One line of a diff, with its 1-based line numbers on each side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    pub tag: LineTag,
    pub old_line: Option<usize>,
    pub new_line: Option<usize>,
    /// The JSON text of the line, without its newline, made terminal-safe.
    pub text: String,
}

/// Groups of changed lines with `context` unchanged lines around them, of two texts (for
/// JSON, their canonical pretty forms). The lines both texts start and end with, beyond the
/// `context` shown, are cut off before diffing: a step usually changes a few lines of a big
/// document, and the diff's memory and time then follow the changed region, not the document.
pub fn text_hunks(old: &str, new: &str, context: usize) -> Vec<Vec<DiffLine>> {
    with_text_hunk_lines(old, new, context, |lines| {
        let mut hunks: Vec<Vec<DiffLine>> = Vec::new();
        for (starts_hunk, line) in lines {
            match hunks.last_mut() {
                Some(hunk) if !starts_hunk => hunk.push(line),
                _ => hunks.push(vec![line]),
            }
        }
        hunks
    })
}

/// The lines of [`text_hunks`], one hunk after the other, handed to `use_lines` one at a time
/// instead of collected: a step that re-indents a whole document (wrapping it in another
/// object) changes every line, and its diff is then as long as the document twice.
pub fn with_text_lines<R>(
    old: &str,
    new: &str,
    context: usize,
    use_lines: impl FnOnce(&mut dyn Iterator<Item = DiffLine>) -> R,
) -> R {
    with_text_hunk_lines(old, new, context, |lines| {
        use_lines(&mut lines.map(|(_, line)| line))
    })
}

/// [`with_text_lines`], each line paired with whether it starts a hunk other than the first
/// (where a view puts its `⋯`).
pub fn with_text_hunk_lines<R>(
    old: &str,
    new: &str,
    context: usize,
    use_lines: impl FnOnce(&mut dyn Iterator<Item = (bool, DiffLine)>) -> R,
) -> R {
    let (skipped, old_rest, new_rest) = trim_common(old, new, context);
    let diff = bounded_line_diff(old_rest, new_rest);
    let groups = diff.grouped_ops(context);
    let diff = &diff;
    let last = groups.len().saturating_sub(1);
    let cut = CutEnds::of(old, old_rest, new_rest, skipped);
    let mut lines = groups.iter().enumerate().flat_map(|(hunk, ops)| {
        // The kept common lines can be aligned inside the changes (a run of equal lines is
        // ambiguous): the context they stood for then comes from the lines cut off.
        let (before, after) = cut.context_missing(ops, diff, context, hunk == 0, hunk == last);
        before
            .into_iter()
            .chain(
                ops.iter()
                    .flat_map(move |op| diff.iter_changes(op))
                    .map(move |change| diff_line(skipped, &change)),
            )
            .chain(after)
            .enumerate()
            .map(move |(at, line)| (hunk > 0 && at == 0, line))
    });
    use_lines(&mut lines)
}

/// The common lines `trim_common` cut from both ends, for the context a hunk at either end
/// still needs.
struct CutEnds<'a> {
    front: &'a str,
    back: &'a str,
    /// Lines cut from the front (the first kept line's number is this + 1).
    skipped: usize,
    old_lines: usize,
    new_lines: usize,
}

impl<'a> CutEnds<'a> {
    fn of(old: &'a str, old_rest: &'a str, new_rest: &'a str, skipped: usize) -> CutEnds<'a> {
        // `old_rest` is a slice of `old`: what lies before and after it was cut.
        let start = old_rest.as_ptr() as usize - old.as_ptr() as usize;
        CutEnds {
            front: &old[..start],
            back: &old[start + old_rest.len()..],
            skipped,
            old_lines: old_rest.split_inclusive('\n').count(),
            new_lines: new_rest.split_inclusive('\n').count(),
        }
    }

    /// The Same lines to put before the first hunk and after the last one so that each has
    /// `context` lines of context where the cut ends have them.
    fn context_missing(
        &self,
        ops: &[similar::DiffOp],
        diff: &TextDiff<'_, '_, '_, str>,
        context: usize,
        first: bool,
        last: bool,
    ) -> (Vec<DiffLine>, Vec<DiffLine>) {
        let equal_len = |op: Option<&similar::DiffOp>| match op {
            Some(similar::DiffOp::Equal { len, .. }) => *len,
            _ => 0,
        };
        let mut before = Vec::new();
        let mut after = Vec::new();
        // Where the group reaches on each side (an insert's `old_index` is not where it ends
        // on the old side, so the reach is taken over every op).
        let reach = |side: fn(&similar::DiffOp) -> std::ops::Range<usize>| {
            let starts = ops.iter().map(|op| side(op).start).min();
            let ends = ops.iter().map(|op| side(op).end).max();
            (starts, ends)
        };
        let (old_reach, new_reach) = (
            reach(similar::DiffOp::old_range),
            reach(similar::DiffOp::new_range),
        );
        let at_start = old_reach.0 == Some(0) && new_reach.0 == Some(0);
        if first && at_start {
            let want = context.saturating_sub(equal_len(ops.first()));
            let lines: Vec<&str> = self.front.split_inclusive('\n').collect();
            let from = lines.len().saturating_sub(want);
            before = lines[from..]
                .iter()
                .enumerate()
                .map(|(at, text)| same_line(from + at + 1, from + at + 1, text))
                .collect();
        }
        let at_end = old_reach.1 == Some(diff.old_slices().len())
            && new_reach.1 == Some(diff.new_slices().len());
        if last && at_end {
            let want = context.saturating_sub(equal_len(ops.last()));
            after = self
                .back
                .split_inclusive('\n')
                .take(want)
                .enumerate()
                .map(|(at, text)| {
                    same_line(
                        self.skipped + self.old_lines + at + 1,
                        self.skipped + self.new_lines + at + 1,
                        text,
                    )
                })
                .collect();
        }
        (before, after)
    }
}

fn same_line(old_line: usize, new_line: usize, text: &str) -> DiffLine {
    DiffLine {
        tag: LineTag::Same,
        old_line: Some(old_line),
        new_line: Some(new_line),
        text: safe_text(text.trim_end_matches('\n')).into_owned(),
    }
}

fn diff_line(skipped: usize, change: &similar::Change<&str>) -> DiffLine {
    DiffLine {
        tag: match change.tag() {
            ChangeTag::Equal => LineTag::Same,
            ChangeTag::Delete => LineTag::Removed,
            ChangeTag::Insert => LineTag::Added,
        },
        old_line: change.old_index().map(|index| skipped + index + 1),
        new_line: change.new_index().map(|index| skipped + index + 1),
        text: safe_text(change.value().trim_end_matches('\n')).into_owned(),
    }
}

/// Cuts the common leading and trailing lines of `old` and `new`, keeping `keep` of each next
/// to the changes; returns how many leading lines were cut and the rest of both texts.
fn trim_common<'a>(old: &'a str, new: &'a str, keep: usize) -> (usize, &'a str, &'a str) {
    let common_front = old
        .split_inclusive('\n')
        .zip(new.split_inclusive('\n'))
        .take_while(|(a, b)| a == b)
        .count();
    let cut_front = common_front.saturating_sub(keep);
    // Those lines are equal in both texts, so they span the same bytes in both.
    let front_bytes: usize = old
        .split_inclusive('\n')
        .take(cut_front)
        .map(str::len)
        .sum();
    let (mut old_rest, mut new_rest) = (&old[front_bytes..], &new[front_bytes..]);
    // Common trailing lines, never counting a line already counted as common at the front.
    let front_left = common_front - cut_front;
    let (mut lines_old, mut lines_new) = (
        old_rest.split_inclusive('\n').count(),
        new_rest.split_inclusive('\n').count(),
    );
    let (mut a, mut b) = (old_rest, new_rest);
    let mut common_back: usize = 0;
    while lines_old > front_left && lines_new > front_left {
        let (head_a, last_a) = split_last_line(a);
        let (head_b, last_b) = split_last_line(b);
        if last_a != last_b {
            break;
        }
        (a, b) = (head_a, head_b);
        lines_old -= 1;
        lines_new -= 1;
        common_back += 1;
    }
    for _ in 0..common_back.saturating_sub(keep) {
        old_rest = split_last_line(old_rest).0;
        new_rest = split_last_line(new_rest).0;
    }
    (cut_front, old_rest, new_rest)
}

/// The text before its last line, and its last line (with its newline, if any).
fn split_last_line(text: &str) -> (&str, &str) {
    let body = text.strip_suffix('\n').unwrap_or(text);
    match body.rfind('\n') {
        Some(at) => text.split_at(at + 1),
        None => ("", text),
    }
}

/// Every line of both texts in order, each marked (for a view that scrolls the whole
/// document; no grouping, no context cut).
pub fn all_lines(old: &str, new: &str) -> Vec<DiffLine> {
    let diff = bounded_line_diff(old, new);
    diff.iter_all_changes()
        .map(|change| diff_line(0, &change))
        .collect()
}

/// Writes hunks as unified-diff text: per hunk a `@@ -a,b +c,d @@` header as GNU diff (and
/// `similar`) write it (a one-line range without `,1`; an empty one as the line before it,
/// `,0`), then ` `, `-`, `+` lines, each ending in a newline. For hunks with context (one
/// line or more: where a side has no line in a hunk, its text is empty); lines are assumed to
/// end in a newline in their texts (no "No newline at end of file" marker is written).
pub fn write_unified<'a>(hunks: impl IntoIterator<Item = &'a [DiffLine]>, out: &mut String) {
    for hunk in hunks {
        let range = |numbers: &mut dyn Iterator<Item = usize>| {
            let first = numbers.next();
            let count = first.map_or(0, |_| 1 + numbers.count());
            match (first, count) {
                (Some(first), 1) => first.to_string(),
                (Some(first), count) => format!("{first},{count}"),
                // Only an empty text gives a hunk no line of a side (context lines are on both).
                (None, _) => "0,0".to_owned(),
            }
        };
        let old = range(&mut hunk.iter().filter_map(|line| line.old_line));
        let new = range(&mut hunk.iter().filter_map(|line| line.new_line));
        out.push_str(&format!("@@ -{old} +{new} @@\n"));
        for line in hunk {
            out.push(line.tag.sign());
            out.push_str(&line.text);
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn trimming_the_common_ends_keeps_what_context_needs() {
        assert_eq!(trim_common("a\nb\n", "a\nb\n", 0), (2, "", ""));
        assert_eq!(trim_common("a\nb\nc", "a\nx\nc", 0), (1, "b\n", "x\n"));
    }

    /// Unified text over the model, as `similar` writes it for the whole texts.
    fn similar_unified(old: &str, new: &str, context: usize) -> String {
        bounded_line_diff(old, new)
            .unified_diff()
            .context_radius(context)
            .to_string()
    }

    fn model_unified(old: &str, new: &str, context: usize) -> String {
        let hunks = text_hunks(old, new, context);
        let mut out = String::new();
        write_unified(hunks.iter().map(Vec::as_slice), &mut out);
        out
    }

    #[test]
    fn unified_headers_are_gnu_style() {
        assert_eq!(model_unified("a\n", "b\n", 2), "@@ -1 +1 @@\n-a\n+b\n");
        assert_eq!(
            model_unified("a\nb\nc\n", "a\nc\n", 1),
            "@@ -1,3 +1,2 @@\n a\n-b\n c\n"
        );
        assert_eq!(model_unified("", "x\n", 2), "@@ -0,0 +1 @@\n+x\n");
        assert_eq!(model_unified("same\n", "same\n", 2), "");
    }

    /// A unified text's hunks: (old count, new count) from each header, and the line counts
    /// of each side below it.
    fn header_and_body_counts(text: &str) -> Vec<((usize, usize), (usize, usize))> {
        let count = |range: &str| match range.split_once(',') {
            Some((_, count)) => count.parse::<usize>().unwrap(),
            None => 1,
        };
        let mut hunks = Vec::new();
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("@@ -") {
                let (old, rest) = header.split_once(" +").unwrap();
                let new = rest.trim_end_matches(" @@");
                hunks.push(((count(old), count(new)), (0, 0)));
            } else if let Some((_, body)) = hunks.last_mut() {
                match line.chars().next() {
                    Some('-') => body.0 += 1,
                    Some('+') => body.1 += 1,
                    _ => (body.0 += 1, body.1 += 1).1,
                }
            }
        }
        hunks
    }

    proptest! {
        /// Every header counts the lines below it, whatever the texts (lines from a small
        /// alphabet, repeated and empty, where alignments are most ambiguous).
        #[test]
        fn unified_headers_count_their_lines(
            old in prop::collection::vec("[abc]{0,2}", 0..30),
            new in prop::collection::vec("[abc]{0,2}", 0..30),
            context in 1usize..4,
        ) {
            let old: String = old.iter().map(|line| format!("{line}\n")).collect();
            let new: String = new.iter().map(|line| format!("{line}\n")).collect();
            let ours = model_unified(&old, &new, context);
            let counts = header_and_body_counts(&ours);
            prop_assert!(counts.iter().all(|(header, body)| header == body), "{}", ours);
        }
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            (0u8..4).prop_map(|n| serde_json::json!(n)),
            "[ab]{0,2}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::Array),
                prop::collection::btree_map("[abc]", inner, 0..5)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]
        /// On canonical pretty JSON (what every caller diffs) the model's unified text is
        /// `similar`'s unified diff of the whole texts, byte for byte, though the model cuts
        /// the common ends first. (On texts of repeated short or empty lines the two can align
        /// ambiguous runs differently; both are correct diffs.)
        #[test]
        fn unified_text_equals_similars_on_json(
            a in json_value(),
            b in json_value(),
            shared in json_value(),
            context in 1usize..4,
        ) {
            let pretty = |value: &serde_json::Value| crate::json::canonical_pretty(value) + "\n";
            // Unrelated documents, and documents that share most of their lines.
            for (old, new) in [
                (pretty(&a), pretty(&b)),
                (
                    pretty(&serde_json::json!({"k": shared, "m": a, "z": shared})),
                    pretty(&serde_json::json!({"k": shared, "m": b, "z": shared})),
                ),
            ] {
                prop_assert_eq!(model_unified(&old, &new, context), similar_unified(&old, &new, context));
            }
        }
    }

    /// Runs of equal lines the trimmed diff can align inside the change (cases the property
    /// found): each hunk still gets the context `similar` gives the whole texts.
    #[test]
    fn ambiguous_runs_next_to_the_cut_ends_keep_their_context() {
        let pretty = |value: serde_json::Value| crate::json::canonical_pretty(&value) + "\n";
        for (old, new) in [
            (
                serde_json::json!([false, null, null]),
                serde_json::json!([null, null, null]),
            ),
            (
                serde_json::json!({"a": [true, null]}),
                serde_json::json!({"a": [null, true, null], "b": [null]}),
            ),
        ] {
            let (old, new) = (pretty(old), pretty(new));
            for context in 1..4 {
                assert_eq!(
                    model_unified(&old, &new, context),
                    similar_unified(&old, &new, context),
                    "context {context}"
                );
            }
        }
    }

    #[test]
    fn small_diffs_are_exact() {
        let diff = bounded_line_diff("a\nb\nc\n", "a\nx\nc\n");
        let tags: Vec<ChangeTag> = diff.iter_all_changes().map(|change| change.tag()).collect();
        assert_eq!(
            tags,
            [
                ChangeTag::Equal,
                ChangeTag::Delete,
                ChangeTag::Insert,
                ChangeTag::Equal
            ]
        );
    }

    #[test]
    fn large_unrelated_texts_still_give_a_correct_diff() {
        let old: String = (0..30_000).map(|i| format!("old {i}\n")).collect();
        let new: String = (0..30_000).map(|i| format!("new {}\n", i * 7)).collect();
        let diff = bounded_line_diff(&old, &new);
        // Whatever the refinement reached, applying the diff gives back both texts.
        let (mut left, mut right) = (String::new(), String::new());
        for change in diff.iter_all_changes() {
            match change.tag() {
                ChangeTag::Equal => {
                    left.push_str(change.value());
                    right.push_str(change.value());
                }
                ChangeTag::Delete => left.push_str(change.value()),
                ChangeTag::Insert => right.push_str(change.value()),
            }
        }
        assert_eq!((left, right), (old, new));
    }
}
