//! Flags and helpers several subcommands share.

use super::{CliError, Output};
use crate::a2a::{ConvertOptions, Mode, DEFAULT_ADAPTER_VERSION};
use crate::corpus::{
    forceable, forced_reading, read_packets, walk, CheckOptions, EvaluateOptions, LoadError,
    PacketKind, PipelineOptions, RawPacket, WalkItem, DEFAULT_MAX_FILE_BYTES,
};
use crate::profiles::{AhcVersion, ProfileOptions};
use chrono::{DateTime, Utc};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Strict,
    Lenient,
}

impl From<ModeArg> for Mode {
    fn from(mode: ModeArg) -> Mode {
        match mode {
            ModeArg::Strict => Mode::Strict,
            ModeArg::Lenient => Mode::Lenient,
        }
    }
}

/// The adapter's conversion options, as flags.
#[derive(Clone, Debug, Args)]
pub struct ConversionFlags {
    /// Conversion mode: strict rejects lossy packets, lenient substitutes and notes.
    #[arg(long, value_enum, default_value = "strict")]
    pub mode: ModeArg,
    #[command(flatten)]
    pub converter: ConverterFlags,
}

impl ConversionFlags {
    pub fn options(&self) -> ConvertOptions {
        self.converter.options(self.mode.into())
    }
}

/// The conversion options other than the mode (for commands that run both modes).
#[derive(Clone, Debug, Args)]
pub struct ConverterFlags {
    /// adapter_version written into payloads (3.4.0 shipped K1-A and matches the freeze's examples).
    #[arg(long, value_name = "V", default_value = DEFAULT_ADAPTER_VERSION)]
    pub adapter_version: String,
    /// Protocol version observed at ingest, used only when a packet has no string `version`.
    #[arg(long, value_name = "V")]
    pub protocol_version: Option<String>,
    /// Reject packets longer than N bytes.
    #[arg(long, value_name = "N")]
    pub max_payload_bytes: Option<usize>,
    /// Reject packets nested deeper than N (the root is depth 1).
    #[arg(long, value_name = "N")]
    pub max_json_depth: Option<usize>,
    /// Reject packets with an array longer than N.
    #[arg(long, value_name = "N")]
    pub max_array_length: Option<usize>,
}

impl ConverterFlags {
    pub fn options(&self, mode: Mode) -> ConvertOptions {
        ConvertOptions {
            mode,
            adapter_version: self.adapter_version.clone(),
            protocol_version: self.protocol_version.clone(),
            max_payload_bytes: self.max_payload_bytes,
            max_json_depth: self.max_json_depth,
            max_array_length: self.max_array_length,
        }
    }
}

/// How master/sub, ContextCore and UAIX packets are evaluated, as flags.
#[derive(Clone, Debug, Args)]
pub struct ProfileFlags {
    /// Master/sub contract version whose validator is reproduced: 1.0 or 1.2.7.
    #[arg(long, value_name = "V", default_value = "1.0", value_parser = parse_profile_version)]
    pub profile_version: AhcVersion,
    /// Directory master/sub artifact paths resolve against (default: the packet's directory).
    /// Nothing outside it is looked at.
    #[arg(long, value_name = "DIR")]
    pub artifact_root: Option<PathBuf>,
    /// The clock for expiry checks, RFC 3339 (default: the system clock).
    #[arg(long, value_name = "RFC3339", value_parser = parse_now)]
    pub now: Option<DateTime<Utc>>,
}

impl ProfileFlags {
    pub fn options(&self) -> Result<ProfileOptions, CliError> {
        if let Some(root) = &self.artifact_root {
            if !root.is_dir() {
                return Err(CliError::Usage(format!(
                    "--artifact-root {}: not a directory",
                    root.display()
                )));
            }
        }
        Ok(ProfileOptions {
            profile_version: self.profile_version,
            artifact_root: self.artifact_root.clone(),
            now: self.now,
            force: forced_profile(),
            ..ProfileOptions::default()
        })
    }
}

fn parse_profile_version(text: &str) -> Result<AhcVersion, String> {
    text.parse()
}

