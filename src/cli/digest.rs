//! `digest`: the SHA-256 of a part of the conversion (raw packet) or of canonical input.

use super::common::{for_each_packet, ConversionFlags};
use super::{CliError, Exit, Output};
use crate::a2a::convert;
use crate::corpus::{kind_after_conversion, migrated_digest, take_tree, PacketKind, Source};
use crate::freeze::CanonicalShape;
use crate::json::digest_value;
use clap::ValueEnum;
use serde_json::Value;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Part {
    Handoff,
    Discovery,
    Payload,
    Event,
    Batch,
    /// The whole object as given (canonical JSON).
    Object,
    /// An A2A object's migrated form (v0.3 -> v1.0, or v1.0 -> v0.3).
    Migrated,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Handoff => "handoff",
            Part::Discovery => "discovery",
            Part::Payload => "payload",
            Part::Event => "event",
            Part::Batch => "batch",
            Part::Object => "object",
            Part::Migrated => "migrated",
        }
    }
}

/// Print canonical SHA-256 digests, one per line: `HEX  PART  SOURCE`; a handoff digest ends
/// with its named legal state in brackets.
///
/// What FILE is decides which digests it has (the kind `ls` gives it): a raw packet's parts
/// come from its conversion (default: payload); canonical input (payload, event, batch) from
/// the object itself (default: the whole object); any other JSON (A2A objects, profile
/// packets, manifests) prints its `object` digest, its `handoff` member's when it has one,
/// and an A2A object's `migrated` form. An evidence bundle prints its `run_root` (when it
/// verifies), its `manifest` digest (what its golden records), then each event line's
/// `event` digest as `BUNDLE:SEQ` (the whole line, canonical: what its golden records);
/// BUNDLE:SEQ digests one event. Exit 0 when every digest was printed, 1 when a packet
/// did not convert or lacks the part (a bundle that fails verification has no run root),
/// 2 on usage or I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    #[command(flatten)]
    pub walk: super::common::WalkFlags,
    /// Which part to digest.
    #[arg(long, value_enum)]
    pub part: Option<Part>,
    /// A packet file, a bundle, or BUNDLE:SEQ.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// The part of canonical input, found by walking down from the shape given.
