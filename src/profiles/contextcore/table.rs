//! ContextCore's handoff rules as data: CC-01..CC-14 across the three shapes (CC-MSG,
//! CC-CONTRACT, CC-STORE) and the upstream inconsistencies the inspector names.

use crate::profiles::quirk::Quirk;
use crate::rules::{RuleRow, RuleTable};

const CONTRACT_SRC: &str = "ContextCore schemas/contracts/handoff-contract.schema.json, contracts/a2a/boundary.py (spec/handoff-profiles.md §2.2, §2.5)";
const MSG_SRC: &str = "ContextCore agent-communication-protocol.md §3/§4 (seed 003), agent/handoff.py (spec/handoff-profiles.md §2.2, §2.5)";
const STORE_SRC: &str = "ContextCore storage/base.py HandoffData, contracts/types.py (spec/handoff-profiles.md §2.2, §2.5)";
const SHAPE_ONLY: &str = "that the handoff was delivered, accepted or executed: schema shape only";

pub static CC_TABLE: RuleTable = RuleTable {
    id: "cc",
    name: "ContextCore handoff (CC-MSG, CC-CONTRACT, CC-STORE)",
    rows: &[
        RuleRow {
            id: "CC-01",
            title: "required fields present",
            condition: "CONTRACT: a required key (schema_version, handoff_id, from_agent, to_agent, capability_id, inputs, expected_output, expected_output.type) is absent. MSG/STORE: a field the doc or dataclass lists as required is absent (warning only [derived]: no schema exists for these shapes)",
            result: "MISSING_REQUIRED_FIELD, '{key}' is a required property; failed_path is the parent ('/'); next_action Add the missing required field at '/'.",
            may_imply: "the required keys are present",
            must_not_imply: "that their values are meaningful",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-02",
            title: "no undeclared keys",
            condition: "CONTRACT: an undeclared key at the top level or inside expected_output",
            result: "UNKNOWN_FIELD, Additional properties are not allowed ('rogue' was unexpected); next_action Remove the unknown field at '{path}'. v1 contracts do not allow extra top-level fields.",
            may_imply: "the contract uses only declared keys",
            must_not_imply: SHAPE_ONLY,
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-03",
            title: "schema_version is v1",
            condition: "CONTRACT: schema_version is not \"v1\"",
            result: "CONST_VIOLATION, 'v1' was expected",
            may_imply: "the contract declares schema version v1",
            must_not_imply: SHAPE_ONLY,
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-04",
            title: "priority and status enums",
            condition: "CONTRACT: priority outside low|normal|high|critical, or status outside pending|accepted|in_progress|completed|failed|expired",
            result: "ENUM_MISMATCH, e.g. 'urgent' is not one of ['low', 'normal', 'high', 'critical']",
            may_imply: "priority and status use the contract's names",
            must_not_imply: "that the status is current or that the other ContextCore shapes accept it (CC-STORE has `medium`, not `normal`)",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-05",
            title: "non-empty strings",
            condition: "CONTRACT: an empty string where minLength is 1",
            result: "MIN_LENGTH_VIOLATION, '' should be non-empty; next_action Provide a non-empty value for '{path}'.",
            may_imply: "the string fields are non-empty",
            must_not_imply: "that the agents or capability named exist",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-06",
            title: "JSON types",
            condition: "CONTRACT: a value of the wrong JSON type (e.g. inputs: []). MSG/STORE: a value of another type than the dataclass declares (warning only [derived])",
            result: "WRONG_TYPE, [] is not of type 'object'",
            may_imply: "values have the declared JSON types",
            must_not_imply: "that the inputs match the capability's schema",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-07",
            title: "date-time format (never enforced)",
            condition: "CONTRACT: created_at / deadline present. INVALID_FORMAT exists as a code but never fires (no FormatChecker); the inspector shows the row as not machine-checked and warns when the value is not RFC 3339 or Pydantic 2's datetime parsing rejects it, saying which the Pydantic model does (it accepts a date alone, a space separator, no offset, `+0530` and Unix time; it rejects second 60)",
            result: "never fires upstream",
            may_imply: "",
            must_not_imply: "that created_at / deadline are valid dates",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-08",
            title: "boundary validation",
            condition: "CONTRACT: any of CC-01..CC-06 fails at validate_outbound / validate_inbound",
            result: "BoundaryEnforcementError: OUTBOUND boundary validation failed for HandoffContract: {first 3 messages joined by '; '}[ (and N more)]",
            may_imply: "the contract would cross ContextCore's boundary check",
            must_not_imply: "that a valid handoff was delivered or executed",
            source: CONTRACT_SRC,
        },
        RuleRow {
            id: "CC-09",
            title: "handoff status enum",
            condition: "MSG: status outside pending|accepted|in_progress|input_required|completed|failed|timeout|cancelled|rejected",
            result: "Python ValueError from HandoffStatus(...) (standard Enum text: '{value}' is not a valid HandoffStatus)",
            may_imply: "the status is one of ContextCore's nine",
            must_not_imply: "that the status is current, or that it is an A2A task state (ContextCore's state names are its own)",
            source: MSG_SRC,
        },
        RuleRow {
            id: "CC-10",
            title: "handoff priority enum",
            condition: "MSG: priority outside critical|high|normal|low",
            result: "Python ValueError from HandoffPriority(...) (standard Enum text: '{value}' is not a valid HandoffPriority)",
            may_imply: "the priority is one of ContextCore's four",
            must_not_imply: "that storage accepts it (storage has `medium`, not `normal`)",
            source: MSG_SRC,
        },
        RuleRow {
            id: "CC-11",
            title: "status transition",
            condition: "MSG/STORE with an earlier snapshot (--previous): the status change is not in _HANDOFF_TRANSITIONS (pending -> accepted|rejected|cancelled; accepted -> in_progress|cancelled; in_progress -> input_required|completed|failed|cancelled; input_required -> in_progress|completed|failed|cancelled; terminal states -> none). Warning only",
            result: "can_transition_to returns false (never enforced upstream)",
            may_imply: "the change is one the table lists",
            must_not_imply: "that upstream ever rejects it: receivers write statuses directly, and the doc's own flow goes accepted -> completed",
            source: MSG_SRC,
        },
        RuleRow {
            id: "CC-12",
            title: "output limits (result-time)",
            condition: "MSG: expected_output declares max_lines / max_tokens / completeness_markers; exceeding them is judged on the produced result, not the packet",
            result: "receiver behaviour: CodeTruncatedError / HandoffRejectedError; span attributes gen_ai.code.truncated, gen_ai.code.verification_result = passed|failed_truncation",
            may_imply: "the packet declares output limits",
            must_not_imply: "that any output respected them: these are result-time checks, the packet only declares the limits",
            source: MSG_SRC,
        },
        RuleRow {
            id: "CC-13",
            title: "completed names its result trace",
            condition: "MSG/STORE: status is completed without result_trace_id. Warning only [derived]: not checked upstream, though complete() takes it as an argument",
            result: "warning",
            may_imply: "a completed handoff names a result trace id",
            must_not_imply: "that the trace exists or holds the result",
            source: MSG_SRC,
        },
        RuleRow {
            id: "CC-14",
            title: "storage enums",
            condition: "STORE: priority outside critical|high|medium|low, or status outside pending|accepted|in_progress|completed|failed|timeout",
            result: "Invalid priority '{p}'. Must be one of: ['critical', 'high', 'medium', 'low'] / Invalid status '{s}'. Must be one of: ['pending', 'accepted', 'in_progress', 'completed', 'failed', 'timeout']",
            may_imply: "the storage constructor would accept priority and status",
            must_not_imply: "that the other shapes accept them (CC-MSG's default priority `normal` is rejected here)",
            source: STORE_SRC,
        },
        RuleRow {
            id: "CC-15",
            title: "storage record loads",
            condition: "STORE: `HandoffData.from_dict` raises on the record: `id` or `task` absent (KeyError), or `createdAt` set and not read by Python's `datetime.fromisoformat` (ValueError; TypeError for a non-string); the file store's `list_handoffs` then skips the record without a word",
            result: "KeyError: 'task' / ValueError: Invalid isoformat string: '...' (or the range fromisoformat names) / TypeError: fromisoformat: argument must be str",
            may_imply: "ContextCore's storage reader loads the record",
            must_not_imply: "that the handoff it holds is valid or was delivered",
            source: STORE_SRC,
        },
    ],
};

