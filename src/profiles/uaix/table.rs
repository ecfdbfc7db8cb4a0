//! The UAIX `uai.agent.handoff.v1` validation expectations as data (UAIX-01..UAIX-12), and
//! the page's guidance that is not a rule.

use crate::rules::{RuleRow, RuleTable};

const PAGE: &str = "UAIX registry page uai.agent.handoff.v1, UAIX-REGI-2604 (seed 004); spec/handoff-profiles.md §3.3";
const NOT_RUNTIME: &str =
    "an authorization to execute: UAIX records the reviewed communication, agent runtimes execute";

pub static UAIX_TABLE: RuleTable = RuleTable {
    id: "uaix",
    name: "UAIX uai.agent.handoff.v1",
    rows: &[
        RuleRow {
            id: "UAIX-01",
            title: "envelope fields",
            condition: "any of the 12 envelope fields (uai_version, profile, message_id, source, target, conversation, delivery, trust, body, provenance, integrity, extensions) is absent; [derived] or has another JSON type than the seed fixture (strings for uai_version/profile/message_id, objects for the rest, extensions object or array), or profile is not uai.agent.handoff.v1",
            result: "missing or malformed envelope field",
            may_imply: "the envelope has the published members",
            must_not_imply: NOT_RUNTIME,
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-02",
            title: "body fields",
            condition: "any of the 7 body fields (task_id, target_agent_id, context_summary, handoff_reason, exact_next_action, delegated_authorization, support_boundary) is absent; [derived] types: strings, delegated_authorization and support_boundary object or string; an empty string is a warning",
            result: "missing or malformed body field",
            may_imply: "the body has the published members",
            must_not_imply: "that the values are meaningful: only presence and shape are stated",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-03",
            title: "no undeclared top-level fields",
            condition: "a top-level member other than the 12 envelope fields (\"Schema validation is strict and rejects undeclared fields\")",
            result: "undeclared top-level field",
            may_imply: "extra data is kept inside the envelope objects",
            must_not_imply: "that nested objects are closed: unknown (only extensions is clearly open); nested members are not checked",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-04",
            title: "UTC timestamps with Z",
            condition: "a date/time member is not YYYY-MM-DDTHH:MM:SS[.fff]Z; [derived] date/time members are those named *_at or timestamp (UAIX does not list them)",
            result: "date/time not UTC with a trailing Z",
            may_imply: "the named date/time members are UTC Z timestamps",
            must_not_imply: "that every date/time in the packet was found: the field list is not published",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-05",
            title: "source and target identity",
            condition: "source or target lacks a non-empty `id` without whitespace ([derived] from the seed fixture; `agent_id` is accepted too), or a present type/label/uri/role/project/implementation is not a string; body.target_agent_id differing from target.id is a warning",
            result: "malformed source or target identity",
            may_imply: "source and target carry identifiers",
            must_not_imply: "that the identities are authentic or follow UAIX's identity format (not published)",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-06",
            title: "correlation id",
            condition: "conversation.correlation_id is missing, or ([derived]) not a non-empty string without whitespace",
            result: "missing or malformed correlation id",
            may_imply: "the exchange carries a correlation id",
            must_not_imply: "that the id correlates with anything: its format is not published",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-07",
            title: "idempotency key and fallback directive",
            condition: "delivery.idempotency_key or delivery.fallback_directive is missing or empty",
            result: "missing idempotency key or fallback directive",
            may_imply: "delivery names an idempotency key and a fallback",
            must_not_imply: "that delivery is idempotent or that the fallback will be followed",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-08",
            title: "not expired",
            condition: "delivery.expires_at ([derived] name, from the seed fixture) is at or before the clock (--now, else the system clock); an expired body.delegated_authorization.expires_at is a warning",
            result: "expired packet",
            may_imply: "the packet was not expired at the clock used",
            must_not_imply: "that it is still valid at any other time, or that the clock used is the reader's",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-09",
            title: "no unsupported claims",
            condition: "a string claims UAIX hosted messaging, automatic sync, runtime orchestration, repository writes, official adapters, certification or hosted import (heuristic phrase match; a sentence that negates the phrase first is a disclaimer, not a claim)",
            result: "unsupported claim about UAIX",
            may_imply: "no listed claim was found",
            must_not_imply: "that any other claim in the packet is true",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-10",
            title: "no secret-like strings",
            condition: "a string looks like a credential (private key block, cloud/GitHub/Slack/API key shapes, bearer token, JWT, key=value credential, credentials in a URL) or a secret-named member (password, api_key, token, ...) has a value; the matched text is never shown",
            result: "secret-like string",
            may_imply: "no listed pattern matched",
            must_not_imply: "that no secret is present: the detector is heuristic and UAIX does not publish its patterns",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-11",
            title: "sensitive blockers need human review",
            condition: "\"Authorization, secret, destructive-action, or boundary-conflict blockers require human review.\" A `blockers` member anywhere is a warning to review; otherwise the row does not apply",
            result: "human review required",
            may_imply: "",
            must_not_imply: "that a blocker-free packet needs no review, or that a reviewed blocker is resolved",
            source: PAGE,
        },
        RuleRow {
            id: "UAIX-12",
            title: "integrity checksum",
            condition: "integrity.checksum does not match sha256 of the RFC 8785 canonical JSON of the documented preimage (envelope without integrity) or its alternative (integrity without checksum); a checksum that is not a SHA-256 hex digest is unverifiable",
            result: "integrity not reproducible under the assumed canonicalization",
            may_imply: "the checksum matches the packet under a named preimage",
            must_not_imply: "authenticity: a bare sha256 has no key, anyone can recompute it; and a mismatch is not proof of tampering",
            source: "aiwikis.org validator-errors page (third party); spec/handoff-profiles.md §3.4",
        },
    ],
};

/// Guidance on the UAIX page that is not a validation rule; shown as notes.
pub static UAIX_NOTES: [&str; 2] = [
    "Do not use a uai.agent.handoff.v1 packet as a background worker trigger or unattended execution instruction (usage guidance, not a validity rule).",
    "UAIX does not provide automatic sync, hosted messaging, runtime orchestration, official adapters, repository write execution, certification authority or hosted import: a conforming packet is a reviewed record, not an authorization to execute.",
];
