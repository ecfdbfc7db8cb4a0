//! Helpers shared by the integration tests: run the real binary, parse its JSON lines;
//! `screen` reads a drawn TUI buffer as text. Each area's main.rs includes this module, and
//! no area uses every helper.
#![allow(dead_code)]

pub mod screen;

use std::path::{Path, PathBuf};
use std::process::Command;

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
