//! The file-level import graph and its cycles.

use super::lexing::{is_identifier, line_of, strip_comments_and_literals, tokens};
use super::{rust_files, src};
use std::collections::{BTreeMap, BTreeSet};

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
pub(super) struct Crate {
    files: Vec<String>,
    file_of_module: BTreeMap<ModulePath, usize>,
    read: Vec<FilePaths>,
    /// The files only tests compile (`#[cfg(test)] mod NAME;` in their parent's file).
    test_only: BTreeSet<usize>,
}

impl Crate {
    /// `files`: (path under `src/`, source).
    pub(super) fn new(files: Vec<(String, String)>) -> Crate {
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
        let test_only: BTreeSet<usize> = file_of_module
            .iter()
            .flat_map(|(module, &file)| {
                read[file].test_modules.iter().map(move |name| {
                    let mut child = module.clone();
                    child.push(name.clone());
                    child
                })
            })
            .filter_map(|module| file_of_module.get(&module).copied())
            .collect();
        for &file in &test_only {
            read[file] = FilePaths::default();
        }
        Crate {
            files: names,
            file_of_module,
            read,
            test_only,
        }
    }

    /// The files only tests compile, as paths under `src/`.
    pub(super) fn test_only_files(&self) -> impl Iterator<Item = &str> {
        self.test_only.iter().map(|&file| self.files[file].as_str())
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
pub(super) fn crate_files() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    paths
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(src()).ok()?.to_str()?.to_owned();
            if relative == "main.rs" || relative.starts_with("layering/") {
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
