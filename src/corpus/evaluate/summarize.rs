//! Evaluating one packet into its summary: each mode's conversion (reused where the modes
//! cannot differ), the audit of canonical input, the profile report, the migration judgement.

use super::migration::migration_reading;
use super::reading::{classify_by_reading, converted_kind, kind_after_conversion};
use super::summary::{DigestSet, EvaluateOptions, ModeResult, ModeSummary, PacketSummary};
use crate::a2a::{convert, convert_from_read, convert_keeping_read, convert_shared, Mode};
use crate::corpus::{PacketKind, RawPacket, Source};
use crate::freeze::{audit, matched_rows, Audit};
use crate::json::count_duplicate_keys;
use crate::migrate::{Judgement, MigrationInput};
use crate::profiles;
use crate::rules::Severity;
use serde_json::Value;

fn mode_summary(mode: Mode, conversion: &crate::a2a::Conversion) -> Option<ModeSummary> {
    let rows = matched_rows(conversion);
    let result = match conversion.converted() {
        Some(converted) => {
            // The handoff digest is memoized by the converter; the state is looked up by it.
            let handoff = converted.handoff_digest();
            ModeResult::Converted {
                canonical_type: converted.canonical_type,
                state: crate::freeze::HandoffState::from_digest(&handoff),
                digests: DigestSet {
                    payload: converted.payload_digest(),
                    handoff,
                    discovery: converted.discovery_digest(),
                },
            }
        }
        None => {
            let error = conversion.error()?;
            ModeResult::Rejected {
                kind: error.kind,
                rule: error.rule,
            }
        }
    };
    Some(ModeSummary { mode, result, rows })
}

/// The modes differ only where strict rejects and lenient substitutes (spec sections 4 and 5
/// name the same four conditions), so a packet converted without any substitution converts
/// identically in the other mode: same payload, digests, state and K1-A rows (N3 needs a
/// strict rejection, N4 a substituted task id). Reusing the result halves the work for
/// most packets; the property test `modes_agree_without_substitutions` holds this.
///
/// Likewise the checks before the typed fields are read (spec section 2: size, JSON, limits,
/// protocol, version; rules `C*`) do not depend on the mode: a packet rejected there is
/// rejected the same way in both.
fn same_in_every_mode(conversion: &crate::a2a::Conversion) -> bool {
    match &conversion.result {
        Ok(converted) => converted.lossiness.substitutions.is_empty(),
        Err(error) => error.rule.starts_with('C'),
    }
}

/// Evaluates one packet into its summary.
pub fn summarize(packet: &RawPacket, options: &EvaluateOptions) -> PacketSummary {
    summarize_keeping(packet, options, &mut None).0
}

/// `summarize`, also handing back the packet as parsed JSON when its kind is not converted
/// (events, profiles, protocol objects): `check` reads the same value next for the object
/// golden, and parsing a bundle's 100,000 events twice cost as much as verifying the bundle.
/// An A2A object's migration judgement goes to `judged`, so `check` reports its findings
/// without migrating the object a second time (the migration edits the parsed tree in place,
/// so for those the value handed back is parsed again).
pub fn summarize_keeping(
    packet: &RawPacket,
    options: &EvaluateOptions,
    judged: &mut Option<Judgement>,
) -> (PacketSummary, Option<Value>) {
    let (summary, value, _) = summarize_converting(packet, options, judged);
    (summary, value)
}

