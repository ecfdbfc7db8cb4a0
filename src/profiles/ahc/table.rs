//! The master/sub handoff contract as data: rows AHC-01..AHC-16 (messages exactly as the
//! upstream v1.0 / v1.2.7 validator prints them), the four contract violations mapped to the
//! checks that stand for them, and the validator quirks the inspector reproduces.

use crate::profiles::quirk::Quirk;
use crate::rules::{RuleRow, RuleTable};

const SPEC: &str = "Agent Handoff Contract (Master/Sub) v1.0 (seed 001); validate_agent_handoff_contract.py (spec/handoff-profiles.md §1.3)";
const SPEC_127: &str =
    "validate_agent_handoff_contract.py v1.2.7 additions (spec/handoff-profiles.md §1.3)";
const PRESENCE: &str = "key presence only (visibility of the record's shape)";

pub static AHC_TABLE: RuleTable = RuleTable {
    id: "ahc",
    name: "Agent Handoff Contract (Master/Sub) record",
    rows: &[
        RuleRow {
            id: "AHC-01",
            title: "JSON record",
            condition: "the file is not valid JSON (v1.2.7 also: the JSON root is not an object)",
            result: "invalid handoff json {path}: {exc} (v1.2.7: invalid handoff json {path}: JSON root must be object: {path})",
            may_imply: "the file parses as JSON",
            must_not_imply: "anything about the record's content",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-02",
            title: "mandatory fields present",
            condition: "any of the 10 mandatory keys (handoff_id, task_id, from_agent, to_agent, input_scope, actions_taken, artifacts, result, next_action, rulebook_update) is absent; the validator stops here",
            result: "missing required fields: [<list in spec order>]",
            may_imply: PRESENCE,
            must_not_imply: "that present fields are non-empty or well-typed: `from_agent: \"\"` and `input_scope: null` pass",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-03",
            title: "result enum",
            condition: "str(result) is not one of PASS, FAIL, BLOCKED (exact, case-sensitive; null and \"pass\" fail)",
            result: "result must be one of ['BLOCKED', 'FAIL', 'PASS']",
            may_imply: "the record states one of the three results",
            must_not_imply: "that the result agrees with the evidence (contract violation 4 is not machine-checked)",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-04",
            title: "actions_taken non-empty",
            condition: "actions_taken is not a list, or is empty",
            result: "actions_taken must be non-empty array",
            may_imply: "the record lists at least one action",
            must_not_imply: "that the actions were performed or were in scope",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-05",
            title: "artifacts non-empty",
            condition: "artifacts is not a list, or is empty (for every result, not only PASS)",
            result: "artifacts must be non-empty array",
            may_imply: "the record names at least one artifact",
            must_not_imply: "that the artifacts support the result",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-06",
            title: "artifact items are objects",
            condition: "an artifacts item is not an object",
            result: "artifacts[{i}] must be object",
            may_imply: "each artifact item has the object shape",
            must_not_imply: "that the item describes a real artifact",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-07",
            title: "artifact path given",
            condition: "an artifact's path is missing or blank (after str(path or \"\").strip())",
            result: "artifacts[{i}].path missing",
            may_imply: "each artifact names a path",
            must_not_imply: "that the path exists or is evidence",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-08",
            title: "artifact path exists",
            condition: "the artifact path does not exist under --artifact-root (default: the packet's directory); a directory counts as existing; a path leaving the root (.., absolute, symlink out) is reported as outside the root and never looked at",
            result: "artifacts[{i}].path not found: {p}",
            may_imply: "a file or directory of that name exists under the artifact root",
            must_not_imply: "that the file's content is evidence, or that it was produced in this run",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-09",
            title: "artifact kind given (v1.2.7+)",
            condition: "v1.2.7: an artifact's kind is missing or blank (v1.0: not checked; the spec says \"should\")",
            result: "artifacts[{i}].kind missing",
            may_imply: "each artifact carries a kind label",
            must_not_imply: "that kind comes from a closed vocabulary: none exists (seen: ui_evidence, route_audit, replay_evidence)",
            source: SPEC_127,
        },
        RuleRow {
            id: "AHC-10",
            title: "next_action is an object",
            condition: "next_action is not an object",
            result: "next_action must be object",
            may_imply: "the record has a next-action object",
            must_not_imply: "that a next action is executable",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-11",
            title: "next_action owner/action/input",
            condition: "next_action.owner, .action or .input is empty after str(v or \"\").strip() ({} and null fail; a non-empty object passes)",
            result: "next_action.{k} missing/empty",
            may_imply: "owner, action and input are non-empty",
            must_not_imply: "that the action is executable or that the owner exists",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-12",
            title: "next_action not a placeholder (v1.2.7+)",
            condition: "v1.2.7: next_action.{owner,action,input} is, case-insensitively after trim, one of todo, tbd, n/a, none, pending, later",
            result: "next_action.{k} is placeholder: {value}",
            may_imply: "the values are not one of the six listed placeholders",
            must_not_imply: "that the values are meaningful: any other filler passes",
            source: SPEC_127,
        },
        RuleRow {
            id: "AHC-13",
            title: "no forbidden mutations",
            condition: "set(attempted_mutations) meets {gates, protocol_review_contract, identity_update_lifecycle_contract, trigger_regression_contract}",
            result: "attempted forbidden mutations: [<sorted list>]",
            may_imply: "the record does not self-report a forbidden mutation",
            must_not_imply: "that no mutation happened: attempted_mutations is self-reported, and absent or empty proves nothing",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-14",
            title: "rulebook_update is an object",
            condition: "rulebook_update is not an object",
            result: "rulebook_update must be object",
            may_imply: "the record has a rulebook-update object",
            must_not_imply: "that a rulebook was or was not updated",
            source: SPEC,
        },
        RuleRow {
            id: "AHC-15",
            title: "rulebook_update.applied present (v1.2.7+)",
            condition: "v1.2.7: rulebook_update has no key `applied` (v1.0 passes a missing applied)",
            result: "rulebook_update.applied missing",
            may_imply: "the record states whether a rulebook update was applied",
            must_not_imply: "that the statement is true",
            source: SPEC_127,
        },
        RuleRow {
            id: "AHC-16",
            title: "applied update names its run",
            condition: "bool(rulebook_update.applied) is true (Python truthiness: the string \"false\" is true) and evidence_run_id is blank",
            result: "rulebook_update.applied=true requires evidence_run_id",
            may_imply: "an applied update names a run id",
            must_not_imply: "that the run id refers to a real run",
            source: SPEC,
        },
    ],
};

