//! The layer tables of `lib.rs` and `tui/mod.rs`, and every import checked against them.

use super::files::{crate_files, Crate};
use super::lexing::{is_ident_byte, line_of, strip_comments_and_literals};
use super::{module_of, rust_files, src};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Layer number of each top-level module, from the table in `lib.rs`'s docs.
fn layers_stated(lib: &str) -> BTreeMap<String, usize> {
    let mut layers = BTreeMap::new();
    for row in table_rows(lib.lines().filter_map(|line| line.strip_prefix("//!"))) {
        let (number, modules) = row;
        for module in modules {
            let previous = layers.insert(module.clone(), number);
            assert!(previous.is_none(), "lib.rs lists `{module}` twice");
        }
    }
    layers
}

/// The rows `| N | `a`, `b` | ... |` of a layer table, as (N, [a, b]).
fn table_rows<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<(usize, Vec<String>)> {
    let mut rows = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.trim().split('|').map(str::trim).collect();
        // "| 3 | `a2a` | what |" splits into ["", "3", "`a2a`", "what", ""].
        if cells.len() < 4 || !cells[0].is_empty() {
            continue;
        }
        let Ok(number) = cells[1].parse::<usize>() else {
            continue;
        };
        let modules = cells[2]
            .split(',')
            .map(|name| name.trim().trim_matches('`').to_owned())
            .collect();
        rows.push((number, modules));
    }
    rows
}

/// The modules `lib.rs` declares (`pub mod NAME;` or `mod NAME;`, test-only ones excluded).
fn modules_declared(lib: &str) -> Vec<String> {
    let mut declared = Vec::new();
    let mut test_only = false;
    for line in lib.lines().map(str::trim) {
        if line == "#[cfg(test)]" {
            test_only = true;
            continue;
        }
        let name = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
            .and_then(|rest| rest.strip_suffix(';'));
        if let Some(name) = name {
            if !test_only {
                declared.push(name.to_owned());
            }
        }
        if !line.starts_with("#[") && !line.starts_with("///") {
            test_only = false;
        }
    }
    declared
}

/// One import of a module from a module not allowed to import it.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    line: usize,
    from: String,
    to: String,
}

/// The top-level modules a source text names through `crate::` (or a `super::` chain that
/// climbs to the crate root), with the line of each. `depth` is how deep the file's own
/// module is (`src/golden/manifest/parse.rs`: 3; `src/rules.rs`: 1).
fn modules_named(source: &str, depth: usize) -> Vec<(usize, String)> {
    modules_named_within(source, None, depth)
}

/// `modules_named` one level down: with `within` (`tui`), the modules of `src/tui/` a file
/// there names through `crate::tui::` or a `super::` chain climbing to `src/tui/` (`depth`
/// counted from there: `tui/state/app.rs` is 2).
fn modules_named_within(source: &str, within: Option<&str>, depth: usize) -> Vec<(usize, String)> {
    let code = strip_comments_and_literals(source);
    let bytes = code.as_bytes();
    let mut named = Vec::new();
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &code[at..];
        let starts_word = at == 0 || !is_ident_byte(bytes[at - 1]);
        if bytes[at] == b'{' {
            braces += 1;
        } else if bytes[at] == b'}' {
            braces = braces.saturating_sub(1);
            if inline_mods.last() == Some(&braces) {
                inline_mods.pop();
            }
        } else if starts_word && rest.starts_with("mod ") {
            // `mod NAME {`: an inline module one level deeper (`mod NAME;` is a file).
            let after = rest[4..].trim_start();
            let name_end = after
                .find(|c: char| !c.is_alphanumeric() && c != '_')
                .unwrap_or(after.len());
            if after[name_end..].trim_start().starts_with('{') {
                inline_mods.push(braces);
            }
        } else if starts_word && rest.starts_with("crate") && !rest.starts_with("crate_") {
            let path = rest["crate".len()..].trim_start();
            let path = path.strip_prefix("::").and_then(|path| match within {
                None => Some(path),
                Some(top) => path
                    .strip_prefix(top)
                    .and_then(|rest| rest.trim_start().strip_prefix("::")),
            });
            if let Some(path) = path {
                let line = line_of(&code, at);
                for name in first_segments(path) {
                    named.push((line, name));
                }
            }
        } else if starts_word && rest.starts_with("super::") {
            let mut climbed = 0;
            let mut path = rest;
            while let Some(after) = path.strip_prefix("super::") {
                climbed += 1;
                path = after.trim_start();
            }
            if climbed >= depth + inline_mods.len() {
                let line = line_of(&code, at);
                for name in first_segments(path) {
                    named.push((line, name));
                }
            }
            at += rest.len() - path.len();
            continue;
        }
        at += 1;
    }
    named
}

