#!/usr/bin/env python3
"""Picks a small set of a fuzz run's inputs to commit beside a target's seeds.

`cargo fuzz cmin` keeps every input with a feature of its own (edge hit counts included):
a thousand files after ten minutes, too many to commit. This keeps the inputs that reach the
most coverage edges nothing before them reached. It reads the control file of a libFuzzer
merge into a copy of the seeds: the merge runs the seeds first, then the other inputs
smallest first, and lists for each input the edges (PCs) it was the first to reach, so the
lists never overlap and an input's list is what it adds. The picks are the inputs with the
longest lists, at most `--max` of them and none adding fewer than `--min-new` edges:

    cd fuzz
    rm -rf /tmp/merged && cp -r corpus/migrate /tmp/merged
    target/x86_64-unknown-linux-gnu/release/migrate -merge=1 \\
        -merge_control_file=/tmp/migrate.ctl /tmp/merged /tmp/fuzz/migrate
    ../scripts/fuzz_pick_corpus.py /tmp/migrate.ctl corpus/migrate --copy

Prints each pick (edges it adds, size, name); `--copy` copies them into the seed directory
under their content's SHA-1 (libFuzzer's own naming).
"""

import argparse
import hashlib
import os
import shutil


def read_control(path):
    """Input paths, how many of them are the seeds (listed first), and the edges each
    input reached first."""
    with open(path, encoding="utf-8", errors="replace") as control:
        lines = control.read().splitlines()
    count, seeds = int(lines[0]), int(lines[1])
    files = lines[2 : 2 + count]
    edges = {}
    for line in lines[2 + count :]:
        if line.startswith("COV "):
            fields = line.split()
            edges[int(fields[1])] = len(fields) - 2
    return files, seeds, edges


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("control", help="libFuzzer -merge_control_file output")
    parser.add_argument("seeds", help="the target's committed seed directory")
    parser.add_argument("--max", type=int, default=40, help="most inputs to pick")
    parser.add_argument("--min-new", type=int, default=3, help="fewest new edges worth a file")
    parser.add_argument("--copy", action="store_true", help="copy the picks into SEEDS")
    args = parser.parse_args()

    files, seeds, edges = read_control(args.control)
    from_seeds = sum(edges.get(index, 0) for index in range(seeds))
    found = sorted(
        (index for index in range(seeds, len(files)) if edges.get(index, 0) >= args.min_new),
        key=lambda index: (-edges[index], os.path.getsize(files[index])),
    )
    picked = found[: args.max]
    for index in picked:
        print(f"+{edges[index]:5d} {os.path.getsize(files[index]):6d} B {files[index]}")
    added = sum(edges[index] for index in picked)
    print(
        f"seeds reach {from_seeds} edges; {len(picked)} picked add {added} "
        f"(all {len(files) - seeds} inputs add {sum(edges.values()) - from_seeds})"
    )
    if args.copy:
        for index in picked:
            with open(files[index], "rb") as source:
                data = source.read()
            name = hashlib.sha1(data).hexdigest()
            shutil.copyfile(files[index], os.path.join(args.seeds, name))


if __name__ == "__main__":
    main()
