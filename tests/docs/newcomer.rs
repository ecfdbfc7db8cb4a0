//! The README is the front door: a newcomer's part (what the tool is for, the two commands, what
//! to look at first, a glossary, prerequisites), a first tour, the command list and where to
//! read more, in at most 400 lines. The reference lives in the pages under docs/. Every page
//! points only at files that exist, every link between the pages resolves (to the heading, for
//! an anchor), and every command they show is parsed against the real binary's `--help` and,
//! where it runs on this repository as written, run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// README.md, then every page under docs/ in name order (repository-relative paths).
fn pages() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    let mut pages = vec!["README.md".to_owned()];
    pages.extend(docs);
    pages
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

/// The front door stays a front door: at most 400 lines, the sections a newcomer needs, every
/// subcommand in its command list, and a link to every page of the reference.
#[test]
fn the_readme_is_the_front_door_and_links_every_page() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= 400,
        "README.md has {lines} lines; the reference belongs in docs/"
    );
    section("README.md", &readme, "## A first tour");
    let list = section("README.md", &readme, "## Commands");
    for command in subcommands() {
        assert!(
            list.contains(&format!("| `{command}` |")),
            "the README's command list lacks `{command}`"
        );
    }
    let more = section("README.md", &readme, "## Where to read more");
    for page in pages().iter().skip(1) {
        assert!(
            more.contains(&format!("]({page})")),
            "\"Where to read more\" does not link {page}"
        );
    }
    assert!(
        more.contains("](ARCHITECTURE.md)"),
        "README does not link ARCHITECTURE.md"
    );
}

/// Every relative path written in backticks in a page names something in the repository
/// (globs and placeholders in capitals aside), and none points into a sibling checkout.
#[test]
fn pages_reference_only_files_in_the_repository() {
    let root = root();
    let mut checked = pages();
    checked.extend(
        [
            "ARCHITECTURE.md",
            "fixtures/migrate/README.md",
            "fixtures/profiles/README.md",
        ]
        .map(str::to_owned),
    );
    for readme in &checked {
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

/// A page's text outside fenced code blocks (each fenced line blanked, so line counts hold),
/// and its fenced blocks with their info string.
fn split_fences(text: &str) -> (String, Vec<(String, Vec<String>)>) {
    let mut prose = String::new();
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(block) => blocks.push(block),
                None => open = Some((info.trim().to_owned(), Vec::new())),
            }
            prose.push('\n');
            continue;
        }
        match &mut open {
            Some((_, lines)) => {
                lines.push(line.to_owned());
                prose.push('\n');
            }
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    (prose, blocks)
}

/// Inline code spans of prose, with line breaks inside a span read as spaces and a table's
/// escaped `\|` as `|`.
fn code_spans(prose: &str) -> Vec<String> {
    prose
        .split('`')
        .enumerate()
        .filter(|(index, _)| index % 2 == 1)
        .map(|(_, span)| span.replace('\n', " ").replace("\\|", "|"))
        .collect()
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; a
/// repeated heading gets `-1`, `-2`...
fn anchors(text: &str) -> BTreeSet<String> {
    let (prose, _) = split_fences(text);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose.lines() {
        let Some(title) = line
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches('#'))
            .and_then(|rest| rest.strip_prefix(' '))
        else {
            continue;
        };
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let count = seen.entry(slug.clone()).or_default();
        anchors.insert(match *count {
            0 => slug.clone(),
            n => format!("{slug}-{n}"),
        });
        *count += 1;
    }
    anchors
}

/// Every Markdown link and image in README.md, ARCHITECTURE.md and docs/ that is not a web
/// address points at a file of the repository, and an anchor at one of that page's headings.
#[test]
fn every_link_between_the_pages_resolves() {
    let mut checked = pages();
    checked.push("ARCHITECTURE.md".to_owned());
    let mut links = 0;
    for page in &checked {
        let text = read(page);
        let (prose, _) = split_fences(&text);
        // Code spans are not links: drop them before looking for `](`.
        let prose: String = prose
            .split('`')
            .enumerate()
            .filter(|(index, _)| index % 2 == 0)
            .map(|(_, part)| part)
            .collect();
        let base = Path::new(page).parent().unwrap_or(Path::new(""));
        for part in prose.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or_default();
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            links += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target, None),
            };
            let file = if file.is_empty() {
                page.clone()
            } else {
                let joined = base.join(file);
                // Resolve `..` against the page's directory.
                let mut parts: Vec<&str> = Vec::new();
                for component in joined.to_str().unwrap().split('/') {
                    match component {
                        ".." => {
                            parts.pop();
                        }
                        "." | "" => {}
                        other => parts.push(other),
                    }
                }
                parts.join("/")
            };
            assert!(
                root().join(&file).exists(),
                "{page} links `{target}`: {file} is not in the repository"
            );
            if let Some(anchor) = anchor {
                let headings = anchors(&read(&file));
                assert!(
                    headings.contains(anchor),
                    "{page} links `{target}`: {file} has no heading #{anchor} (it has {headings:?})"
                );
            }
        }
    }
    assert!(links > 40, "only {links} links found: the scan is broken");
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_handoff-inspector")
}

