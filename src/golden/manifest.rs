//! The golden manifest: one `goldens.json` per fixture directory, recording for every packet
//! of that directory and each mode what the conversion is expected to give: the matched K1-A
//! rows, the named handoff state and the three digests, or the expected error kind and rule.
//!
//! The file is JSON written in one fixed layout (one field per line, packets sorted by file
//! name then line number), so that a change to one packet is a change to a few lines of the
//! diff. It is parsed strictly: anything unexpected is an error naming the place, never
//! something to overwrite.

use super::object::{ObjectGolden, OBJECT_KEYS};
use crate::a2a::{ConvertOptions, ErrorKind, Mode};
use crate::corpus::PacketKind;
use crate::freeze::{HandoffState, RowSet, COVERAGE_ROW_IDS};
use crate::json::{for_each_duplicate_key, to_safe_json, Digest};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;

/// The value of the manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "handoff-inspector goldens v1";

/// A packet's name inside its directory's manifest: the file name, and for NDJSON streams
/// the 1-based line number (`stream.ndjson:12`). Ordered by file name, then line number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PacketKey {
    pub file: String,
    pub line: Option<usize>,
}

impl PacketKey {
    pub fn file(file: impl Into<String>) -> PacketKey {
        PacketKey {
            file: file.into(),
            line: None,
        }
    }

    /// Parses `name` or `name:LINE`; the suffix counts as a line number only after an
    /// `.ndjson`/`.jsonl` name, so a file name with a colon stays a file name. (The one name
    /// this cannot tell apart, a single-packet file literally called `x.ndjson:3`, is never
    /// reached by a directory walk: its extension is not one the walk reads.)
    pub fn parse(text: &str) -> PacketKey {
        if let Some((file, line)) = text.rsplit_once(':') {
            // Streams' lines, and bundles' events (`BUNDLE:SEQ`).
            let stream = file.ends_with(".ndjson")
                || file.ends_with(".jsonl")
                || file.ends_with(".tar.gz")
                || file.ends_with(".tgz");
            if let (true, Ok(line)) = (stream, line.parse::<usize>()) {
                return PacketKey {
                    file: file.to_owned(),
                    line: Some(line),
                };
            }
        }
        PacketKey::file(text)
    }
}

impl fmt::Display for PacketKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

/// The conversion options a manifest was recorded with: they change payload digests (and
/// the limits change outcomes), so a check under other options would report drift that is
/// not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedOptions {
    pub adapter_version: String,
    pub protocol_version: Option<String>,
    pub max_payload_bytes: Option<usize>,
    pub max_json_depth: Option<usize>,
    pub max_array_length: Option<usize>,
}

impl RecordedOptions {
    pub fn of(options: &ConvertOptions) -> RecordedOptions {
        RecordedOptions {
            adapter_version: options.adapter_version.clone(),
            protocol_version: options.protocol_version.clone(),
            max_payload_bytes: options.max_payload_bytes,
            max_json_depth: options.max_json_depth,
            max_array_length: options.max_array_length,
        }
    }

    /// The options that are set, by manifest key, adapter_version first: what the manifest
    /// writes, and what a bless reports when they change.
    pub fn fields(&self) -> Vec<(&'static str, Value)> {
        let mut fields = vec![(
            "adapter_version",
            Value::from(self.adapter_version.as_str()),
        )];
        if let Some(version) = &self.protocol_version {
            fields.push(("protocol_version", Value::from(version.as_str())));
        }
        for (key, value) in [
            ("max_payload_bytes", self.max_payload_bytes),
            ("max_json_depth", self.max_json_depth),
            ("max_array_length", self.max_array_length),
        ] {
            if let Some(value) = value {
                fields.push((key, Value::from(value)));
            }
        }
        fields
    }

