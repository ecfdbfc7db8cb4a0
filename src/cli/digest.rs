//! `digest`: the SHA-256 of a part of the conversion (raw packet) or of canonical input.

use super::common::{for_each_packet, ConversionFlags};
use super::{CliError, Exit, Output};
use crate::a2a::convert;
use crate::freeze::{detect_canonical, CanonicalShape};
use crate::json::digest_value;
use crate::report::explain::handoff_digest_label;
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
}

/// Print the canonical SHA-256 digest of one part: `HEX  PART  SOURCE`, with the named legal
/// state for handoff digests.
///
/// For a raw packet the part is taken from its conversion (default: payload); for canonical
/// input (payload, event, batch) from the object itself (default: the whole object). Exit 0
/// when every digest was printed, 1 when a packet did not convert or lacks the part, 2 on
/// usage or I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    /// Which part to digest.
    #[arg(long, value_enum)]
    pub part: Option<Part>,
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
    }?;
    Some((chosen.clone(), part))
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let mut failed = 0usize;
    let load_errors = for_each_packet(std::slice::from_ref(&args.file), &mut |packet| {
        let parsed: Option<Value> = serde_json::from_slice(&packet.bytes).ok();
        let canonical = parsed
            .as_ref()
            .and_then(|value| detect_canonical(value).map(|(shape, _)| (value, shape)));
        let chosen = match canonical {
            Some((value, shape)) => canonical_part(value, shape, args.part).ok_or_else(|| {
                format!(
                    "the {} has no {:?} part",
                    shape.name(),
                    args.part.unwrap_or(Part::Payload)
                )
            }),
            None => {
                let conversion = convert(&packet.bytes, &options);
                match conversion.converted() {
                    Some(converted) => {
                        let part = args.part.unwrap_or(Part::Payload);
                        let value = match part {
                            Part::Handoff => converted.handoff().clone(),
                            Part::Discovery => converted.discovery().clone(),
                            Part::Payload => converted.payload().clone(),
                            Part::Event => converted.event().clone(),
                            Part::Batch => converted.batch(),
                        };
                        Ok((value, part))
                    }
                    None => Err(conversion
                        .error()
                        .map(|error| {
                            format!("not converted: {}: {}", error.kind.name(), error.message)
                        })
                        .unwrap_or_default()),
                }
            }
        };
        match chosen {
            Ok((value, Part::Handoff)) => output.line(&format!(
                "{}  handoff  {}",
                handoff_digest_label(&value),
                packet.source
            )),
            Ok((value, part)) => {
                let name = format!("{part:?}").to_lowercase();
                output.line(&format!(
                    "{}  {name}  {}",
                    digest_value(&value),
                    packet.source
                ))
            }
            Err(reason) => {
                failed += 1;
                eprintln!(
                    "handoff-inspector: {}: {}",
                    packet.source,
                    crate::json::safe_text(&reason)
                );
            }
        }
    });
    Ok(Exit::from_counts(load_errors, failed))
}
