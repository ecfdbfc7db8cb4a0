//! The README starts with a newcomer's part (what the tool is for, the two commands, what to
//! look at first, a glossary, prerequisites), and the READMEs point only at files that exist
//! in this repository.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn start_here() -> String {
    let readme = read("README.md");
    let body = readme
        .strip_prefix("# handoff-inspector\n\n## Start here\n")
        .expect("README starts with \"## Start here\"");
    body.split("\n## ").next().unwrap_or_default().to_owned()
}

#[test]
fn start_here_explains_the_terms_a_newcomer_meets() {
    let section = start_here();
    for term in [
        "| K1-A |",
        "| the freeze |",
        "| P, TR, MR, SYN |",
        "| N1-N7 |",
        "| X1-X10 |",
        "| strict / lenient |",
        "cargo run --release -- fixtures",
        "cargo test --all-targets",
        "tmux",
        "What to look at first",
    ] {
        assert!(section.contains(term), "Start here lacks {term:?}");
    }
}

#[test]
fn the_stated_rust_version_is_cargo_tomls() {
    let manifest = read("Cargo.toml");
    let version = manifest
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .map(|value| value.trim_matches('"'))
        .expect("Cargo.toml has a rust-version");
    assert!(
        start_here().contains(&format!("Rust {version} or newer")),
        "Start here must state Rust {version}"
    );
}

/// Every relative path written in backticks in a README names something in the repository
/// (globs and placeholders in capitals aside), and none points into a sibling checkout.
#[test]
fn readmes_reference_only_files_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for readme in [
        "README.md",
        "fixtures/migrate/README.md",
        "fixtures/profiles/README.md",
    ] {
        let text = read(readme);
        assert!(!text.contains("shared/spec"), "{readme} cites shared/spec");
        for (index, quoted) in text.split('`').enumerate() {
            let is_code = index % 2 == 1;
            let looks_like_path = quoted.contains('/')
                && !quoted.contains(' ')
                && !quoted.starts_with('/')
                && !quoted.contains("://")
                && !quoted.contains('*')
                && !quoted.chars().any(|c| c.is_ascii_uppercase());
            if !is_code || !looks_like_path {
                continue;
            }
            let relative = quoted.trim_end_matches('/');
            // A bundle's event is named `BUNDLE:SEQ`, an NDJSON line `STREAM:LINE`: the file is
            // what must exist.
            let relative = match relative.rsplit_once(':') {
                Some((file, number))
                    if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    file
                }
                _ => relative,
            };
            // Only names rooted in the repository (or in the sibling checkouts a previous
            // README pointed into) are paths; `n/a` or `strict/lenient` are not.
            let first = relative.split('/').next().unwrap_or_default();
            let relative_to_parent = first == ".." || first == ".";
            // Build output (`target/...`, e.g. the SDK differential's venv) is made, not kept.
            if first == "target" {
                continue;
            }
            let rooted = ["shared", "spec", "work"].contains(&first)
                || (!relative_to_parent
                    && (root.join(first).exists()
                        || root.join("fixtures/profiles").join(first).exists()));
            if !rooted {
                continue;
            }
            // A packet may be named as the list shows it, without `.json`.
            let candidates = [
                root.join(relative),
                root.join(format!("{relative}.json")),
                root.join("fixtures/profiles").join(relative),
            ];
            assert!(
                candidates.iter().any(|path| path.exists()),
                "{readme} names `{quoted}`, which is not in the repository"
            );
        }
    }
}