fn help(args: &[&str]) -> String {
    let output = Command::new(bin())
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{args:?} --help");
    String::from_utf8(output.stdout).unwrap()
}

/// The subcommands, as the binary's `--help` lists them.
fn subcommands() -> Vec<String> {
    let top = help(&[]);
    let list = top
        .split("Commands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("--help lists the commands");
    list.lines()
        .filter_map(|line| line.strip_prefix("  "))
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Shell words of one command, quotes removed (no escapes or expansions: the pages use none
/// that matter here).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// One command a page shows.
#[derive(Debug)]
enum Shown {
    /// handoff-inspector (however it is spelled) and its arguments.
    Tool(Vec<String>),
    /// A cargo target named by `cargo bench --bench`, `cargo test --test`, `--example`.
    Target(&'static str, String),
}

/// The commands in one shell line: each segment of a pipeline or list, its comment dropped.
fn commands_in_line(line: &str) -> Vec<Shown> {
    let line = line.split(" #").next().unwrap_or_default();
    let mut found = Vec::new();
    for segment in line
        .split(" | ")
        .flat_map(|part| part.split(';'))
        .flat_map(|part| part.split("&&"))
    {
        let segment = segment.split(['>', '<']).next().unwrap_or_default();
        let words = shell_words(segment);
        for (index, word) in words.iter().enumerate() {
            let next = |offset: usize| words.get(index + offset).map(String::as_str);
            if word == "cargo" {
                for (flag, kind) in [
                    ("--bench", "bench"),
                    ("--test", "test"),
                    ("--example", "example"),
                ] {
                    if let Some(position) = words.iter().position(|w| w == flag) {
                        if let Some(name) = words.get(position + 1) {
                            found.push(Shown::Target(kind, name.clone()));
                        }
                    }
                }
                if next(1) == Some("run") && next(2) == Some("--release") && next(3) == Some("--") {
                    found.push(Shown::Tool(words[index + 4..].to_vec()));
                }
                break;
            }
            let program = word == "handoff-inspector"
                || word == "hi"
                || (word.ends_with("/handoff-inspector") && !word.contains('='));
            if program {
                found.push(Shown::Tool(words[index + 1..].to_vec()));
                break;
            }
        }
    }
    found
}

/// Every command a page shows: the lines of its shell and synopsis blocks (a transcript's
/// `$ ` lines only), and its inline code that starts with the program, with cargo, or with a
/// subcommand and a flag.
fn shown_commands(text: &str, subcommands: &[String]) -> Vec<Shown> {
    let (prose, blocks) = split_fences(text);
    let mut shown = Vec::new();
    for (info, lines) in &blocks {
        if !["", "sh", "console", "text"].contains(&info.as_str()) {
            continue;
        }
        let transcript = lines.iter().any(|line| line.starts_with("$ "));
        for line in lines {
            let line = match (transcript, line.strip_prefix("$ ")) {
                (true, Some(command)) => command,
                (true, None) => continue,
                (false, _) => line.as_str(),
            };
            shown.extend(commands_in_line(line));
        }
    }
    for span in code_spans(&prose) {
        let words = shell_words(&span);
        let first = words.first().map(String::as_str).unwrap_or_default();
        if first == "handoff-inspector" || first == "cargo" {
            shown.extend(commands_in_line(&span));
        } else if subcommands.iter().any(|command| command == first)
            && words.iter().any(|word| word.starts_with("--"))
        {
            shown.push(Shown::Tool(words));
        }
    }
    shown
}

/// Subcommands that read only: what the test may run as written.
const READ_ONLY: [&str; 12] = [
    "ls", "explain", "digest", "convert", "check", "report", "verify", "migrate", "profile",
    "formats", "render", "diff",
];

/// A placeholder (`FILE`, `PATH...`, `K/N`, `[--mode`, `strict|lenient`) rather than a value.
fn is_placeholder(word: &str) -> bool {
    let capitals = word
        .as_bytes()
        .windows(2)
        .any(|pair| pair[0].is_ascii_uppercase() && pair[1].is_ascii_uppercase());
    (capitals && !root().join(word).exists())
        || word.contains(['[', ']', '|', '*', '$', '<', '{'])
        || word.ends_with("...")
}

/// Every flag of a shown command is one its (sub)command's `--help` lists, with every value
/// of a `a|b|c` list; cargo targets exist; and the commands that run on this repository as
/// written run without a usage error.
#[test]
fn every_command_in_the_pages_is_parsed_and_run_where_it_can() {
    let subcommands = subcommands();
    let mut helps: BTreeMap<String, String> = BTreeMap::new();
    let manifest = read("Cargo.toml");
    let (mut parsed, mut ran) = (0, BTreeSet::new());
    for page in pages() {
        for shown in shown_commands(&read(&page), &subcommands) {
            let words = match shown {
                Shown::Target(kind, name) => {
                    let exists = match kind {
                        "bench" => manifest.contains(&format!("[[bench]]\nname = \"{name}\"")),
                        "example" => root().join(format!("examples/{name}.rs")).exists(),
                        // A test target is declared, or (unless autotests are off) found
                        // by cargo as tests/NAME.rs or tests/NAME/main.rs.
                        _ => {
                            manifest.contains(&format!("[[test]]\nname = \"{name}\""))
                                || (!manifest.contains("autotests = false")
                                    && (root().join(format!("tests/{name}.rs")).exists()
                                        || root().join(format!("tests/{name}/main.rs")).exists()))
                        }
                    };
                    assert!(
                        exists,
                        "{page} names cargo {kind} target `{name}`, which does not exist"
                    );
                    continue;
                }
                Shown::Tool(words) => words,
            };
            let words: Vec<String> = words
                .into_iter()
                .map(|word| word.trim_matches(['[', ']']).to_owned())
                .filter(|word| !word.is_empty())
                .collect();
            let command = words
                .first()
                .filter(|first| subcommands.contains(first))
                .cloned();
            let help_text = helps
                .entry(command.clone().unwrap_or_default())
                .or_insert_with(|| match &command {
                    Some(command) => help(&[command]),
                    None => help(&[]),
                });
            for (index, word) in words.iter().enumerate() {
                let Some(flag) = word.strip_prefix("--") else {
                    continue;
                };
                let flag = flag.split('=').next().unwrap_or_default();
                if flag.is_empty() {
                    continue;
                }
                let listed = help_text
                    .match_indices(&format!("--{flag}"))
                    .any(|(at, _)| {
                        help_text[at + 2 + flag.len()..]
                            .chars()
                            .next()
                            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
                    });
                assert!(
                    listed,
                    "{page} shows `{}` with --{flag}, which its --help does not list",
                    words.join(" ")
                );
                // `--mode strict|lenient|both`: each value is one the help names.
                if let Some(values) = words.get(index + 1).filter(|value| {
                    value.contains('|')
                        && value.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || ".-|".contains(c)
                        })
                }) {
                    for value in values.split('|') {
                        assert!(
                            help_text.contains(value),
                            "{page} shows --{flag} {value}, which `--help` does not name"
                        );
                    }
                }
            }
            parsed += 1;
            let runs_here = match &command {
                Some(command) => READ_ONLY.contains(&command.as_str()),
                // With no PATH it would walk the whole checkout.
                None => {
                    !words.iter().any(|word| word == "--compare")
                        && words.iter().any(|word| !word.starts_with('-'))
                }
            } && words
                .iter()
                .skip(usize::from(command.is_some()))
                .all(|word| {
                    !is_placeholder(word)
                        && word != "-"
                    // `.` would walk the whole checkout, build output included.
                    && word != "."
                        && (word.starts_with('-')
                            || !(word.contains('/') || word.contains('.'))
                            || root()
                                .join(word.split(':').next().unwrap_or_default())
                                .exists())
                });
            if !runs_here || !ran.insert(words.clone()) {
                continue;
            }
            // The inspector itself needs a terminal: draw its first screen instead.
            let args: Vec<String> = match command {
                Some(_) => words.clone(),
                None => ["render", "--view", "handoff"]
                    .into_iter()
                    .map(str::to_owned)
                    .chain(words.iter().cloned())
                    .collect(),
            };
            let output = Command::new(bin())
                .args(&args)
                .current_dir(root())
                .env("CI", "true")
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            // A fragment in prose (`check --format json`, `profile --previous`) leaves out the
            // PATH or the value it is about.
            if output.status.code() == Some(2)
                && (stderr.contains("the following required arguments were not provided")
                    || stderr.contains("a value is required for"))
            {
                ran.remove(&words);
                continue;
            }
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "{page}: `handoff-inspector {}` exited {:?}: {}",
                words.join(" "),
                output.status.code(),
                stderr
            );
        }
    }
    assert!(
        parsed > 60,
        "only {parsed} commands found: the scan is broken"
    );
    for r in &ran {
        eprintln!("RAN {}", r.join(" "));
    }
    assert!(ran.len() >= 10, "only {} commands ran: {ran:?}", ran.len());
}

/// One `$ ` command of a transcript and the output the page shows under it.
struct Step {
    command: String,
    shown: Vec<String>,
}

/// A page's transcripts (shell blocks with `$ ` lines), in order, and the scripts it writes out
/// for them (a Python block whose first line is `# NAME.py ...`).
fn transcript(text: &str) -> (Vec<Step>, Vec<(String, String)>) {
    let (_, blocks) = split_fences(text);
    let mut steps: Vec<Step> = Vec::new();
    let mut files = Vec::new();
    for (info, lines) in blocks {
        if info == "python" {
            let name = lines
                .first()
                .and_then(|line| line.strip_prefix("# "))
                .and_then(|line| line.split_whitespace().next())
                .filter(|name| name.ends_with(".py"));
            if let Some(name) = name {
                files.push((name.to_owned(), lines.join("\n") + "\n"));
            }
            continue;
        }
        if info != "sh" || !lines.iter().any(|line| line.starts_with("$ ")) {
            continue;
        }
        for line in lines {
            match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step {
                    command: command.to_owned(),
                    shown: Vec::new(),
                }),
                None => steps.last_mut().unwrap().shown.push(line),
            }
        }
    }
    (steps, files)
}

