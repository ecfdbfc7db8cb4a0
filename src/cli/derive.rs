//! `derive`: the negative matrix of one positive packet, written as fixtures.

use super::{CliError, Exit, Output};
use crate::a2a::ConvertOptions;
use crate::corpus::{reread_packet, Source, DEFAULT_MAX_FILE_BYTES};
use crate::freeze::{derive_negatives, Expected};
use crate::golden::{
    read_manifest, write_manifest, GoldenEntry, GoldenManifest, ModeGolden, PacketKey,
};
use crate::json::safe_text;
use std::path::PathBuf;

/// From one positive packet (typed task.requested with task.kind "delegation" and a typed
/// task.id), write one packet per N row and explicit negative into DIR, with the outcome the
/// freeze expects in each mode recorded in DIR/goldens.json (state or error, no digests yet).
///
/// `handoff-inspector bless DIR` then records their digests; `check DIR` compares. Refuses to
/// overwrite existing files or manifest entries unless --force. Exit 0, or 2 when FILE is not
/// a positive packet or something cannot be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The positive packet.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Directory to write the derived packets into (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Overwrite existing packet files and manifest entries of the same names.
    #[arg(long)]
    pub force: bool,
}

fn io_error(path: &std::path::Path) -> impl Fn(std::io::Error) -> CliError + '_ {
    move |error| CliError::Io {
        path: path.display().to_string(),
        error,
    }
}

fn mode_golden(expected: Expected) -> ModeGolden {
    match expected {
        Expected::State(state) => ModeGolden {
            state: Some(state),
            ..ModeGolden::default()
        },
        Expected::Error { kind, rule } => ModeGolden {
            error: Some(kind),
            rule: Some(rule.to_owned()),
            ..ModeGolden::default()
        },
    }
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let source = Source::file(args.file.clone());
    let bytes = reread_packet(&source, 0, DEFAULT_MAX_FILE_BYTES)
        .map_err(|error| CliError::Usage(error.to_string()))?;
    let derived = derive_negatives(&bytes)
        .map_err(|reason| CliError::Usage(format!("{source}: {reason}")))?;
    std::fs::create_dir_all(&args.out).map_err(io_error(&args.out))?;
    // Held to the end: a bless or accept of this directory meanwhile waits, so the manifest
    // read here is the one replaced.
    let _lock = crate::persist::LockFile::acquire(
        &crate::golden::manifest_lock_path(&args.out),
        std::time::Duration::from_secs(60),
        &mut |_| {},
    )
    .map_err(|error| CliError::Usage(error.to_string()))?;
    let mut manifest = read_manifest(&args.out)
        .map_err(|error| {
            CliError::Usage(format!(
                "{}: malformed golden manifest, not overwritten: {error}",
                crate::golden::manifest_path(&args.out).display()
            ))
        })?
        .unwrap_or_else(|| GoldenManifest::new(&ConvertOptions::default()));
    let mut conflicts = Vec::new();
    for packet in &derived {
        let name = format!("{}.json", packet.name);
        let path = args.out.join(&name);
        if path.exists() {
            conflicts.push(path.display().to_string());
        } else if manifest
            .packets
            .contains_key(&PacketKey::file(name.clone()))
        {
            conflicts.push(format!("the manifest entry for {name}"));
        }
    }
    if !conflicts.is_empty() && !args.force {
        return Err(CliError::Usage(format!(
            "refusing to overwrite {} (--force overwrites)",
            safe_text(&conflicts.join(", "))
        )));
    }
    for packet in &derived {
        let name = format!("{}.json", packet.name);
        let path = args.out.join(&name);
        // The positive packet is copied byte for byte; variants are written as compact JSON.
        let mut text = if packet.name == "p_positive" {
            bytes.clone()
        } else {
            serde_json::to_vec(&packet.packet)
                .map_err(|error| CliError::Usage(format!("cannot encode {name}: {error}")))?
        };
        if text.last() != Some(&b'\n') {
            text.push(b'\n');
        }
        // Whole or not at all, with the umask's mode (a file --force replaces keeps its own).
        crate::persist::write_atomically(&path, &text, crate::persist::Replace::Keep)
            .map_err(io_error(&path))?;
        manifest.packets.insert(
            PacketKey::file(name.clone()),
            GoldenEntry {
                duplicate_keys: Vec::new(),
                modes: packet.expected.map(|expected| Some(mode_golden(expected))),
                object: None,
                content: Default::default(),
            },
        );
        output.line(&format!(
            "{}  rows {}  strict: {}  lenient: {}  ({})",
            safe_text(&path.display().to_string()),
            packet.rows.join(" "),
            packet.expected[0].describe(),
            packet.expected[1].describe(),
            packet.change
        ));
    }
    let manifest_path = write_manifest(&args.out, &manifest).map_err(io_error(&args.out))?;
    output.line(&format!(
        "{}: expected outcomes of {} packets recorded (no digests yet: run `handoff-inspector bless {}` to record them, `check` to compare)",
        safe_text(&manifest_path.display().to_string()),
        derived.len(),
        safe_text(&args.out.display().to_string())
    ));
    Ok(Exit::Ok)
}
