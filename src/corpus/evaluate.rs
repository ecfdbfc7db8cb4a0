//! Evaluating packets. A `PacketSummary` is what a list of a million packets holds: kind,
//! per-mode result, digests, named handoff state and matched rows, in a few hundred bytes.
//! A `PacketDetail` is everything a view shows for one packet, derived again on demand from
//! its bytes (converting one packet takes microseconds, holding every tree would not fit).

use super::{classify, Classification, PacketKind, RawPacket, Source};
use crate::a2a::{
    convert, convert_from_read, convert_keeping_read, CanonicalType, ConvertOptions, ErrorKind,
    Mode,
};
use crate::freeze::{
    audit, explain_conversion, matched_rows, Audit, Explanation, HandoffState, RowSet,
};
use crate::freeze::{relabel_outcome, RelabelOutcome};
use crate::json::{count_duplicate_keys, scan_duplicate_keys, Digest, DuplicateKey};
use crate::migrate::{Choices, Direction, Judgement, Migration};
use crate::profiles::{self, ProfileOptions, ProfileReport};
use crate::rules::Severity;
use serde_json::Value;
use std::sync::Arc;

/// How packets are evaluated: the modes a raw packet is converted in, and the options of the
/// other handoff profiles.
#[derive(Clone, Debug)]
pub struct EvaluateOptions {
    /// Conversion options; their `mode` is replaced by each mode in `modes`.
    pub conversion: ConvertOptions,
    pub modes: Vec<Mode>,
    pub profile: ProfileOptions,
}

