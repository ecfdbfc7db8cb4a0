//! Helpers shared by the integration tests: run the real binary, parse its JSON lines;
//! `screen` reads a drawn TUI buffer as text. Each area's main.rs includes this module, and
//! no area uses every helper.
#![allow(dead_code)]

pub mod screen;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The clock the fixtures are checked at (`--now`): the UAIX fixtures' envelopes expire on
/// 2030-01-01, so what they mean depends on the date. CI's gate in `.ci/run` passes the same.
pub const FIXTURES_NOW: &str = "2026-06-01T00:00:00Z";

/// Check options for the inspector's tests: the defaults at the fixtures' clock.
pub fn fixture_options() -> handoff_inspector::corpus::CheckOptions {
    let mut options = handoff_inspector::corpus::CheckOptions::default();
    options.evaluate.profile.now = chrono::DateTime::parse_from_rfc3339(FIXTURES_NOW)
        .ok()
        .map(|time| time.with_timezone(&chrono::Utc));
    options
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

pub fn a2a(name: &str) -> PathBuf {
    fixtures().join("a2a").join(format!("{name}.json"))
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line)
                    .unwrap_or_else(|error| panic!("not JSON ({error}): {line}"))
            })
            .collect()
    }
}

pub fn run(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .args(args)
        .output()
        .expect("binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs the binary with environment changes: `Some(value)` sets, `None` removes.
pub fn run_env(args: &[&str], env: &[(&str, Option<&str>)]) -> Run {
    run_in(None, args, env)
}

/// `run_env`, in the working directory `dir` when given.
pub fn run_in(dir: Option<&Path>, args: &[&str], env: &[(&str, Option<&str>)]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_handoff-inspector"));
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    for (name, value) in env {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
    let output = command.output().expect("binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Copies the files of `from` (not recursively) into `to`.
pub fn copy_files(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// The names in a directory, sorted.
pub fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// proptest's configuration for a property of an area binary: `cases` random cases in the
/// default run, `deep_cases` when `HANDOFF_DEEP_TESTS` is set (to anything but `0`): a
/// nightly-style CI job, or a developer before a release. Failures are recorded beside the
/// module (`tests/tui/drive.proptest-regressions`) and replayed first on every run: proptest's
/// default looks for the nearest `main.rs` and would put every area's `properties.rs` into one
/// `tests/proptest-regressions/properties.txt`.
pub fn proptest_config(cases: u32, deep_cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, FileFailurePersistence};
    Config {
        cases: if deep_tests() { deep_cases } else { cases },
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// Whether the long runs keep their full depth (`HANDOFF_DEEP_TESTS=1`).
pub fn deep_tests() -> bool {
    std::env::var_os("HANDOFF_DEEP_TESTS").is_some_and(|value| !value.is_empty() && value != "0")
}
