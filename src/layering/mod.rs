//! The layering `lib.rs` states, held true: every `crate::` path (in `use` or inline, grouped
//! `crate::{a::x, b::y}` included) and every `super::` chain that climbs to the crate root is
//! read from the source of every module under `src/`, and an import of a module on the same
//! or a higher layer fails the test, naming the file, the line and both layers.
//!
//! The layer table is read from `lib.rs`'s own documentation (the rows `| N | `a`, `b` | ... |`),
//! so the statement and the check cannot drift apart, and ARCHITECTURE.md must show the same
//! rows.
//!
//! One floor down, the same paths drawn file by file: each followed to the file that defines
//! its item (through `use` names, aliases and re-exports), the cycles found, and a cycle of
//! more than three files, or any cycle inside a folder kept free of them, fails the test with
//! the imports that make it.

mod files;
mod layers;
mod lexing;

use std::path::{Path, PathBuf};

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            out.push(path);
        }
    }
}

/// A file's top-level module and how deep its own module is: `golden/manifest/parse.rs` is
/// (`golden`, 3), `golden/mod.rs` (`golden`, 1), `rules.rs` (`rules`, 1).
pub(super) fn module_of(relative: &Path) -> (String, usize) {
    let parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let top = parts[0].trim_end_matches(".rs").to_owned();
    let depth = if parts.last().is_some_and(|last| last == "mod.rs") {
        parts.len() - 1
    } else {
        parts.len()
    };
    (top, depth)
}

pub(super) fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}
