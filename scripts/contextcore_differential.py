#!/usr/bin/env python3
"""Differential test of `handoff-inspector profile` against ContextCore's own judges.

ContextCore judges a handoff in three places, and this script reproduces each with the
libraries ContextCore uses, then compares the tool's verdicts and words with theirs on
mutated records generated at a fixed seed from the project's ContextCore fixtures
(fixtures/profiles/contextcore):

- **CC-CONTRACT**: `validator.py` (41ccc6c) runs jsonschema's `Draft202012Validator` over
  `schemas/contracts/handoff-contract.schema.json` and turns each error of `iter_errors`, in
  its order, into an envelope (`error_code` from the failing keyword, `failed_path` as a
  pointer, jsonschema's message, `_next_action_for`'s action); `boundary.py` raises
  `BoundaryEnforcementError` with the first three messages. The schema below is this
  project's, written from the facts of spec/handoff-profiles.md §2.2 (field names, types,
  enums, consts, required members, `additionalProperties: false`, keyword order as the
  file at 1b6afd9 has them), not copied. Compared: pass/fail, every envelope in order, the
  boundary message. `created_at` / `deadline` strings go through Pydantic's datetime parsing
  too (the `HandoffContract` model's `Optional[datetime]`): the tool's CC-07 must say
  whether Pydantic accepts the value, and with its words when not.
- **CC-STORE**: `HandoffData.from_dict` and `__post_init__` (storage/base.py at HEAD),
  reproduced below as they read a record: `createdAt` through `datetime.fromisoformat` when
  truthy, `data["id"]` and `data["task"]`, then the storage priority and status enums.
  Compared: pass/fail (the reader raises, or the tool fails a row) and every error the
  reader can raise on the record (the first is the one it raises), field by field.
- **CC-MSG**: the doc's `handoff_message` read with its enum constructors
  (`HandoffStatus(...)`, `HandoffPriority(...)`, agent/handoff.py at fef0e79). Compared:
  each value's verdict and the `ValueError` text.

Records are read by Python's `json` from the very line the tool reads, and the tool runs once
per shape over an NDJSON file (`profile --lines --as SHAPE --format json`).

The script makes its own virtual environment (target/contextcore-differential/venv) and
installs the pinned libraries into it the first time; it needs PyPI then, and nothing else.

    python3 scripts/contextcore_differential.py               # 3,000 records, seed 40
    python3 scripts/contextcore_differential.py --seed 7      # another seed
    python3 scripts/contextcore_differential.py --write-docs  # the table into docs/profiles.md

With the default seed and count the table must equal the one in docs/profiles.md (the script
fails otherwise). Exit 0 when every difference is allowed by name (`ALLOWED`, each with its
reason), 1 otherwise (the first few printed), 2 when the environment cannot be made.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import differential_common

PINNED = [
    "jsonschema==4.26.0",
    "jsonschema-specifications==2025.9.1",
    "referencing==0.37.0",
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
]
ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "contextcore-differential" / "venv"
FIXTURES = ROOT / "fixtures" / "profiles" / "contextcore"
DOCS = ROOT / "docs" / "profiles.md"
DEFAULT_COUNT = 3000
DEFAULT_SEED = 40
TABLE_START = "<!-- contextcore_differential.py table: start -->"
TABLE_END = "<!-- contextcore_differential.py table: end -->"


def ensure_venv():
    """Re-executes this script inside its venv (made and filled on first use)."""
    differential_common.ensure_venv(VENV, PINNED, __file__)


# ---------------------------------------------------------------------------------------
# The references.


def string(**more):
    return {"type": "string", **more}


def one_of(*values, default):
    return {"type": "string", "enum": list(values), "default": default}


# HandoffContract v1 as spec/handoff-profiles.md §2.2 states it, keywords in the order the
# schema file at 1b6afd9 lists them (jsonschema yields errors in that order).
HANDOFF_CONTRACT = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://contextcore.io/schemas/contracts/handoff-contract.schema.json",
    "type": "object",
    "additionalProperties": False,
    "required": ["schema_version", "handoff_id", "from_agent", "to_agent", "capability_id", "inputs", "expected_output"],
    "properties": {
        "schema_version": string(const="v1"),
        "handoff_id": string(minLength=1),
        "project_id": string(minLength=1),
        "trace_id": string(minLength=1),
        "parent_task_id": string(minLength=1),
        "from_agent": string(minLength=1),
        "to_agent": string(minLength=1),
        "capability_id": string(minLength=1),
        "priority": one_of("low", "normal", "high", "critical", default="normal"),
        "inputs": {"type": "object"},
        "expected_output": {
            "type": "object",
            "additionalProperties": False,
            "required": ["type"],
            "properties": {"type": string(minLength=1), "schema_ref": string(minLength=1)},
        },
        "status": one_of("pending", "accepted", "in_progress", "completed", "failed", "expired", default="pending"),
        "result_trace_id": string(minLength=1),
        "error": string(minLength=1),
        "created_at": string(format="date-time"),
        "deadline": string(format="date-time"),
    },
}

# validator.py's `_error_code_for` and `_next_action_for`.
ERROR_CODES = {
    "required": "MISSING_REQUIRED_FIELD",
    "additionalProperties": "UNKNOWN_FIELD",
    "enum": "ENUM_MISMATCH",
    "const": "CONST_VIOLATION",
    "type": "WRONG_TYPE",
    "pattern": "PATTERN_MISMATCH",
    "minLength": "MIN_LENGTH_VIOLATION",
    "minimum": "VALUE_OUT_OF_RANGE",
    "maximum": "VALUE_OUT_OF_RANGE",
    "format": "INVALID_FORMAT",
    "minProperties": "EMPTY_OBJECT",
}
NEXT_ACTIONS = {
    "MISSING_REQUIRED_FIELD": "Add the missing required field at '{}'.",
    "UNKNOWN_FIELD": "Remove the unknown field at '{}'. v1 contracts do not allow extra top-level fields.",
    "ENUM_MISMATCH": "Use one of the allowed enum values for '{}'.",
    "CONST_VIOLATION": "Set '{}' to the required constant value.",
    "WRONG_TYPE": "Correct the type of '{}'.",
    "PATTERN_MISMATCH": "Correct the value at '{}' to match the required pattern.",
    "MIN_LENGTH_VIOLATION": "Provide a non-empty value for '{}'.",
    "VALUE_OUT_OF_RANGE": "Adjust the value at '{}' to be within the allowed range.",
    "INVALID_FORMAT": "Correct the format of '{}' (e.g. date-time).",
    "EMPTY_OBJECT": "Provide at least one property inside '{}'.",
}


def contract_envelopes(validator, payload):
    """validator.py's A2AValidator.validate: one envelope per error, iter_errors order."""
    out = []
    for error in validator.iter_errors(payload):
        code = ERROR_CODES.get(error.validator, "SCHEMA_ERROR")
        path = list(error.absolute_path)
        pointer = "/" + "/".join(str(p) for p in path) if path else "/"
        action = NEXT_ACTIONS.get(code, "Fix the validation error at '{}'.").format(pointer)
        out.append({"error_code": code, "failed_path": pointer, "message": error.message, "next_action": action})
    return out