/// The walkthroughs run as written, in a scratch directory that sees the repository's
/// `fixtures/` and `tests/`, with `handoff-inspector` on PATH and `/tmp/` standing for the
/// scratch directory: each command's standard output is what the page shows under it (in
/// order, around a `...` line that stands for lines left out), and a command that opens the
/// inspector draws its first screen instead (`render`), which must succeed.
#[test]
fn every_walkthrough_prints_what_its_page_shows() {
    let subcommands = subcommands();
    let mut walked = 0;
    for page in pages() {
        let (steps, files) = transcript(&read(&page));
        if steps.is_empty() {
            continue;
        }
        walked += 1;
        let name = page.replace(['/', '.'], "-");
        let work = std::env::temp_dir().join(format!("docs-walk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(work.join("bin")).unwrap();
        std::os::unix::fs::symlink(bin(), work.join("bin/handoff-inspector")).unwrap();
        for linked in ["fixtures", "tests"] {
            std::os::unix::fs::symlink(root().join(linked), work.join(linked)).unwrap();
        }
        for (file, text) in &files {
            std::fs::write(work.join(file), text).unwrap();
        }
        let scratch = format!("{}/", work.display());
        let mut script = String::new();
        for (index, step) in steps.iter().enumerate() {
            let mut command = step.command.replace("/tmp/", &scratch);
            let words = shell_words(command.split(" #").next().unwrap_or_default());
            let opens_inspector = words.first().is_some_and(|w| w == "handoff-inspector")
                && words
                    .get(1)
                    .is_some_and(|w| !w.starts_with('-') && !subcommands.contains(w));
            if opens_inspector {
                let args = words[1..].join(" ");
                command = format!(
                    "handoff-inspector render --view handoff {args} > /dev/null || echo '@@failed: {}'",
                    step.command
                );
            }
            script.push_str(&format!("echo '@@step {index}'\n{command}\n"));
        }
        let path = format!(
            "{}:{}",
            work.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        // `CI=""` lets bless write, as the goldens page says: here, in the scratch directory only.
        let output = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&work)
            .env("PATH", path)
            .env("CI", "")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).replace(&scratch, "/tmp/");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stdout.contains("@@failed"), "{page}: {stdout}\n{stderr}");
        let mut printed: Vec<Vec<&str>> = Vec::new();
        for line in stdout.lines() {
            if line.starts_with("@@step ") {
                printed.push(Vec::new());
            } else if let Some(current) = printed.last_mut() {
                current.push(line.trim_end());
            }
        }
        assert_eq!(printed.len(), steps.len(), "{page}: {stdout}\n{stderr}");
        for (step, printed) in steps.iter().zip(&printed) {
            if step.shown.is_empty() {
                continue;
            }
            let shown: Vec<&str> = step.shown.iter().map(|line| line.trim_end()).collect();
            let agrees = if shown.contains(&"...") {
                // The lines shown, in order, with anything between them where `...` stands.
                let mut rest = printed.iter();
                shown
                    .iter()
                    .filter(|line| **line != "...")
                    .all(|line| rest.any(|printed| printed == line))
            } else {
                &shown == printed
            };
            assert!(
                agrees,
                "{page}: `$ {}` printed\n{}\nbut the page shows\n{}\n(stderr: {stderr})",
                step.command,
                printed.join("\n"),
                shown.join("\n")
            );
        }
        let _ = std::fs::remove_dir_all(&work);
    }
    assert!(
        walked >= 3,
        "only {walked} pages with walkthroughs found: the scan is broken"
    );
}