/// `--now` as RFC 3339, e.g. `2026-06-01T00:00:00Z`.
pub(crate) fn parse_now(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .map_err(|error| format!("not an RFC 3339 date-time ({error}), e.g. 2026-06-01T00:00:00Z"))
}

/// Which modes a corpus command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModesArg {
    Strict,
    Lenient,
    Both,
}

impl ModesArg {
    pub fn modes(self) -> Vec<Mode> {
        match self {
            ModesArg::Strict => vec![Mode::Strict],
            ModesArg::Lenient => vec![Mode::Lenient],
            ModesArg::Both => Mode::BOTH.to_vec(),
        }
    }
}

/// What `check` and `bless` share: the conversion options, the modes, how the corpus is read.
#[derive(Clone, Debug, Args)]
pub struct CorpusRunFlags {
    #[command(flatten)]
    pub converter: ConverterFlags,
    #[command(flatten)]
    pub corpus: CorpusFlags,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub keys: KeyFlags,
    /// Modes to convert raw packets in (bless: to record; other modes keep their entries).
    #[arg(long, value_enum, default_value = "both")]
    pub mode: ModesArg,
}

impl CorpusRunFlags {
    pub fn modes(&self) -> Vec<Mode> {
        self.mode.modes()
    }

    pub fn check_options(&self) -> Result<CheckOptions, CliError> {
        let modes = self.modes();
        Ok(CheckOptions {
            evaluate: EvaluateOptions {
                conversion: self
                    .converter
                    .options(modes.first().copied().unwrap_or_default()),
                modes,
                profile: self.profile.options()?,
                check_findings: true,
            },
            max_file_bytes: self.corpus.max_file_bytes,
            walk: self.corpus.walk.options(),
            record_content: false,
            trusted_keys: self.keys.trusted_keys()?.into(),
        })
    }
}

/// The environment variable that names trusted public key files for attestations, separated
/// as PATH is (`:` on Unix): what `check`, `bless`, `explain`, `diff` and the inspector trust
/// besides `--key`.
const TRUSTED_KEYS_VAR: &str = "HANDOFF_TRUSTED_KEYS";

/// The keys the reader trusts for bundles' attestations.
#[derive(Clone, Debug, Default, Args)]
pub struct KeyFlags {
    /// A public key (SPKI PEM) trusted for bundles' attestations; repeatable. Also read:
    /// the files named in HANDOFF_TRUSTED_KEYS (separated as PATH is). Without any key,
    /// attestations are not looked at. Which keys to trust is the reader's decision.
    #[arg(long = "key", value_name = "PUBLIC.pem")]
    pub keys: Vec<PathBuf>,
}

impl KeyFlags {
    /// `--key` files, then `HANDOFF_TRUSTED_KEYS`'s, read; a file that cannot be read or is
    /// not a public key is a usage error naming it.
    pub fn trusted_keys(&self) -> Result<Vec<crate::bundle::attest::TrustedKey>, CliError> {
        let mut paths = self.keys.clone();
        if let Some(value) = std::env::var_os(TRUSTED_KEYS_VAR) {
            paths.extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty()));
        }
        crate::bundle::attest::read_trusted_keys(&paths).map_err(CliError::Usage)
    }
}

/// How PATHs are walked and read: options of the commands that walk PATHs, not of the others.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct WalkFlags {
    /// Walking directories: also read what .gitignore/.ignore exclude and hidden entries.
    #[arg(long)]
    pub no_ignore: bool,
    /// Walking directories: follow symlinks whose target is outside every PATH given.
    #[arg(long)]
    pub follow_outside: bool,
    /// Read every packet as KIND (a tag `ls` prints: raw, payload, event, batch, a2a-0.3,
    /// a2a-1.0, a2a, ahc, contextcore, uaix, golden, attestation, unknown) whatever its own
    /// evidence says; bundles and bytes that are not JSON keep their reading.
    #[arg(long = "as", value_name = "KIND", value_parser = parse_reading)]
    pub reading: Option<PacketKind>,
}