def boundary_message(envelopes):
    """BoundaryEnforcementError's text for validate_outbound."""
    summaries = "; ".join(e["message"] for e in envelopes[:3])
    if len(envelopes) > 3:
        summaries += f" (and {len(envelopes) - 3} more)"
    return f"OUTBOUND boundary validation failed for HandoffContract: {summaries}"


def pydantic_datetime(adapter, text):
    """None when the HandoffContract model's Optional[datetime] takes the text, else its
    message."""
    from pydantic import ValidationError

    try:
        adapter.validate_python(text)
        return None
    except ValidationError as error:
        return error.errors()[0]["msg"]


STORE_PRIORITIES = ["critical", "high", "medium", "low"]  # contracts.types.Priority
STORE_STATUSES = ["pending", "accepted", "in_progress", "completed", "failed", "timeout"]  # contracts.types.HandoffStatus


def store_errors(data):
    """Every error HandoffData.from_dict (then __post_init__) can raise on `data`, in the
    order it reads: the first is the one it raises. Each is (field, text)."""
    from datetime import datetime

    errors = []
    if data.get("createdAt"):
        try:
            datetime.fromisoformat(data["createdAt"])
        except (TypeError, ValueError) as error:
            errors.append(("createdAt", f"{type(error).__name__}: {error}"))
    for key in ("id", "task"):
        try:
            data[key]
        except KeyError as error:
            errors.append((key, f"KeyError: {error}"))
    priority = data.get("priority", "medium")
    if priority not in STORE_PRIORITIES:
        errors.append(("priority", f"Invalid priority '{priority}'. Must be one of: {STORE_PRIORITIES}"))
    status = data.get("status", "pending")
    if status not in STORE_STATUSES:
        errors.append(("status", f"Invalid status '{status}'. Must be one of: {STORE_STATUSES}"))
    return errors