    /// Where these options differ from `options`, as `--flag recorded` hints; empty when equal.
    pub fn differences(&self, options: &ConvertOptions) -> Vec<String> {
        let other = RecordedOptions::of(options);
        let mut out = Vec::new();
        let show = |value: &Option<String>| value.clone().unwrap_or_else(|| "unset".to_owned());
        let show_n = |value: Option<usize>| value.map_or("unset".to_owned(), |n| n.to_string());
        if self.adapter_version != other.adapter_version {
            out.push(format!("--adapter-version {}", self.adapter_version));
        }
        if self.protocol_version != other.protocol_version {
            out.push(format!(
                "--protocol-version {}",
                show(&self.protocol_version)
            ));
        }
        for (flag, recorded, current) in [
            (
                "--max-payload-bytes",
                self.max_payload_bytes,
                other.max_payload_bytes,
            ),
            (
                "--max-json-depth",
                self.max_json_depth,
                other.max_json_depth,
            ),
            (
                "--max-array-length",
                self.max_array_length,
                other.max_array_length,
            ),
        ] {
            if recorded != current {
                out.push(format!("{flag} {}", show_n(recorded)));
            }
        }
        out
    }
}

/// What one mode of one packet is expected to give. Every field is optional so that a
/// manifest written by `derive` (rows and state, no digests yet) is legal; `check` compares
/// the fields that are present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModeGolden {
    pub error: Option<ErrorKind>,
    /// The conversion-table row that rejected the packet (e.g. `S3`).
    pub rule: Option<String>,
    pub rows: Option<RowSet>,
    pub state: Option<HandoffState>,
    pub handoff: Option<Digest>,
    pub discovery: Option<Digest>,
    pub payload: Option<Digest>,
}

impl ModeGolden {
    pub fn is_empty(&self) -> bool {
        *self == ModeGolden::default()
    }

    /// Every field by name with its value as written in the manifest (`None` when absent),
    /// in manifest order: what `check` compares and `bless` reports, one field at a time.
    pub fn fields(&self) -> [(&'static str, Option<String>); 7] {
        let rows = self
            .rows
            .map(|rows| rows.ids().collect::<Vec<_>>().join(" "));
        [
            ("error", self.error.map(|kind| kind.name().to_owned())),
            ("rule", self.rule.clone()),
            ("rows", rows),
            ("state", self.state.map(|state| state.key().to_owned())),
            ("handoff", self.handoff.map(|digest| digest.to_hex())),
            ("discovery", self.discovery.map(|digest| digest.to_hex())),
            ("payload", self.payload.map(|digest| digest.to_hex())),
        ]
    }

    /// One line for people: `error measurement (S3)` or `task_ref_only [P TR] payload 1a2b3c4d`.
    pub fn describe(&self) -> String {
        if let Some(error) = self.error {
            return match &self.rule {
                Some(rule) => format!("error {} ({rule})", error.name()),
                None => format!("error {}", error.name()),
            };
        }
        let mut parts = Vec::new();
        if let Some(state) = self.state {
            parts.push(state.key().to_owned());
        }
        if let Some(rows) = self.rows {
            parts.push(format!("[{}]", rows.ids().collect::<Vec<_>>().join(" ")));
        }
        if let Some(payload) = self.payload {
            parts.push(format!("payload {}", payload.short(12)));
        }
        if parts.is_empty() {
            "nothing recorded".to_owned()
        } else {
            parts.join(" ")
        }
    }
}

/// A manifest field's value for people: a digest by its first 12 hex digits, anything else
/// terminal-safe and whole.
pub fn shown_value(value: &str) -> String {
    match Digest::from_hex(value) {
        Some(digest) => digest.short(12),
        None => crate::json::safe_text(value).into_owned(),
    }
}

/// Everything recorded for one packet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoldenEntry {
    /// Duplicate-key paths a reviewer has acknowledged (a fixture may repeat a key on
    /// purpose); `check` reports duplicates only when they differ from these.
    pub duplicate_keys: Vec<String>,
    /// Strict first.
    pub modes: [Option<ModeGolden>; 2],
    /// For kinds that are not converted: what `check` concluded (see `golden::object`).
    /// Boxed: most entries have none, and a manifest holds one entry per packet.
    pub object: Option<Box<ObjectGolden>>,
}

impl GoldenEntry {
    pub fn mode(&self, mode: Mode) -> Option<&ModeGolden> {
        self.modes[mode.index()].as_ref()
    }

