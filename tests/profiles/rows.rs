//! One test per rule row of every profile table: each row's positive and negative fixtures
//! (fixtures/profiles/README.md) must give the expected verdict, and the message where the
//! source fixes one. A change in behaviour fails the row's test.

use chrono::{DateTime, Utc};
use handoff_inspector::profiles::{self, ProfileOptions, ProfileReport};
use handoff_inspector::rules::Verdict::{self, *};
use std::path::{Path, PathBuf};

struct Case {
    file: &'static str,
    /// Space-separated options: `v127`, `as=KIND`, `prev=FILE`.
    flags: &'static str,
    rule: &'static str,
    verdict: Verdict,
    /// A substring the row's message must contain ("" for none).
    message: &'static str,
}

const fn case(
    file: &'static str,
    flags: &'static str,
    rule: &'static str,
    verdict: Verdict,
    message: &'static str,
) -> Case {
    Case {
        file,
        flags,
        rule,
        verdict,
        message,
    }
}

const AHC_POS: &str = "ahc/pos-pass.json";

static CASES: &[Case] = &[
    // AHC-01
    case(AHC_POS, "", "AHC-01", Pass, ""),
    case("ahc/neg-AHC-01-not-json.json", "as=ahc", "AHC-01", Fail, "invalid handoff json "),
    case("ahc/neg-AHC-01-root-array.json", "as=ahc v127", "AHC-01", Fail, "JSON root must be object: "),
    case("ahc/neg-AHC-01-root-array.json", "as=ahc", "AHC-01", Pass, ""),
    // AHC-02
    case(AHC_POS, "", "AHC-02", Pass, ""),
    case("ahc/neg-AHC-02-missing-result.json", "", "AHC-02", Fail, "missing required fields: ['result']"),
    case("ahc/neg-AHC-01-root-array.json", "as=ahc", "AHC-02", Fail, "missing required fields: ['handoff_id', 'task_id', 'from_agent', 'to_agent', 'input_scope', 'actions_taken', 'artifacts', 'result', 'next_action', 'rulebook_update']"),
    case("ahc/neg-AHC-02-missing-result.json", "", "AHC-03", NotApplicable, "stops after missing required fields"),
    case("ahc/quirk-presence-only.json", "v127", "AHC-02", Pass, ""),
    // AHC-03
    case("ahc/pos-fail-result.json", "", "AHC-03", Pass, ""),
    case("ahc/pos-blocked-directory-artifact.json", "", "AHC-03", Pass, ""),
    case("ahc/neg-AHC-03-lowercase-result.json", "", "AHC-03", Fail, "result must be one of ['BLOCKED', 'FAIL', 'PASS']"),
    case("ahc/bad-types-everywhere.json", "", "AHC-03", Fail, "result must be one of"),
    // AHC-04
    case(AHC_POS, "", "AHC-04", Pass, ""),
    case("ahc/neg-AHC-04-empty-actions.json", "", "AHC-04", Fail, "actions_taken must be non-empty array"),
    case("ahc/bad-types-everywhere.json", "", "AHC-04", Fail, "actions_taken must be non-empty array"),
    // AHC-05
    case(AHC_POS, "", "AHC-05", Pass, ""),
    case("ahc/neg-AHC-05-artifacts-object.json", "", "AHC-05", Fail, "artifacts must be non-empty array"),
    // AHC-06
    case(AHC_POS, "", "AHC-06", Pass, ""),
    case("ahc/neg-AHC-06-artifact-string.json", "", "AHC-06", Fail, "artifacts[0] must be object"),
    // AHC-07
    case(AHC_POS, "", "AHC-07", Pass, ""),
    case("ahc/neg-AHC-07-blank-path.json", "", "AHC-07", Fail, "artifacts[0].path missing; artifacts[1].path missing"),
    // AHC-08
    case(AHC_POS, "", "AHC-08", Pass, ""),
    case("ahc/pos-blocked-directory-artifact.json", "", "AHC-08", Pass, ""),
    case("ahc/neg-AHC-08-missing-file.json", "", "AHC-08", Fail, "artifacts[0].path not found: artifacts/not-exists.md"),
    case("ahc/neg-AHC-08-outside-root.json", "", "AHC-08", Fail, "artifacts[0].path outside --artifact-root: ../../etc/passwd"),
    case("ahc/neg-AHC-08-outside-root.json", "", "AHC-08", Fail, "artifacts[1].path outside --artifact-root: /etc/passwd (absolute path"),
    // AHC-09
    case(AHC_POS, "v127", "AHC-09", Pass, ""),
    case("ahc/neg-AHC-09-no-kind.json", "", "AHC-09", NotApplicable, "v1.0 does not check artifact kind"),
    case("ahc/neg-AHC-09-no-kind.json", "v127", "AHC-09", Fail, "artifacts[0].kind missing; artifacts[1].kind missing"),
    // AHC-10
    case(AHC_POS, "", "AHC-10", Pass, ""),
    case("ahc/neg-AHC-10-next-action-string.json", "", "AHC-10", Fail, "next_action must be object"),
    // AHC-11
    case(AHC_POS, "", "AHC-11", Pass, ""),
    case("ahc/neg-AHC-11-empty-owner.json", "", "AHC-11", Fail, "next_action.owner missing/empty; next_action.action missing/empty; next_action.input missing/empty"),
    // AHC-12
    case(AHC_POS, "v127", "AHC-12", Pass, ""),
    case("ahc/neg-AHC-12-placeholder.json", "", "AHC-12", NotApplicable, "would fail under 1.2.7"),
    case("ahc/neg-AHC-12-placeholder.json", "v127", "AHC-12", Fail, "next_action.action is placeholder: TBD; next_action.input is placeholder: n/a"),
    // AHC-13
    case(AHC_POS, "", "AHC-13", Pass, ""),
    case("ahc/quirk-AHC-13-mutations-string.json", "", "AHC-13", Pass, ""),
    case("ahc/neg-AHC-13-forbidden-mutation.json", "", "AHC-13", Fail, "attempted forbidden mutations: ['gates', 'protocol_review_contract']"),
    case("ahc/quirk-AHC-13-mutations-object.json", "", "AHC-13", Fail, "attempted forbidden mutations: ['gates']"),
    case("ahc/bad-types-everywhere.json", "", "AHC-13", Warn, "not compared"),
    // AHC-14
    case(AHC_POS, "", "AHC-14", Pass, ""),
    case("ahc/neg-AHC-14-rulebook-array.json", "", "AHC-14", Fail, "rulebook_update must be object"),
    // AHC-15
    case(AHC_POS, "v127", "AHC-15", Pass, ""),
    case("ahc/neg-AHC-15-no-applied.json", "", "AHC-15", NotApplicable, ""),
    case("ahc/neg-AHC-15-no-applied.json", "v127", "AHC-15", Fail, "rulebook_update.applied missing"),
    // AHC-16
    case(AHC_POS, "", "AHC-16", Pass, ""),
    case("ahc/pos-fail-result.json", "", "AHC-16", Pass, ""),
    case("ahc/neg-AHC-16-applied-no-run.json", "", "AHC-16", Fail, "rulebook_update.applied=true requires evidence_run_id"),
    case("ahc/quirk-AHC-16-applied-string-false.json", "", "AHC-16", Fail, "rulebook_update.applied=true requires evidence_run_id"),
    // Contract violations
    case(AHC_POS, "", "V1", Pass, ""),
    case("ahc/neg-AHC-13-forbidden-mutation.json", "", "V1", Fail, ""),
    case(AHC_POS, "", "V2", Pass, ""),
    case("ahc/neg-AHC-08-missing-file.json", "", "V2", Fail, ""),
    case(AHC_POS, "", "V3", Pass, ""),
    case("ahc/neg-AHC-11-empty-owner.json", "", "V3", Fail, ""),
    case(AHC_POS, "", "V4", NotChecked, "not machine-checked"),
    case("ahc/pos-fail-result.json", "v127", "V4", NotChecked, "not machine-checked"),
    // CC-01
    case("contextcore/pos-contract-minimal.json", "", "CC-01", Pass, ""),
    case("contextcore/neg-CC-01-contract-missing.json", "", "CC-01", Fail, "MISSING_REQUIRED_FIELD at /: 'handoff_id' is a required property"),
    case("contextcore/neg-CC-01-contract-missing.json", "", "CC-01", Fail, "'type' is a required property"),
    case("contextcore/neg-CC-01-schema-version-only.json", "as=cc-contract", "CC-01", Fail, "'expected_output' is a required property"),
    case("contextcore/pos-msg-pending.json", "", "CC-01", Pass, ""),
    case("contextcore/neg-CC-01-msg-missing-task.json", "", "CC-01", Warn, "[derived] $.task is absent"),
    case("contextcore/neg-CC-01-store-missing.json", "", "CC-01", Warn, "[derived] $.fromAgent is absent"),
    // CC-02
    case("contextcore/pos-contract-full.json", "", "CC-02", Pass, ""),
    case("contextcore/neg-CC-02-unknown-fields.json", "", "CC-02", Fail, "UNKNOWN_FIELD at /: Additional properties are not allowed ('rogue' was unexpected)"),
    case("contextcore/neg-CC-02-unknown-fields.json", "", "CC-02", Fail, "('fields' was unexpected)"),
    case("contextcore/pos-msg-pending.json", "", "CC-02", NotApplicable, "CC-MSG"),
    // CC-03
    case("contextcore/pos-contract-minimal.json", "", "CC-03", Pass, ""),
    case("contextcore/neg-CC-03-schema-v2.json", "", "CC-03", Fail, "CONST_VIOLATION at /schema_version: 'v1' was expected"),
    // CC-04
    case("contextcore/pos-contract-full.json", "", "CC-04", Pass, ""),
    case("contextcore/neg-CC-04-enums.json", "", "CC-04", Fail, "'urgent' is not one of ['low', 'normal', 'high', 'critical']"),
    case("contextcore/neg-CC-04-enums.json", "", "CC-04", Fail, "'input_required' is not one of ['pending', 'accepted', 'in_progress', 'completed', 'failed', 'expired']"),
    // CC-05
    case("contextcore/pos-contract-minimal.json", "", "CC-05", Pass, ""),
    case("contextcore/neg-CC-05-empty-strings.json", "", "CC-05", Fail, "MIN_LENGTH_VIOLATION at /handoff_id: '' should be non-empty"),
    // CC-06
    case("contextcore/pos-contract-minimal.json", "", "CC-06", Pass, ""),
    case("contextcore/neg-CC-06-wrong-types.json", "", "CC-06", Fail, "WRONG_TYPE at /inputs: [] is not of type 'object'"),
    case("contextcore/neg-CC-06-wrong-types.json", "", "CC-06", Fail, "5 is not of type 'string'"),
    case("contextcore/neg-CC-06-msg-wrong-types.json", "", "CC-06", Warn, "$.task is number; the dataclass declares string"),
    // CC-07
    case("contextcore/pos-contract-minimal.json", "", "CC-07", NotApplicable, ""),
    case("contextcore/pos-contract-full.json", "", "CC-07", NotChecked, "not enforced upstream"),
    case("contextcore/neg-CC-07-not-a-date.json", "", "CC-07", Warn, "'not-a-date' is not an RFC 3339 date-time"),
    // CC-08
    case("contextcore/pos-contract-full.json", "", "CC-08", Pass, ""),
    case("contextcore/neg-CC-01-schema-version-only.json", "as=cc-contract", "CC-08", Fail, "OUTBOUND boundary validation failed for HandoffContract: 'handoff_id' is a required property; 'from_agent' is a required property; 'to_agent' is a required property (and 3 more)"),
    case("contextcore/neg-CC-07-not-a-date.json", "", "CC-08", Pass, ""),
    // CC-09
    case("contextcore/pos-msg-pending.json", "", "CC-09", Pass, ""),
    case("contextcore/neg-CC-09-status-paused.json", "", "CC-09", Fail, "'paused' is not a valid HandoffStatus"),
    case("contextcore/pos-contract-minimal.json", "", "CC-09", NotApplicable, ""),
    // CC-10
    case("contextcore/pos-msg-pending.json", "", "CC-10", Pass, ""),
    case("contextcore/neg-CC-10-priority-medium.json", "", "CC-10", Fail, "'medium' is not a valid HandoffPriority"),
    // CC-11
    case("contextcore/pos-msg-pending.json", "", "CC-11", NotApplicable, "--previous"),
    case("contextcore/pos-msg-in-progress.json", "prev=contextcore/pos-msg-accepted.json", "CC-11", Pass, ""),
    case("contextcore/pos-msg-completed-with-trace.json", "prev=contextcore/pos-msg-pending.json", "CC-11", Warn, "pending -> completed is not in _HANDOFF_TRANSITIONS"),
    case("contextcore/pos-msg-completed-with-trace.json", "prev=contextcore/pos-msg-accepted.json", "CC-11", Warn, "accepted -> completed"),
    case("contextcore/pos-store-completed.json", "prev=contextcore/pos-store.json", "CC-11", Pass, ""),
    // CC-12
    case("contextcore/pos-msg-pending.json", "", "CC-12", NotApplicable, "declares no output limits"),
    case("contextcore/pos-msg-code-limits.json", "", "CC-12", NotChecked, "max_lines=150, max_tokens=500, 2 completeness marker(s)"),
    // CC-13
    case("contextcore/pos-msg-completed-with-trace.json", "", "CC-13", Pass, ""),
    case("contextcore/neg-CC-13-completed-no-trace.json", "", "CC-13", Warn, "result_trace_id is missing or empty"),
    case("contextcore/neg-CC-13-store-completed-no-trace.json", "", "CC-13", Warn, "resultTraceId is missing or empty"),
    case("contextcore/pos-store-completed.json", "", "CC-13", Pass, ""),
    // CC-14
    case("contextcore/pos-store.json", "", "CC-14", Pass, ""),
    case("contextcore/neg-CC-14-store-enums.json", "", "CC-14", Fail, "Invalid priority 'normal'. Must be one of: ['critical', 'high', 'medium', 'low']"),
    case("contextcore/neg-CC-14-store-enums.json", "", "CC-14", Fail, "Invalid status 'cancelled'. Must be one of: ['pending', 'accepted', 'in_progress', 'completed', 'failed', 'timeout']"),
    case("contextcore/pos-msg-pending.json", "", "CC-14", NotApplicable, ""),
    // CC-15: what HandoffData.from_dict raises (its reader then skips the record)
    case("contextcore/pos-store.json", "", "CC-15", Pass, ""),
    case("contextcore/neg-CC-15-store-no-task.json", "", "CC-15", Fail, "HandoffData.from_dict raises KeyError: 'task'"),
    case("contextcore/neg-CC-15-store-month-13.json", "", "CC-15", Fail, "ValueError: month must be in 1..12 reading `createdAt`"),
    case("contextcore/neg-CC-15-store-second-60.json", "", "CC-15", Fail, "ValueError: second must be in 0..59"),
    case("contextcore/neg-CC-15-store-created-number.json", "", "CC-15", Fail, "TypeError: fromisoformat: argument must be str"),
    case("contextcore/pos-msg-pending.json", "", "CC-15", NotApplicable, ""),
    // jsonschema's order, a type error beside the enum's, values as Python's repr
    case("contextcore/neg-CC-04-priority-number.json", "", "CC-06", Fail, "WRONG_TYPE at /priority: 0 is not of type 'string'"),
    case("contextcore/neg-CC-04-priority-number.json", "", "CC-08", Fail, "HandoffContract: 0 is not of type 'string'; 0 is not one of ['low', 'normal', 'high', 'critical']"),
    case("contextcore/neg-CC-08-rogue-order.json", "as=cc-contract", "CC-08", Fail, "HandoffContract: Additional properties are not allowed ('rogue' was unexpected); 'handoff_id' is a required property; 'from_agent' is a required property (and 4 more)"),
    case("contextcore/neg-CC-04-zero-width.json", "", "CC-04", Fail, "'urgent\\u200b' is not one of"),
    // values shown from the document's text, as Python's json read them (jsonschema 4.26 and
    // Python 3.11 said these words of these files)
    case("contextcore/neg-CC-04-big-integer-ordered-object.json", "", "CC-04", Fail, "ENUM_MISMATCH at /priority: 1000000000000000000000000000000 is not one of ['low', 'normal', 'high', 'critical']"),
    case("contextcore/neg-CC-04-big-integer-ordered-object.json", "", "CC-08", Fail, "OUTBOUND boundary validation failed for HandoffContract: 1000000000000000000000000000000 is not of type 'string'; 1000000000000000000000000000000 is not one of ['low', 'normal', 'high', 'critical']; {'zeta': '\\u0378', 'alpha': [2.5, 0, 1e+30]} is not of type 'string' (and 1 more)"),
    case("contextcore/neg-CC-09-status-object.json", "", "CC-09", Fail, "ValueError: {'state': 'done', 'code': 10000000000000000000000000} is not a valid HandoffStatus"),
    case("contextcore/neg-CC-14-store-ordered-object.json", "", "CC-14", Fail, "Invalid priority '{'b': 1, 'a': 100000000000000000000}'. Must be one of: ['critical', 'high', 'medium', 'low']"),
    case("contextcore/neg-CC-14-store-ordered-object.json", "", "CC-15", Fail, "raises ValueError: offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta(days=1). reading `createdAt`"),
    case("contextcore/pos-store-week-date.json", "", "CC-15", Pass, ""),
    case("contextcore/neg-CC-07-too-short.json", "", "CC-07", Warn, "created_at '2026-060' is not an RFC 3339 date-time: the schema path accepts it (no FormatChecker); the Pydantic model rejects it (Input should be a valid datetime or date, input is too short)"),
    case("contextcore/neg-CC-07-too-short.json", "", "CC-07", Warn, "the Pydantic model rejects it (Input should be a valid datetime or date, unexpected extra characters at the end of the input)"),
    case("contextcore/neg-CC-07-space-separator.json", "", "CC-07", Warn, "is not an RFC 3339 date-time: the schema path accepts it (no FormatChecker); the Pydantic model accepts it too"),
    case("contextcore/neg-CC-07-second-60.json", "", "CC-07", Warn, "the Pydantic model rejects it (Input should be a valid datetime or date"),
    // UAIX-01
    case("uaix/seed-004-fixture.json", "", "UAIX-01", Pass, ""),
    case("uaix/neg-UAIX-01-missing-envelope.json", "", "UAIX-01", Fail, "$.trust missing"),
    case("uaix/neg-UAIX-01-missing-envelope.json", "", "UAIX-01", Fail, "$.message_id is number; expected string"),
    // UAIX-02
    case("uaix/seed-004-fixture.json", "", "UAIX-02", Pass, ""),
    case("uaix/neg-UAIX-02-body-fields.json", "", "UAIX-02", Fail, "$.body.support_boundary missing"),
    case("uaix/neg-UAIX-02-body-fields.json", "", "UAIX-02", Fail, "$.body.delegated_authorization is number; expected object or string"),
    // UAIX-03
    case("uaix/seed-004-fixture.json", "", "UAIX-03", Pass, ""),
    case("uaix/neg-UAIX-03-undeclared-top-level.json", "", "UAIX-03", Fail, "undeclared top-level field $.notes"),
    // UAIX-04
    case("uaix/seed-004-fixture.json", "", "UAIX-04", Pass, ""),
    case("uaix/neg-UAIX-04-offset-timestamp.json", "", "UAIX-04", Fail, "$.provenance.issued_at is not a UTC timestamp with a trailing Z"),
    case("uaix/neg-UAIX-04-offset-timestamp.json", "", "UAIX-04", Fail, "$.conversation.opened_at is not a UTC timestamp"),
    // UAIX-05
    case("uaix/seed-004-fixture.json", "", "UAIX-05", Pass, ""),
    case("uaix/pos-checksum-default-preimage.json", "", "UAIX-05", Pass, ""),
    case("uaix/neg-UAIX-05-identity.json", "", "UAIX-05", Fail, "$.source.id is not a non-empty identifier without whitespace"),
    case("uaix/neg-UAIX-05-identity.json", "", "UAIX-05", Fail, "$.target has no id"),
    // UAIX-06
    case("uaix/seed-004-fixture.json", "", "UAIX-06", Pass, ""),
    case("uaix/neg-UAIX-06-correlation.json", "", "UAIX-06", Fail, "$.conversation.correlation_id missing"),
    // UAIX-07
    case("uaix/seed-004-fixture.json", "", "UAIX-07", Pass, ""),
    case("uaix/neg-UAIX-07-delivery.json", "", "UAIX-07", Fail, "$.delivery.fallback_directive missing"),
    case("uaix/neg-UAIX-07-delivery.json", "", "UAIX-07", Fail, "$.delivery.idempotency_key is empty"),
    // UAIX-08
    case("uaix/seed-004-fixture.json", "", "UAIX-08", Pass, ""),
    case("uaix/neg-UAIX-08-expired.json", "", "UAIX-08", Fail, "expired packet: $.delivery.expires_at is 2020-01-01T00:00:00Z, at or before the run's clock"),
    // UAIX-09
    case("uaix/seed-004-fixture.json", "", "UAIX-09", Pass, ""),
    case("uaix/pos-checksum-default-preimage.json", "", "UAIX-09", Pass, ""),
    case("uaix/neg-UAIX-09-unsupported-claims.json", "", "UAIX-09", Fail, "unsupported claim about UAIX (hosted messaging)"),
    case("uaix/neg-UAIX-09-unsupported-claims.json", "", "UAIX-09", Fail, "(certification)"),
    // UAIX-10
    case("uaix/seed-004-fixture.json", "", "UAIX-10", Pass, ""),
    case("uaix/neg-UAIX-10-secret.json", "", "UAIX-10", Fail, "secret-like string at $.body.context_summary (secret API key); value not shown"),
    case("uaix/neg-UAIX-10-secret.json", "", "UAIX-10", Fail, "$.trust.password (secret-named member)"),
    // UAIX-11
    case("uaix/seed-004-fixture.json", "", "UAIX-11", NotApplicable, "no blockers"),
    case("uaix/neg-UAIX-11-blockers.json", "", "UAIX-11", Warn, "require human review"),
    // UAIX-12
    case("uaix/seed-004-fixture.json", "", "UAIX-12", Unverifiable, "neither passed nor failed"),
    case("uaix/pos-checksum-default-preimage.json", "", "UAIX-12", Pass, "envelope-without-integrity"),
    case("uaix/pos-checksum-alternative-preimage.json", "", "UAIX-12", Pass, "integrity-without-checksum"),
    case("uaix/neg-UAIX-12-checksum-mismatch.json", "", "UAIX-12", Fail, "integrity not reproducible under the assumed canonicalization"),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/profiles")
        .join(name)
}

