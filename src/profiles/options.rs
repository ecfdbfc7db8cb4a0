//! How a packet is evaluated against its profile: the options every profile's evaluation
//! reads, below all of them.

use super::detect::ProfileKind;
use chrono::{DateTime, Utc};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// How to evaluate a packet. `Default` is what the CLI does without flags.
#[derive(Clone, Debug, Default)]
pub struct ProfileOptions {
    /// Master/sub contract version whose validator is reproduced (`--profile-version`).
    pub profile_version: AhcVersion,
    /// Directory AHC artifact paths resolve against (`--artifact-root`); default: the
    /// packet's directory. Nothing outside it is ever looked at.
    pub artifact_root: Option<PathBuf>,
    /// The clock for expiry checks (`--now`); `None` reads the system clock.
    pub now: Option<DateTime<Utc>>,
    /// Evaluate as this profile instead of detecting one (`--as`).
    pub force: Option<ProfileKind>,
    /// The status an earlier snapshot of the same ContextCore handoff had, for the
    /// transition check CC-11 (`--previous FILE`).
    pub previous_status: Option<String>,
}

/// The contract version whose validator behaviour is reproduced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum AhcVersion {
    #[default]
    #[serde(rename = "1.0")]
    V1_0,
    #[serde(rename = "1.2.7")]
    V1_2_7,
}

impl AhcVersion {
    pub fn label(self) -> &'static str {
        match self {
            AhcVersion::V1_0 => "1.0",
            AhcVersion::V1_2_7 => "1.2.7",
        }
    }
}

impl fmt::Display for AhcVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl FromStr for AhcVersion {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim_start_matches(['v', 'V']) {
            "1.0" | "1" => Ok(AhcVersion::V1_0),
            "1.2.7" => Ok(AhcVersion::V1_2_7),
            _ => Err(format!(
                "unknown profile version '{text}' (expected 1.0 or 1.2.7)"
            )),
        }
    }
}