/// `--as KIND`: a kind tag a parsed packet can be read as.
fn parse_reading(text: &str) -> Result<PacketKind, String> {
    match PacketKind::from_tag(text) {
        Some(kind) if forceable(kind) => Ok(kind),
        _ => {
            let tags: Vec<&str> = PacketKind::ALL
                .into_iter()
                .filter(|kind| forceable(*kind))
                .map(PacketKind::tag)
                .collect();
            Err(format!(
                "not a kind to read a packet as; one of {}",
                tags.join(", ")
            ))
        }
    }
}

/// The profile `--as` forces, for the kinds that name one profile.
pub(crate) fn forced_profile() -> Option<crate::profiles::ProfileKind> {
    match forced_reading()? {
        PacketKind::MasterSub => Some(crate::profiles::ProfileKind::Ahc),
        PacketKind::Uaix => Some(crate::profiles::ProfileKind::Uaix),
        _ => None,
    }
}

impl WalkFlags {
    pub fn options(&self) -> crate::input::WalkOptions {
        crate::input::WalkOptions {
            no_ignore: self.no_ignore,
            follow_outside: self.follow_outside,
        }
    }
}

/// How a corpus is read.
#[derive(Clone, Debug, Args)]
pub struct CorpusFlags {
    #[command(flatten)]
    pub walk: WalkFlags,
    /// Files (and NDJSON lines) larger than this many bytes are reported, not read.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_FILE_BYTES)]
    pub max_file_bytes: u64,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
}

impl CorpusFlags {
    pub fn pipeline(&self) -> PipelineOptions {
        PipelineOptions {
            max_file_bytes: self.max_file_bytes,
            jobs: self.jobs,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

/// Reads every packet under `paths` (walked with the walk flags), hands each to `each` with
/// the output to write to, and returns how many inputs could not be read (each reported as a
/// note). Stops as soon as the output has stopped (a closed pipe, a full disk): nothing found
/// after that could be shown.
pub fn for_each_packet(
    paths: &[PathBuf],
    walk: &WalkFlags,
    output: &mut Output,
    each: &mut dyn FnMut(RawPacket, &mut Output),
) -> usize {
    for_each_packet_found(paths, walk, output, &mut |packet, _, output| {
        each(packet, output)
    })
}

/// Like [`for_each_packet`], also telling `each` whether the packet's file was named on the
/// command line (`true`) or found by walking a directory (`false`): a named file is always
/// taken as the command's input, a found one only when it is of a kind the command reads.
pub(crate) fn for_each_packet_found(
    paths: &[PathBuf],
    walk_flags: &WalkFlags,
    output: &mut Output,
    each: &mut dyn FnMut(RawPacket, bool, &mut Output),
) -> usize {
    let options = walk_flags.options();
    let mut load_errors = 0;
    let mut report = |error: LoadError, output: &mut Output| {
        load_errors += 1;
        output.note(&error.to_string());
    };
    for path in paths {
        let named = !path.is_dir();
        for item in walk(std::slice::from_ref(path), &options) {
            if output.stopped() {
                return load_errors;
            }
            match item {
                WalkItem::Error(error) => report(error, output),
                WalkItem::File { path, format } => {
                    read_packets(&path, format, DEFAULT_MAX_FILE_BYTES, &mut |packet| {
                        match packet {
                            Ok(packet) => {
                                output.progress_took(&packet.source);
                                each(packet, named, output)
                            }
                            Err(error) => {
                                output.progress_took(&error.source);
                                report(error, output)
                            }
                        }
                        !output.stopped()
                    })
                }
            }
        }
    }
    load_errors
}

/// Writes a serializable value as one JSON line.
pub fn json_line(output: &mut Output, value: &impl serde::Serialize) -> Result<(), CliError> {
    // Written as it is serialized, not built as one string first: `explain --format json` of
    // a packet that repeats a million keys is a 40 MB line.
    crate::json::write_safe_json(&mut *output, value)
        .map_err(|error| CliError::Usage(format!("cannot encode output: {error}")))?;
    output.line("");
    Ok(())
}
