//! Line diffs of canonical pretty JSON (sorted keys, two-space indent), so a step's diff
//! shows only what the step changed: `json::line_diff`'s model over the canonical texts.
//! Every line is already terminal-safe.

use crate::json::{canonical_pretty, write_unified};
pub use crate::json::{text_hunks, with_text_hunk_lines, with_text_lines, DiffLine, LineTag};
use serde_json::Value;

/// Groups of changed lines with `context` unchanged lines around them.
pub fn hunks(before: &Value, after: &Value, context: usize) -> Vec<Vec<DiffLine>> {
    text_hunks(&canonical_pretty(before), &canonical_pretty(after), context)
}

/// The whole document with every change marked (for a scrolling view).
pub fn full(before: &Value, after: &Value) -> Vec<DiffLine> {
    hunks(before, after, usize::MAX / 2)
        .into_iter()
        .flatten()
        .collect()
}

/// Unified-diff text of the canonical forms (`json::write_unified`).
pub fn unified(before: &Value, after: &Value, context: usize) -> String {
    let hunks = hunks(before, after, context);
    let mut out = String::new();
    write_unified(hunks.iter().map(Vec::as_slice), &mut out);
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
    }

    #[test]
    fn lines_are_terminal_safe() {
        let lines = full(&json!({"a": "x"}), &json!({"a": "x\u{202e}y"}));
        assert!(lines.iter().any(|line| line.text.contains("\\u{202e}")));
        assert!(lines.iter().all(|line| !line.text.contains('\u{202e}')));
    }
}
