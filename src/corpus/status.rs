//! The verdict of checking one packet, shared by `check`, `bless` and the TUI: a `Status`,
//! and the findings that led to it, each of a kind with a fixed effect on the status.

use crate::a2a::Mode;
use crate::golden::JsonDiff;
use serde::Serialize;

enum_with_all! {
    /// A packet's (or one mode's) overall result, worst first when sorted in reverse.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Status {
        /// Everything recorded for it matched and nothing was found.
        Conforms,
        /// An intentional negative: it fails (a bundle's verification, an audit, profile or
        /// migration check) exactly as its golden records, and nothing else was found. Not a
        /// failure of `check`, but never shown as conforming either.
        FailsAsRecorded,
        /// A kind this inspector does not evaluate (yet), or not a packet of any known shape.
        NotChecked,
        /// Converted without findings, but with no golden to compare against.
        NoGolden,
        /// A freeze-audit error or duplicate keys.
        Finding,
        /// Drift: a golden digest, state, row set or error, or a paired expected payload, differs.
        Mismatch,
        /// Unreadable input: not JSON, an unreadable expected payload, or a file that could not
        /// be read at all.
        Error,
    }
}

impl Status {
    /// The stable key used in JSON output.
    pub fn key(self) -> &'static str {
        match self {
            Status::Conforms => "conforms",
            Status::FailsAsRecorded => "fails_as_recorded",
            Status::NotChecked => "not_checked",
            Status::NoGolden => "no_golden",
            Status::Finding => "finding",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Status::Conforms => "conforms",
            Status::FailsAsRecorded => "fails as recorded",
            Status::NotChecked => "not checked",
            Status::NoGolden => "no golden",
            Status::Finding => "finding",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
        }
    }

    /// Whether this status fails a check (`no golden` only under `--require-golden`).
    pub fn fails(self, require_golden: bool) -> bool {
        match self {
            Status::Conforms | Status::FailsAsRecorded | Status::NotChecked => false,
            Status::NoGolden => require_golden,
            Status::Finding | Status::Mismatch | Status::Error => true,
        }
    }
}

enum_with_all! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum FindingKind {
        /// A file or NDJSON line that yielded no packet (unreadable, empty, binary, too large...).
        LoadError,
        /// Bytes that are not JSON (a BOM and invalid UTF-8 included), with no golden expecting it.
        NotJson,
        /// The directory's manifest is malformed or was recorded under other options.
        ManifestError,
        /// A recorded golden field (digest, state, rows, error) differs from this run.
        GoldenMismatch,
        /// A paired `NAME.MODE.payload.json` differs from the converted payload.
        PairedMismatch,
        /// A paired expected payload that cannot be read or is not JSON.
        PairedUnreadable,
        /// An error-severity finding of the freeze audit of canonical input.
        AuditError,
        /// A warning of the freeze audit (reported, not failing).
        AuditWarning,
        /// Repeated object keys not acknowledged in the manifest.
        DuplicateKeys,
        /// Nothing recorded to compare against.
        NoGolden,
        /// A master/sub, ContextCore or UAIX rule row failed.
        ProfileFailure,
        /// A profile row warned (reported, not failing).
        ProfileWarning,
        /// An A2A protocol object mixes versions, or its migration's result fails a check.
        MigrationFinding,
        /// An evidence bundle fails upstream's verification (rule: upstream's error code).
        BundleError,
        /// A bundle's attestation is refused by a check, judged against the trusted keys (rule:
        /// `attestation-` and the check's id).
        AttestationRefused,
    }
}

