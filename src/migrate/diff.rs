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
    let old = canonical_pretty(before);
    let new = canonical_pretty(after);
    let diff = crate::json::bounded_line_diff(&old, &new);
    diff.grouped_ops(context)
        .iter()
        .map(|group| {
            group
                .iter()
                .flat_map(|op| diff.iter_changes(op))
                .map(|change| DiffLine {
                    tag: match change.tag() {
                        ChangeTag::Equal => LineTag::Same,
                        ChangeTag::Delete => LineTag::Removed,
                        ChangeTag::Insert => LineTag::Added,
                    },
                    old_line: change.old_index().map(|index| index + 1),
                    new_line: change.new_index().map(|index| index + 1),
                    text: safe_text(change.value().trim_end_matches('\n')).into_owned(),
                })
                .collect()
        })
        .collect()
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
    fn lines_are_terminal_safe() {
        let lines = full(&json!({"a": "x"}), &json!({"a": "x\u{202e}y"}));
        assert!(lines.iter().any(|line| line.text.contains("\\u{202e}")));
        assert!(lines.iter().all(|line| !line.text.contains('\u{202e}')));
    }
}