fn canonical_part(
    value: &Value,
    shape: CanonicalShape,
    part: Option<Part>,
) -> Option<(Value, Part)> {
    let event = match shape {
        CanonicalShape::Batch => value.get("events")?.get(0),
        CanonicalShape::Event => Some(value),
        CanonicalShape::Payload => None,
    };
    let payload = match shape {
        CanonicalShape::Payload => Some(value),
        _ => event.and_then(|event| event.get("data")),
    };
    let default = match shape {
        CanonicalShape::Batch => Part::Batch,
        CanonicalShape::Event => Part::Event,
        CanonicalShape::Payload => Part::Payload,
    };
    let part = part.unwrap_or(default);
    let chosen = match part {
        Part::Batch => (shape == CanonicalShape::Batch).then_some(value),
        Part::Event => event,
        Part::Payload => payload,
        Part::Handoff => payload.and_then(|payload| payload.get("handoff")),
        Part::Discovery => payload.and_then(|payload| payload.get("discovery")),
        Part::Object => Some(value),
        Part::Migrated => None,
    }?;
    Some((chosen.clone(), part))
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let mut failed = 0usize;
    let load_errors = for_each_packet(
        std::slice::from_ref(&args.file),
        &args.walk,
        output,
        &mut |packet, output| {
            if let Some(report) = &packet.bundle {
                // A bundle: its run root and the digest its golden records; its events follow,
                // each as the event digest (`event  BUNDLE:SEQ`).
                if args.part.is_some() {
                    return;
                }
                match report.run_root() {
                    Some(run_root) => {
                        let hex = run_root.strip_prefix("sha256:").unwrap_or(run_root);
                        output.line(&format!(
                            "{}  run_root  {}",
                            crate::json::safe_text(hex),
                            packet.source
                        ));
                    }
                    None => {
                        failed += 1;
                        output.note(&format!(
                            "{}: no run root: fails upstream's verification ({})",
                            packet.source,
                            report.verdict_key()
                        ));
                    }
                }
                if report.has_manifest {
                    output.line(&format!(
                        "{}  manifest  {}",
                        report.manifest_digest, packet.source
                    ));
                }
                return;
            }
            let mut conversion = convert(&packet.bytes, &options);
            // The one classifier decides which digests a file has, as in `ls`, `check` and the TUI.
            let mut reparsed = None;
            let (kind, parsed) = kind_after_conversion(&packet, &conversion, &mut reparsed);
            let source = &packet.source;
            // The lines to print (`HEX  PART  SOURCE`), or why there are none.
            // Whether an A2A object's migrated digest follows (judged on the tree, given up).
            let mut migrated = false;
            let chosen: Result<Vec<String>, String> = match (parsed, kind.canonical_shape()) {
                (Ok(value), Some(shape)) => canonical_part(value, shape, args.part)
                    .map(|(value, part)| vec![digest_line(&value, part.name(), source)])
                    .ok_or_else(|| {
                        format!(
                            "the {} has no {} part",
                            shape.name(),
                            args.part.unwrap_or(Part::Payload).name()
                        )
                    }),
                (Ok(value), None) if kind != PacketKind::RawA2a => {
                    object_parts(value, kind, args.part, source).map(|(lines, judge)| {
                        migrated = judge;
                        lines
                    })
                }
                _ => match conversion.converted() {
                    Some(converted) => {
                        let part = args.part.unwrap_or(Part::Payload);
                        let value = match part {
                            Part::Handoff => Some(converted.handoff().clone()),
                            Part::Discovery => Some(converted.discovery().clone()),
                            Part::Payload => Some(converted.payload().clone()),
                            Part::Event => Some(converted.event().clone()),
                            Part::Batch => Some(converted.batch()),
                            Part::Object => conversion.packet.as_ref().cloned(),
                            Part::Migrated => None,
                        };
                        value
                            .map(|value| vec![digest_line(&value, part.name(), source)])
                            .ok_or_else(|| format!("a raw packet has no {} part", part.name()))
                    }
                    None => Err(conversion
                        .error()
                        .map(|error| {
                            format!(
                                "not converted: {}: {} [{}]",
                                error.kind.name(),
                                error.message,
                                error.rule
                            )
                        })
                        .unwrap_or_default()),
                },
            };
            let chosen = chosen.and_then(|mut lines| {
                if !migrated {
                    return Ok(lines);
                }
                // Last, on the parsed tree given up: migrated in place, the one tree of a big
                // object (a copy of it and a migration beside the parse were three).
                let digest = take_tree(&mut conversion, &mut reparsed)
                    .and_then(|tree| migrated_digest(kind, &packet.source, tree));
                match digest {
                    Some(digest) => lines.push(format!("{digest}  migrated  {source}")),
                    None if args.part == Some(Part::Migrated) => {
                        return Err(format!("{} has no migrated part", kind.name()));
                    }
                    None => {}
                }
                Ok(lines)
            });
            match chosen {
                Ok(lines) => {
                    for line in lines {
                        output.line(&line);
                    }
                }
                Err(reason) => {
                    failed += 1;
                    output.note(&format!("{}: {reason}", packet.source));
                }
            }
        },
    );
    Ok(Exit::from_counts(load_errors, failed))
}

/// `HEX  PART  SOURCE`; a handoff digest ends with its named state in brackets.
fn digest_line(value: &Value, part: &str, source: &Source) -> String {
    let digest = digest_value(value);
    if part != "handoff" {
        return format!("{digest}  {part}  {source}");
    }
    let state = match crate::freeze::handoff_state(value) {
        Some(state) => state.name(),
        None => "NOT one of the five legal handoff states",
    };
    format!("{digest}  handoff  {source}  [{state}]")
}

/// The digest lines of a file that is neither a raw packet nor canonical evidence, as the
/// TUI's Digests tab shows them: the whole object and its `handoff` member when it has one,
/// digested where they are (not copied), and whether an A2A object's migrated form (the one
/// `check` records) follows, judged by the caller on the tree once these are taken.
fn object_parts(
    value: &Value,
    kind: PacketKind,
    part: Option<Part>,
    source: &Source,
) -> Result<(Vec<String>, bool), String> {
    let handoff = || {
        value
            .get("handoff")
            .map(|handoff| digest_line(handoff, "handoff", source))
    };
    let Some(part) = part else {
        let mut lines = vec![digest_line(value, "object", source)];
        lines.extend(handoff());
        return Ok((lines, true));
    };
    let chosen = match part {
        Part::Object => Some((vec![digest_line(value, "object", source)], false)),
        Part::Handoff => handoff().map(|line| (vec![line], false)),
        Part::Migrated => Some((Vec::new(), true)),
        _ => None,
    };
    chosen.ok_or_else(|| format!("{} has no {} part", kind.name(), part.name()))
}