# agent/handoff.py's two enums (fef0e79), as the doc's handoff_message uses them (defined at
# the top level, so a ValueError names them as Python names the originals).
from enum import Enum  # noqa: E402


class HandoffPriority(str, Enum):
    CRITICAL = "critical"
    HIGH = "high"
    NORMAL = "normal"
    LOW = "low"


class HandoffStatus(str, Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    IN_PROGRESS = "in_progress"
    INPUT_REQUIRED = "input_required"
    COMPLETED = "completed"
    FAILED = "failed"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"
    REJECTED = "rejected"


MESSAGE_ENUMS = {"status": (HandoffStatus, "CC-09"), "priority": (HandoffPriority, "CC-10")}


# ---------------------------------------------------------------------------------------
# Generation: the fixtures, mutated at a fixed seed.

LONG = "x" * 300
STRINGS = [
    "", " ", "a", "orchestrator", "urgent", "Normal", "medium", "normal", "expired", "timeout",
    "input_required", "v1", "v2", "V1", "v1 ", "urgent\u200b", "it's", 'say "hi"', "both ' and \"",
    "tab\there", "new\nline", "back\\slash", "\x1b[31mred", "\x7f", "Zürich", "😀", "\u2028", "\ufeff",
    "\u00ad", "\u0378", "\U000e0001", "\U0010fffd", LONG, "ü" * 250,
]
NUMBERS = [0, 1, -1, 42, 2**53 + 1, 2**63, 2**64, 10**30, -(10**20), 1772366400, 1.5, 2.0, -0.0, 1e30, 1e-7, 1e16, 0.1, 123456.789]
OTHERS = [True, False, None, [], [1, "a"], [[], {}], {}, {"b": 1, "a": 2}, {"z": {"y": [1, {"x": None}]}, "a": True}, {"k": 10**25}]
DATES = [
    "2026-03-01T09:00:00Z", "2026-03-01T09:00:00+01:00", "2026-03-01T09:00:00.123456Z", "2026-03-01T09:00:00.123456789Z",
    "2026-03-01", "2026-03-01 09:00:00", "2026-03-01T09:00:00", "2026-03-01T09:00:00+0530", "2026-03-01T09:00",
    "2026-03-01T09:00:60Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-03-01T24:00:00Z", "not-a-date", "",
    "1772366400", "2026-03-01t09:00:00z", "20260301T090000Z", "2026-W09-7", "2026-060", "2026-03-01T09:00:00.Z",
    "2026-03-01T09:00:00,5Z", "2026-03-01T09:00:00-00:00", "2026-03-01T09:00:00+24:00", "0000-01-01T00:00:00Z",
    "2026-03-01T09:00:00 Z", "2026-3-1T9:00:00Z", "2026-03-01T09:00:00.5+05:30", "2026-03-01T09",
]
UNKNOWN_KEYS = ["rogue", "zeta", "alpha", "Ünïcode", "a b", "~/x", "_", "fields", "task", "id", "timeout_ms", "handoff"]
LONE_SURROGATE = "\ud800"
SHAPES = {"contract": "cc-contract", "store": "cc-store", "msg": "cc-msg"}
DATE_KEYS = {"contract": ["created_at", "deadline"], "store": ["createdAt"], "msg": ["created_at"]}
ENUM_VALUES = ["low", "normal", "high", "critical", "medium", "pending", "accepted", "in_progress", "completed",
               "failed", "expired", "timeout", "input_required", "cancelled", "rejected", "paused", "urgent"]


def shape_of(record):
    if "schema_version" in record or "handoff_id" in record:
        return "contract"
    if any(key in record for key in ("fromAgent", "toAgent", "capabilityId", "expectedOutput", "createdAt", "timeoutMs")):
        return "store"
    return "msg"


def fixtures():
    """The ContextCore fixtures that are JSON objects, by shape, in file-name order."""
    by_shape = {shape: [] for shape in SHAPES}
    for path in sorted(FIXTURES.glob("*.json")):
        if path.name == "goldens.json":
            continue
        try:
            record = json.loads(path.read_text())
        except ValueError:
            continue
        if isinstance(record, dict):
            by_shape[shape_of(record)].append(record)
    return by_shape


class Mutator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.counts = {}

    def value(self, key):
        r = self.rng
        pick = r.random()
        if key in ("status", "priority") and pick < 0.5:
            return r.choice(ENUM_VALUES)
        if key in DATE_KEYS["contract"] + DATE_KEYS["store"] and pick < 0.6:
            return r.choice(DATES)
        if pick < 0.03:
            return LONE_SURROGATE + r.choice(["", "x"])
        pool = r.choice([STRINGS, STRINGS, NUMBERS, OTHERS])
        return r.choice(pool)

    def mutate(self, record, shape):
        r = self.rng
        record = json.loads(json.dumps(record))
        for _ in range(r.choice([1, 1, 2, 3])):
            target = record
            if r.random() < 0.2:
                nested = "expectedOutput" if shape == "store" else "expected_output"
                if isinstance(record.get(nested), dict):
                    target = record[nested]
            keys = list(target)
            what = r.random()
            if what < 0.2 and keys:
                del target[r.choice(keys)]
            elif what < 0.35:
                target[r.choice(UNKNOWN_KEYS)] = self.value(None)
            elif what < 0.5:
                key = r.choice(DATE_KEYS[shape] + ["status", "priority"])
                target[key] = self.value(key)
            elif keys:
                key = r.choice(keys)
                target[key] = self.value(key)
        if r.random() < 0.3:
            # Members in another order than the fixture's: the messages show document order.
            items = list(record.items())
            r.shuffle(items)
            record = dict(items)
        return record


def has_lone_surrogate(value):
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    return False


# ---------------------------------------------------------------------------------------
# Our side.


def run_ours(binary, lines, shape):
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False, encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
        path = handle.name
    try:
        done = subprocess.run(
            [binary, "profile", "--lines", "--as", SHAPES[shape], path], capture_output=True, text=True
        )
        if done.returncode not in (0, 1):
            raise SystemExit(f"profile failed ({done.returncode}): {done.stderr}")
        records = [json.loads(line) for line in done.stdout.splitlines()]
    finally:
        os.unlink(path)
    by_line = {record["line"]: record for record in records}
    return [by_line.get(index + 1, {"error": "no output line"}) for index in range(len(lines))]


def verdict(report, rule):
    for outcome in report.get("outcomes", []):
        if outcome["rule"] == rule:
            return outcome["verdict"]
    return None


def failures(report, rules):
    return [f for f in report.get("findings", []) if f["rule"] in rules and f["severity"] == "error"]


def pydantic_clause(report, key):
    """What our CC-07 says Pydantic does with the value at `key`: None (accepts) or its
    message; no CC-07 warning at the path means both RFC 3339 and Pydantic take it."""
    for finding in report.get("findings", []):
        if finding["rule"] != "CC-07" or finding["path"] != f"$.{key}":
            continue
        message = finding["message"]
        marker = "the Pydantic model rejects it ("
        if marker in message:
            return message[message.index(marker) + len(marker):].removesuffix(")")
        return None
    return None


# ---------------------------------------------------------------------------------------
# The comparison. The allow-list: each difference the tool keeps on purpose, by name, with its
# reason (docs/profiles.md, "ContextCore as its own code judges it").

ALLOWED = {
    "lone surrogate": "ContextCore's reader (Python's json) reads a lone surrogate escape such as "
    '"\\ud800" into its string; this tool does not read the record (a Rust string cannot hold half '
    "a UTF-16 pair) and names it an unpaired surrogate",
}


class Tally:
    def __init__(self):
        self.rows = {}
        self.failures = []
        self.allowed = {}

    def row(self, name):
        return self.rows.setdefault(name, {"compared": 0, "verdict": 0, "words": 0, "allowed": 0})

    def allow(self, name, reason):
        self.row(name)["allowed"] += 1
        self.allowed[reason] = self.allowed.get(reason, 0) + 1

    def result(self, name, verdict_agrees, words_agree, what, record, want, got):
        row = self.row(name)
        row["compared"] += 1
        row["verdict"] += verdict_agrees
        row["words"] += verdict_agrees and words_agree
        if not (verdict_agrees and words_agree):
            self.failures.append((name, what, record, want, got))


def compare_contract(tally, validator, adapter, record, line, ours):
    name = "CC-CONTRACT"
    report = ours.get("report", {})
    if has_lone_surrogate(record) and "unpaired surrogate" in json.dumps(ours):
        tally.allow(name, "lone surrogate")
        return
    want = contract_envelopes(validator, record)
    got = [
        {key: e.get(key) for key in ("error_code", "failed_path", "message", "next_action")}
        for e in (report.get("contextcore") or {}).get("schema_errors", [])
    ]
    failed = verdict(report, "CC-08") == "fail"
    boundary = [f["message"] for f in failures(report, ["CC-08"])]
    words = want == got and (not want or boundary == [boundary_message(want)])
    tally.result(name, failed == bool(want), words, "envelopes", line, {"envelopes": want, "boundary": want and boundary_message(want)}, {"envelopes": got, "boundary": boundary})
    for key in DATE_KEYS["contract"]:
        text = record.get(key)
        if not isinstance(text, str):
            continue
        want_date = pydantic_datetime(adapter, text)
        got_date = pydantic_clause(report, key)
        agrees = (want_date is None) == (got_date is None)
        tally.result("CC-CONTRACT dates (CC-07)", agrees, want_date == got_date, key, line, want_date, got_date)


def compare_store(tally, record, line, ours):
    name = "CC-STORE"
    report = ours.get("report", {})
    if has_lone_surrogate(record) and "unpaired surrogate" in json.dumps(ours):
        tally.allow(name, "lone surrogate")
        return
    want = store_errors(record)
    got = [(f["path"], f["message"]) for f in failures(report, ["CC-14", "CC-15"])]
    raises = bool(want)
    fails = any(o["verdict"] == "fail" for o in report.get("outcomes", [])) or "error" in ours
    # Each error the reader can raise, named on its field by one of ours (and no other).
    matched = len(want) == len(got) and all(
        any(path == f"$.{key}" and text in message for path, message in got) for key, text in want
    )
    tally.result(name, raises == fails, matched, "reader", line, want, got)


def compare_msg(tally, enums, record, line, ours):
    report = ours.get("report", {})
    if has_lone_surrogate(record) and "unpaired surrogate" in json.dumps(ours):
        tally.allow("CC-MSG enums", "lone surrogate")
        return
    for key, (enum, rule) in enums.items():
        if key not in record:
            continue
        try:
            enum(record[key])
            want = None
        except ValueError as error:
            want = f"ValueError: {error}"
        got = [f["message"] for f in failures(report, [rule])]
        agrees = (want is None) == (not got)
        tally.result("CC-MSG enums", agrees, want is None or got == [want], key, line, want, got)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help=f"records in all (default {DEFAULT_COUNT})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "handoff-inspector"))
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/profiles.md")
    parser.add_argument("--show", type=int, default=3, help="differences printed per class")
    args = parser.parse_args()
    if not Path(args.binary).exists():
        print(f"no binary at {args.binary}: cargo build first", file=sys.stderr)
        return 2

    from datetime import datetime
    from typing import Optional

    from jsonschema import Draft202012Validator
    from pydantic import TypeAdapter

    Draft202012Validator.check_schema(HANDOFF_CONTRACT)
    validator = Draft202012Validator(HANDOFF_CONTRACT)
    adapter = TypeAdapter(Optional[datetime])
    enums = MESSAGE_ENUMS
    mutator = Mutator(args.seed)
    tally = Tally()
    bases = fixtures()
    per_shape = max(1, args.count // len(SHAPES))
    for shape, records in bases.items():
        # Every fixture as it is, then mutated ones.
        generated = list(records) + [mutator.mutate(mutator.rng.choice(records), shape) for _ in range(per_shape - len(records))]
        lines = [json.dumps(record, ensure_ascii=has_lone_surrogate(record) or mutator.rng.random() < 0.5) for record in generated]
        ours = run_ours(args.binary, lines, shape)
        for line, got in zip(lines, ours):
            record = json.loads(line)  # what ContextCore's reader holds: Python's json of the line
            if shape == "contract":
                compare_contract(tally, validator, adapter, record, line, got)
            elif shape == "store":
                compare_store(tally, record, line, got)
            else:
                compare_msg(tally, enums, record, line, got)

    table = render_table(tally.rows)
    print(table)
    if tally.allowed:
        print("differences allowed by name:")
        for reason, count in sorted(tally.allowed.items()):
            print(f"  {count:5}  {reason}: {ALLOWED[reason]}")
    status = differential_common.print_differences(
        [
            ((name, what), f"\n{name} {what}:\n  record {line}\n  reference {json.dumps(want, ensure_ascii=False)}\n  ours      {json.dumps(got, ensure_ascii=False)}")
            for name, what, line, want, got in tally.failures
        ],
        args.show,
    )
    published = (args.seed, args.count) == (DEFAULT_SEED, DEFAULT_COUNT)
    status |= differential_common.docs_table(DOCS, table, args.write_docs, published, TABLE_START, TABLE_END)
    return status


REFERENCES = {
    "CC-CONTRACT": "jsonschema 4.26.0 `Draft202012Validator.iter_errors`: pass/fail; every envelope (code, failed_path, message, next_action) in order and the boundary message",
    "CC-CONTRACT dates (CC-07)": "Pydantic 2.14.4 `Optional[datetime]` on each `created_at` / `deadline` string: accepted or not; its message",
    "CC-STORE": "`HandoffData.from_dict` + `__post_init__`: raises or not; every error it can raise, on its field",
    "CC-MSG enums": "`HandoffStatus(...)` / `HandoffPriority(...)` on each `status` / `priority`: raises or not; the `ValueError` text",
}


def render_table(rows):
    lines = [
        "| shape | reference and what is compared | compared | verdict agrees | words agree | allowed by name |",
        "|---|---|---|---|---|---|",
    ]
    for name in REFERENCES:
        row = rows.get(name, {"compared": 0, "verdict": 0, "words": 0, "allowed": 0})
        lines.append(f"| {name} | {REFERENCES[name]} | {row['compared']} | {row['verdict']} | {row['words']} | {row['allowed']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    ensure_venv()
    sys.exit(main())
