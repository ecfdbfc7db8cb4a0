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
    let mut files = Vec::new();
    rust_files(&tui, &mut files);
    let mut found = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&tui).unwrap_or(path);
        if relative == Path::new("mod.rs") {
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

// The file-level import graph: which file of the crate each path in a file leads to, and the
// cycles (strongly connected components) in it. A cycle of files is one piece that cannot be
// read, tested or moved apart; the layer table above only sees modules.

/// Folders whose files form no import cycle at all (a path under `src/`, ending in `/`).
/// Everywhere else a cycle may hold at most [`LARGEST_CYCLE_ALLOWED`] files.
const NO_CYCLE_FOLDERS: &[&str] = &["migrate/", "tui/"];

/// The most files one cycle may hold outside [`NO_CYCLE_FOLDERS`].
const LARGEST_CYCLE_ALLOWED: usize = 3;

/// A module's path from the crate root: `src/golden/manifest/parse.rs` is
/// `["golden", "manifest", "parse"]`, `src/golden/mod.rs` is `["golden"]`, `src/lib.rs` `[]`.
type ModulePath = Vec<String>;

/// One name a `use` brings into a module, and the path it stands for (as written, relative
/// to that module).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Import {
    name: String,
    path: Vec<String>,
}

/// What one file says about paths: its imports per module (the file's own and each inline
/// `mod NAME { .. }`), and every path it names with the module it is named in and its line.
/// Test-only code (an item under `#[cfg(test)]`: a `mod tests { .. }`, a test helper) is not
/// read: a file's tests may use any file of its module without tying the two together; the
/// files of its `#[cfg(test)] mod NAME;` are named in `test_modules` and not read either.
#[derive(Debug, Default)]
struct FilePaths {
    imports: BTreeMap<ModulePath, Vec<Import>>,
    paths: Vec<(ModulePath, usize, Vec<String>)>,
    test_modules: Vec<String>,
}

/// The index after the item starting at `tokens[at]`: after its `;`, or after the block its
/// first `{` opens (a `mod`, `fn` or `impl` body), whichever ends it.
fn item_end(tokens: &[(usize, &str)], mut at: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&(_, token)) = tokens.get(at) {
        at += 1;
        match token {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" => depth = depth.saturating_sub(1),
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at;
                }
            }
            ";" if depth == 0 => return at,
            _ => {}
        }
    }
    at
}

/// Whether `tokens[at..]` is `#[cfg(test)]`.
fn is_cfg_test(tokens: &[(usize, &str)], at: usize) -> bool {
    let wanted = ["#", "[", "cfg", "(", "test", ")", "]"];
    tokens.len() >= at + wanted.len()
        && tokens[at..at + wanted.len()]
            .iter()
            .zip(wanted)
            .all(|(token, want)| token.1 == want)
}

/// The tokens of code with comments and literals already blanked: identifiers, `::` and single
/// punctuation characters, each with its byte offset.
fn tokens(code: &str) -> Vec<(usize, &str)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if is_ident_byte(byte) || byte >= 0x80 {
            let start = at;
            while at < bytes.len() && (is_ident_byte(bytes[at]) || bytes[at] >= 0x80) {
                at += 1;
            }
            out.push((start, &code[start..at]));
        } else if code[at..].starts_with("::") {
            out.push((at, "::"));
            at += 2;
        } else if byte.is_ascii_whitespace() {
            at += 1;
        } else {
            let width = code[at..].chars().next().map_or(1, char::len_utf8);
            out.push((at, &code[at..at + width]));
            at += width;
        }
    }
    out
}

fn is_identifier(token: &str) -> bool {
    token
        .bytes()
        .next()
        .is_some_and(|byte| byte.is_ascii_alphabetic() || byte == b'_' || byte >= 0x80)
}

