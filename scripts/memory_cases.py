#!/usr/bin/env python3
"""Peak RSS and wall time of the memory cases of issue 10, for one or more release binaries.

Generates each hostile or oversized input once (in a temporary directory), runs every relevant
command on it under `/usr/bin/time -v`, binaries interleaved (this VM's speed varies between
runs), and prints a markdown table: case, input size, command, then peak RSS / wall time per
binary, and the bound docs/hostile-input.md states (64 MiB + 4x the input for the pathological shapes,
64 MiB + 32x for the A2A objects).

    scripts/memory_cases.py target/release/handoff-inspector /tmp/base/handoff-inspector-aaed3a4
    scripts/memory_cases.py --only parts60k BIN...

Exit codes of the commands are shown, not judged: these inputs are meant to be refused or
flagged. Keep the shapes in step with tests/hostile/input.rs (which runs scaled-down copies).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

MIB = 1024 * 1024

# The bound in docs/hostile-input.md is 64 MiB + 4x the input for the pathological shapes, 64 MiB + 32x for
# a well-formed A2A object (held as one serde_json tree, 16-25x its text).
BOUND_TIMES = {"parts60k": 32, "card200k": 32}


def distinct_repeated_keys(count):
    """An object of `count` different keys, each given twice (11.7 MB at 500k)."""
    members = []
    for index in range(count):
        member = '"k%d":1' % index
        members.append(member)
        members.append(member)
    return "{" + ",".join(members) + "}"


def one_key_repeated(count, value='"1234567"'):
    """`count` repeats of one key (the issue: 1M duplicate keys in 14 MB)."""
    return "{" + ",".join('"a":%s' % value for _ in range(count)) + "}"


def raw_packet_of_distinct_keys(count):
    """A raw packet whose adapter fields are followed by `count` distinct top-level keys the
    adapter does not map (3.4 MB at 200k); no `task.kind`, so rows N6 and X9 name every key.
    The same packet as tests/hostile/input.rs and benches/bounds.rs make."""
    head = (
        '{"protocol":"a2a","version":"0.2","event_type":"task.requested",'
        '"timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://c","role":"orchestrator"},'
        '"task":{"id":"task-123","status":"requested"},"message":{"id":"msg-1","role":"assistant"}'
    )
    return head + "".join(',"extra_%06d":1' % index for index in range(count)) + "}"


def task_of_tiny_parts(count):
    """An A2A v0.3 Task whose one message has `count` two-member text parts (1.6 MB at 60k)."""
    task = {
        "kind": "task",
        "id": "task-1",
        "contextId": "ctx-1",
        "status": {"state": "completed", "timestamp": "2025-04-02T16:59:25.331Z"},
        "history": [
            {
                "kind": "message",
                "role": "user",
                "messageId": "msg-1",
                "contextId": "ctx-1",
                "parts": [{"kind": "text", "text": "x"} for _ in range(count)],
            }
        ],
    }
    return json.dumps(task, separators=(",", ":"))


def a2a_packet_with_duplicate_keys(count):
    """A raw A2A packet whose attributes repeat one key `count` times (1.4 MB at 100k)."""
    head = (
        '{"protocol":"a2a","version":"0.2","event_type":"task.requested",'
        '"timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://c","role":"orchestrator"},'
        '"task":{"id":"task-123","status":"requested","kind":"delegation"},'
        '"message":{"id":"msg-1","role":"assistant"},"attributes":'
    )
    return head + one_key_repeated(count) + "}"


def agent_card_of_skills(count):
    """An A2A v0.3 agent card with `count` skills (the issue: 1M skills in 50 MB; packets
    are capped at 16 MiB now, so 200k skills, 12 MB, is the largest that is read)."""
    card = {
        "protocolVersion": "0.3.0",
        "name": "Trip Planner",
        "description": "Plans trips.",
        "url": "https://agent.example.com/a2a/v1",
        "preferredTransport": "JSONRPC",
        "version": "1.2.0",
        "capabilities": {"streaming": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {"id": "s%d" % i, "name": "n", "description": "d", "tags": ["t"]}
            for i in range(count)
        ],
    }
    return json.dumps(card, separators=(",", ":"))


def paired_payload(directory):
    """A 174 KB raw packet and an expected strict payload that differs in every attribute."""
    attributes = {"a%05d" % i: "value-%05d-xxxxxxxxxxxxx" % i for i in range(5000)}
    packet = {
        "protocol": "a2a",
        "version": "0.2",
        "event_type": "task.requested",
        "timestamp": "2026-02-27T10:05:00Z",
        "agent": {"id": "agent://c", "role": "orchestrator"},
        "task": {"id": "task-123", "status": "requested", "kind": "delegation"},
        "message": {"id": "msg-1", "role": "assistant"},
        "attributes": attributes,
    }
    os.makedirs(os.path.join(directory, "paired"), exist_ok=True)
    with open(os.path.join(directory, "paired", "p.json"), "w") as out:
        json.dump(packet, out, indent=2)
    expected = {k: v.replace("value", "other") for k, v in attributes.items()}
    with open(os.path.join(directory, "paired", "p.strict.payload.json"), "w") as out:
        json.dump({"attributes": expected, "note": "differs everywhere"}, out, indent=2)
    return os.path.join(directory, "paired")


# Issue 34's commands on a raw packet of distinct top-level keys (`diff` compares the file with
# itself; `render` draws every tab, then the what-if panel).
DISTINCT_KEY_COMMANDS = ["ls", "check", "convert", "explain", "explain --format json", "digest",
                         "migrate", "migrate --lines", "profile",
                         "render --view raw --keys 2345678w", "diff SELF"]


def cases(directory):
    """(name, path, [command args]) for every case; generated lazily by name."""
    corpus = ["check", "explain", "migrate", "profile"]
    return [
        ("distinct500k", lambda: distinct_repeated_keys(500_000),
         corpus + ["render --view raw"]),
        ("dup1m", lambda: one_key_repeated(1_000_000),
         corpus + ["render --view raw"]),
        ("parts60k", lambda: task_of_tiny_parts(60_000),
         corpus + ["migrate --steps", "migrate --format json", "digest", "render --view raw",
                   "render --view handoff",
                   "render --view migrate", "render --view conversion"]),
        ("render100k", lambda: a2a_packet_with_duplicate_keys(100_000),
         ["render --view raw", "render --view handoff", "explain", "check"]),
        ("card200k", lambda: agent_card_of_skills(200_000),
         ["migrate", "migrate --steps", "migrate --format json", "check", "explain", "digest"]
         + ["render --view " + view for view in
            ("migrate", "raw", "handoff", "conversion", "digests", "findings")]),
        ("keys200k", lambda: raw_packet_of_distinct_keys(200_000), DISTINCT_KEY_COMMANDS),
        ("keys400k", lambda: raw_packet_of_distinct_keys(400_000), DISTINCT_KEY_COMMANDS),
        ("deep12m", lambda: "[" * 12_000_000, corpus),
        ("paired", None, ["check"]),
    ]


def measure(binary, args, cwd):
    """Runs one command; returns (peak RSS in MiB, wall seconds, exit code)."""
    command = ["/usr/bin/time", "-v", binary] + args
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", done.stderr)
    code = re.search(r"Exit status: (\d+)", done.stderr)
    seconds = 0.0
    for part in wall.group(1).split(":"):
        seconds = seconds * 60 + float(part)
    return int(rss.group(1)) / 1024, seconds, int(code.group(1)) if code else -1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--only", action="append", help="case names to run")
    options = parser.parse_args()
    binaries = [os.path.abspath(b) for b in options.binaries]
    header = "| case | input | command | bound | " + " | ".join(
        os.path.basename(b) for b in binaries) + " |"
    print(header)
    print("|" + "---|" * (4 + len(binaries)))
    with tempfile.TemporaryDirectory() as directory:
        for name, make, commands in cases(directory):
            if options.only and name not in options.only:
                continue
            if make is None:
                target = paired_payload(directory)
                size = sum(os.path.getsize(os.path.join(target, f)) for f in os.listdir(target))
            else:
                target = os.path.join(directory, name + ".json")
                with open(target, "w") as out:
                    out.write(make())
                size = os.path.getsize(target)
            for command in commands:
                inputs = 2 if "SELF" in command.split() else 1
                bound = (64 * MIB + BOUND_TIMES.get(name, 4) * size * inputs) / MIB
                args = [target if arg == "SELF" else arg for arg in command.split()] + [target]
                cells = []
                for binary in binaries:
                    rss, seconds, code = measure(binary, args, directory)
                    cells.append("%.0f MiB, %.2f s (exit %d)" % (rss, seconds, code))
                print("| %s | %.1f MB | `%s` | %.0f MiB | %s |" % (
                    name, size / 1e6, command, bound, " | ".join(cells)), flush=True)
            if make is not None:
                os.remove(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
