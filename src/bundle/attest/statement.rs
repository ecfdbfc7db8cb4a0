//! The in-toto v1 statement an attestation signs and its `evidence-bundle/v1` predicate: the
//! shapes upstream reads (unknown members ignored), and the statement derived from a verified
//! bundle (what `attest` signs and check 15 compares with).

use crate::bundle::verify::Verified;
use chrono::SecondsFormat;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const PAYLOAD_TYPE: &str = "application/vnd.in-toto+json";
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";
pub const PREDICATE_V1: &str = "https://docs.getassay.dev/attestation/evidence-bundle/v1";
/// The pre-ADR-044 type, whose subject digest was the run root: refused, never reinterpreted.
pub const PREDICATE_V0: &str = "https://assay.dev/attestation/evidence-bundle/v0";
/// `semantic_equivalence.algorithm`: the value is the run root `verify` computes.
const RUN_ROOT_ALGORITHM: &str = "assay-run-root-v1";

/// The statement as read from a signed payload (check 7 reads it, checks 8-11 judge it).
#[derive(Clone, Debug, Deserialize)]
pub struct StatementIn {
    #[serde(rename = "_type")]
    pub type_: String,
    pub subject: Vec<SubjectIn>,
    #[serde(rename = "predicateType")]
    pub predicate_type: String,
    pub predicate: Value,
}

#[derive(Clone, Debug, Deserialize)]
pub struct SubjectIn {
    pub name: String,
    pub digest: BTreeMap<String, String>,
}

/// The v1 predicate (check 11 reads it, check 15 compares it field by field).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Predicate {
    pub schema_version: u32,
    pub semantic_equivalence: SemanticEquivalence,
    pub run: Run,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct SemanticEquivalence {
    pub algorithm: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Run {
    pub run_id: String,
    pub event_count: u64,
    pub producer: Producer,
    pub time_window: TimeWindowText,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Producer {
    pub name: String,
    pub version: String,
    pub git: String,
}

/// RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits, as upstream writes it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TimeWindowText {
    pub start: String,
    pub end: String,
}

impl Predicate {
    /// The predicate upstream derives from a verified bundle.
    pub fn of(verified: &Verified) -> Predicate {
        let manifest = &verified.manifest;
        let time =
            |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(SecondsFormat::AutoSi, true);
        Predicate {
            schema_version: 1,
            semantic_equivalence: SemanticEquivalence {
                algorithm: RUN_ROOT_ALGORITHM.into(),
                value: verified.run_root.clone(),
            },
            run: Run {
                run_id: manifest.run_id.clone(),
                event_count: verified.event_count,
                producer: Producer {
                    name: manifest.producer.name.clone(),
                    version: manifest.producer.version.clone(),
                    git: manifest.producer.git.clone().unwrap_or_default(),
                },
                time_window: TimeWindowText {
                    start: time(verified.time_window.start),
                    end: time(verified.time_window.end),
                },
            },
        }
    }

    /// The fields check 15 compares, in upstream's order, each with its name.
    pub fn fields(&self) -> [(&'static str, String); 10] {
        let run = &self.run;
        [
            ("schema_version", self.schema_version.to_string()),
            (
                "semantic_equivalence.algorithm",
                self.semantic_equivalence.algorithm.clone(),
            ),
            (
                "semantic_equivalence.value",
                self.semantic_equivalence.value.clone(),
            ),
            ("run.run_id", run.run_id.clone()),
            ("run.event_count", run.event_count.to_string()),
            ("run.producer.name", run.producer.name.clone()),
            ("run.producer.version", run.producer.version.clone()),
            ("run.producer.git", run.producer.git.clone()),
            ("run.time_window.start", run.time_window.start.clone()),
            ("run.time_window.end", run.time_window.end.clone()),
        ]
    }

    /// The first field, in check 15's order, on which `self` and `other` disagree.
    pub(crate) fn first_difference(&self, other: &Predicate) -> Option<&'static str> {
        self.fields()
            .into_iter()
            .zip(other.fields())
            .find(|((_, mine), (_, theirs))| mine != theirs)
            .map(|((name, _), _)| name)
    }

    fn to_value(&self) -> Value {
        let run = &self.run;
        json!({
            "schema_version": self.schema_version,
            "semantic_equivalence": {
                "algorithm": self.semantic_equivalence.algorithm,
                "value": self.semantic_equivalence.value,
            },
            "run": {
                "run_id": run.run_id,
                "event_count": run.event_count,
                "producer": {
                    "name": run.producer.name,
                    "version": run.producer.version,
                    "git": run.producer.git,
                },
                "time_window": {
                    "start": run.time_window.start,
                    "end": run.time_window.end,
                },
            },
        })
    }
}

/// The statement `attest` signs for a verified bundle whose archive has SHA-256 `sha256`
/// (lowercase hex): subject named by the manifest's `bundle_id`, the predicate derived.
pub fn statement_of(verified: &Verified, sha256: &str) -> Value {
    json!({
        "_type": STATEMENT_TYPE,
        "subject": [{
            "name": verified.manifest.bundle_id,
            "digest": {"sha256": sha256},
        }],
        "predicateType": PREDICATE_V1,
        "predicate": Predicate::of(verified).to_value(),
    })
}