/// The first segment of a path, or of each path of a group `{a::x, b::{y, z}, c}`.
fn first_segments(path: &str) -> Vec<String> {
    let path = path.trim_start();
    let Some(group) = path.strip_prefix('{') else {
        let name: String = path
            .chars()
            .take_while(|&c| c.is_alphanumeric() || c == '_' || c == '*')
            .collect();
        return vec![name];
    };
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut item_start = true;
    for (index, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if item_start && !c.is_whitespace() => {
                names.extend(first_segments(&group[index..]).into_iter().take(1));
                item_start = false;
            }
            _ => {}
        }
    }
    names
}

/// The imports of `source` (a file of top-level module `from`, its module `depth` deep) that
/// the layer table does not allow: a module on the same or a higher layer, or one the table
/// does not list.
fn violations(
    source: &str,
    from: &str,
    depth: usize,
    layers: &BTreeMap<String, usize>,
) -> Vec<Violation> {
    violations_within(source, None, from, depth, layers)
}

/// `violations` against the layer table of the modules of `within` (see
/// `modules_named_within`).
fn violations_within(
    source: &str,
    within: Option<&str>,
    from: &str,
    depth: usize,
    layers: &BTreeMap<String, usize>,
) -> Vec<Violation> {
    let Some(&own) = layers.get(from) else {
        return vec![Violation {
            line: 1,
            from: from.to_owned(),
            to: "(a module lib.rs's layer table does not list)".to_owned(),
        }];
    };
    modules_named_within(source, within, depth)
        .into_iter()
        .filter(|(_, to)| to != from)
        .filter(|(_, to)| layers.get(to).is_none_or(|&layer| layer >= own))
        .map(|(line, to)| Violation {
            line,
            from: from.to_owned(),
            to,
        })
        .collect()
}

/// A violation as the tests report it: the file and line, both modules and their layers.
fn shown_violation(file: &Path, violation: &Violation, layers: &BTreeMap<String, usize>) -> String {
    let layer = |module: &str, unknown: &str| {
        layers
            .get(module)
            .map_or(unknown.to_owned(), usize::to_string)
    };
    format!(
        "{}:{}: `{}` (layer {}) imports `{}` (layer {})",
        file.display(),
        violation.line,
        violation.from,
        layer(&violation.from, "?"),
        violation.to,
        layer(&violation.to, "none"),
    )
}

#[test]
fn no_module_imports_one_on_its_own_or_a_higher_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    let layers = layers_stated(&lib);
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    let mut checked = 0;
    for path in &files {
        let relative = path.strip_prefix(src()).unwrap_or(path);
        // The crate root and the binary declare the modules; `layering/` is the test itself.
        if ["lib.rs", "main.rs"]
            .iter()
            .any(|root| relative == Path::new(root))
            || relative.starts_with("layering")
        {
            continue;
        }
        let (module, depth) = module_of(relative);
        let source = std::fs::read_to_string(path).expect("a source file");
        for violation in violations(&source, &module, depth, &layers) {
            found.push(shown_violation(
                &Path::new("src").join(relative),
                &violation,
                &layers,
            ));
        }
        checked += 1;
    }
    assert!(checked > 200, "only {checked} files read under src/");
    assert!(
        found.is_empty(),
        "imports against the layering stated in src/lib.rs (a module imports only modules on \
         lower layers):\n{}",
        found.join("\n")
    );
}

/// The inspector's own layers, stated in `tui/mod.rs`'s docs as `lib.rs` states the crate's:
/// a file of `src/tui/` imports only from its own layer folder or from one below.
#[test]
fn no_file_of_the_inspector_imports_from_its_own_or_a_higher_layer() {
    let tui = src().join("tui");
    let root = std::fs::read_to_string(tui.join("mod.rs")).expect("src/tui/mod.rs");
    let layers = layers_stated(&root);
    let mut declared = modules_declared(&root);
    declared.sort();
    let stated: Vec<String> = layers.keys().cloned().collect();
    assert_eq!(
        declared, stated,
        "tui/mod.rs's `mod`s and its layer table differ"
    );
    // A file only tests compile (a `#[cfg(test)] mod NAME;`), like a `mod tests { .. }`
    // block (see `without_unit_tests`), may drive the inspector from above.
    let krate = Crate::new(crate_files());
    let test_only: BTreeSet<PathBuf> = krate.test_only_files().map(PathBuf::from).collect();
    let mut files = Vec::new();
    rust_files(&tui, &mut files);
    let mut found = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&tui).unwrap_or(path);
        if relative == Path::new("mod.rs") || test_only.contains(&Path::new("tui").join(relative)) {
            continue;
        }
        let (layer, depth) = module_of(relative);
        let source = std::fs::read_to_string(path).expect("a source file");
        for violation in violations_within(
            without_unit_tests(&source),
            Some("tui"),
            &layer,
            depth,
            &layers,
        ) {
            found.push(shown_violation(
                &Path::new("src/tui").join(relative),
                &violation,
                &layers,
            ));
        }
    }
    assert!(
        files.len() > 40,
        "only {} files read under src/tui/",
        files.len()
    );
    assert!(
        found.is_empty(),
        "imports against the layering stated in src/tui/mod.rs:\n{}",
        found.join("\n")
    );
}