impl Default for EvaluateOptions {
    fn default() -> Self {
        EvaluateOptions {
            conversion: ConvertOptions::default(),
            modes: Mode::BOTH.to_vec(),
            profile: ProfileOptions::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DigestSet {
    pub payload: Digest,
    pub handoff: Digest,
    pub discovery: Digest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeResult {
    Converted {
        canonical_type: CanonicalType,
        state: Option<HandoffState>,
        digests: DigestSet,
    },
    Rejected {
        kind: ErrorKind,
        rule: &'static str,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeSummary {
    pub mode: Mode,
    pub result: ModeResult,
    /// The K1-A rows the packet matched in this mode.
    pub rows: RowSet,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacketSummary {
    pub source: Source,
    /// Byte offset of the packet in its file (see `reread_packet`).
    pub offset: u64,
    pub kind: PacketKind,
    pub duplicate_keys: u32,
    /// Error-severity findings of a canonical audit.
    pub audit_errors: u32,
    /// Warning-severity findings of a canonical audit.
    pub audit_warnings: u32,
    /// For canonical input: the state of the first handoff object audited.
    pub canonical_state: Option<HandoffState>,
    /// For canonical input: the freeze negatives its payloads show holding (checklist Q4/Q5).
    pub audit_supports: crate::freeze::AuditSupport,
    /// Master/sub, ContextCore and UAIX packets: rows that failed / warned.
    pub profile_failures: u32,
    pub profile_warnings: u32,
    /// A2A protocol objects: findings of the migration (mixed versions, checks on the result).
    pub migration_findings: u32,
    /// For raw packets: one entry per evaluated mode, strict first.
    pub modes: [Option<ModeSummary>; 2],
}

impl PacketSummary {
    pub fn mode(&self, mode: Mode) -> Option<&ModeSummary> {
        self.modes[mode.index()].as_ref()
    }

    pub fn evaluated_modes(&self) -> impl Iterator<Item = &ModeSummary> {
        self.modes.iter().flatten()
    }

    /// The handoff state to show for this packet in `mode`: the converted state for raw
    /// packets, the audited state for canonical ones.
    pub fn state(&self, mode: Mode) -> Option<HandoffState> {
        match self.mode(mode).map(|summary| summary.result) {
            Some(ModeResult::Converted { state, .. }) => state,
            _ => self.canonical_state,
        }
    }

    pub fn canonical_type(&self, mode: Mode) -> Option<CanonicalType> {
        match self.mode(mode)?.result {
            ModeResult::Converted { canonical_type, .. } => Some(canonical_type),
            ModeResult::Rejected { .. } => None,
        }
    }
}

/// Parses for classification; `Err` carries the reason in plain words.
fn parse(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|error| not_json_reason(bytes, &error))
}

/// Why bytes are not JSON: a byte-order mark or invalid UTF-8 named as such (the parser
/// would only say "expected value" or "invalid unicode"), otherwise the parser's message.
pub fn not_json_reason(bytes: &[u8], error: &serde_json::Error) -> String {
    if bytes.is_empty() {
        return "empty file".to_owned();
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return "only white space".to_owned();
    }
    if let Some(at) = bytes.iter().position(|&byte| byte == 0) {
        return format!("NUL byte at byte {at} ({error})");
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return "starts with a UTF-8 byte-order mark (EF BB BF); JSON text must not carry one, and the adapter rejects it as invalid JSON".to_owned();
    }
    if let Err(utf8) = std::str::from_utf8(bytes) {
        return format!("invalid UTF-8 at byte {}", utf8.valid_up_to());
    }
    error.to_string()
}

/// The reason bytes are not JSON (for a packet already classified as not JSON).
pub(crate) fn not_json_reason_of(bytes: &[u8]) -> String {
    match parse(bytes) {
        Ok(_) => "parsed on a second reading".to_owned(),
        Err(reason) => reason,
    }
}

/// Classifies a packet from its bytes alone (no conversion): what `ls` shows.
pub fn classify_packet(packet: &RawPacket) -> Classification {
    if let Some(report) = &packet.bundle {
        return super::classify_bundle(report);
    }
    let parsed = parse(&packet.bytes);
    classify(
        parsed.as_ref().map_err(String::as_str),
        packet.source.file_name(),
    )
}

/// Whether a packet of this kind is converted: raw packets, and bytes that are not JSON at
/// all (the converter's own verdict on those is its invalid-JSON error, which a golden
/// manifest can record as expected).
pub fn converted_kind(kind: PacketKind) -> bool {
    matches!(kind, PacketKind::RawA2a | PacketKind::NotJson)
}

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

/// A packet's kind, given its conversion: a conversion that read the typed fields got past
/// `protocol: "a2a"`, which is all classification would conclude, so the packet's tree is
/// never built; otherwise the converter's parse (or a new one, kept in `reparsed`) is
/// classified. Every face that has converted a packet asks this, so they agree with `ls`.
pub fn kind_after_conversion<'a>(
    packet: &RawPacket,
    conversion: &'a crate::a2a::Conversion,
    reparsed: &'a mut Option<Result<Value, String>>,
) -> (PacketKind, Result<&'a Value, &'a str>) {
    // Past `protocol: "a2a"` and with none of the members that are another kind's evidence
    // before it (canonical output's, a golden manifest's `format`), the classifier can only
    // conclude `raw`.
    let unforced = matches!(super::forced_reading(), None | Some(PacketKind::RawA2a));
    let other_evidence = |fields: &crate::a2a::TypedFields| {
        fields
            .unmapped_keys
            .iter()
            .any(|key| key == "format" || crate::freeze::CANONICAL_MARKERS.contains(&key.as_str()))
    };
    if unforced
        && conversion
            .fields
            .as_deref()
            .is_some_and(|f| !other_evidence(f))
    {
        return (
            PacketKind::RawA2a,
            Err("not parsed: a raw A2A packet is summarized from its typed fields"),
        );
    }
    let parsed = match conversion.packet.as_ref() {
        Some(value) => Ok(value),
        None => {
            let fresh: &'a Result<Value, String> = reparsed.insert(parse(&packet.bytes));
            fresh.as_ref().map_err(String::as_str)
        }
    };
    (classify(parsed, packet.source.file_name()).kind, parsed)
}

fn reparse_ref(parsed: &Option<Result<Value, String>>) -> Result<&Value, &str> {
    match parsed {
        Some(Ok(value)) => Ok(value),
        Some(Err(reason)) => Err(reason),
        None => Err("not parsed"),
    }
}

impl PacketSummary {
    /// A packet's summary before anything is evaluated: its kind and repeated keys only.
    fn of_kind(packet: &RawPacket, kind: PacketKind, duplicate_keys: u32) -> PacketSummary {
        PacketSummary {
            source: packet.source.clone(),
            offset: packet.offset,
            kind,
            duplicate_keys,
            audit_errors: 0,
            audit_warnings: 0,
            canonical_state: None,
            audit_supports: Default::default(),
            profile_failures: 0,
            profile_warnings: 0,
            migration_findings: 0,
            modes: [None, None],
        }
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
    if packet.bundle.is_some() {
        // A bundle as a whole: its verdict is its report's; its events are packets of their own.
        return (PacketSummary::of_kind(packet, PacketKind::Bundle, 0), None);
    }
    // Counted before anything is parsed: the scan and a tree of the same big object are never
    // alive together.
    let duplicate_keys = count_duplicate_keys(&packet.bytes) as u32;
    // The first mode's conversion reads the packet anyway; classification reuses it, so a raw
    // packet is parsed once per mode and never once more.
    let mut first_read = None;
    let mut first = options.modes.first().map(|&mode| {
        let (conversion, read) =
            convert_keeping_read(&packet.bytes, &options.conversion.with_mode(mode));
        first_read = read;
        (mode, conversion)
    });
    // One classifier: the same function `convert` and `explain` use on a converted packet.
    let mut reparsed = None;
    let (kind, parsed) = match &first {
        Some((_, conversion)) => kind_after_conversion(packet, conversion, &mut reparsed),
        None => {
            reparsed = Some(parse(&packet.bytes));
            let parsed = reparse_ref(&reparsed);
            (classify(parsed, packet.source.file_name()).kind, parsed)
        }
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
            // A strict rejection hands back what it read: the next mode starts from there.
            let mode_options = options.conversion.with_mode(mode);
            let conversion = match first_read.take() {
                Some(read) => convert_from_read(read, &packet.bytes, &mode_options),
                None => convert(&packet.bytes, &mode_options),
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
        *judged = tree.and_then(|value| Judgement::of_owned_with(value, &hints, direction).ok());
        if let Some(judgement) = judged {
            summary.migration_findings =
                judgement.findings.len() as u32 + u32::from(judgement.detection.mixed);
        }
    }
    if converted_kind(kind) {
        return (summary, None);
    }
    // The parse that classified the packet: the one the classifier made, else the
    // conversion's (it parsed the same bytes).
    let value = match reparsed {
        Some(Ok(value)) => Some(value),
        Some(Err(_)) => None,
        None => first.and_then(|(_, conversion)| conversion.packet.into_value()),
    };
    (summary, value)
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

/// The digest of the migrated form [`migration_owned`] gives, from a judgement of a tree the
/// caller gives up (migrated in place, nothing of its steps kept).
pub fn migrated_digest(
    kind: PacketKind,
    source: &Source,
    value: Value,
) -> Option<crate::json::Digest> {
    let (direction, hints) = migration_reading(kind, source)?;
    Judgement::of_owned_with(value, &hints, direction)
        .ok()
        .map(|judgement| judgement.result_digest)
}

/// The migration `check` judges an A2A object by (no choices), for every face that reports
/// on one, on a tree the caller gives up (migrated in place, its canonical text kept for
/// replays); `None` for other kinds.
pub fn migration_owned(kind: PacketKind, source: &Source, value: Value) -> Option<Migration> {
    let (direction, hints) = migration_reading(kind, source)?;
    Migration::run_owned_with(value, &hints, direction, &Choices::none()).ok()
}

/// The tree [`kind_after_conversion`] classified, given up: the one it parsed anew, or the
/// conversion's (parsed again if the conversion never parsed it).
pub fn take_tree(
    conversion: &mut crate::a2a::Conversion,
    reparsed: &mut Option<Result<Value, String>>,
) -> Option<Value> {
    match reparsed.take() {
        Some(Ok(value)) => Some(value),
        _ => conversion.packet.take(),
    }
}

/// How every face migrates an A2A protocol object: v0.3 forward, v1.0 back, and an object
/// of indeterminate version forward (as `migrate` does by default), detected with the hints
/// its file name gives (as the classifier that named its kind did). `None` for other kinds.
pub fn migration_reading(
    kind: PacketKind,
    source: &Source,
) -> Option<(Direction, crate::migrate::Hints)> {
    let direction = match kind {
        PacketKind::A2aV03 | PacketKind::A2a => Direction::Forward,
        PacketKind::A2aV10 => Direction::Reverse,
        _ => return None,
    };
    Some((direction, migration_hints(source.file_name())))
}

/// The hints every face hands the one detection for a packet: its file name's (a
/// migration's expected output), and the version `--as a2a-0.3` / `--as a2a-1.0` forces, so
/// that a forced reading is the same reading in `ls`, `check`, `explain` and the inspector
/// as `migrate --from` is in `migrate`.
pub fn migration_hints(file_name: Option<&str>) -> crate::migrate::Hints {
    let hints = crate::migrate::Hints::from_file_name(file_name);
    let version = match super::forced_reading() {
        Some(PacketKind::A2aV03) => crate::migrate::Version::V0_3,
        Some(PacketKind::A2aV10) => crate::migrate::Version::V1_0,
        _ => return hints,
    };
    hints.forced(None, Some(version))
}

fn count(audit: &Audit, severity: Severity) -> u32 {
    audit
        .findings
        .iter()
        .filter(|finding| finding.severity == severity)
        .count() as u32
}

/// A bundle file's classification, opening it once more (kind `bundle` even when it cannot
/// be read: the reason says why).
fn bundle_classification(path: &std::path::Path) -> Classification {
    match super::bundle_packets::open_packets(path, &crate::bundle::Limits::default()) {
        Ok(opened) => super::classify_bundle(&opened.report),
        Err(error) => Classification {
            kind: PacketKind::Bundle,
            reason: format!(
                "assay evidence bundle (.tar.gz) that cannot be read: {}",
                error.reason
            ),
        },
    }
}

/// Everything a view shows for one packet.
#[derive(Clone, Debug)]
pub struct PacketDetail {
    pub source: Source,
    pub classification: Classification,
    pub bytes: Vec<u8>,
    /// Whether `bytes` parse as JSON.
    is_json: bool,
    /// The parsed tree, until the migration takes it to migrate in place: views read it
    /// ([`PacketDetail::parsed`]) without parsing again, and a big object is never two trees
    /// (the detail's and the migration's).
    tree: KeptTree,
    /// Repeated keys, scanned when a view first asks ([`PacketDetail::duplicate_keys`]): an
    /// object of 500k different repeated keys holds a path each, about 50 MB, and only the
    /// findings view lists them.
    duplicate_keys: std::sync::OnceLock<Vec<DuplicateKey>>,
    /// Raw packets: the explanation in each evaluated mode, strict first.
    pub explanations: Vec<Explanation>,
    /// Canonical input: the freeze audit.
    pub audit: Option<Audit>,
    /// Master/sub, ContextCore and UAIX packets: the profile report.
    pub profile: Option<ProfileReport>,
    /// A2A protocol objects: the migration to the other version (v0.3 -> v1.0, v1.0 -> v0.3),
    /// run when a view first asks for it ([`PacketDetail::migration`]): its result and step
    /// records are the largest part of a big object's detail, and most views never show them.
    migration: std::sync::OnceLock<Option<Migration>>,
    /// Raw adapter packets: what relabelling the packet as A2A 1.0 does at the adapter.
    pub relabel: Option<RelabelOutcome>,
}

impl PacketDetail {
    /// Every repeated key of the packet with its path (scanned on the first call).
    pub fn duplicate_keys(&self) -> &[DuplicateKey] {
        self.duplicate_keys
            .get_or_init(|| scan_duplicate_keys(&self.bytes))
    }

    /// The packet as a JSON tree (`None`: not JSON): the detail's own until the migration
    /// has taken it, then parsed again on every call. Callers keep what they build from it,
    /// not the tree.
    pub fn parsed(&self) -> Option<Arc<Value>> {
        if !self.is_json {
            return None;
        }
        match self.tree.get() {
            Some(tree) => Some(tree),
            None => parse(&self.bytes).ok().map(Arc::new),
        }
    }

    /// Whether the packet is JSON (without parsing it again).
    pub fn is_json(&self) -> bool {
        self.is_json
    }

    /// The migration of an A2A protocol object (run on the first call, on a tree of its own
    /// that it migrates in place, keeping the input's canonical text for its replays),
    /// without its result tree (`result` is `null`: [`Migration::result_without`] builds it).
    pub fn migration(&self) -> Option<&Migration> {
        self.migration
            .get_or_init(|| {
                let (direction, hints) = migration_reading(self.classification.kind, &self.source)?;
                // The detail's tree when nobody else holds it (views drop theirs once their
                // lines are built), otherwise parsed again: never a copy beside another.
                let value = match self.tree.take().map(Arc::try_unwrap) {
                    Some(Ok(value)) => value,
                    _ => parse(&self.bytes).ok()?,
                };
                let mut migration =
                    Migration::run_owned_with(value, &hints, direction, &Choices::none()).ok()?;
                // Views show its records and replay its steps for diffs; the result tree, as
                // big as the packet's, would only sit beside it.
                migration.drop_result();
                Some(migration)
            })
            .as_ref()
    }

    /// The migration when something has asked for it already; `None` without running it.
    pub fn migration_if_run(&self) -> Option<&Migration> {
        self.migration.get().and_then(Option::as_ref)
    }

    pub fn explanation(&self, mode: Mode) -> Option<&Explanation> {
        self.explanations
            .iter()
            .find(|explanation| explanation.mode() == mode)
    }
}

/// A detail's tree, shared with the views until the migration takes it.
#[derive(Debug, Default)]
struct KeptTree(std::sync::Mutex<Option<Arc<Value>>>);

impl KeptTree {
    fn new(tree: Option<Value>) -> KeptTree {
        KeptTree(std::sync::Mutex::new(tree.map(Arc::new)))
    }

    fn get(&self) -> Option<Arc<Value>> {
        self.lock().clone()
    }

    fn take(&self) -> Option<Arc<Value>> {
        self.lock().take()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Value>>> {
        // A panic while holding the lock leaves the Option whole: its value is still good.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clone for KeptTree {
    fn clone(&self) -> KeptTree {
        KeptTree(std::sync::Mutex::new(self.get()))
    }
}

/// Evaluates one packet in full.
pub fn detail(source: Source, bytes: Vec<u8>, options: &EvaluateOptions) -> PacketDetail {
    detail_with_bundle(source, bytes, options, None)
}

/// `detail`, given the report of the bundle whose own packet this is when the caller holds
/// it (a view that loaded the bundle): then the bundle is not opened again to classify it.
pub fn detail_with_bundle(
    source: Source,
    bytes: Vec<u8>,
    options: &EvaluateOptions,
    bundle: Option<&crate::bundle::BundleReport>,
) -> PacketDetail {
    // Kept by the detail until its migration takes it (see `PacketDetail::tree`).
    let parsed = parse(&bytes);
    let classification = if source.line.is_none() && crate::bundle::is_bundle_path(&source.path) {
        // A bundle's own packet (its bytes are its manifest): the kind is the bundle's,
        // whatever its manifest holds.
        match bundle {
            Some(report) => super::classify_bundle(report),
            None => bundle_classification(&source.path),
        }
    } else {
        classify(parsed.as_ref().map_err(String::as_str), source.file_name())
    };
    let explanations = if converted_kind(classification.kind) {
        options
            .modes
            .iter()
            .map(|&mode| explain_conversion(convert(&bytes, &options.conversion.with_mode(mode))))
            .collect()
    } else {
        Vec::new()
    };
    let audit = match (classification.kind.canonical_shape(), &parsed) {
        (Some(_), Ok(value)) if unaudited_bundle_event(&source, value) => None,
        (Some(shape), Ok(value)) => Some(audit(value, shape)),
        _ => None,
    };
    let profile = match &parsed {
        Ok(value) if classification.kind.is_profile() => Some(profiles::evaluate(
            value,
            &bytes,
            Some(&source.path),
            &options.profile,
        )),
        _ => None,
    };
    let relabel = (classification.kind == PacketKind::RawA2a)
        .then(|| relabel_outcome(&bytes, &options.conversion))
        .flatten();
    PacketDetail {
        source,
        classification,
        bytes,
        is_json: parsed.is_ok(),
        tree: KeptTree::new(parsed.ok()),
        duplicate_keys: std::sync::OnceLock::new(),
        explanations,
        audit,
        profile,
        migration: std::sync::OnceLock::new(),
        relabel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn details_explain_each_mode() {
        let detail = detail(
            Source::file("p.json"),
            br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#.to_vec(),
            &EvaluateOptions::default(),
        );
        assert_eq!(detail.explanations.len(), 2);
        assert_eq!(
            detail.explanation(Mode::Lenient).unwrap().state,
            Some(HandoffState::TaskRefOnly)
        );
    }

    #[test]
    fn the_migration_takes_the_details_tree_and_views_still_get_one() {
        let text = r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"}}"#;
        let detail = detail(
            Source::file("t.json"),
            text.as_bytes().to_vec(),
            &EvaluateOptions::default(),
        );
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(detail.parsed().as_deref(), Some(&value));
        assert!(detail.tree.get().is_some());
        assert!(!detail.migration().unwrap().steps.is_empty());
        // Taken and migrated in place: the views parse the bytes again.
        assert!(detail.tree.get().is_none());
        assert_eq!(detail.parsed().as_deref(), Some(&value));
        let not_json = super::detail(
            Source::file("x.json"),
            b"{".to_vec(),
            &EvaluateOptions::default(),
        );
        assert!(not_json.parsed().is_none() && !not_json.is_json());
    }
}