fn fixed_now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-06-01T00:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn options(flags: &str) -> ProfileOptions {
    let mut options = ProfileOptions {
        now: Some(fixed_now()),
        ..ProfileOptions::default()
    };
    for flag in flags.split_whitespace() {
        match flag.split_once('=') {
            None if flag == "v127" => options.profile_version = "1.2.7".parse().unwrap(),
            Some(("as", kind)) => options.force = Some(kind.parse().unwrap()),
            Some(("prev", file)) => {
                let value: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(fixture(file)).unwrap()).unwrap();
                options.previous_status = Some(value["status"].as_str().unwrap().to_owned());
            }
            _ => panic!("unknown flag {flag}"),
        }
    }
    options
}

/// Evaluates a fixture the way the `profile` command does.
pub fn evaluate_fixture(file: &str, flags: &str) -> ProfileReport {
    let path = fixture(file);
    let bytes = std::fs::read(&path).unwrap();
    let options = options(flags);
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(value) => profiles::evaluate(&value, &bytes, Some(&path), &options),
        Err(error) => profiles::evaluate_unparsable(&error.to_string(), Some(&path), &options),
    }
}

fn is_positive(verdict: Verdict) -> bool {
    matches!(verdict, Pass | NotApplicable)
}

fn check_row(rule: &str) {
    let cases: Vec<&Case> = CASES.iter().filter(|c| c.rule == rule).collect();
    assert!(
        cases.len() >= 2,
        "{rule}: needs a positive and a negative case"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let report = evaluate_fixture(case.file, case.flags);
        let Some(outcome) = report.outcome(rule) else {
            failures.push(format!(
                "{} [{}]: no outcome for {rule}",
                case.file, case.flags
            ));
            continue;
        };
        if outcome.verdict != case.verdict {
            failures.push(format!(
                "{} [{}]: {rule} is {:?}, expected {:?} ({:?})",
                case.file, case.flags, outcome.verdict, case.verdict, outcome.message
            ));
        }
        let message = outcome.message.as_deref().unwrap_or("");
        if !message.contains(case.message) {
            failures.push(format!(
                "{} [{}]: {rule} message {message:?} lacks {:?}",
                case.file, case.flags, case.message
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let verdicts: Vec<Verdict> = cases.iter().map(|c| c.verdict).collect();
    if rule != "V4" {
        assert!(
            verdicts.iter().any(|v| is_positive(*v)),
            "{rule}: no positive case"
        );
        assert!(
            verdicts.iter().any(|v| !is_positive(*v)) || verdicts.windows(2).any(|w| w[0] != w[1]),
            "{rule}: no negative case"
        );
    }
}

macro_rules! row_tests {
    ($($name:ident => $rule:literal),* $(,)?) => {
        $(#[test] fn $name() { check_row($rule); })*

        /// Every row of every table has its test above.
        #[test]
        fn every_table_row_has_a_test() {
            let tested = [$($rule),*];
            for table in profiles::tables() {
                for row in table.rows {
                    assert!(tested.contains(&row.id), "row {} has no test", row.id);
                }
            }
        }
    };
}

row_tests! {
    ahc_01 => "AHC-01", ahc_02 => "AHC-02", ahc_03 => "AHC-03", ahc_04 => "AHC-04",
    ahc_05 => "AHC-05", ahc_06 => "AHC-06", ahc_07 => "AHC-07", ahc_08 => "AHC-08",
    ahc_09 => "AHC-09", ahc_10 => "AHC-10", ahc_11 => "AHC-11", ahc_12 => "AHC-12",
    ahc_13 => "AHC-13", ahc_14 => "AHC-14", ahc_15 => "AHC-15", ahc_16 => "AHC-16",
    ahc_v1 => "V1", ahc_v2 => "V2", ahc_v3 => "V3", ahc_v4_never_passes => "V4",
    cc_01 => "CC-01", cc_02 => "CC-02", cc_03 => "CC-03", cc_04 => "CC-04", cc_05 => "CC-05",
    cc_06 => "CC-06", cc_07 => "CC-07", cc_08 => "CC-08", cc_09 => "CC-09", cc_10 => "CC-10",
    cc_11 => "CC-11", cc_12 => "CC-12", cc_13 => "CC-13", cc_14 => "CC-14", cc_15 => "CC-15",
    uaix_01 => "UAIX-01", uaix_02 => "UAIX-02", uaix_03 => "UAIX-03", uaix_04 => "UAIX-04",
    uaix_05 => "UAIX-05", uaix_06 => "UAIX-06", uaix_07 => "UAIX-07", uaix_08 => "UAIX-08",
    uaix_09 => "UAIX-09", uaix_10 => "UAIX-10", uaix_11 => "UAIX-11", uaix_12 => "UAIX-12",
}

#[test]
fn positive_fixtures_have_no_failing_row() {
    for (file, flags) in [
        ("ahc/pos-pass.json", ""),
        ("ahc/pos-pass.json", "v127"),
        ("ahc/pos-fail-result.json", "v127"),
        ("ahc/pos-blocked-directory-artifact.json", "v127"),
        ("contextcore/pos-contract-minimal.json", ""),
        ("contextcore/pos-contract-full.json", ""),
        ("contextcore/pos-msg-pending.json", ""),
        ("contextcore/pos-msg-code-limits.json", ""),
        ("contextcore/pos-store.json", ""),
        ("uaix/pos-checksum-default-preimage.json", ""),
        ("uaix/pos-checksum-alternative-preimage.json", ""),
    ] {
        let report = evaluate_fixture(file, flags);
        assert!(report.conforms(), "{file} [{flags}]: {:?}", report.findings);
        assert_eq!(report.counts().warn, 0, "{file}: {:?}", report.findings);
    }
}

#[test]
fn seed_uaix_fixture_conforms_apart_from_the_placeholder_checksum() {
    let report = evaluate_fixture("uaix/seed-004-fixture.json", "");
    assert!(report.conforms());
    let counts = report.counts();
    assert_eq!((counts.fail, counts.warn, counts.unverifiable), (0, 0, 1));
    let not_passed: Vec<&str> = report
        .outcomes
        .iter()
        .filter(|o| o.verdict != Pass)
        .map(|o| o.rule)
        .collect();
    assert_eq!(not_passed, vec!["UAIX-11", "UAIX-12"]);
}

#[test]
fn quirks_are_named_where_they_shape_a_verdict() {
    let named = |file: &str, flags: &str| -> Vec<&'static str> {
        evaluate_fixture(file, flags)
            .quirks
            .iter()
            .map(|q| q.quirk)
            .collect()
    };
    assert!(named("ahc/quirk-AHC-16-applied-string-false.json", "")
        .contains(&"ahc-applied-string-truthy"));
    assert!(
        named("ahc/quirk-AHC-13-mutations-string.json", "").contains(&"ahc-mutations-string-chars")
    );
    assert!(named("ahc/neg-AHC-15-no-applied.json", "").contains(&"ahc-v10-lenient-applied-kind"));
    assert!(named("ahc/neg-AHC-01-root-array.json", "as=ahc").contains(&"ahc-root-not-object"));
    assert!(named("ahc/quirk-presence-only.json", "").contains(&"ahc-presence-only"));
    assert!(named("ahc/neg-AHC-08-outside-root.json", "").contains(&"ahc-artifact-root"));
    assert!(named("contextcore/pos-msg-pending.json", "").contains(&"cc-msg-not-contract"));
    assert!(named("contextcore/neg-CC-09-status-paused.json", "")
        .contains(&"cc-unknown-state-fallback"));
    assert!(named("contextcore/neg-CC-14-store-enums.json", "").is_empty());
    assert!(named(
        "contextcore/pos-msg-completed-with-trace.json",
        "prev=contextcore/pos-msg-accepted.json"
    )
    .contains(&"cc-transitions-advisory"));
}

#[test]
fn contextcore_state_mapping_and_otel_are_reported() {
    let report = evaluate_fixture("contextcore/pos-msg-accepted.json", "");
    let view = report.contextcore.as_ref().unwrap();
    let row = view.state.as_ref().unwrap().row.unwrap();
    assert_eq!(row.contextcore_task_state, Some("WORKING"));
    assert_eq!(row.direction, "CC -> A2A");
    assert_eq!(row.a2a_v10, Some("TASK_STATE_WORKING"));
    let call_id = view
        .otel
        .iter()
        .find(|a| a.attribute == "gen_ai.tool.call.id")
        .unwrap();
    assert_eq!(call_id.value.as_deref(), Some("handoff-3f2a9c1b7d4e"));
    let expired = profiles::evaluate(
        &serde_json::json!({"schema_version":"v1","handoff_id":"h","capability_id":"c","status":"expired"}),
        b"",
        None,
        &ProfileOptions::default(),
    );
    let state = expired.contextcore.unwrap().state.unwrap();
    assert_eq!(state.row.unwrap().a2a_v03, None);
}

#[test]
fn no_secret_reaches_any_report_format() {
    let report = evaluate_fixture("uaix/neg-UAIX-10-secret.json", "");
    let json = serde_json::to_string(&report).unwrap();
    let text = handoff_inspector::report::profile_text::render(&report);
    for secret in ["sk-live-4f9a8b7c6d5e4f3a2b1c", "hunter22"] {
        assert!(!json.contains(secret), "JSON shows {secret}");
        assert!(!text.contains(secret), "text shows {secret}");
    }
}

#[test]
fn every_fixture_file_is_used_by_a_case_or_listed_in_the_readme() {
    let readme = std::fs::read_to_string(fixture("README.md")).unwrap();
    for dir in ["ahc", "contextcore", "uaix"] {
        for entry in std::fs::read_dir(fixture(dir)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if !name.ends_with(".json") {
                continue;
            }
            assert!(
                readme.contains(&name),
                "fixtures/profiles/README.md does not mention {dir}/{name}"
            );
        }
    }
}

#[test]
fn wrong_types_in_every_field_are_findings_for_each_field() {
    for file in [
        "contextcore/pos-contract-full.json",
        "contextcore/pos-msg-code-limits.json",
        "contextcore/pos-store.json",
        "uaix/seed-004-fixture.json",
        "uaix/pos-checksum-default-preimage.json",
    ] {
        let original: serde_json::Value =
            serde_json::from_slice(&std::fs::read(fixture(file)).unwrap()).unwrap();
        let kind = profiles::detect(&original).unwrap().kind;
        for wrong in [serde_json::json!(true), serde_json::json!(7.5)] {
            let mut value = original.clone();
            for (_, member) in value.as_object_mut().unwrap().iter_mut() {
                *member = wrong.clone();
            }
            let options = ProfileOptions {
                force: Some(kind),
                now: Some(fixed_now()),
                ..ProfileOptions::default()
            };
            let report = profiles::evaluate(&value, b"", None, &options);
            assert!(!report.conforms(), "{file} with {wrong}");
            for key in original.as_object().unwrap().keys() {
                let path = format!("$.{key}");
                assert!(
                    report
                        .findings
                        .iter()
                        .any(|f| f.path.to_string() == path || f.message.contains(&path)),
                    "{file}: no finding names {path} when it is {wrong}"
                );
            }
        }
    }
}
