//! A first PATH that is no file but names a subcommand, or nearly does: the inspector would
//! say "no such file" about what the user meant as a command (`chek fixtures`), or read a
//! subcommand as a path because a flag of the inspector came before it
//! (`--now T check fixtures`; the global `--color` is moved after a subcommand instead:
//! `global_flags.rs`). Both are told here, before anything runs.

use clap::CommandFactory;
use std::path::Path;

/// Edits (insert, delete, substitute, swap of neighbours) within which a word is taken for a
/// misspelt subcommand, as git and cargo suggest.
const MAX_EDITS: usize = 2;

/// The usage error for the inspector's first PATH, when it is no path and names (or nearly
/// names) a subcommand; `flag_before` is whether any argument came before it.
pub(crate) fn subcommand_mistaken_for_path(first: &Path, flag_before: bool) -> Option<String> {
    if first.exists() {
        return None;
    }
    let word = first.to_str()?;
    let names: Vec<String> = super::Cli::command()
        .get_subcommands()
        .map(|command| command.get_name().to_owned())
        .collect();
    if names.iter().any(|name| name == word) {
        return Some(if flag_before {
            format!(
                "`{word}` was read as a PATH for the inspector, because a flag came before it: \
                 a subcommand's flags go after its name (`handoff-inspector {word} [FLAGS] PATH...`)"
            )
        } else {
            format!("`{word}` was read as a PATH for the inspector")
        });
    }
    let (distance, nearest) = names
        .iter()
        .map(|name| (edit_distance(word, name), name))
        .min()?;
    (distance <= MAX_EDITS && distance < word.chars().count()).then(|| {
        format!(
            "{}: no such file, directory or subcommand (did you mean `{nearest}`?)",
            crate::json::safe_text(word)
        )
    })
}

/// Optimal string alignment distance: Levenshtein's edits plus a swap of two neighbours
/// (`chekc` is one edit from `check`). Subcommand names are short; this is O(len²).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * width + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let substitution = d[(i - 1) * width + j - 1] + usize::from(a[i - 1] != b[j - 1]);
                let mut best = substitution
                    .min(d[(i - 1) * width + j] + 1)
                    .min(d[i * width + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * width + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits_and_swaps() {
        assert_eq!(edit_distance("chek", "check"), 1);
        assert_eq!(edit_distance("chekc", "check"), 1);
        assert_eq!(edit_distance("verfy", "verify"), 1);
        assert_eq!(edit_distance("", "ls"), 2);
        assert!(edit_distance("fixtures", "formats") > MAX_EDITS);
    }

    #[test]
    fn a_near_subcommand_is_named_and_a_far_word_is_not() {
        let told = subcommand_mistaken_for_path(Path::new("chek"), false);
        assert!(told.is_some_and(|text| text.contains("did you mean `check`?")));
        assert!(subcommand_mistaken_for_path(Path::new("xyzzy-not-here"), false).is_none());
        // Two letters are never "within two edits" of `ls` by deleting them all.
        assert!(subcommand_mistaken_for_path(Path::new("qq"), false).is_none());
    }

    #[test]
    fn a_subcommand_after_a_flag_is_told_as_such() {
        let told = subcommand_mistaken_for_path(Path::new("check"), true).unwrap_or_default();
        assert!(told.contains("a flag came before it"), "{told}");
    }
}
