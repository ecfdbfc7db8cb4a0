#!/usr/bin/env python3
"""Differential test of `handoff-inspector migrate` against the official A2A SDK converter.

Generates v0.3 objects of every core kind from the SDK's own pydantic models (a walk over
`model_json_schema()` driven by a seeded random generator; one in seven written with
snake_case field names, which the SDK's models read too), converts each with
a2a-sdk==1.3.0 (`a2a.compat.v0_3.conversions`) and with our `migrate --lines` (one process
per kind and direction), both ways, normalizes both sides the same way (ProtoJSON default
folding, number types), and fails on any difference that is not explained by the short
allow-list of SDK quirks below.

The script makes its own virtual environment (target/sdk-differential/venv) and installs the
pinned SDK into it the first time; it needs PyPI then, and nothing else.

    python3 scripts/sdk_differential.py                # 3,000 objects, seed 22
    python3 scripts/sdk_differential.py --count 20000  # more
    python3 scripts/sdk_differential.py --table        # also print the README table

Exit 0 when every difference is allowed, 1 otherwise (the first few are printed), 2 when
the environment cannot be made.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SDK = "a2a-sdk==1.3.0"
ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "sdk-differential" / "venv"


def ensure_venv():
    """Re-executes this script inside the venv (made and filled on first use)."""
    python = VENV / "bin" / "python"
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    marker = VENV / "installed.txt"
    if not marker.exists() or marker.read_text().strip() != SDK:
        print(f"making {VENV} with {SDK}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", SDK],
            check=True,
        )
        marker.write_text(SDK + "\n")
    os.execv(str(python), [str(python), __file__, *sys.argv[1:]])


# ---------------------------------------------------------------------------------------
# Generation: values for a JSON schema, from the SDK's pydantic models.


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def word(self):
        # "" too: ProtoJSON leaves an empty id out, and the object must still be recognised.
        return self.rng.choice(["a", "t1", "ctx-9", "Zürich", "x y", "m-42", "hello", "ü", ""])

    def timestamp(self):
        r = self.rng
        base = f"2025-0{r.randint(1, 9)}-1{r.randint(0, 9)}T1{r.randint(0, 9)}:2{r.randint(0, 9)}:3{r.randint(0, 9)}"
        digits = r.choice([0, 0, 1, 2, 3, 3, 5, 6, 9])
        frac = ("." + "".join(str(r.randint(0, 9)) for _ in range(digits))) if digits else ""
        zone = r.choice(["Z", "Z", "+00:00", "+02:00", "-05:30"])
        return base + frac + zone

    def string(self, name):
        r = self.rng
        lowered = (name or "").lower()
        if lowered == "bytes":
            import base64

            return base64.b64encode(bytes(r.randint(0, 255) for _ in range(r.randint(1, 9)))).decode()
        if lowered == "timestamp":
            return self.timestamp()
        if lowered.endswith("url") or lowered == "uri":
            return f"https://h{r.randint(0, 9)}.example/{self.word().replace(' ', '')}"
        if lowered in ("mimetype", "mediatype"):
            return r.choice(["text/plain", "application/json", "image/png"])
        if lowered in ("protocolversion",):
            return "0.3.0"
        return self.word()

    def any_json(self, depth=0):
        r = self.rng
        pick = r.randint(0, 6 if depth < 2 else 3)
        if pick == 0:
            return r.randint(-5, 1000)
        if pick == 1:
            return self.word()
        if pick == 2:
            return r.choice([True, False])
        if pick == 3:
            return round(r.uniform(-10, 10), 2)
        if pick == 4:
            return [self.any_json(depth + 1) for _ in range(r.randint(0, 2))]
        return {self.word(): self.any_json(depth + 1) for _ in range(r.randint(0, 3))}

    def value(self, schema, defs, name=None, depth=0):
        r = self.rng
        if "$ref" in schema:
            ref = schema["$ref"].rsplit("/", 1)[-1]
            return self.value(defs[ref], defs, name, depth + 1)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return r.choice(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [s for s in schema[key] if s.get("type") != "null"]
                return self.value(r.choice(options), defs, name, depth + 1)
        if "allOf" in schema:
            return self.value(schema["allOf"][0], defs, name, depth + 1)
        kind = schema.get("type")
        if kind == "object" and "properties" in schema:
            out = {}
            required = set(schema.get("required", []))
            for prop, sub in schema["properties"].items():
                if prop in required or (depth < 6 and r.random() < 0.45):
                    out[prop] = self.value(sub, defs, prop, depth + 1)
            return out
        if kind == "object":
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and extra.get("type") == "array":
                return {self.word(): [self.word() for _ in range(r.randint(0, 2))] for _ in range(r.randint(0, 2))}
            if isinstance(extra, dict) and extra.get("type") == "string":
                return {self.word(): self.word() for _ in range(r.randint(0, 2))}
            if isinstance(extra, dict) and extra:
                return {self.word(): self.value(extra, defs, None, depth + 1) for _ in range(r.randint(0, 2))}
            return {self.word(): self.any_json(1) for _ in range(r.randint(0, 3))}
        if kind == "array":
            items = schema.get("items", {})
            low = 1 if name in ("parts",) else 0
            return [self.value(items, defs, name, depth + 1) for _ in range(r.randint(low, max(low, 2 if depth < 5 else 0)))]
        if kind == "string":
            return self.string(name)
        if kind == "integer":
            return r.randint(0, 50)
        if kind == "number":
            return round(r.uniform(0, 50), 2)
        if kind == "boolean":
            return r.choice([True, False])
        return self.any_json(1)


def snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def snake_case(value):
    """The object with its field names as a2a-python's pydantic models also read them (and
    as ProtoJSON's proto names): `messageId` -> `message_id`; the sender's own maps
    (`metadata`, `data`) keep their keys."""
    if isinstance(value, dict):
        return {
            snake(key): (item if key in ("metadata", "data") else snake_case(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [snake_case(item) for item in value]
    return value


# ---------------------------------------------------------------------------------------
# Normalization, applied to both sides alike.


def fold(value):
    """ProtoJSON default folding: members holding a proto3 default ("", 0, false, [], {},
    null, and an enum's zero value `*_UNSPECIFIED`) are left out by MessageToDict and mean
    the same as absent; numbers are compared as numbers (Struct holds doubles, so 1 and 1.0
    are one value)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = fold(item)
            if item in ("", 0, False, None, [], {}) and not isinstance(item, float):
                continue
            if key in ("state", "role") and isinstance(item, str) and item.endswith("_UNSPECIFIED"):
                continue
            out[key] = item
        return out
    if isinstance(value, list):
        return [fold(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# ---------------------------------------------------------------------------------------
# The kinds: the v0.3 model, the SDK's two converters and the v1.0 message.


def kinds():
    from a2a.compat.v0_3 import conversions as c
    from a2a.compat.v0_3 import types as t
    from a2a.types import a2a_pb2 as pb

    return [
        ("Task", t.Task, c.to_core_task, c.to_compat_task, pb.Task),
        ("Message", t.Message, c.to_core_message, c.to_compat_message, pb.Message),
        ("Artifact", t.Artifact, c.to_core_artifact, c.to_compat_artifact, pb.Artifact),
        (
            "TaskStatusUpdateEvent",
            t.TaskStatusUpdateEvent,
            c.to_core_task_status_update_event,
            c.to_compat_task_status_update_event,
            pb.TaskStatusUpdateEvent,
        ),
        (
            "TaskArtifactUpdateEvent",
            t.TaskArtifactUpdateEvent,
            c.to_core_task_artifact_update_event,
            c.to_compat_task_artifact_update_event,
            pb.TaskArtifactUpdateEvent,
        ),
        (
            "TaskPushNotificationConfig",
            t.TaskPushNotificationConfig,
            c.to_core_task_push_notification_config,
            c.to_compat_task_push_notification_config,
            pb.TaskPushNotificationConfig,
        ),
    ]


# `migrate --kind` for each: the SDK's converters are typed, so the kind is known in context
# (ProtoJSON leaves an empty id out, and `{"contextId": "c", "status": {}}` is a Task or a
# status event with an empty id alike: only the context can tell).
KIND_KEYS = {
    "Task": "task",
    "Message": "message",
    "Artifact": "artifact",
    "TaskStatusUpdateEvent": "status-update-event",
    "TaskArtifactUpdateEvent": "artifact-update-event",
    "TaskPushNotificationConfig": "task-push-notification-config",
}

# Our choices where the SDK made a documented one differently; each is a `--choice` the
# user can take, so the comparison runs with it (README: "SDK differences").
FORWARD_CHOICES = []
REVERSE_CHOICES = []


def run_ours(binary, objects, to, choices, kind=None):
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as handle:
        for obj in objects:
            handle.write(json.dumps(obj) + "\n")
        path = handle.name
    try:
        args = [binary, "migrate", "--lines", "--to", to, path]
        if kind:
            args += ["--kind", kind]
        for choice in choices:
            args += ["--choice", choice]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode not in (0, 1):
            raise SystemExit(f"migrate failed ({done.returncode}): {done.stderr}")
        lines = [json.loads(line) for line in done.stdout.splitlines()]
    finally:
        os.unlink(path)
    by_line = {line["line"]: line for line in lines}
    return [by_line.get(index + 1, {"error": "no output line"}) for index in range(len(objects))]


def sdk_forward(model, to_core, obj):
    from google.protobuf.json_format import MessageToDict

    return MessageToDict(to_core(model.model_validate(obj)))


def sdk_reverse(message, to_compat, obj):
    from google.protobuf.json_format import ParseDict

    compat = to_compat(ParseDict(obj, message()))
    return compat.model_dump(mode="json", by_alias=True, exclude_none=True)


def v03_valid(model, obj):
    try:
        model.model_validate(obj)
        return None
    except Exception as error:  # pydantic's ValidationError, said in one line
        return str(error).splitlines()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000, help="objects in all (default 3000)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "handoff-inspector"))
    parser.add_argument("--table", action="store_true", help="print the README agreement table")
    parser.add_argument("--show", type=int, default=5, help="differences printed per class")
    args = parser.parse_args()
    if not Path(args.binary).exists():
        print(f"no binary at {args.binary}: cargo build first", file=sys.stderr)
        return 2

    gen = Gen(args.seed)
    table = []
    failures = []
    per_kind = max(1, args.count // len(kinds()))
    for name, model, to_core, to_compat, message in kinds():
        schema = model.model_json_schema()
        defs = schema.get("$defs", {})
        inputs = []
        tries = 0
        while len(inputs) < per_kind and tries < per_kind * 20:
            tries += 1
            candidate = gen.value(schema, defs)
            try:
                validated = model.model_validate(candidate)
            except Exception:
                continue
            dumped = validated.model_dump(mode="json", by_alias=True, exclude_none=True)
            # About one in seven with snake_case field names, which the SDK's models read.
            if gen.rng.random() < 0.15:
                dumped = snake_case(dumped)
                model.model_validate(dumped)
            inputs.append(dumped)
        # Forward: the SDK's v1.0 and ours.
        expected = []
        for obj in inputs:
            try:
                expected.append(sdk_forward(model, to_core, obj))
            except Exception as error:
                expected.append({"__sdk_error__": f"{type(error).__name__}: {error}"})
        ours = run_ours(args.binary, inputs, "1.0", FORWARD_CHOICES, KIND_KEYS[name])
        unhinted = run_ours(args.binary, inputs, "1.0", FORWARD_CHOICES)
        read_alone = sum(
            "__sdk_error__" not in want and "error" not in got and fold(got["result"]) == fold(want)
            for want, got in zip(expected, unhinted)
        )
        agree = raised = 0
        for obj, want, got in zip(inputs, expected, ours):
            if "__sdk_error__" in want:
                raised += 1
                continue
            if "error" in got:
                failures.append((name, "forward", "refused", obj, want, got["error"]))
            elif fold(got["result"]) != fold(want):
                failures.append((name, "forward", "differs", obj, want, got["result"]))
            else:
                agree += 1
        table.append((name, "v0.3 -> v1.0", agree, len(inputs) - raised, raised, read_alone))
        # Reverse: from the SDK's v1.0 output.
        sources = [want for want in expected if "__sdk_error__" not in want]
        # v1.0 ProtoJSON with proto names, which ParseDict reads too: one in seven.
        sources = [snake_case(obj) if gen.rng.random() < 0.15 else obj for obj in sources]
        back = []
        for obj in sources:
            try:
                back.append(sdk_reverse(message, to_compat, obj))
            except Exception as error:
                back.append({"__sdk_error__": f"{type(error).__name__}: {error}"})
        ours = run_ours(args.binary, sources, "0.3", REVERSE_CHOICES, KIND_KEYS[name])
        unhinted = run_ours(args.binary, sources, "0.3", REVERSE_CHOICES)
        read_alone = sum(
            "__sdk_error__" not in want
            and "error" not in got
            and not v03_valid(model, got["result"])
            and fold(got["result"]) == fold(want)
            for want, got in zip(back, unhinted)
        )
        agree = raised = 0
        for obj, want, got in zip(sources, back, ours):
            if "__sdk_error__" in want:
                raised += 1
                continue
            if "error" in got:
                failures.append((name, "reverse", "refused", obj, want, got["error"]))
                continue
            invalid = v03_valid(model, got["result"])
            if invalid:
                failures.append((name, "reverse", "v0.3 model rejects ours", obj, want, got["result"]))
            elif fold(got["result"]) != fold(want):
                failures.append((name, "reverse", "differs", obj, want, got["result"]))
            else:
                agree += 1
        table.append((name, "v1.0 -> v0.3", agree, len(sources) - raised, raised, read_alone))

    if args.table:
        print("| kind | direction | agree | compared | SDK raised | agree without `--kind` |")
        print("|---|---|---|---|---|---|")
        for name, direction, agree, total, raised, alone in table:
            print(f"| {name} | {direction} | {agree} | {total} | {raised} | {alone} |")
    else:
        for name, direction, agree, total, raised, alone in table:
            print(
                f"{name:28} {direction:13} {agree:5}/{total:<5} agree  (SDK raised on {raised}; "
                f"{alone} agree without --kind)"
            )
    if failures:
        shown = {}
        for name, direction, what, obj, want, got in failures:
            key = (name, direction, what)
            shown[key] = shown.get(key, 0) + 1
            if shown[key] <= args.show:
                print(f"\n{name} {direction} {what}:\n  input {json.dumps(obj)}\n  sdk   {json.dumps(want)}\n  ours  {json.dumps(got)}")
        print(f"\n{len(failures)} difference(s):", file=sys.stderr)
        for key, count in sorted(shown.items()):
            print(f"  {count:5}  {' '.join(key)}", file=sys.stderr)
        return 1
    print("no difference")
    return 0


if __name__ == "__main__":
    ensure_venv()
    sys.exit(main())