impl FindingKind {
    /// The status a finding of this kind gives its packet (at least).
    pub fn status(self) -> Status {
        match self {
            FindingKind::LoadError
            | FindingKind::NotJson
            | FindingKind::ManifestError
            | FindingKind::PairedUnreadable => Status::Error,
            FindingKind::GoldenMismatch | FindingKind::PairedMismatch => Status::Mismatch,
            FindingKind::AuditError
            | FindingKind::DuplicateKeys
            | FindingKind::ProfileFailure
            | FindingKind::MigrationFinding
            | FindingKind::BundleError
            | FindingKind::AttestationRefused => Status::Finding,
            FindingKind::NoGolden => Status::NoGolden,
            FindingKind::AuditWarning | FindingKind::ProfileWarning => Status::Conforms,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            FindingKind::LoadError => "load_error",
            FindingKind::NotJson => "not_json",
            FindingKind::ManifestError => "manifest_error",
            FindingKind::GoldenMismatch => "golden_mismatch",
            FindingKind::PairedMismatch => "paired_mismatch",
            FindingKind::PairedUnreadable => "paired_unreadable",
            FindingKind::AuditError => "audit_error",
            FindingKind::AuditWarning => "audit_warning",
            FindingKind::DuplicateKeys => "duplicate_keys",
            FindingKind::NoGolden => "no_golden",
            FindingKind::ProfileFailure => "profile_failure",
            FindingKind::ProfileWarning => "profile_warning",
            FindingKind::MigrationFinding => "migration_finding",
            FindingKind::BundleError => "bundle_error",
            FindingKind::AttestationRefused => "attestation_refused",
        }
    }

    /// What a finding of this kind means, in a sentence (SARIF's rule descriptions).
    pub fn description(self) -> &'static str {
        match self {
            FindingKind::LoadError => "A file or NDJSON line yielded no packet (unreadable, empty, binary, too large, a special file).",
            FindingKind::NotJson => "The bytes are not JSON (a BOM and invalid UTF-8 included) and no golden expects that.",
            FindingKind::ManifestError => "The directory's golden manifest is malformed or was recorded under other conversion options.",
            FindingKind::GoldenMismatch => "A recorded golden field (digest, state, rows, error) differs from this run.",
            FindingKind::PairedMismatch => "A paired NAME.MODE.payload.json differs from the converted payload.",
            FindingKind::PairedUnreadable => "A paired expected payload cannot be read or is not JSON.",
            FindingKind::AuditError => "An error-severity finding of the freeze audit of canonical input.",
            FindingKind::AuditWarning => "A warning of the freeze audit of canonical input (reported, not failing).",
            FindingKind::DuplicateKeys => "Repeated object keys that the golden manifest does not acknowledge.",
            FindingKind::NoGolden => "Nothing is recorded to compare this packet against (fails only under --require-golden).",
            FindingKind::ProfileFailure => "A master/sub, ContextCore or UAIX rule row failed.",
            FindingKind::ProfileWarning => "A master/sub, ContextCore or UAIX rule row warned (reported, not failing).",
            FindingKind::MigrationFinding => "An A2A protocol object mixes versions, or its migration's result fails a check.",
            FindingKind::BundleError => "An evidence bundle fails upstream's verification.",
            FindingKind::AttestationRefused => "An evidence bundle's attestation is refused by one of upstream's fifteen checks against the trusted keys (an attestation binds who said it to one archive's bytes; it does not make any handoff flag mean more).",
        }
    }

    /// A heading for a group of findings of this kind.
    pub fn title(self) -> &'static str {
        match self {
            FindingKind::LoadError => "load errors",
            FindingKind::NotJson => "not JSON",
            FindingKind::ManifestError => "manifest errors",
            FindingKind::GoldenMismatch => "golden mismatches",
            FindingKind::PairedMismatch => "expected-payload mismatches",
            FindingKind::PairedUnreadable => "unreadable expected payloads",
            FindingKind::AuditError => "freeze-audit findings",
            FindingKind::AuditWarning => "freeze-audit warnings",
            FindingKind::DuplicateKeys => "duplicate keys",
            FindingKind::NoGolden => "no golden",
            FindingKind::ProfileFailure => "profile rule failures",
            FindingKind::ProfileWarning => "profile rule warnings",
            FindingKind::MigrationFinding => "A2A migration findings",
            FindingKind::BundleError => "evidence bundle verification failures",
            FindingKind::AttestationRefused => "refused attestations",
        }
    }
}

