//! `completions` and `man` through the binary: generated from the clap definitions, so each
//! names every subcommand the binary has, and the flags of `check`.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
}

fn stdout(args: &[&str]) -> String {
    let output = bin().args(args).output().expect("binary runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The subcommands, as `--help` lists them (the first word of each line under "Commands:").
fn subcommands() -> Vec<String> {
    let help = stdout(&["--help"]);
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A wrapped description continues further in.
        .filter(|line| !line[2..].starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn completions_name_every_subcommand_and_checks_formats() {
    let names = subcommands();
    assert!(names.len() >= 15, "{names:?}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}: no {name}");
        }
        assert!(script.contains("--format"), "{shell}: no --format");
        // Elvish's and PowerShell's scripts complete flags, not their values.
        if matches!(shell, "bash" | "zsh" | "fish") {
            assert!(
                script.contains("sarif"),
                "{shell}: check's formats are not offered"
            );
        }
    }
}

#[test]
fn man_is_roff_with_every_subcommand_and_a_page_each() {
    let names = subcommands();
    let page = stdout(&["man"]);
    assert!(
        page.contains(".TH handoff-inspector 1"),
        "not a roff man page"
    );
    for name in &names {
        assert!(page.contains(name.as_str()), "man: no {name}");
    }
    let dir = tempfile::tempdir().unwrap();
    stdout(&["man", "--dir", &dir.path().to_string_lossy()]);
    for name in &names {
        let path = dir.path().join(format!("handoff-inspector-{name}.1"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert!(text.contains(".SH SYNOPSIS"), "{path:?}");
    }
}