/// The part of `page`'s `text` under `heading`, up to the next heading of that level.
fn section<'a>(page: &str, text: &'a str, heading: &str) -> &'a str {
    let level = heading.split(' ').next().unwrap_or_default();
    text.split(&format!("\n{heading}\n"))
        .nth(1)
        .and_then(|rest| rest.split(&format!("\n{level} ")).next())
        .unwrap_or_else(|| panic!("{page} lacks {heading}"))
}

/// ARCHITECTURE.md stays a true map: a row for every module src/lib.rs declares, every
/// subcommand and every inspector tab with the files it runs through, the invariants, where
/// to add a profile, a migration step, a tab and a report format, and every source file it
/// names exists.
#[test]
fn the_architecture_map_names_what_exists() {
    let map = read("ARCHITECTURE.md");
    let modules = section("ARCHITECTURE.md", &map, "## Modules (bottom to top)");
    let lib = read("src/lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub mod "))
        .map(|name| name.trim_end_matches(';'))
        .collect();
    assert!(declared.len() > 10, "src/lib.rs declares {declared:?}");
    for module in declared {
        assert!(
            modules.contains(&format!("| `{module}/` |"))
                || modules.contains(&format!("| `{module}.rs` |")),
            "ARCHITECTURE.md's module table has no row for `{module}`"
        );
    }
    let commands = section(
        "ARCHITECTURE.md",
        &map,
        "## Commands and the files they run through",
    );
    for command in subcommands() {
        assert!(
            commands.contains(&format!("`{command}`")),
            "ARCHITECTURE.md does not map the `{command}` command"
        );
    }
    let tabs = section("ARCHITECTURE.md", &map, "## Inspector tabs");
    let keymap = handoff_inspector::tui::state::keymap::keymap_markdown();
    let mut tab_count = 0;
    for line in keymap.lines() {
        let Some(rest) = line.strip_prefix("| `") else {
            continue;
        };
        let (key, rest) = rest.split_once("` | ").unwrap_or_default();
        let Some((name, _)) = rest.split_once(" tab") else {
            continue;
        };
        if key.len() == 1 && key.as_bytes()[0].is_ascii_digit() {
            tab_count += 1;
            assert!(
                tabs.contains(&format!("| {key} {name} |")),
                "ARCHITECTURE.md's tab map lacks tab {key} {name}"
            );
        }
    }
    assert_eq!(tab_count, 8, "the keymap's tabs: {keymap}");
    let invariants = section("ARCHITECTURE.md", &map, "## Invariants").to_lowercase();
    for invariant in ["one input door", "terminal-safe", "one classifier", "`ci`"] {
        assert!(
            invariants.contains(invariant),
            "ARCHITECTURE.md's invariants lack {invariant:?}"
        );
    }
    let where_to_add = section("ARCHITECTURE.md", &map, "## Where to add").to_lowercase();
    for what in ["a profile", "a migration step", "tab", "a report format"] {
        assert!(
            where_to_add.contains(what),
            "ARCHITECTURE.md does not say where to add {what}"
        );
    }
    // Every file or directory it names in backticks exists: under src/ (named from src/ or
    // from its module, `views/raw.rs`) or from the repository's root.
    let mut files = Vec::new();
    let mut pending = vec![root().join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let relative = path
                .strip_prefix(root())
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            if path.is_dir() {
                files.push(format!("{relative}/"));
                pending.push(path);
            } else {
                files.push(relative);
            }
        }
    }
    let mut named = 0;
    for span in code_spans(&split_fences(&map).0) {
        for word in span.split([' ', ',', '(', ')']) {
            let is_source = word.ends_with(".rs") || (word.ends_with('/') && word.len() > 1);
            if !is_source || word.contains('*') || word.chars().any(|c| c.is_ascii_uppercase()) {
                continue;
            }
            named += 1;
            let exists = root().join(word).exists()
                || files
                    .iter()
                    .any(|file| file == word || file.ends_with(&format!("/{word}")));
            assert!(
                exists,
                "ARCHITECTURE.md names `{word}`, which is not in the repository"
            );
        }
    }
    assert!(
        named > 50,
        "only {named} file names found in ARCHITECTURE.md"
    );
}

