//! `completions SHELL` and `man [--dir DIR]`: a shell completion script and the roff man
//! pages, both generated from the clap definitions every command parses with, so neither can
//! drift from the flags the binary takes.

use super::{CliError, Exit, Output};
use clap::CommandFactory;
use std::path::PathBuf;

/// Print a completion script for SHELL, to be sourced or installed where the shell looks
/// (bash: `handoff-inspector completions bash > ~/.local/share/bash-completion/completions/handoff-inspector`).
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Print the man page (roff), or with --dir write one page per subcommand into DIR
/// (`handoff-inspector.1`, `handoff-inspector-check.1`, ...).
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write handoff-inspector.1 and one page per subcommand into this directory.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

fn command() -> clap::Command {
    super::Cli::command()
}

pub fn completions(args: &CompletionsArgs, output: &mut Output) -> Result<Exit, CliError> {
    let mut command = command();
    let name = command.get_name().to_owned();
    clap_complete::generate(args.shell, &mut command, name, output);
    Ok(Exit::Ok)
}

pub fn man(args: &ManArgs, output: &mut Output) -> Result<Exit, CliError> {
    let command = command();
    let Some(dir) = &args.dir else {
        clap_mangen::Man::new(command)
            .render(output)
            .map_err(|error| CliError::Io {
                path: "standard output".to_owned(),
                error,
            })?;
        return Ok(Exit::Ok);
    };
    if !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "--dir {}: not a directory",
            dir.display()
        )));
    }
    // One page for the tool and one for each subcommand, named as `man` looks them up.
    let mut pages = vec![(command.get_name().to_owned(), command.clone())];
    for sub in command.get_subcommands() {
        let name = format!("{}-{}", command.get_name(), sub.get_name());
        pages.push((name, sub.clone()));
    }
    for (name, page) in pages {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page)
            .title(name.clone())
            .render(&mut roff)
            .map_err(|error| CliError::Io {
                path: name.clone(),
                error,
            })?;
        let path = dir.join(format!("{name}.1"));
        crate::persist::write_atomically(&path, &roff, crate::persist::Replace::Keep).map_err(
            |error| CliError::Io {
                path: path.display().to_string(),
                error,
            },
        )?;
        output.line(&format!(
            "wrote {}",
            crate::json::safe_text(&path.display().to_string())
        ));
    }
    Ok(Exit::Ok)
}