pub static AHC_VIOLATIONS_TABLE: RuleTable = RuleTable {
    id: "ahc-violations",
    name: "Master/sub contract violations and the checks that stand for them",
    rows: &[
        RuleRow {
            id: "V1",
            title: "sub-agent mutates identity top-level contracts",
            condition: "checked only through AHC-13 (self-reported attempted_mutations)",
            result: "follows AHC-13",
            may_imply: "the record does not self-report a forbidden mutation",
            must_not_imply: "that no contract was modified: there is no diff-based detection, and which agent attempted it is not looked at",
            source: "Agent Handoff Contract v1.0, Violation definitions 1 (spec/handoff-profiles.md §1.4)",
        },
        RuleRow {
            id: "V2",
            title: "completion claimed without evidence artifacts",
            condition: "checked through AHC-05, AHC-07, AHC-08 (and AHC-09 from v1.2.7), for every result",
            result: "the worst verdict of those rows",
            may_imply: "artifact paths are given and exist",
            must_not_imply: "that any artifact shows completion",
            source: "Agent Handoff Contract v1.0, Violation definitions 2 (spec/handoff-profiles.md §1.4)",
        },
        RuleRow {
            id: "V3",
            title: "no executable next action",
            condition: "approximated by AHC-10, AHC-11 (and AHC-12 from v1.2.7): non-empty, not a placeholder",
            result: "the worst verdict of those rows",
            may_imply: "owner, action and input are filled in",
            must_not_imply: "that the next action is executable",
            source: "Agent Handoff Contract v1.0, Violation definitions 3 (spec/handoff-profiles.md §1.4)",
        },
        RuleRow {
            id: "V4",
            title: "result contradicts provided evidence",
            condition: "no machine check exists upstream or here",
            result: "not machine-checked: a reviewer must compare result with the artifacts",
            may_imply: "",
            must_not_imply: "that the result agrees with the evidence: this row is never passed",
            source: "Agent Handoff Contract v1.0, Violation definitions 4 (spec/handoff-profiles.md §1.4)",
        },
    ],
};

pub static AHC_QUIRKS: [Quirk; 8] = [
    Quirk {
        id: "ahc-applied-string-truthy",
        title: "string `applied` counts as true",
        description: "rulebook_update.applied: \"false\" (a string) is true under Python truthiness, so evidence_run_id becomes required",
    },
    Quirk {
        id: "ahc-mutations-string-chars",
        title: "string attempted_mutations compared by characters",
        description: "attempted_mutations: \"gates\" (a string, not a list) passes: set(\"gates\") is a set of characters",
    },
    Quirk {
        id: "ahc-v10-lenient-applied-kind",
        title: "v1.0 passes missing `applied` and artifact `kind`",
        description: "v1.0 does not check rulebook_update.applied presence (AHC-15) or artifact kind (AHC-09); v1.2.7 fails both",
    },
    Quirk {
        id: "ahc-root-not-object",
        title: "non-object JSON root",
        description: "v1.0 reports all 10 fields missing for a list root (and would stop with a Python TypeError on a number, boolean or null root); v1.2.7 reports `invalid handoff json ...: JSON root must be object: ...`",
    },
    Quirk {
        id: "ahc-presence-only",
        title: "identity fields are presence-only",
        description: "from_agent: \"\" and input_scope: null (and any handoff_id, task_id, to_agent value) pass in every version",
    },
    Quirk {
        id: "ahc-mutations-object-keys",
        title: "object attempted_mutations compared by keys",
        description: "set() of a JSON object is the set of its keys, so {\"gates\": ...} counts as attempting `gates`; a number or boolean would stop the Python validator with a TypeError and is reported here as not compared",
    },
    Quirk {
        id: "ahc-artifact-root",
        title: "artifacts resolve against --artifact-root, not the working directory",
        description: "upstream resolves artifact paths against the current directory and passes absolute paths that exist; the inspector resolves them against --artifact-root (default: the packet's directory) and reports absolute or escaping paths as outside the root without looking at them",
    },
    Quirk {
        id: "ahc-early-return",
        title: "missing fields stop the validator",
        description: "when a mandatory key is absent the validator returns that one message and checks nothing else; the other rows are shown as not evaluated",
    },
];