/// docs/check.md documents what `check --format json` writes: a status-table row for every
/// status, every finding kind, every packet field and every summary field it counts, read from
/// a real run over the fixtures (zeros included, so every status and finding kind is there).
#[test]
fn the_check_page_documents_every_status_finding_and_field() {
    let output = Command::new(bin())
        .args(["check", "--format", "json", "fixtures"])
        .current_dir(root())
        .env("CI", "true")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let page = read("docs/check.md");
    let keys = |value: &serde_json::Value| -> Vec<String> {
        value
            .as_object()
            .map(|object| object.keys().cloned().collect())
            .unwrap_or_default()
    };
    let statuses = keys(&report["summary"]["by_status"]);
    assert!(statuses.len() >= 7, "{statuses:?}");
    for status in statuses {
        assert!(
            page.contains(&format!("| `{status}` |")),
            "docs/check.md's status table lacks `{status}`"
        );
    }
    let findings = keys(&report["summary"]["by_finding"]);
    assert!(findings.len() >= 14, "{findings:?}");
    for finding in findings {
        assert!(
            page.contains(&format!("`{finding}`")),
            "docs/check.md does not name the finding kind `{finding}`"
        );
    }
    let mut fields = BTreeSet::new();
    for packet in report["packets"].as_array().unwrap() {
        fields.extend(keys(packet));
    }
    for field in fields {
        assert!(
            page.contains(&format!("`packets[].{field}`"))
                || page.contains(&format!("`packets[].{field}[]`")),
            "docs/check.md's JSON table lacks packets[].{field}"
        );
    }
    for field in keys(&report["summary"]) {
        assert!(
            [
                format!("`summary.{field}`"),
                format!("`summary.{field}[]`"),
                format!("`summary.{field}.")
            ]
            .iter()
            .any(|name| page.contains(name))
                || page.contains(&format!("`.{field}`")),
            "docs/check.md's JSON table lacks summary.{field}"
        );
    }
    for field in keys(&report) {
        assert!(
            page.contains(&format!("\"{field}\"")),
            "docs/check.md lacks the top-level {field}"
        );
    }
}

