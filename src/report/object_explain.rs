//! `explain` for the kinds that are neither raw packets, canonical evidence nor profile
//! packets: A2A protocol objects (what the migration `check` judges them by), golden
//! manifests (what they record and whether they parse) and files of no known shape.

use crate::corpus::{Classification, PacketKind};
use crate::golden::{parse_manifest, GoldenManifest};
use crate::json::{safe_text, Digest};
use crate::migrate::{Detection, Direction, Migration};
use crate::rules::{Finding, Severity};
use serde::Serialize;

/// The explanation of an A2A object: detection, then the migration to the other version.
#[derive(Serialize)]
pub struct A2aObjectJson<'a> {
    pub source: &'a str,
    pub kind: &'static str,
    pub detected: &'a Detection,
    /// `null` only when the object could not be migrated (the classifier and the migration
    /// ask the same detection, so this is not expected).
    pub direction: Option<Direction>,
    pub steps: Vec<StepJson>,
    pub warnings: &'a [Finding],
    pub findings: &'a [Finding],
    pub migrated_digest: Option<Digest>,
    /// What `check` says of it: false when it mixes versions or its migration fails a check.
    pub conforms: bool,
}

#[derive(Serialize)]
pub struct StepJson {
    pub id: &'static str,
    pub title: &'static str,
    pub lossy: bool,
}

