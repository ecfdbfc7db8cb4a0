//! `o`: the selected packet's file opened in the user's editor at its line, as gitui and tig
//! open one. Which file and line is state (`target`, asked by `update`); finding the editor
//! and running it is the runtime's (`open`), with the terminal handed to the editor and taken
//! back after.

use crate::tui::state::selection::EditorTarget;
use std::process::Command;

/// The editor the user set: `$VISUAL`, else `$EDITOR` (as git and gitui look), when not empty.
pub fn configured() -> Option<String> {
    ["VISUAL", "EDITOR"].iter().find_map(|name| {
        std::env::var(name)
            .ok()
            .filter(|value| !value.trim().is_empty())
    })
}

/// The command that opens `target` in `editor`: `EDITOR +LINE PATH` through the shell, as
/// git runs `$EDITOR` (so `code --wait` or a quoted path with its flags work), the path as one
/// argument whatever it holds. `+LINE` is what vi, vim, neovim, nano, emacs, micro and kakoune
/// take.
pub fn command(editor: &str, target: &EditorTarget) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .arg(format!("+{}", target.line))
        .arg(&target.path);
    command
}

/// Runs the editor the user set on `target`, the terminal handed over for its time
/// (`TerminalGuard::suspend`); returns what the status bar says after.
pub fn open(
    target: &EditorTarget,
    guard: &mut crate::tui::runtime::terminal::TerminalGuard,
) -> String {
    let Some(editor) = configured() else {
        return no_editor(target);
    };
    match guard.suspend(|| command(&editor, target).status()) {
        Ok(ran) => ended(&editor, target, ran),
        Err(error) => format!("cannot give the terminal to the editor: {error}"),
    }
}

fn no_editor(target: &EditorTarget) -> String {
    format!(
        "no editor set: set $VISUAL or $EDITOR to open {} with o",
        target.shown()
    )
}

/// What the status bar says once the editor has ended (or could not start).
fn ended(
    editor: &str,
    target: &EditorTarget,
    ran: std::io::Result<std::process::ExitStatus>,
) -> String {
    let editor = crate::json::safe_text(editor);
    match ran {
        Err(error) => format!("cannot start {editor}: {error}"),
        Ok(status) if status.success() => format!("back from {editor} ({})", target.shown()),
        Ok(status) => format!("{editor} ended with {status} ({})", target.shown()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn target() -> EditorTarget {
        EditorTarget {
            path: PathBuf::from("dir with space/a.ndjson"),
            line: 7,
        }
    }

    #[test]
    fn the_editor_gets_the_line_and_the_path_as_one_argument() {
        let command = command("vi -n", &target());
        let args: Vec<String> = command
            .get_args()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        assert_eq!(command.get_program(), "sh");
        assert_eq!(
            args,
            [
                "-c",
                "vi -n \"$@\"",
                "vi -n",
                "+7",
                "dir with space/a.ndjson"
            ]
        );
    }

    #[test]
    fn every_ending_is_said_with_the_file_and_line() {
        assert!(no_editor(&target())
            .contains("set $VISUAL or $EDITOR to open dir with space/a.ndjson:7"));
        let started = ended("vi", &target(), Err(std::io::ErrorKind::NotFound.into()));
        assert!(started.starts_with("cannot start vi: "), "{started}");
        let ok = ended("vi", &target(), Ok(std::process::ExitStatus::default()));
        assert_eq!(ok, "back from vi (dir with space/a.ndjson:7)");
    }
}