    pub fn set_mode(&mut self, mode: Mode, golden: Option<ModeGolden>) {
        self.modes[mode.index()] = golden;
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenManifest {
    pub options: RecordedOptions,
    pub packets: BTreeMap<PacketKey, GoldenEntry>,
}

impl GoldenManifest {
    pub fn new(options: &ConvertOptions) -> GoldenManifest {
        GoldenManifest {
            options: RecordedOptions::of(options),
            packets: BTreeMap::new(),
        }
    }

    pub fn entry(&self, key: &PacketKey) -> Option<&GoldenEntry> {
        self.packets.get(key)
    }
}

/// Why a manifest could not be read, with the place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub reason: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

pub(super) fn bad(reason: impl Into<String>) -> ManifestError {
    ManifestError {
        reason: reason.into(),
    }
}

/// Parses a manifest's bytes. Entries are read one at a time (`parse_stream`): the memory
/// is the entries themselves, not a JSON tree of the whole file.
pub fn parse_manifest(bytes: &[u8]) -> Result<GoldenManifest, ManifestError> {
    let mut first_duplicate = None;
    for_each_duplicate_key(bytes, |duplicate| {
        first_duplicate.get_or_insert(duplicate);
    });
    if let Some(duplicate) = first_duplicate {
        return Err(bad(format!(
            "duplicate key at {}: one of the two entries would be lost",
            duplicate.path
        )));
    }
    let parts = super::parse_stream::parse_parts(bytes)?;
    if !parts.format_seen {
        check_format(None)?;
    }
    let options = parts.options.ok_or_else(|| bad("$.options is missing"))?;
    let packets = parts.packets.ok_or_else(|| bad("$.packets is missing"))?;
    Ok(GoldenManifest { options, packets })
}

/// The `format` field, present and this tool's.
pub(super) fn check_format(value: Option<&Value>) -> Result<(), ManifestError> {
    match value.map(Value::as_str) {
        Some(Some(MANIFEST_FORMAT)) => Ok(()),
        Some(Some(other)) => Err(bad(format!(
            "$.format is {}, expected \"{MANIFEST_FORMAT}\"",
            quoted(other)
        ))),
        // Today's messages: a format that is not a string reads as missing.
        _ => Err(bad(format!("$.format is missing (\"{MANIFEST_FORMAT}\")"))),
    }
}

pub(super) fn quoted(text: &str) -> String {
    to_safe_json(&text).unwrap_or_default()
}

fn object<'v>(value: &'v Value, at: &str) -> Result<&'v Map<String, Value>, ManifestError> {
    value
        .as_object()
        .ok_or_else(|| bad(format!("{at} must be an object")))
}

fn only_keys(map: &Map<String, Value>, at: &str, allowed: &[&str]) -> Result<(), ManifestError> {
    match map.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(bad(format!(
            "{at} has an unexpected key {} (allowed: {})",
            quoted(key),
            allowed.join(", ")
        ))),
        None => Ok(()),
    }
}

fn string<'v>(
    map: &'v Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<&'v str>, ManifestError> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(bad(format!("{at}.{key} must be a string"))),
    }
}

fn count(map: &Map<String, Value>, key: &str, at: &str) -> Result<Option<usize>, ManifestError> {
    match map.get(key) {
        None => Ok(None),
        Some(value) => value
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| bad(format!("{at}.{key} must be a non-negative integer"))),
    }
}

pub(super) fn parse_options(value: &Value) -> Result<RecordedOptions, ManifestError> {
    let at = "$.options";
    let map = object(value, at)?;
    only_keys(
        map,
        at,
        &[
            "adapter_version",
            "protocol_version",
            "max_payload_bytes",
            "max_json_depth",
            "max_array_length",
        ],
    )?;
    Ok(RecordedOptions {
        adapter_version: string(map, "adapter_version", at)?
            .ok_or_else(|| bad("$.options.adapter_version is missing"))?
            .to_owned(),
        protocol_version: string(map, "protocol_version", at)?.map(str::to_owned),
        max_payload_bytes: count(map, "max_payload_bytes", at)?,
        max_json_depth: count(map, "max_json_depth", at)?,
        max_array_length: count(map, "max_array_length", at)?,
    })
}

