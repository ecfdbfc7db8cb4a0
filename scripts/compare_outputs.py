#!/usr/bin/env python3
"""Byte-for-byte comparison of two binaries' output on the one-packet commands.

Runs migrate (plain, --steps, --format json, --to 0.3, every choice taken other than its
default), explain, check (every format) and digest (all parts, migrated, object) on each input with both binaries and reports every
difference in stdout, stderr or exit code. For changes meant to keep the output as it was
(memory or speed work): a difference is a regression.

    scripts/compare_outputs.py NEW_BIN OLD_BIN [FILE_OR_DIR...]

With no files: the JSON files of fixtures/ and tests/data, the parts60k and card200k shapes of
scripts/memory_cases.py, and 40 packets of /work/shared/oracle's mixed NDJSON, each on its own
(plus 200 of its lines as one NDJSON file for explain and check). Exit 1 on any difference.
"""

import gzip
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORACLE = "/work/shared/oracle/a2a-mixed-20k.ndjson.gz"

sys.path.insert(0, HERE)
import memory_cases  # noqa: E402


def other_choices(binary):
    """`--choice KEY=VALUE` arguments taking, for every choice point, a value that is not
    its default (read from `migrate --help`)."""
    text = subprocess.run([binary, "migrate", "--help"], capture_output=True, text=True).stdout
    args = []
    for key, default, values in re.findall(r"^  ([a-z0-9-]+)=(\S+) \(one of ([^)]+)\)", text,
                                           re.MULTILINE):
        others = [v.strip() for v in values.split(",") if v.strip() != default]
        if others:
            args += ["--choice", "%s=%s" % (key, others[0])]
    return args


def commands(choices, one_packet):
    migrate = [
        ["migrate"], ["migrate", "--steps"], ["migrate", "--format", "json"],
        ["migrate", "--steps", "--format", "json"], ["migrate", "--to", "0.3"],
        ["migrate", "--to", "0.3", "--steps"], ["migrate", "--to", "0.3", "--format", "json"],
        ["migrate"] + choices, ["migrate", "--steps"] + choices,
    ]
    # A fixed clock: the UAIX profile prints the clock it judged expiry by.
    now = ["--now", "2026-01-01T00:00:00Z"]
    corpus = [["explain"] + now, ["explain", "--format", "json"] + now] + [
        ["check", "--format", f] + now for f in ("text", "json", "junit", "markdown")] + [
        ["digest"], ["digest", "--part", "migrated"], ["digest", "--part", "object"]]
    return (migrate if one_packet else []) + corpus


def inputs(directory, named):
    if named:
        for path in named:
            if os.path.isdir(path):
                for base, _, files in os.walk(path):
                    for name in sorted(files):
                        if name.endswith(".json"):
                            yield os.path.join(base, name), True
            else:
                yield path, not path.endswith(".ndjson")
        return
    for top in ("fixtures", "tests/data"):
        for base, _, files in sorted(os.walk(os.path.join(ROOT, top))):
            for name in sorted(files):
                if name.endswith(".json"):
                    yield os.path.join(base, name), True
    for name, make in (("parts60k", lambda: memory_cases.task_of_tiny_parts(60_000)),
                       ("card200k", lambda: memory_cases.agent_card_of_skills(200_000))):
        path = os.path.join(directory, name + ".json")
        with open(path, "w") as out:
            out.write(make())
        yield path, True
    if os.path.exists(ORACLE):
        with gzip.open(ORACLE, "rt") as lines:
            head = [next(lines) for _ in range(200)]
        for index, line in enumerate(head[::5]):
            path = os.path.join(directory, "oracle-%03d.json" % index)
            with open(path, "w") as out:
                out.write(line)
            yield path, True
        path = os.path.join(directory, "oracle-200.ndjson")
        with open(path, "w") as out:
            out.writelines(head)
        yield path, False


def run(binary, args, cwd):
    done = subprocess.run([binary] + args, cwd=cwd, capture_output=True)
    return done.returncode, done.stdout, done.stderr


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    new, old = (os.path.abspath(b) for b in sys.argv[1:3])
    choices = other_choices(old)
    differences = runs = 0
    with tempfile.TemporaryDirectory() as directory:
        for path, one_packet in inputs(directory, sys.argv[3:]):
            for args in commands(choices, one_packet):
                full = args + [path]
                runs += 1
                got, want = run(new, full, directory), run(old, full, directory)
                if got != want:
                    differences += 1
                    parts = [n for n, a, b in zip(("exit", "stdout", "stderr"), got, want)
                             if a != b]
                    print("DIFFERS (%s): %s" % (", ".join(parts), " ".join(full)), flush=True)
    print("%d runs, %d differ" % (runs, differences))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