/// A file's source before its `#[cfg(test)] mod tests`: a unit test may drive the inspector
/// from above (the headless driver loads a corpus for it) without the code depending on it.
fn without_unit_tests(source: &str) -> &str {
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        if line.trim() == "#[cfg(test)]" && source[at + line.len()..].starts_with("mod tests") {
            return &source[..at];
        }
        at += line.len();
    }
    source
}

#[test]
fn a_path_into_the_inspector_names_its_layer() {
    let source = "use crate::tui::state::app::App;\nuse crate::tui_other::x;\nuse crate::json::y;\nfn f() { super::super::views::draw(); super::actions::go(); }\n";
    let named: Vec<String> = modules_named_within(source, Some("tui"), 2)
        .into_iter()
        .map(|(line, name)| format!("{line}:{name}"))
        .collect();
    assert_eq!(named, ["1:state", "4:views"]);
}

#[test]
fn lib_rs_states_a_layer_for_every_module_it_declares() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    let layers = layers_stated(&lib);
    let mut declared = modules_declared(&lib);
    declared.sort();
    let stated: Vec<String> = layers.keys().cloned().collect();
    assert_eq!(
        declared, stated,
        "lib.rs's `mod`s and its layer table differ"
    );
}

#[test]
fn architecture_md_shows_the_layer_table_of_lib_rs() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    let architecture =
        std::fs::read_to_string(src().join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let stated = table_rows(lib.lines().filter_map(|line| line.strip_prefix("//!")));
    let shown = table_rows(architecture.lines());
    assert!(stated.len() >= 10, "{stated:?}");
    assert_eq!(
        stated, shown,
        "ARCHITECTURE.md's layer table differs from lib.rs's"
    );
}

#[test]
fn grouped_nested_and_inline_paths_are_all_read() {
    let source = r#"
use crate::json::safe_text;
use crate::{corpus::RawPacket, golden::{self, GoldenEntry}, rules};
// use crate::tui::App;  (a comment)
const TEXT: &str = "crate::cli::main";
fn f() -> usize { crate::report::count() + '"'.len_utf8() + '\''.len_utf8() }
mod tests {
    use super::super::compare::x;
}
"#;
    let named: Vec<String> = modules_named(source, 1)
        .into_iter()
        .map(|(line, name)| format!("{line}:{name}"))
        .collect();
    assert_eq!(
        named,
        [
            "2:json",
            "3:corpus",
            "3:golden",
            "3:rules",
            "6:report",
            "8:compare"
        ]
    );
    // One level deeper (`src/x/y.rs`), `super::super` inside `mod tests` stays in the module.
    assert!(!modules_named(source, 2)
        .iter()
        .any(|(_, name)| name == "compare"));
}

#[test]
fn an_import_upwards_or_sideways_is_a_violation_and_downwards_is_not() {
    let lib =
        "//! | 1 | `json` | x |\n//! | 2 | `golden`, `bundle` | y |\n//! | 3 | `corpus` | z |\n";
    let layers = layers_stated(lib);
    let source = "use crate::json::x;\nuse crate::{bundle::B, corpus::C};\nuse crate::nowhere;\n";
    assert_eq!(
        violations(source, "golden", 1, &layers),
        vec![
            Violation {
                line: 2,
                from: "golden".into(),
                to: "bundle".into()
            },
            Violation {
                line: 2,
                from: "golden".into(),
                to: "corpus".into()
            },
            Violation {
                line: 3,
                from: "golden".into(),
                to: "nowhere".into()
            },
        ]
    );
    assert!(violations(source, "unlisted", 1, &layers).len() == 1);
    assert!(violations("use crate::golden::G;", "corpus", 1, &layers).is_empty());
}