pub(super) fn parse_entry(value: &Value, at: &str) -> Result<GoldenEntry, ManifestError> {
    let map = object(value, at)?;
    let mut allowed = vec!["duplicate_keys", "strict", "lenient"];
    allowed.extend(OBJECT_KEYS);
    only_keys(map, at, &allowed)?;
    let mut entry = GoldenEntry::default();
    if OBJECT_KEYS.iter().any(|key| map.contains_key(*key)) {
        entry.object = Some(Box::new(parse_object(map, at)?));
    }
    if let Some(list) = map.get("duplicate_keys") {
        let items = list
            .as_array()
            .ok_or_else(|| bad(format!("{at}.duplicate_keys must be an array of paths")))?;
        for item in items {
            let path = item
                .as_str()
                .ok_or_else(|| bad(format!("{at}.duplicate_keys must hold strings")))?;
            entry.duplicate_keys.push(path.to_owned());
        }
    }
    for mode in Mode::BOTH {
        if let Some(golden) = map.get(mode.name()) {
            let mode_at = format!("{at}.{}", mode.name());
            entry.set_mode(mode, Some(parse_mode(golden, &mode_at)?));
        }
    }
    Ok(entry)
}

fn digest_field(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<Digest>, ManifestError> {
    string(map, key, at)?
        .map(|hex| {
            Digest::from_hex(hex).ok_or_else(|| bad(format!("{at}.{key} must be 64 hex digits")))
        })
        .transpose()
}

fn parse_object(map: &Map<String, Value>, at: &str) -> Result<ObjectGolden, ManifestError> {
    if map.contains_key("strict") || map.contains_key("lenient") {
        return Err(bad(format!(
            "{at} records both conversion outcomes (strict/lenient) and an object's (kind, object, ...)"
        )));
    }
    let kind = string(map, "kind", at)?
        .ok_or_else(|| bad(format!("{at}.kind is missing (it records an object)")))?;
    let kind = PacketKind::from_tag(kind)
        .filter(|&kind| super::object::records_object(kind))
        .ok_or_else(|| {
            bad(format!(
                "{at}.kind {} is not a kind with an object golden (payload, event, batch, a2a-0.3, a2a-1.0, a2a, ahc, contextcore, uaix, bundle)",
                quoted(kind)
            ))
        })?;
    let digest = |key: &str| digest_field(map, key, at);
    let ids = |key: &str| -> Result<Vec<String>, ManifestError> {
        let Some(list) = map.get(key) else {
            return Ok(Vec::new());
        };
        let items = list
            .as_array()
            .ok_or_else(|| bad(format!("{at}.{key} must be an array of finding ids")))?;
        items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(format!("{at}.{key} must hold strings")))
            })
            .collect()
    };
    Ok(ObjectGolden {
        kind,
        object: digest("object")?
            .ok_or_else(|| bad(format!("{at}.object is missing (the object's digest)")))?,
        state: string(map, "state", at)?
            .map(|key| {
                HandoffState::from_key(key).ok_or_else(|| {
                    bad(format!(
                        "{at}.state {} is not one of the five handoff states",
                        quoted(key)
                    ))
                })
            })
            .transpose()?,
        migrated: digest("migrated")?,
        verdict: string(map, "verdict", at)?.map(str::to_owned),
        run_root: string(map, "run_root", at)?.map(str::to_owned),
        failing: ids("failing")?,
        warning: ids("warning")?,
    })
}