/// `summarize_keeping`, also handing back a converted kind's conversion in the first mode
/// (`diff` reads a raw packet's ids and a rejection's message there instead of parsing and
/// converting the packet again).
pub fn summarize_converting(
    packet: &RawPacket,
    options: &EvaluateOptions,
    judged: &mut Option<Judgement>,
) -> (PacketSummary, Option<Value>, Option<crate::a2a::Conversion>) {
    if packet.bundle.is_some() {
        // A bundle as a whole: its verdict is its report's; its events are packets of their own.
        return (
            PacketSummary::of_kind(packet, PacketKind::Bundle, 0),
            None,
            None,
        );
    }
    // The first mode's conversion reads the packet anyway; classification reuses it, so a raw
    // packet is parsed once per mode and never once more.
    let mut first_read = None;
    let mut first = options.modes.first().map(|&mode| {
        let (conversion, read) =
            convert_keeping_read(&packet.bytes, &options.conversion.with_mode(mode));
        first_read = read;
        (mode, conversion)
    });
    // A packet the conversion read with distinct keys has none to count; any other is scanned.
    // Counted before the classifier may build a tree: the scan and a tree of the same big
    // object are never alive together (the conversion holds no tree).
    let seen_distinct = first
        .as_ref()
        .is_some_and(|(_, conversion)| conversion.keys_distinct);
    let duplicate_keys = if options.check_findings && !seen_distinct {
        count_duplicate_keys(&packet.bytes) as u32
    } else {
        0
    };
    // One classifier: the same function `convert` and `explain` use on a converted packet.
    let mut reparsed = None;
    let (kind, parsed) = match &first {
        Some((_, conversion)) => kind_after_conversion(packet, conversion, &mut reparsed),
        None => classify_by_reading(packet, &mut reparsed),
    };
    let mut summary = PacketSummary::of_kind(packet, kind, duplicate_keys);
    if converted_kind(kind) {
        // The first mode's summary, when the other modes are certain to give the same.
        let mut reusable = None;
        if let Some((mode, conversion)) = &first {
            let first_summary = mode_summary(*mode, conversion);
            summary.modes[mode.index()] = first_summary;
            if same_in_every_mode(conversion) {
                reusable = first_summary;
            }
        }
        for &mode in options.modes.iter().skip(1) {
            if let Some(same) = reusable {
                summary.modes[mode.index()] = Some(ModeSummary { mode, ..same });
                continue;
            }
            // A strict rejection hands back what it read: the next mode starts from there. The
            // first conversion's packet holds the bytes (when it got as far as reading them):
            // the next shares them rather than copying them.
            let mode_options = options.conversion.with_mode(mode);
            let read_packet = first
                .as_ref()
                .map(|(_, conversion)| &conversion.packet)
                .filter(|shared| shared.bytes().is_some());
            let conversion = match (first_read.take(), read_packet) {
                (Some(read), Some(shared)) => convert_from_read(read, shared, &mode_options),
                (None, Some(shared)) => convert_shared(shared, &mode_options),
                (_, None) => convert(&packet.bytes, &mode_options),
            };
            summary.modes[mode.index()] = mode_summary(mode, &conversion);
        }
    } else if let (Some(shape), Ok(value)) = (kind.canonical_shape(), parsed) {
        if !unaudited_bundle_event(&packet.source, value) {
            let audit = audit(value, shape);
            summary.audit_errors = count(&audit, Severity::Error);
            summary.audit_warnings = count(&audit, Severity::Warning);
            summary.canonical_state = audit.states.first().copied().flatten();
            summary.audit_supports = audit.supports;
        }
    } else if !options.check_findings {
        // A comparison reads no more: a profile's evaluation and a migration give findings.
    } else if let (true, Ok(value)) = (kind.is_profile(), parsed) {
        let report = profiles::evaluate(
            value,
            &packet.bytes,
            Some(&packet.source.path),
            &options.profile,
        );
        let counts = report.counts();
        summary.profile_failures = counts.fail as u32;
        summary.profile_warnings = counts.warn as u32;
    } else if let (Some((direction, hints)), true) =
        (migration_reading(kind, &packet.source), parsed.is_ok())
    {
        // The tree is given up to the migration, which edits it in place: one tree of a big
        // object is alive, not the parse, a copy and the result.
        let tree = match (reparsed.take(), &mut first) {
            (Some(Ok(value)), _) => Some(value),
            (_, Some((_, conversion))) => conversion.packet.take(),
            (_, None) => None,
        };
        *judged = tree.and_then(|value| {
            Judgement::of(MigrationInput::from(value).hints(&hints), direction).ok()
        });
        if let Some(judgement) = judged {
            summary.migration_findings =
                judgement.findings.len() as u32 + u32::from(judgement.detection.mixed);
        }
    }
    if converted_kind(kind) {
        return (summary, None, first.map(|(_, conversion)| conversion));
    }
    // The parse that classified the packet: the one the classifier made, else the
    // conversion's (it parsed the same bytes).
    let value = match reparsed {
        Some(Ok(value)) => Some(value),
        Some(Err(_)) => None,
        None => first.and_then(|(_, conversion)| conversion.packet.into_value()),
    };
    (summary, value, None)
}

/// A bundle's event that is not an A2A adapter event (`type` outside `assay.adapter.a2a.`):
/// listed, digested and recorded like any event, but not audited (`not_checked`): the freeze
/// rules are about the A2A adapter's output.
pub fn unaudited_bundle_event(source: &Source, value: &Value) -> bool {
    source.is_bundle_event()
        && !value
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|type_| type_.starts_with(crate::bundle::event::A2A_TYPE_PREFIX))
}

fn count(audit: &Audit, severity: Severity) -> u32 {
    audit
        .findings
        .iter()
        .filter(|finding| finding.severity == severity)
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::a2a::ErrorKind;
    use crate::freeze::HandoffState;

    fn packet(text: &str) -> RawPacket {
        RawPacket {
            source: Source::file("p.json"),
            offset: 0,
            bytes: text.as_bytes().to_vec(),
            bundle: None,
            in_bundle: None,
        }
    }

    #[test]
    fn raw_packets_are_summarized_per_mode() {
        let summary = summarize(
            &packet(
                r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"kind":"delegation"}}"#,
            ),
            &EvaluateOptions::default(),
        );
        assert_eq!(summary.kind, PacketKind::RawA2a);
        let strict = summary.mode(Mode::Strict).unwrap();
        assert_eq!(
            strict.result,
            ModeResult::Rejected {
                kind: ErrorKind::Measurement,
                rule: "S3"
            }
        );
        assert_eq!(strict.rows.ids().collect::<Vec<_>>(), vec!["N3"]);
        assert_eq!(summary.state(Mode::Lenient), Some(HandoffState::NoRefs));
        assert_eq!(
            summary
                .mode(Mode::Lenient)
                .unwrap()
                .rows
                .ids()
                .collect::<Vec<_>>(),
            vec!["P", "SYN", "N4"]
        );
    }

    #[test]
    fn canonical_input_is_audited() {
        let summary = summarize(
            &packet(
                r#"{"adapter_id":"assay-adapter-a2a","agent":{"id":"a"},"handoff":{"visible":true,"source_kind":"unknown","task_ref_visible":false,"message_ref_visible":false}}"#,
            ),
            &EvaluateOptions::default(),
        );
        assert_eq!(summary.kind, PacketKind::CanonicalPayload);
        assert!(summary.audit_errors >= 2, "{summary:?}");
        assert_eq!(summary.canonical_state, None);
        assert!(summary.modes.iter().all(Option::is_none));
    }
}
