//! Line diffs of canonical pretty JSON (sorted keys, two-space indent), so a step's diff
//! shows only what the step changed. Every line is already terminal-safe.

use crate::json::{canonical_pretty, safe_text};
use serde::Serialize;
use serde_json::Value;
use similar::ChangeTag;

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

/// Groups of changed lines with `context` unchanged lines around them.
pub fn hunks(before: &Value, after: &Value, context: usize) -> Vec<Vec<DiffLine>> {
    text_hunks(&canonical_pretty(before), &canonical_pretty(after), context)
}

/// [`hunks`] of two texts already in canonical pretty form. The lines both texts start and
/// end with, beyond the `context` shown, are cut off before diffing: a step usually changes
/// a few lines of a big document, and the diff's memory and time then follow the changed
/// region, not the document.
pub fn text_hunks(old: &str, new: &str, context: usize) -> Vec<Vec<DiffLine>> {
    let (skipped, old, new) = trim_common(old, new, context);
    let diff = crate::json::bounded_line_diff(old, new);
    diff.grouped_ops(context)
        .iter()
        .map(|group| {
            group
                .iter()
                .flat_map(|op| diff.iter_changes(op))
                .map(|change| diff_line(skipped, &change))
                .collect()
        })
        .collect()
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
    let (skipped, old, new) = trim_common(old, new, context);
    let diff = crate::json::bounded_line_diff(old, new);
    let groups = diff.grouped_ops(context);
    let mut lines = groups
        .iter()
        .flatten()
        .flat_map(|op| diff.iter_changes(op))
        .map(|change| diff_line(skipped, &change));
    use_lines(&mut lines)
}

/// [`with_text_lines`], each line paired with whether it starts a hunk other than the first
/// (where a view puts its `⋯`).
pub fn with_text_hunk_lines<R>(
    old: &str,
    new: &str,
    context: usize,
    use_lines: impl FnOnce(&mut dyn Iterator<Item = (bool, DiffLine)>) -> R,
) -> R {
    let (skipped, old, new) = trim_common(old, new, context);
    let diff = crate::json::bounded_line_diff(old, new);
    let groups = diff.grouped_ops(context);
    let diff = &diff;
    let mut lines = groups.iter().enumerate().flat_map(|(hunk, ops)| {
        ops.iter()
            .flat_map(move |op| diff.iter_changes(op))
            .enumerate()
            .map(move |(at, change)| (hunk > 0 && at == 0, diff_line(skipped, &change)))
    });
    use_lines(&mut lines)
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

/// The whole document with every change marked (for a scrolling view).
pub fn full(before: &Value, after: &Value) -> Vec<DiffLine> {
    hunks(before, after, usize::MAX / 2)
        .into_iter()
        .flatten()
        .collect()
}

/// Unified-diff text: `@@ -a,b +c,d @@` headers, then ` `, `-`, `+` lines.
pub fn unified(before: &Value, after: &Value, context: usize) -> String {
    let mut out = String::new();
    for hunk in hunks(before, after, context) {
        let old_start = hunk.iter().find_map(|line| line.old_line).unwrap_or(0);
        let new_start = hunk.iter().find_map(|line| line.new_line).unwrap_or(0);
        let old_count = hunk.iter().filter(|line| line.old_line.is_some()).count();
        let new_count = hunk.iter().filter(|line| line.new_line.is_some()).count();
        out.push_str(&format!(
            "@@ -{old_start},{old_count} +{new_start},{new_count} @@\n"
        ));
        for line in hunk {
            out.push(line.tag.sign());
            out.push_str(&line.text);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shows_only_the_change_with_context() {
        let before = json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6});
        let after = json!({"a": 1, "b": 2, "c": 30, "d": 4, "e": 5, "f": 6});
        let text = unified(&before, &after, 1);
        assert_eq!(
            text,
            "@@ -3,3 +3,3 @@\n   \"b\": 2,\n-  \"c\": 3,\n+  \"c\": 30,\n   \"d\": 4,\n"
        );
        assert!(unified(&before, &before, 3).is_empty());
    }

    #[test]
    fn cutting_the_common_ends_keeps_hunks_and_line_numbers() {
        let items: Vec<u32> = (0..500).collect();
        let before = json!({"a": items, "m": "x", "z": items});
        let after = json!({"a": items, "m": "y", "z": items});
        let text = unified(&before, &after, 2);
        assert_eq!(
            text,
            "@@ -502,5 +502,5 @@\n     499\n   ],\n-  \"m\": \"x\",\n+  \"m\": \"y\",\n   \"z\": [\n     0,\n"
        );
        // The same hunk as the diff of the whole texts.
        let (old, new) = (canonical_pretty(&before), canonical_pretty(&after));
        let whole = crate::json::bounded_line_diff(&old, &new);
        let ops = whole.grouped_ops(2);
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0][0].old_range().start + 1, 502);
        assert_eq!(trim_common("a\nb\n", "a\nb\n", 0), (2, "", ""));
        assert_eq!(trim_common("a\nb\nc", "a\nx\nc", 0), (1, "b\n", "x\n"));
    }

    #[test]
    fn lines_are_terminal_safe() {
        let lines = full(&json!({"a": "x"}), &json!({"a": "x\u{202e}y"}));
        assert!(lines.iter().any(|line| line.text.contains("\\u{202e}")));
        assert!(lines.iter().all(|line| !line.text.contains('\u{202e}')));
    }
}
