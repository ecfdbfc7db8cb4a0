//! The command line: clap definitions and dispatch. One file per subcommand; each exposes
//! `Args` (clap) and `run(&Args, &mut Output) -> Result<Exit, CliError>`.

use clap::{Parser, Subcommand};
use std::io::Write;

mod bless;
mod check;
mod common;
mod convert;
mod derive;
mod digest;
mod explain;
mod ls;
mod output;

pub use output::{CliError, Exit, Output};

#[derive(Debug, Parser)]
#[command(
    name = "handoff-inspector",
    version,
    about = "Inspect agent-handoff evidence against the K1-A handoff freeze",
    long_about = "Inspect agent-handoff evidence: A2A adapter conversions, each `handoff` flag \
                  explained against the K1-A frozen rule table, digests against goldens, A2A \
                  v0.3 -> v1.0 migrations and other handoff formats.\n\nWithout a subcommand it \
                  opens the interactive inspector on PATH (default: the current directory).\n\n\
                  Every flag shown is visibility evidence only: it never means a handoff was \
                  correct, authorized or successful.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Convert(convert::Args),
    Explain(explain::Args),
    Digest(digest::Args),
    Ls(ls::Args),
    Check(check::Args),
    Bless(bless::Args),
    Derive(derive::Args),
}

/// Parses the process arguments, runs, and returns the process exit code.
pub fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut output = Output::new(stdout.lock());
    let result = match &cli.command {
        None => Err(CliError::Usage(
            "the interactive inspector is not built yet; see --help".into(),
        )),
        Some(command) => dispatch(command, &mut output),
    };
    let _ = output.flush();
    match result {
        Ok(exit) => exit.into(),
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "handoff-inspector: {error}");
            Exit::Usage.into()
        }
    }
}

fn dispatch(command: &Command, output: &mut Output) -> Result<Exit, CliError> {
    match command {
        Command::Convert(args) => convert::run(args, output),
        Command::Explain(args) => explain::run(args, output),
        Command::Digest(args) => digest::run(args, output),
        Command::Ls(args) => ls::run(args, output),
        Command::Check(args) => check::run(args, output),
        Command::Bless(args) => bless::run(args, output),
        Command::Derive(args) => derive::run(args, output),
    }
}
