//! The command line: clap definitions and dispatch. One file per subcommand; each exposes
//! `Args` (clap) and `run(&Args, &mut Output) -> Result<Exit, CliError>`.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

mod attest;
mod bless;
mod bundle;
mod check;
mod color;
mod common;
mod convert;
mod derive;
mod diff;
mod digest;
mod explain;
mod formats;
mod generate;
mod global_flags;
mod ls;
mod migrate;
mod output;
mod pending;
mod profile;
mod progress;
mod render;
mod report;
mod typo;
mod verify;

pub use color::ColorChoice;
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
    /// Files, directories or NDJSON streams to open in the interactive inspector.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Colour: auto colours a terminal only (not under NO_COLOR or TERM=dumb), for the
    /// inspector and every command's text output; JSON, JUnit, SARIF and markdown never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: ColorChoice,
    #[command(flatten)]
    pub walk: common::WalkFlags,
    #[command(flatten)]
    pub keys: common::KeyFlags,
    /// The clock for expiry checks in the inspector, RFC 3339 (default: the system clock), as
    /// `check`, `explain` and `render` take it.
    #[arg(long, value_name = "RFC3339", value_parser = common::parse_now)]
    pub now: Option<chrono::DateTime<chrono::Utc>>,
    /// Open two runs (bundles, directories or NDJSON streams) in the inspector's Compare view,
    /// paired as `diff` pairs them (strict mode).
    #[arg(long, num_args = 2, value_names = ["BASE", "CANDIDATE"])]
    pub compare: Option<Vec<PathBuf>>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Convert(convert::Args),
    Explain(explain::Args),
    Digest(digest::Args),
    /// Evaluate one master/sub, ContextCore or UAIX handoff packet against its rule table.
    Profile(profile::Args),
    /// Show which field of each handoff format plays each A2A handoff-seam role.
    Formats(formats::Args),
    // Help text lives on `migrate::Args`, generated from the step table.
    Migrate(migrate::Args),
    Render(render::Args),
    Ls(ls::Args),
    Check(check::Args),
    Report(report::Args),
    Bless(bless::Args),
    Derive(derive::Args),
    Verify(verify::Args),
    Attest(attest::Args),
    Bundle(bundle::Args),
    Diff(diff::Args),
    Completions(generate::CompletionsArgs),
    Man(generate::ManArgs),
}

impl Command {
    /// The walk flags of a command that walks PATHs (`None` for the others, which take no
    /// such flag).
    fn walk_flags(&self) -> Option<common::WalkFlags> {
        match self {
            Command::Convert(args) => Some(args.walk),
            Command::Explain(args) => Some(args.walk),
            Command::Digest(args) => Some(args.walk),
            Command::Render(args) => Some(args.walk),
            Command::Bundle(args) => Some(args.walk),
            Command::Ls(args) => Some(args.corpus.walk),
            Command::Check(args) => Some(args.run.corpus.walk),
            Command::Bless(args) => Some(args.run.corpus.walk),
            Command::Diff(args) => Some(args.corpus.walk),
            Command::Profile(_)
            | Command::Formats(_)
            | Command::Migrate(_)
            | Command::Derive(_)
            | Command::Verify(_)
            | Command::Attest(_)
            | Command::Report(_)
            | Command::Completions(_)
            | Command::Man(_) => None,
        }
    }
}

/// Parses the process arguments, runs, and returns the process exit code.
pub fn main() -> std::process::ExitCode {
    let args = global_flags::subcommand_first(std::env::args_os().collect(), || {
        use clap::CommandFactory;
        Cli::command()
            .get_subcommands()
            .map(|command| command.get_name().to_owned())
            .collect()
    });
    let cli = Cli::parse_from(args);
    // SIGINT, SIGTERM, SIGHUP: a write cut short leaves no temporary file (persist/).
    if let Err(error) = crate::persist::install_interrupt_cleanup() {
        let _ = writeln!(
            std::io::stderr(),
            "handoff-inspector: interrupts will not remove temporary files: {error}"
        );
    }
    let walk = match &cli.command {
        None => Some(cli.walk),
        Some(command) => command.walk_flags(),
    };
    if let Some(walk) = walk {
        if let Some(kind) = walk.reading {
            crate::corpus::force_reading(kind);
        }
    }
    let stdout = std::io::stdout();
    let terminals = {
        use std::io::IsTerminal;
        output::Terminals {
            stdout: stdout.is_terminal(),
            stderr: std::io::stderr().is_terminal(),
        }
    };
    let mut output = Output::new(stdout.lock())
        .with_color(cli.color.enabled())
        .with_terminals(terminals);
    let result = match &cli.command {
        None => run_tui(&cli),
        Some(command) => dispatch(command, cli.color, &mut output),
    };
    // A write that failed (a full disk) fails the command, whatever it concluded; a closed
    // pipe does not.
    let written = output.finish();
    report_peak_rss();
    match result.and_then(|exit| written.map(|()| exit)) {
        Ok(exit) => exit.into(),
        Err(error) => {
            // Messages carry file names and packet text: nothing reaches the terminal raw.
            // A closed or failing stderr is ignored: the exit status still says it.
            let text = error.to_string();
            let mut stderr = std::io::stderr().lock();
            for line in text.lines() {
                let _ = writeln!(
                    stderr,
                    "handoff-inspector: {}",
                    crate::json::safe_text(line)
                );
            }
            Exit::Usage.into()
        }
    }
}