/// The leaves of a `use` tree starting at `tokens[at]` (after `use`), each as the path it
/// names and the name it binds; returns the index after the tree.
fn use_tree(
    tokens: &[(usize, &str)],
    mut at: usize,
    prefix: &[String],
    out: &mut Vec<Import>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(at).map(|token| token.1) {
            Some("{") => {
                at += 1;
                while tokens.get(at).is_some_and(|token| token.1 != "}") {
                    at = use_tree(tokens, at, &path, out);
                    if tokens.get(at).is_some_and(|token| token.1 == ",") {
                        at += 1;
                    }
                }
                return at + 1;
            }
            Some("*") => {
                out.push(Import {
                    name: "*".to_owned(),
                    path,
                });
                return at + 1;
            }
            Some(name) if is_identifier(name) => {
                if name != "self" || path.is_empty() {
                    path.push(name.to_owned());
                }
                at += 1;
                if tokens.get(at).is_some_and(|token| token.1 == "::") {
                    at += 1;
                    continue;
                }
                let mut bound = path.last().cloned().unwrap_or_default();
                if tokens.get(at).is_some_and(|token| token.1 == "as") {
                    bound = tokens.get(at + 1).map_or(bound, |token| token.1.to_owned());
                    at += 2;
                }
                out.push(Import { name: bound, path });
                return at;
            }
            _ => return at,
        }
    }
}

