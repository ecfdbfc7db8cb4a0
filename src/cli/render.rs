//! `render`: draw one view of the interactive inspector, headless, as an SVG on stdout.

use super::common::ModeArg;
use super::{CliError, Exit, Output};
use crate::tui::runtime::render::{render, RenderSpec, View};
use crate::tui::views::svg::buffer_to_svg;
use std::path::PathBuf;

/// Draw a view of the interactive inspector into an SVG (stdout), exactly as the terminal
/// would show it, colours included: for screenshots, docs and reviews without a terminal.
/// The SVG is a file, not a terminal: it is drawn in colour unless `--color never`.
///
/// Example: `handoff-inspector render --view handoff --size 120x40 --select happy_task_requested.json fixtures/a2a > handoff.svg`
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub walk: super::common::WalkFlags,
    /// Which view to draw.
    #[arg(long, value_enum, default_value = "handoff")]
    pub view: View,
    /// Terminal size, WIDTHxHEIGHT.
    #[arg(long, default_value = "120x40", value_parser = parse_size)]
    pub size: (u16, u16),
    /// Select the first packet whose path or text contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub select: Option<String>,
    /// Mode to show.
    #[arg(long, value_enum, default_value = "strict")]
    pub mode: ModeArg,
    /// Keys to press before drawing, e.g. `lnn` or `<Down><Enter>`.
    #[arg(long, default_value = "")]
    pub keys: String,
    /// The old spelling of `--color never`, kept for scripts that use it.
    #[arg(long, hide = true)]
    pub no_color: bool,
    /// The clock for expiry checks, RFC 3339 (default: the system clock), as the inspector
    /// and `check` take it.
    #[arg(long, value_name = "RFC3339", value_parser = super::common::parse_now)]
    pub now: Option<chrono::DateTime<chrono::Utc>>,
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

fn parse_size(text: &str) -> Result<(u16, u16), String> {
    let (width, height) = text
        .split_once('x')
        .ok_or("expected WIDTHxHEIGHT, e.g. 120x40")?;
    let width: u16 = width.parse().map_err(|_| format!("bad width {width:?}"))?;
    let height: u16 = height
        .parse()
        .map_err(|_| format!("bad height {height:?}"))?;
    if !(20..=500).contains(&width) || !(5..=300).contains(&height) {
        return Err("size out of range (20x5 to 500x300)".into());
    }
    Ok((width, height))
}

/// `color`: the global `--color`; only `never` (or the old `--no-color`) draws without colour.
pub fn run(args: &Args, color: super::ColorChoice, output: &mut Output) -> Result<Exit, CliError> {
    for path in &args.paths {
        if !path.exists() {
            return Err(CliError::Io {
                path: path.display().to_string(),
                error: std::io::ErrorKind::NotFound.into(),
            });
        }
    }
    let spec = RenderSpec {
        paths: args.paths.clone(),
        view: args.view,
        width: args.size.0,
        height: args.size.1,
        select: args.select.clone(),
        mode: args.mode.into(),
        keys: args.keys.clone(),
        color: !args.no_color && color != super::ColorChoice::Never,
        now: args.now,
        walk: args.walk.options(),
        // The trusted keys of the inspector's other faces: HANDOFF_TRUSTED_KEYS (render's
        // `--keys` are keys to press).
        trusted_keys: super::common::KeyFlags::default().trusted_keys()?.into(),
    };
    let buffer = render(&spec).map_err(CliError::Usage)?;
    output.line(buffer_to_svg(&buffer).trim_end());
    Ok(Exit::Ok)
}