pub static CC_QUIRKS: [Quirk; 6] = [
    Quirk {
        id: "cc-msg-not-contract",
        title: "a documented handoff_message fails HandoffContract",
        description: "the doc says to validate handoffs with validate_outbound(\"HandoffContract\", ...), but a §3 handoff_message fails that schema (id is not handoff_id, task/timeout_ms/expected_output.fields are unknown, schema_version is missing, four statuses are not in its enum)",
    },
    Quirk {
        id: "cc-store-enums-differ",
        title: "storage enums differ from the message enums",
        description: "storage accepts priority critical|high|medium|low (medium, not normal) and status pending|accepted|in_progress|completed|failed|timeout, so a CC-MSG with the default priority `normal`, or status input_required/cancelled/rejected, would be rejected by the storage constructor; reported, not fixed",
    },
    Quirk {
        id: "cc-date-format-unchecked",
        title: "date-time format never checked",
        description: "the HandoffContract validator is built without a FormatChecker, so \"not-a-date\" passes the schema path (INVALID_FORMAT never fires); the Pydantic model would reject it",
    },
    Quirk {
        id: "cc-unknown-state-fallback",
        title: "unknown status falls back to pending silently",
        description: "ContextCore's TaskAdapter maps an unknown or invalid state string to PENDING and then `pending` without a word",
    },
    Quirk {
        id: "cc-transitions-advisory",
        title: "the transition table is advisory",
        description: "HandoffReceiver.accept/complete/fail write the status directly and never call can_transition_to; the doc's own flow goes accepted -> completed",
    },
    Quirk {
        id: "cc-timeout-outside-table",
        title: "timeout is never in the transition table",
        description: "`timeout` is set by the caller's await_result (Handoff timed out after {ms}ms) and no transition in _HANDOFF_TRANSITIONS leads to it; the stored record is not updated",
    },
];
