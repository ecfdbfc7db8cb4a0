//! `handoff-inspector formats`: the cross-format view. For the A2A adapter seam and each
//! other handoff format, which field plays each role of the A2A handoff seam, side by side.

use super::output::{CliError, Exit, Output};
use super::profile::{print_json, Format};
use crate::profiles::crosswalk;
use crate::report::crosswalk_text::table_lines;

#[derive(Debug, clap::Args)]
#[command(
    about = "Show which field of each handoff format plays each A2A handoff-seam role",
    long_about = "For the A2A adapter seam (K1-A v1) and each other handoff format (master/sub \
                  record, ContextCore CC-MSG / CC-CONTRACT / CC-STORE, UAIX \
                  uai.agent.handoff.v1): the field that plays each role of the A2A handoff seam \
                  (task reference, message or handoff id, from agent, to agent, reason, next \
                  action), or that the format cannot express it."
)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    match args.format {
        Format::Text => {
            for line in table_lines() {
                output.line(&line);
            }
        }
        Format::Json => print_json(&crosswalk(), output)?,
    }
    Ok(Exit::Ok)
}