/// One thing `check` reports about a packet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckFinding {
    pub kind: FindingKind,
    /// The mode it concerns; `None` for the whole packet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// A K1-A or audit row id, when one applies (for `bundle_error`: upstream's error code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// `bundle_error` only: upstream's error class (Integrity, Contract, Security, Limits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<&'static str>,
    /// Plain words; every packet-derived part already terminal-safe.
    pub message: String,
    /// For mismatches where both sides are known as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Box<JsonDiff>>,
}

impl CheckFinding {
    pub fn new(kind: FindingKind, mode: Option<Mode>, message: impl Into<String>) -> CheckFinding {
        CheckFinding {
            kind,
            mode,
            rule: None,
            class: None,
            message: message.into(),
            diff: None,
        }
    }

    pub fn with_rule(mut self, rule: impl Into<String>) -> CheckFinding {
        self.rule = Some(rule.into());
        self
    }

    pub fn with_diff(mut self, diff: JsonDiff) -> CheckFinding {
        self.diff = Some(Box::new(diff));
        self
    }
}

/// The worst status among `findings` that concern `mode` (or the whole packet), starting from
/// `baseline`.
pub fn worst_status(baseline: Status, findings: &[CheckFinding], mode: Option<Mode>) -> Status {
    findings
        .iter()
        .filter(|finding| mode.is_none() || finding.mode.is_none() || finding.mode == mode)
        .map(|finding| finding.kind.status())
        .fold(baseline, Status::max)
}

/// `status` once the findings a golden records as expected are taken into account: a packet
/// that would conform but fails exactly as recorded is `FailsAsRecorded`, so that no signal
/// shows an intentional negative as conforming (recorded warnings alone change nothing).
pub(crate) fn with_recorded(status: Status, recorded: &[CheckFinding]) -> Status {
    let fails = recorded
        .iter()
        .any(|finding| finding.kind.status() > Status::Conforms);
    if status == Status::Conforms && fails {
        Status::FailsAsRecorded
    } else {
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_order_from_best_to_worst() {
        let mut sorted = Status::ALL;
        sorted.sort();
        assert_eq!(sorted, Status::ALL);
        assert!(!Status::NoGolden.fails(false));
        assert!(Status::NoGolden.fails(true));
        assert!(!Status::NotChecked.fails(true));
        assert!(Status::Finding.fails(false));
    }

    #[test]
    fn a_recorded_failure_is_not_conforming_and_a_recorded_warning_is() {
        let failure = [CheckFinding::new(FindingKind::BundleError, None, "x")];
        let warning = [CheckFinding::new(FindingKind::AuditWarning, None, "y")];
        assert_eq!(
            with_recorded(Status::Conforms, &failure),
            Status::FailsAsRecorded
        );
        assert_eq!(with_recorded(Status::Conforms, &warning), Status::Conforms);
        assert_eq!(with_recorded(Status::Conforms, &[]), Status::Conforms);
        // Something found besides the recorded failure decides.
        assert_eq!(with_recorded(Status::Mismatch, &failure), Status::Mismatch);
        assert!(!Status::FailsAsRecorded.fails(true));
    }

    #[test]
    fn worst_status_respects_the_mode() {
        let findings = [
            CheckFinding::new(FindingKind::GoldenMismatch, Some(Mode::Strict), "x"),
            CheckFinding::new(FindingKind::DuplicateKeys, None, "y"),
        ];
        assert_eq!(
            worst_status(Status::Conforms, &findings, Some(Mode::Lenient)),
            Status::Finding
        );
        assert_eq!(
            worst_status(Status::Conforms, &findings, Some(Mode::Strict)),
            Status::Mismatch
        );
        assert_eq!(
            worst_status(Status::Conforms, &findings, None),
            Status::Mismatch
        );
        assert_eq!(worst_status(Status::NoGolden, &[], None), Status::NoGolden);
    }

    #[test]
    fn keys_are_snake_case_like_serde() {
        for status in Status::ALL {
            assert_eq!(
                serde_json::to_value(status).unwrap(),
                serde_json::Value::String(status.key().to_owned())
            );
        }
        for kind in FindingKind::ALL {
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                serde_json::Value::String(kind.key().to_owned())
            );
        }
    }
}