fn parse_mode(value: &Value, at: &str) -> Result<ModeGolden, ManifestError> {
    let map = object(value, at)?;
    only_keys(
        map,
        at,
        &[
            "error",
            "rule",
            "rows",
            "state",
            "handoff",
            "discovery",
            "payload",
        ],
    )?;
    let digest = |key: &str| digest_field(map, key, at);
    let golden = ModeGolden {
        error: string(map, "error", at)?
            .map(|name| {
                ErrorKind::parse(name).ok_or_else(|| {
                    bad(format!(
                        "{at}.error {} is not an error kind (measurement, unsupported_protocol_version, strict_lossiness_violation)",
                        quoted(name)
                    ))
                })
            })
            .transpose()?,
        rule: string(map, "rule", at)?.map(str::to_owned),
        rows: map.get("rows").map(|rows| parse_rows(rows, at)).transpose()?,
        state: string(map, "state", at)?
            .map(|key| {
                HandoffState::from_key(key).ok_or_else(|| {
                    bad(format!("{at}.state {} is not one of the five handoff states", quoted(key)))
                })
            })
            .transpose()?,
        handoff: digest("handoff")?,
        discovery: digest("discovery")?,
        payload: digest("payload")?,
    };
    let converted_fields = golden.state.is_some()
        || golden.handoff.is_some()
        || golden.discovery.is_some()
        || golden.payload.is_some();
    if golden.error.is_some() && converted_fields {
        return Err(bad(format!(
            "{at} records both an error and a converted outcome"
        )));
    }
    if golden.rule.is_some() && golden.error.is_none() {
        return Err(bad(format!("{at}.rule is only meaningful with an error")));
    }
    Ok(golden)
}

fn parse_rows(value: &Value, at: &str) -> Result<RowSet, ManifestError> {
    let items = value
        .as_array()
        .ok_or_else(|| bad(format!("{at}.rows must be an array of K1-A row ids")))?;
    let mut rows = RowSet::default();
    for item in items {
        match item.as_str() {
            Some(id) if COVERAGE_ROW_IDS.contains(&id) => rows.insert(id),
            _ => {
                return Err(bad(format!(
                    "{at}.rows holds {}, not a K1-A row id (P, TR, MR, SYN, N1-N7, X1-X10)",
                    crate::json::safe_text(&item.to_string())
                )))
            }
        }
    }
    Ok(rows)
}

/// Writes the manifest in its one fixed layout.
pub fn render_manifest(manifest: &GoldenManifest) -> String {
    let mut encoder = ManifestEncoder::default();
    let mut out = ManifestEncoder::head(&manifest.options);
    for (key, entry) in &manifest.packets {
        out.push_str(&encoder.entry(key, entry));
    }
    out.push_str(encoder.tail());
    out
}

/// The manifest's layout in pieces, for writing one entry at a time (`bless` streams the
/// entries to the file in key order and never holds the whole text): `head`, then `entry`
/// for every packet in key order, then `tail`. `render_manifest` is built from the same
/// pieces, so both give the same bytes.
#[derive(Debug, Default)]
pub struct ManifestEncoder {
    entries: usize,
}

impl ManifestEncoder {
    /// The text up to the packets: format and options.
    pub fn head(options: &RecordedOptions) -> String {
        let mut out = String::new();
        out.push_str("{\n");
        let _ = writeln!(out, "  \"format\": {},", quoted(MANIFEST_FORMAT));
        out.push_str("  \"options\": {\n");
        let fields: Vec<String> = options
            .fields()
            .into_iter()
            .map(|(key, value)| format!("\"{key}\": {}", to_safe_json(&value).unwrap_or_default()))
            .collect();
        push_fields(&mut out, &fields, "    ");
        out.push_str("  },\n");
        out
    }

    /// One packet's text, with what goes before it (the `packets` key before the first, a
    /// comma before the others).
    pub fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> String {
        let mut out = String::new();
        out.push_str(if self.entries == 0 {
            "  \"packets\": {\n"
        } else {
            ",\n"
        });
        self.entries += 1;
        let _ = writeln!(out, "    {}: {{", quoted(&key.to_string()));
        let parts = entry_fields(entry);
        out.push_str(&parts.join(",\n"));
        if !parts.is_empty() {
            out.push('\n');
        }
        out.push_str("    }");
        out
    }

    /// The text after the last packet.
    pub fn tail(&self) -> &'static str {
        if self.entries == 0 {
            "  \"packets\": {}\n}\n"
        } else {
            "\n  }\n}\n"
        }
    }
}

