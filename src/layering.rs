//! The layering `lib.rs` states, held true: every `crate::` path (in `use` or inline, grouped
//! `crate::{a::x, b::y}` included) and every `super::` chain that climbs to the crate root is
//! read from the source of every module under `src/`, and an import of a module on the same
//! or a higher layer fails the test, naming the file, the line and both layers.
//!
//! The layer table is read from `lib.rs`'s own documentation (the rows `| N | `a`, `b` | ... |`),
//! so the statement and the check cannot drift apart, and ARCHITECTURE.md must show the same
//! rows.

use std::collections::BTreeMap;
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
            if let Some(path) = path.strip_prefix("::") {
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

fn is_ident_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

fn line_of(code: &str, at: usize) -> usize {
    code[..at].bytes().filter(|&byte| byte == b'\n').count() + 1
}

/// The source with comments, string and character literals blanked (newlines kept, so line
/// numbers stay), so that prose mentioning `crate::x` is not read as an import.
fn strip_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if c == '/' && next == Some('/') {
            while index < chars.len() && chars[index] != '\n' {
                out.push(' ');
                index += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while index < chars.len() {
                if chars[index] == '/' && chars.get(index + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    index += 2;
                } else if chars[index] == '*' && chars.get(index + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    index += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[index]));
                    index += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (index == 0 || !chars[index - 1].is_alphanumeric() || chars[index - 1] == 'b')
            && raw_string_start(&chars[index + 1..]).is_some()
        {
            let hashes = raw_string_start(&chars[index + 1..]).unwrap_or(0);
            let closing: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            // `r`, the hashes and the opening quote.
            for _ in 0..hashes + 2 {
                out.push(' ');
            }
            index += hashes + 2;
            while index < chars.len() && !chars[index..].starts_with(&closing) {
                out.push(blank(chars[index]));
                index += 1;
            }
            for _ in 0..closing.len().min(chars.len() - index) {
                out.push(' ');
            }
            index += closing.len();
        } else if c == '"' {
            out.push(' ');
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    out.push(' ');
                    index += 1;
                }
                if index < chars.len() {
                    out.push(blank(chars[index]));
                    index += 1;
                }
            }
            out.push(' ');
            index += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1b}', '"'); otherwise a lifetime.
            let literal_end = if next == Some('\\') {
                // The escaped character itself may be a quote: `'\''`.
                chars
                    .get(index + 3..)
                    .and_then(|rest| rest.iter().position(|&c| c == '\''))
                    .map(|end| index + 3 + end)
            } else if chars.get(index + 2) == Some(&'\'') {
                Some(index + 2)
            } else {
                None
            };
            match literal_end {
                Some(end) => {
                    for _ in index..=end {
                        out.push(' ');
                    }
                    index = end + 1;
                }
                None => {
                    out.push(c);
                    index += 1;
                }
            }
        } else {
            out.push(c);
            index += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting after its `r`, if one starts there.
fn raw_string_start(after_r: &[char]) -> Option<usize> {
    let hashes = after_r.iter().take_while(|&&c| c == '#').count();
    (after_r.get(hashes) == Some(&'"')).then_some(hashes)
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
    let Some(&own) = layers.get(from) else {
        return vec![Violation {
            line: 1,
            from: from.to_owned(),
            to: "(a module lib.rs's layer table does not list)".to_owned(),
        }];
    };
    modules_named(source, depth)
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

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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
fn module_of(relative: &Path) -> (String, usize) {
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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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
        // The crate root and the binary declare the modules; this file is the test itself.
        if ["lib.rs", "main.rs", "layering.rs"]
            .iter()
            .any(|root| relative == Path::new(root))
        {
            continue;
        }
        let (module, depth) = module_of(relative);
        let source = std::fs::read_to_string(path).expect("a source file");
        for violation in violations(&source, &module, depth, &layers) {
            found.push(format!(
                "src/{}:{}: `{}` (layer {}) imports `{}` (layer {})",
                relative.display(),
                violation.line,
                violation.from,
                layers
                    .get(&violation.from)
                    .map_or("?".into(), usize::to_string),
                violation.to,
                layers
                    .get(&violation.to)
                    .map_or("none".into(), usize::to_string),
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