impl<'a> A2aObjectJson<'a> {
    pub fn new(
        source: &'a str,
        kind: PacketKind,
        detection: &'a Detection,
        migration: Option<&'a Migration>,
    ) -> A2aObjectJson<'a> {
        A2aObjectJson {
            source,
            kind: kind.tag(),
            detected: detection,
            direction: migration.map(|migration| migration.direction),
            steps: migration
                .map(|migration| {
                    migration
                        .steps
                        .iter()
                        .map(|run| StepJson {
                            id: run.step.id,
                            title: run.step.title,
                            lossy: run.step.lossy,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            warnings: migration.map_or(&[], |migration| &migration.warnings),
            findings: migration.map_or(&[], |migration| &migration.findings),
            migrated_digest: migration
                .map(|migration| crate::json::digest_value(&migration.result)),
            conforms: a2a_object_conforms(detection, migration),
        }
    }
}

/// The verdict `check` gives an A2A object, from the same facts: no mixed versions and no
/// finding in the migrated result.
pub fn a2a_object_conforms(detection: &Detection, migration: Option<&Migration>) -> bool {
    !detection.mixed && migration.is_none_or(|migration| migration.findings.is_empty())
}

fn target(direction: Direction) -> &'static str {
    match direction {
        Direction::Forward => "v1.0",
        Direction::Reverse => "v0.3",
    }
}

fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

fn finding_line(finding: &Finding) -> String {
    format!(
        "  {} [{}] {}: {}",
        severity_name(finding.severity),
        safe_text(&finding.rule),
        finding.path,
        safe_text(&finding.message)
    )
}

/// The text form: what it is and why, then each migration step and what the check found.
pub fn a2a_object_text(
    source: &str,
    kind: PacketKind,
    detection: &Detection,
    migration: Option<&Migration>,
) -> String {
    let mut out = format!("{}\n", super::explain::heading(source, kind, None));
    out.push_str(&format!("detected: {}\n", detection.summary()));
    for reason in &detection.reasons {
        out.push_str(&format!("  because {}\n", safe_text(reason)));
    }
    for conflict in &detection.conflicts {
        out.push_str(&format!("  mixed versions: {}\n", safe_text(conflict)));
    }
    let Some(migration) = migration else {
        out.push_str("not migrated: the migration did not run on this object\n");
        return out;
    };
    let count = |severity: Severity| migration.warnings_of(severity);
    out.push_str(&format!(
        "migration to {}: {} step(s), {} warning(s), {} note(s), {} error(s); {} finding(s) in \
         the {} check of the result\n",
        target(migration.direction),
        migration.steps.len(),
        count(Severity::Warning),
        count(Severity::Note),
        count(Severity::Error),
        migration.findings.len(),
        target(migration.direction),
    ));
    for (index, run) in migration.steps.iter().enumerate() {
        let lossy = if run.step.lossy { "  (lossy)" } else { "" };
        out.push_str(&format!(
            "  {}. {}: {}{lossy}\n",
            index + 1,
            run.step.id,
            run.step.title
        ));
    }
    if !migration.warnings.is_empty() {
        out.push_str("warnings and notes:\n");
        for finding in &migration.warnings {
            out.push_str(&finding_line(finding));
            out.push('\n');
        }
    }
    if !migration.findings.is_empty() {
        out.push_str(&format!(
            "findings in the migrated result ({} check):\n",
            target(migration.direction)
        ));
        for finding in &migration.findings {
            out.push_str(&finding_line(finding));
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "migrated digest: {}\n(`migrate --steps` shows every step with its diff)\n",
        crate::json::digest_value(&migration.result)
    ));
    out
}

/// The explanation of a golden manifest.
#[derive(Serialize)]
pub struct ManifestJson<'a> {
    pub source: &'a str,
    pub kind: &'static str,
    pub parses: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub packets: usize,
    pub converted_entries: usize,
    pub object_entries: usize,
    pub options: serde_json::Map<String, serde_json::Value>,
}

impl<'a> ManifestJson<'a> {
    pub fn new(source: &'a str, bytes: &[u8]) -> ManifestJson<'a> {
        let parsed = parse_manifest(bytes);
        let manifest = parsed.as_ref().ok();
        let count = |test: fn(&crate::golden::GoldenEntry) -> bool| {
            manifest.map_or(0, |manifest: &GoldenManifest| {
                manifest
                    .packets
                    .values()
                    .filter(|entry| test(entry))
                    .count()
            })
        };
        ManifestJson {
            source,
            kind: PacketKind::GoldenManifest.tag(),
            parses: manifest.is_some(),
            error: parsed.as_ref().err().map(ToString::to_string),
            packets: manifest.map_or(0, |manifest| manifest.packets.len()),
            converted_entries: count(|entry| entry.modes.iter().any(Option::is_some)),
            object_entries: count(|entry| entry.object.is_some()),
            options: manifest
                .map(|manifest| {
                    manifest
                        .options
                        .fields()
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    pub fn text(&self) -> String {
        let mut out = format!(
            "{}\n",
            super::explain::heading(self.source, PacketKind::GoldenManifest, None)
        );
        match &self.error {
            Some(error) => out.push_str(&format!(
                "does not parse: {}\n`check` reports it as a manifest error and `bless` never \
                 overwrites it\n",
                safe_text(error)
            )),
            None => {
                out.push_str(&format!(
                    "parses: records {} packet(s): {} with conversion outcomes per mode (raw \
                     packets, bytes that are not JSON), {} with what `check` concluded for \
                     another kind\n",
                    self.packets, self.converted_entries, self.object_entries
                ));
                let options: Vec<String> = self
                    .options
                    .iter()
                    .map(|(key, value)| {
                        format!(
                            "{key} {}",
                            crate::json::shown_json(value, crate::rules::EVIDENCE_VALUE_CHARS)
                        )
                    })
                    .collect();
                out.push_str(&format!("recorded with: {}\n", options.join(", ")));
            }
        }
        out
    }
}

/// The explanation of a file of no known shape.
pub fn unknown_text(source: &str, classification: &Classification) -> String {
    format!(
        "{}\n{}\nnot a kind this inspector explains: not the adapter's input, canonical \
         evidence, an A2A object, a master/sub, ContextCore or UAIX packet, or a golden \
         manifest\n",
        super::explain::heading(source, classification.kind, None),
        safe_text(&classification.reason)
    )
}

/// The explanation of a file read as an A2A object (by `--as`, or by its file name) that the
/// migration's detection does not take for one: what it was read as, and why not.
pub fn undetected_a2a_text(source: &str, classification: &Classification, why: &str) -> String {
    format!(
        "{}\n{}\nnot detected as an A2A object: {}\nnothing to migrate or check\n",
        super::explain::heading(source, classification.kind, None),
        safe_text(&classification.reason),
        safe_text(why)
    )
}