/// One answer for empty and binary files: every page that speaks of them and of load errors
/// in one paragraph says they are not load errors (they are packets the adapter rejects, C3),
/// as every command treats them (`tests/corpus/one_verdict.rs` runs each command on them).
#[test]
fn pages_give_one_answer_for_empty_and_binary_files() {
    let mut said = 0;
    for page in pages() {
        for paragraph in read(&page).split("\n\n") {
            let text = paragraph.replace('\n', " ").to_lowercase();
            let about_them = text.contains("empty") && text.contains("binary");
            if !(about_them && text.contains("load error")) {
                continue;
            }
            assert!(
                text.contains("is not a load error") && text.contains("c3"),
                "{page}: a paragraph on empty and binary files and load errors does not say they \
                 are packets the adapter rejects (C3), not load errors:\n{paragraph}"
            );
            said += 1;
        }
    }
    assert!(
        said >= 2,
        "docs/check.md and docs/commands.md both say it ({said} found)"
    );
}

/// Every `.rs` file under src/, as (module path from the crate root, source):
/// `src/golden/manifest/parse.rs` is `["golden", "manifest", "parse"]`.
fn source_modules() -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut pending = vec![root().join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path.strip_prefix(root().join("src")).unwrap();
            let Some(relative) = relative.to_str().filter(|name| name.ends_with(".rs")) else {
                continue;
            };
            let mut module: Vec<String> = relative.split('/').map(str::to_owned).collect();
            let file = module.pop().unwrap_or_default();
            if !["mod.rs", "lib.rs", "main.rs"].contains(&file.as_str()) {
                module.push(file.trim_end_matches(".rs").to_owned());
            }
            found.push((module, std::fs::read_to_string(&path).unwrap()));
        }
    }
    found
}