/// The imports and paths of one file whose module is `own`.
fn file_paths(source: &str, own: &[String]) -> FilePaths {
    let code = strip_comments_and_literals(source);
    let tokens = tokens(&code);
    let mut found = FilePaths::default();
    // Inline modules open: (name, the brace depth outside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut braces = 0usize;
    let module_here = |inline: &[(String, usize)]| -> ModulePath {
        own.iter()
            .cloned()
            .chain(inline.iter().map(|(name, _)| name.clone()))
            .collect()
    };
    let mut at = 0;
    while at < tokens.len() {
        let (offset, token) = tokens[at];
        let previous = at.checked_sub(1).map(|index| tokens[index].1);
        if is_cfg_test(&tokens, at) {
            let mut item = at + 7;
            while tokens.get(item).is_some_and(|token| token.1 == "#") {
                item = tokens[item..]
                    .iter()
                    .position(|token| token.1 == "]")
                    .map_or(tokens.len(), |end| item + end + 1);
            }
            if tokens.get(item).is_some_and(|token| token.1 == "mod")
                && tokens.get(item + 2).is_some_and(|token| token.1 == ";")
            {
                found.test_modules.push(tokens[item + 1].1.to_owned());
            }
            at = item_end(&tokens, item);
            continue;
        }
        match token {
            "{" => braces += 1,
            "}" => {
                braces = braces.saturating_sub(1);
                if inline.last().is_some_and(|(_, depth)| *depth == braces) {
                    inline.pop();
                }
            }
            "mod" if tokens.get(at + 2).is_some_and(|token| token.1 == "{") => {
                inline.push((tokens[at + 1].1.to_owned(), braces));
            }
            "use" if previous != Some("::") => {
                let mut imports = Vec::new();
                let end = use_tree(&tokens, at + 1, &[], &mut imports);
                let module = module_here(&inline);
                let line = line_of(&code, offset);
                for import in &imports {
                    found
                        .paths
                        .push((module.clone(), line, import.path.clone()));
                }
                found.imports.entry(module).or_default().extend(imports);
                at = end;
                continue;
            }
            // `pub(in crate::golden)` names who may see an item, not an import.
            _ if previous == Some("in") && at >= 3 && tokens[at - 3].1 == "pub" => {}
            name if is_identifier(name)
                && !matches!(previous, Some("::" | "." | "$" | "'"))
                && tokens.get(at + 1).is_some_and(|token| token.1 == "::") =>
            {
                let mut path = vec![name.to_owned()];
                let mut next = at + 1;
                while tokens.get(next).is_some_and(|token| token.1 == "::")
                    && tokens
                        .get(next + 1)
                        .is_some_and(|token| is_identifier(token.1))
                {
                    path.push(tokens[next + 1].1.to_owned());
                    next += 2;
                }
                found
                    .paths
                    .push((module_here(&inline), line_of(&code, offset), path));
                at = next;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// The files of the crate, the module each holds, and what each says about paths.
struct Crate {
    files: Vec<String>,
    file_of_module: BTreeMap<ModulePath, usize>,
    read: Vec<FilePaths>,
}

impl Crate {
    /// `files`: (path under `src/`, source).
    fn new(files: Vec<(String, String)>) -> Crate {
        let mut file_of_module = BTreeMap::new();
        let mut names = Vec::new();
        let mut read = Vec::new();
        for (index, (relative, source)) in files.into_iter().enumerate() {
            let module = module_path_of(&relative);
            read.push(file_paths(&source, &module));
            file_of_module.insert(module, index);
            names.push(relative);
        }
        // A test-only file is left unread, as test-only code in a file is.
        let test_only: Vec<ModulePath> = file_of_module
            .iter()
            .flat_map(|(module, &file)| {
                read[file].test_modules.iter().map(move |name| {
                    let mut child = module.clone();
                    child.push(name.clone());
                    child
                })
            })
            .collect();
        for module in test_only {
            if let Some(&file) = file_of_module.get(&module) {
                read[file] = FilePaths::default();
            }
        }
        Crate {
            files: names,
            file_of_module,
            read,
        }
    }

    /// The file a module's code is in: its own, or the file its inline module is written in.
    fn file_of(&self, module: &[String]) -> Option<usize> {
        (0..=module.len())
            .rev()
            .find_map(|len| self.file_of_module.get(&module[..len]).copied())
    }

    fn imports_of(&self, module: &[String]) -> &[Import] {
        self.file_of(module)
            .and_then(|file| self.read[file].imports.get(module))
            .map_or(&[], Vec::as_slice)
    }

    /// The module a path named in `from` leads into, as deep as modules go (an item's path
    /// ends in the module that defines it); through `use` names, re-exports included. `None`
    /// for paths outside the crate (`std::`, `serde_json::`) and names that are not modules.
    fn resolve(&self, from: &[String], path: &[String], budget: usize) -> Option<ModulePath> {
        let (first, rest) = path.split_first()?;
        let mut module: ModulePath = match first.as_str() {
            "crate" => Vec::new(),
            "self" => from.to_vec(),
            "super" => {
                let mut module = from.to_vec();
                module.pop()?;
                let mut rest = rest;
                while let Some(("super", after)) = rest.split_first().map(|(s, a)| (s.as_str(), a))
                {
                    module.pop()?;
                    rest = after;
                }
                return self.walk(module, rest, budget);
            }
            name => {
                let mut child = from.to_vec();
                child.push(name.to_owned());
                if self.file_of_module.contains_key(&child) {
                    child
                } else {
                    let import = self
                        .imports_of(from)
                        .iter()
                        .find(|import| import.name == *name)?;
                    let target = self.resolve(from, &import.path, budget.checked_sub(1)?)?;
                    return self.walk(target, rest, budget);
                }
            }
        };
        if first == "crate" || first == "self" {
            return self.walk(std::mem::take(&mut module), rest, budget);
        }
        self.walk(module, rest, budget)
    }

    /// From `module`, down the segments that name modules (or names its file imports).
    fn walk(&self, mut module: ModulePath, rest: &[String], budget: usize) -> Option<ModulePath> {
        for segment in rest {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.file_of_module.contains_key(&child) {
                module = child;
                continue;
            }
            let Some(import) = self
                .imports_of(&module)
                .iter()
                .find(|import| import.name == *segment)
            else {
                break;
            };
            match self.resolve(&module, &import.path, budget.checked_sub(1)?) {
                Some(target) => module = target,
                None => break,
            }
        }
        Some(module)
    }

    /// Each file's imports of other files: (from, to) -> the first line naming it.
    fn edges(&self) -> BTreeMap<(usize, usize), usize> {
        let mut edges = BTreeMap::new();
        for (from, read) in self.read.iter().enumerate() {
            for (module, line, path) in &read.paths {
                let Some(to) = self
                    .resolve(module, path, 16)
                    .and_then(|target| self.file_of(&target))
                else {
                    continue;
                };
                if to != from {
                    edges.entry((from, to)).or_insert(*line);
                }
            }
        }
        edges
    }
}

fn module_path_of(relative: &str) -> ModulePath {
    let mut parts: Vec<String> = relative.split('/').map(str::to_owned).collect();
    if let Some(last) = parts.pop() {
        if last != "mod.rs" && last != "lib.rs" {
            parts.push(last.trim_end_matches(".rs").to_owned());
        }
    }
    parts
}

/// The strongly connected components of more than one node (Tarjan), each sorted, in order
/// of their smallest node.
fn cycles(nodes: usize, edges: &BTreeMap<(usize, usize), usize>) -> Vec<Vec<usize>> {
    struct Search<'a> {
        next: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        found: &'a mut Vec<Vec<usize>>,
    }
    fn visit(search: &mut Search, node: usize) {
        search.index[node] = Some(search.counter);
        search.low[node] = search.counter;
        search.counter += 1;
        search.stack.push(node);
        search.on_stack[node] = true;
        for next in search.next[node].clone() {
            match search.index[next] {
                None => {
                    visit(search, next);
                    search.low[node] = search.low[node].min(search.low[next]);
                }
                Some(index) if search.on_stack[next] => {
                    search.low[node] = search.low[node].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(search.low[node]) == search.index[node] {
            let mut component = Vec::new();
            while let Some(member) = search.stack.pop() {
                search.on_stack[member] = false;
                component.push(member);
                if member == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort_unstable();
                search.found.push(component);
            }
        }
    }
    let mut next = vec![Vec::new(); nodes];
    for &(from, to) in edges.keys() {
        next[from].push(to);
    }
    let mut found = Vec::new();
    let mut search = Search {
        next,
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        stack: Vec::new(),
        counter: 0,
        found: &mut found,
    };
    for node in 0..nodes {
        if search.index[node].is_none() {
            visit(&mut search, node);
        }
    }
    found.sort();
    found
}

/// The files of `src/` as (path under `src/`, source), the binary's root and this test left
/// out (the binary is a crate of its own; this file names paths in its examples).
fn crate_files() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    paths
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(src()).ok()?.to_str()?.to_owned();
            if relative == "main.rs" || relative == "layering.rs" {
                return None;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            Some((relative, source))
        })
        .collect()
}

/// The cycles of `krate` that break a rule, each shown as its files and the imports between
/// them (`src/FILE:LINE -> src/OTHER`).
fn cycles_against_the_rules(krate: &Crate) -> Vec<String> {
    let edges = krate.edges();
    let shown = |members: &[usize], why: &str| {
        let mut text = format!("{why}: {} files", members.len());
        for &(from, to) in edges.keys() {
            if members.contains(&from) && members.contains(&to) {
                let line = edges[&(from, to)];
                text += &format!(
                    "\n    src/{}:{line} -> src/{}",
                    krate.files[from], krate.files[to]
                );
            }
        }
        text
    };
    let mut broken = Vec::new();
    for members in cycles(krate.files.len(), &edges) {
        if members.len() > LARGEST_CYCLE_ALLOWED {
            broken.push(shown(&members, "a cycle of more than 3 files"));
        }
    }
    for folder in NO_CYCLE_FOLDERS {
        let inside: BTreeMap<(usize, usize), usize> = edges
            .iter()
            .filter(|((from, to), _)| {
                krate.files[*from].starts_with(folder) && krate.files[*to].starts_with(folder)
            })
            .map(|(&key, &line)| (key, line))
            .collect();
        for members in cycles(krate.files.len(), &inside) {
            broken.push(shown(&members, &format!("a cycle inside src/{folder}")));
        }
    }
    broken
}

#[test]
fn no_import_cycle_is_larger_than_three_files_nor_inside_a_no_cycle_folder() {
    let krate = Crate::new(crate_files());
    assert!(
        krate.files.len() > 200,
        "only {} files read",
        krate.files.len()
    );
    let broken = cycles_against_the_rules(&krate);
    assert!(
        broken.is_empty(),
        "import cycles among the files of src/ (at most {LARGEST_CYCLE_ALLOWED} files in one, \
         none inside {NO_CYCLE_FOLDERS:?}):\n{}",
        broken.join("\n")
    );
}

/// The files of a made-up crate, as (path under `src/`, source).
fn made_up_crate(files: &[(&str, &str)]) -> Crate {
    Crate::new(
        files
            .iter()
            .map(|(path, source)| ((*path).to_owned(), (*source).to_owned()))
            .collect(),
    )
}

/// The imports between files of `krate`, as "from -> to".
fn imports_shown(krate: &Crate) -> Vec<String> {
    krate
        .edges()
        .keys()
        .map(|&(from, to)| format!("{} -> {}", krate.files[from], krate.files[to]))
        .collect()
}

#[test]
fn paths_lead_to_the_file_that_defines_the_item_through_re_exports_and_aliases() {
    let krate = made_up_crate(&[
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        (
            "a/mod.rs",
            "mod x;\nmod y;\n#[cfg(test)]\nmod checks;\npub use x::X;\npub const LIMIT: usize = 3;\n",
        ),
        ("a/x.rs", "pub struct X;\npub(in crate::a) fn f() {}\n"),
        // `super::X` is x.rs's (re-exported by mod.rs); an alias leads where its path does;
        // a visibility path is no import; test-only code is not read.
        (
            "a/y.rs",
            "use super::X;\nuse crate::b::{self as other};\nfn g() { other::h(); }\n\
             #[cfg(test)]\nmod tests {\n    use super::super::LIMIT;\n}\n",
        ),
        ("a/checks.rs", "use super::LIMIT;\n"),
        ("b.rs", "pub fn h() -> usize { crate::a::LIMIT + std::mem::size_of::<u8>() }\n"),
    ]);
    assert_eq!(
        imports_shown(&krate),
        [
            "a/mod.rs -> a/x.rs",
            "a/y.rs -> a/x.rs",
            "a/y.rs -> b.rs",
            "b.rs -> a/mod.rs"
        ]
    );
}

#[test]
fn a_cycle_of_four_files_or_one_inside_a_no_cycle_folder_breaks_the_rules() {
    // p/one -> p/two -> p/three -> p/one: three files, allowed outside the folders.
    let three = [
        ("lib.rs", "pub mod p;\n"),
        ("p/mod.rs", "mod one;\nmod three;\nmod two;\n"),
        ("p/one.rs", "use super::two::T;\n"),
        ("p/two.rs", "pub struct T;\nuse super::three::U;\n"),
        ("p/three.rs", "pub struct U;\nuse super::one::*;\n"),
    ];
    assert!(cycles_against_the_rules(&made_up_crate(&three)).is_empty());
    let mut four = three.to_vec();
    four[4] = ("p/three.rs", "pub struct U;\nuse super::four::V;\n");
    four[1] = ("p/mod.rs", "mod four;\nmod one;\nmod three;\nmod two;\n");
    four.push(("p/four.rs", "pub struct V;\nuse super::one::*;\n"));
    let broken = cycles_against_the_rules(&made_up_crate(&four));
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("a cycle of more than 3 files: 4 files"),
        "{broken:?}"
    );
    assert!(
        broken[0].contains("src/p/four.rs:2 -> src/p/one.rs"),
        "{broken:?}"
    );
    // Two files of migrate/ importing each other.
    let migrate = [
        ("lib.rs", "pub mod migrate;\n"),
        ("migrate/mod.rs", "mod report;\nmod stepper;\n"),
        (
            "migrate/report.rs",
            "use super::stepper::Migration;\npub fn write() {}\n",
        ),
        (
            "migrate/stepper.rs",
            "pub struct Migration;\nfn w() { super::report::write() }\n",
        ),
    ];
    let broken = cycles_against_the_rules(&made_up_crate(&migrate));
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("a cycle inside src/migrate/: 2 files"),
        "{broken:?}"
    );
}