/// An entry's fields as the manifest writes them, one (possibly multi-line) item each.
fn entry_fields(entry: &GoldenEntry) -> Vec<String> {
    let mut parts = Vec::new();
    if !entry.duplicate_keys.is_empty() {
        let paths: Vec<String> = entry
            .duplicate_keys
            .iter()
            .map(|path| quoted(path))
            .collect();
        parts.push(format!("      \"duplicate_keys\": [{}]", paths.join(", ")));
    }
    for mode in Mode::BOTH {
        if let Some(golden) = entry.mode(mode) {
            parts.push(render_mode(mode, golden));
        }
    }
    if let Some(object) = &entry.object {
        parts.extend(
            object
                .render_fields(&|text| quoted(text))
                .into_iter()
                .map(|field| format!("      {field}")),
        );
    }
    parts
}

/// An entry as one JSON object, in the manifest's terms (what `parse_entry_json` reads back):
/// how `bless` keeps recorded entries on disk while it sorts them.
pub(super) fn entry_json(entry: &GoldenEntry) -> String {
    format!("{{{}}}", entry_fields(entry).join(","))
}

/// Reads back what `entry_json` wrote.
pub(super) fn parse_entry_json(value: &Value) -> Result<GoldenEntry, ManifestError> {
    parse_entry(value, "$")
}

fn render_mode(mode: Mode, golden: &ModeGolden) -> String {
    let mut fields = Vec::new();
    if let Some(error) = golden.error {
        fields.push(format!("\"error\": {}", quoted(error.name())));
    }
    if let Some(rule) = &golden.rule {
        fields.push(format!("\"rule\": {}", quoted(rule)));
    }
    if let Some(rows) = golden.rows {
        let ids: Vec<String> = rows.ids().map(quoted).collect();
        fields.push(format!("\"rows\": [{}]", ids.join(", ")));
    }
    if let Some(state) = golden.state {
        fields.push(format!("\"state\": {}", quoted(state.key())));
    }
    for (key, digest) in [
        ("handoff", golden.handoff),
        ("discovery", golden.discovery),
        ("payload", golden.payload),
    ] {
        if let Some(digest) = digest {
            fields.push(format!("\"{key}\": \"{digest}\""));
        }
    }
    if fields.is_empty() {
        return format!("      \"{}\": {{}}", mode.name());
    }
    let mut out = format!("      \"{}\": {{\n", mode.name());
    push_fields(&mut out, &fields, "        ");
    out.push_str("      }");
    out
}