/// Whether `source` declares `item` (a function, type, constant, module, a re-export of it,
/// or, for `member_of`, a field, variant or method of that type).
fn declares(source: &str, item: &str) -> bool {
    let item = regex::escape(item);
    let declared = format!(
        r"\b(fn|struct|enum|trait|type|const|static|mod|macro_rules!)\s+{item}\b|\bpub(\([^)]*\))?\s+use\s[^;]*\b{item}\b"
    );
    regex::Regex::new(&declared).unwrap().is_match(source)
}

/// Whether the crate's `Type` has `member`: a method in one of its `impl` blocks, or a field
/// or variant in the file that defines it.
fn type_has(sources: &[(Vec<String>, String)], type_name: &str, member: &str) -> bool {
    let type_name = regex::escape(type_name);
    let defines =
        regex::Regex::new(&format!(r"\b(struct|enum|trait|type)\s+{type_name}\b")).unwrap();
    let implements =
        regex::Regex::new(&format!(r"\bimpl\b[^{{;]*\b{type_name}\b[^{{;]*\{{")).unwrap();
    let member = regex::escape(member);
    let method = regex::Regex::new(&format!(r"\bfn\s+{member}\b")).unwrap();
    let field_or_variant = regex::Regex::new(&format!(
        r"(?m)^\s*(pub(\([^)]*\))?\s+)?{member}\b\s*[:,({{]"
    ))
    .unwrap();
    sources.iter().any(|(_, source)| {
        (defines.is_match(source) && (field_or_variant.is_match(source) || method.is_match(source)))
            || (implements.is_match(source) && method.is_match(source))
    })
}

/// The `module::item` and `Type::member` paths ARCHITECTURE.md names resolve in the crate: the
/// item is declared (or re-exported) in a module whose path ends as written (`views::key_hints`
/// is `tui/views/`'s), and a type has the member named.
#[test]
fn the_architecture_map_names_items_that_exist_where_it_says() {
    let map = read("ARCHITECTURE.md");
    let sources = source_modules();
    let mut resolved = 0;
    let mut missing = Vec::new();
    for span in code_spans(&split_fences(&map).0) {
        let path = span.trim_end_matches("()");
        if !path.contains("::") || path.contains(' ') || path.ends_with("::") {
            continue;
        }
        let segments: Vec<&str> = path.split("::").collect();
        let (item, within) = segments.split_last().unwrap();
        let is_type = |name: &str| name.starts_with(|c: char| c.is_ascii_uppercase());
        let found = match within.last() {
            Some(owner) if is_type(owner) => type_has(&sources, owner, item),
            _ => sources.iter().any(|(module, source)| {
                let in_module = module.ends_with(
                    &within
                        .iter()
                        .map(|segment| (*segment).to_owned())
                        .collect::<Vec<_>>(),
                );
                let is_submodule = module.len() > within.len()
                    && module[module.len() - within.len() - 1..module.len() - 1]
                        .iter()
                        .eq(within.iter())
                    && module.last().is_some_and(|last| last == item);
                (in_module && declares(source, item)) || is_submodule
            }),
        };
        resolved += 1;
        if !found {
            missing.push(path.to_owned());
        }
    }
    assert!(
        resolved > 20,
        "only {resolved} paths found in ARCHITECTURE.md"
    );
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names items that are not where it says: {missing:?}"
    );
}
