//! Line diffs with a time bound. Myers' algorithm costs O((N+M)·D): two large texts that
//! differ everywhere (a 120 KB file whose every line a migration step changes, two unrelated
//! paired payloads) take seconds to minutes. Past the bound `similar` stops refining and
//! reports the rest as replaced lines: still a correct diff, only a coarser one.

use similar::{Algorithm, TextDiff};
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

#[cfg(test)]
mod tests {
    use super::*;
    use similar::ChangeTag;

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