/// With `HANDOFF_INSPECTOR_PEAK_RSS=FILE`, writes this process's peak RSS (bytes, from
/// `VmHWM`) to FILE: the memory bound tests read it there, because a parent's `wait4` also
/// counts the memory of the process it was spawned from (Linux carries the pre-exec peak).
fn report_peak_rss() {
    let Some(path) = std::env::var_os("HANDOFF_INSPECTOR_PEAK_RSS") else {
        return;
    };
    if let Some(kib) = check::peak_rss_kib() {
        let _ = std::fs::write(path, (kib * 1024).to_string());
    }
}

fn run_tui(cli: &Cli) -> Result<Exit, CliError> {
    use std::io::IsTerminal;
    if let Some(first) = cli.paths.first() {
        // Any argument before the first PATH is a flag of the inspector's.
        let flag_before = std::env::args_os()
            .nth(1)
            .is_some_and(|arg| arg != first.as_os_str());
        if let Some(told) = typo::subcommand_mistaken_for_path(first, flag_before) {
            return Err(CliError::Usage(told));
        }
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(CliError::Usage(
            "the interactive inspector needs a terminal; use a subcommand (see --help) in scripts"
                .into(),
        ));
    }
    if let Some(sides) = &cli.compare {
        let mut evaluate = crate::corpus::EvaluateOptions::default();
        evaluate.profile.now = cli.now;
        let mut options = crate::compare::CompareOptions::new(
            crate::a2a::Mode::Strict,
            evaluate,
            crate::corpus::PipelineOptions::default(),
        );
        options.walk = cli.walk.options();
        options.trusted_keys = cli.keys.trusted_keys()?.into();
        let (Some(base), Some(candidate)) = (sides.first(), sides.get(1)) else {
            return Err(CliError::Usage("--compare needs BASE and CANDIDATE".into()));
        };
        let comparison = crate::compare::compare(base, candidate, &options)
            .map_err(|error| CliError::Usage(format!("cannot read {error}")))?;
        return crate::tui::compare::run(comparison, cli.color.enabled())
            .map(|()| Exit::Ok)
            .map_err(|error| CliError::Io {
                path: "terminal".into(),
                error,
            });
    }
    let paths = if cli.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        cli.paths.clone()
    };
    for path in &paths {
        if !path.exists() {
            return Err(CliError::Io {
                path: path.display().to_string(),
                error: std::io::ErrorKind::NotFound.into(),
            });
        }
    }
    let mut options = crate::corpus::CheckOptions::default();
    options.evaluate.profile.force = common::forced_profile();
    options.evaluate.profile.now = cli.now;
    options.walk = cli.walk.options();
    options.trusted_keys = cli.keys.trusted_keys()?.into();
    crate::tui::run(paths, options, cli.color.enabled())
        .map(|()| Exit::Ok)
        .map_err(|error| CliError::Io {
            path: "terminal".into(),
            error,
        })
}

fn dispatch(command: &Command, color: ColorChoice, output: &mut Output) -> Result<Exit, CliError> {
    match command {
        Command::Convert(args) => convert::run(args, output),
        Command::Explain(args) => explain::run(args, output),
        Command::Digest(args) => digest::run(args, output),
        Command::Profile(args) => profile::run(args, output),
        Command::Formats(args) => formats::run(args, output),
        Command::Migrate(args) => migrate::run(args, output),
        Command::Render(args) => render::run(args, color, output),
        Command::Ls(args) => ls::run(args, output),
        Command::Check(args) => check::run(args, output),
        Command::Report(args) => report::run(args, output),
        Command::Bless(args) => bless::run(args, output),
        Command::Verify(args) => verify::run(args, output),
        Command::Attest(args) => attest::run(args, output),
        Command::Bundle(args) => bundle::run(args, output),
        Command::Derive(args) => derive::run(args, output),
        Command::Diff(args) => diff::run(args, output),
        Command::Completions(args) => generate::completions(args, output),
        Command::Man(args) => generate::man(args, output),
    }
}