fn push_fields(out: &mut String, fields: &[String], indent: &str) {
    let last = fields.len().saturating_sub(1);
    for (index, field) in fields.iter().enumerate() {
        out.push_str(indent);
        out.push_str(field);
        out.push_str(if index == last { "\n" } else { ",\n" });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GoldenManifest {
        let mut manifest = GoldenManifest::new(&ConvertOptions::default());
        let mut rows = RowSet::default();
        for id in ["P", "TR", "MR"] {
            rows.insert(id);
        }
        let converted = ModeGolden {
            rows: Some(rows),
            state: Some(HandoffState::TaskAndMessageRefs),
            handoff: Digest::from_hex(HandoffState::TaskAndMessageRefs.digest_hex()),
            discovery: Some(crate::json::digest_bytes(b"d")),
            payload: Some(crate::json::digest_bytes(b"p")),
            ..ModeGolden::default()
        };
        manifest.packets.insert(
            PacketKey::file("happy.json"),
            GoldenEntry {
                duplicate_keys: vec!["$.task.kind".to_owned()],
                modes: [Some(converted.clone()), Some(converted)],
                object: None,
            },
        );
        manifest.packets.insert(
            PacketKey::file("task.v03.json"),
            GoldenEntry {
                object: Some(Box::new(ObjectGolden {
                    kind: PacketKind::A2aV03,
                    object: crate::json::digest_bytes(b"o"),
                    state: None,
                    migrated: Some(crate::json::digest_bytes(b"m")),
                    verdict: None,
                    run_root: None,
                    failing: vec!["mixed-versions".to_owned(), "V10-3".to_owned()],
                    warning: Vec::new(),
                })),
                ..GoldenEntry::default()
            },
        );
        manifest.packets.insert(
            PacketKey::file("b.tar.gz"),
            GoldenEntry {
                object: Some(Box::new(ObjectGolden {
                    kind: PacketKind::Bundle,
                    object: crate::json::digest_bytes(b"manifest"),
                    state: None,
                    migrated: None,
                    verdict: Some("valid".to_owned()),
                    run_root: Some(format!("sha256:{}", "ab".repeat(32))),
                    failing: Vec::new(),
                    warning: Vec::new(),
                })),
                ..GoldenEntry::default()
            },
        );
        assert_eq!(
            PacketKey::parse("b.tar.gz:3"),
            PacketKey {
                file: "b.tar.gz".to_owned(),
                line: Some(3)
            }
        );
        manifest.packets.insert(
            PacketKey::parse("s.ndjson:10"),
            GoldenEntry {
                duplicate_keys: Vec::new(),
                modes: [
                    Some(ModeGolden {
                        error: Some(ErrorKind::Measurement),
                        rule: Some("S3".to_owned()),
                        ..ModeGolden::default()
                    }),
                    None,
                ],
                object: None,
            },
        );
        manifest
            .packets
            .insert(PacketKey::parse("s.ndjson:9"), GoldenEntry::default());
        manifest
    }

    #[test]
    fn render_then_parse_round_trips() {
        let manifest = sample();
        let text = render_manifest(&manifest);
        assert_eq!(parse_manifest(text.as_bytes()), Ok(manifest));
        // Natural line order, one field per line.
        let nine = text.find("s.ndjson:9").unwrap();
        let ten = text.find("s.ndjson:10").unwrap();
        assert!(nine < ten, "{text}");
        assert!(text.contains("\n        \"state\": \"task_and_message_refs\",\n"));
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn empty_manifest_round_trips() {
        let manifest = GoldenManifest::new(&ConvertOptions::default());
        assert_eq!(
            parse_manifest(render_manifest(&manifest).as_bytes()),
            Ok(manifest)
        );
    }

    #[test]
    fn malformed_manifests_are_errors_with_the_place() {
        let base = r#"{"format":"handoff-inspector goldens v1","options":{"adapter_version":"3.4.0"},"packets":PACKETS}"#;
        let cases = [
            (
                "{\"a.json\":{\"strict\":{\"error\":\"boom\"}}}",
                "$.packets[\"a.json\"].strict.error",
            ),
            (
                "{\"a.json\":{\"strict\":{\"handoff\":\"abc\"}}}",
                "must be 64 hex digits",
            ),
            (
                "{\"a.json\":{\"strict\":{\"rows\":[\"Q9\"]}}}",
                "not a K1-A row id",
            ),
            ("{\"a.json\":{\"sloppy\":{}}}", "unexpected key \"sloppy\""),
            ("{\"a.json\":{},\"a.json\":{}}", "duplicate key"),
            (
                "{\"a.json\":{\"strict\":{\"error\":\"measurement\",\"state\":\"defaults\"}}}",
                "both an error",
            ),
            ("[]", "$.packets must be an object"),
        ];
        for (packets, expected) in cases {
            let text = base.replace("PACKETS", packets);
            let error = parse_manifest(text.as_bytes()).unwrap_err();
            assert!(error.reason.contains(expected), "{packets}: {error}");
        }
        assert!(parse_manifest(b"{\"format\":\"other\"}")
            .unwrap_err()
            .reason
            .contains("$.format"));
        assert!(parse_manifest(b"not json").is_err());
        // The document's own shape, read entry by entry: the same words as a whole tree gave.
        let whole = [
            (&b"[1]"[..], "$ must be an object"),
            (b"7", "$ must be an object"),
            (b"{\"extra\":1}", "$ has an unexpected key \"extra\""),
            (b"{\"format\":1}", "$.format is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"options\":{\"adapter_version\":\"3.4.0\"}}", "$.packets is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"packets\":{}}", "$.options is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\",\"options\":{},\"packets\":{}}", "$.options.adapter_version is missing"),
            (b"{\"format\":\"handoff-inspector goldens v1\"} x", "not JSON: trailing characters"),
            (b"{\"packets\":{\"a.json\":{}", "not JSON: EOF"),
        ];
        for (bytes, expected) in whole {
            let error = parse_manifest(bytes).unwrap_err();
            assert!(
                error.reason.starts_with(expected),
                "{}: {error}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn option_differences_name_the_flag() {
        let recorded = RecordedOptions::of(&ConvertOptions::default());
        let mut options = ConvertOptions::default();
        assert!(recorded.differences(&options).is_empty());
        options.adapter_version = "9.9.9".to_owned();
        options.max_json_depth = Some(4);
        assert_eq!(
            recorded.differences(&options),
            vec!["--adapter-version 3.4.0", "--max-json-depth unset"]
        );
    }

    fn arbitrary_entry() -> impl proptest::strategy::Strategy<Value = GoldenEntry> {
        use proptest::prelude::*;
        let digest = proptest::option::of(any::<[u8; 32]>().prop_map(Digest));
        let rows = proptest::option::of(
            proptest::sample::subsequence(COVERAGE_ROW_IDS.to_vec(), 0..5).prop_map(|ids| {
                let mut rows = RowSet::default();
                for id in ids {
                    rows.insert(id);
                }
                rows
            }),
        );
        let converted = (
            rows.clone(),
            proptest::option::of(proptest::sample::select(HandoffState::ALL.to_vec())),
            digest.clone(),
            digest.clone(),
            digest,
        )
            .prop_map(|(rows, state, handoff, discovery, payload)| ModeGolden {
                rows,
                state,
                handoff,
                discovery,
                payload,
                ..ModeGolden::default()
            });
        let rejected =
            (rows, "[A-Z][0-9]", any::<bool>()).prop_map(|(rows, rule, kind)| ModeGolden {
                error: Some(if kind {
                    ErrorKind::Measurement
                } else {
                    ErrorKind::StrictLossinessViolation
                }),
                rule: Some(rule),
                rows,
                ..ModeGolden::default()
            });
        let mode = proptest::option::of(prop_oneof![converted, rejected]);
        (
            proptest::collection::vec("\\PC{1,12}", 0..3),
            mode.clone(),
            mode,
        )
            .prop_map(|(duplicate_keys, strict, lenient)| GoldenEntry {
                object: None,
                duplicate_keys,
                modes: [strict, lenient],
            })
    }

    proptest::proptest! {
        #[test]
        fn any_manifest_round_trips(
            entries in proptest::collection::btree_map(
                proptest::strategy::Strategy::prop_map(("[a-z\\u{e9}\\u{202e} \"\\\\:]{1,10}", proptest::prelude::any::<bool>(), 1usize..5000),
                    |(stem, stream, line): (String, bool, usize)| {
                        // A line number only ever belongs to a stream's key.
                        if stream {
                            (format!("{stem}.ndjson"), Some(line))
                        } else {
                            (format!("{stem}.json"), None)
                        }
                    }),
                arbitrary_entry(),
                0..6,
            ),
            adapter in "\\PC{1,8}",
            depth in proptest::option::of(1usize..100),
        ) {
            let mut manifest = GoldenManifest::new(&ConvertOptions {
                adapter_version: adapter,
                max_json_depth: depth,
                ..ConvertOptions::default()
            });
            for ((file, line), entry) in entries {
                manifest.packets.insert(PacketKey { file, line }, entry);
            }
            let text = render_manifest(&manifest);
            proptest::prop_assert_eq!(parse_manifest(text.as_bytes()), Ok(manifest));
        }

        #[test]
        fn no_bytes_panic_the_parser(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200)) {
            let _ = parse_manifest(&bytes);
        }
    }

    #[test]
    fn keys_parse_lines_only_on_streams() {
        assert_eq!(PacketKey::parse("a.jsonl:3").line, Some(3));
        assert_eq!(PacketKey::parse("odd:3.json").line, None);
        assert_eq!(PacketKey::parse("a.json:3"), PacketKey::file("a.json:3"));
    }
}
