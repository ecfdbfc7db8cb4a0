#!/usr/bin/env python3
"""The MSRV check CI can run offline: every dependency this platform builds declares a
`rust-version` no newer than ours (Cargo.toml's `package.rust-version`).

CI has no network but the package registries, so it cannot download the MSRV toolchain and
build with it; a developer does that (`rustup toolchain install 1.88`, then
`cargo +1.88 check --all-targets`). What CI can check: `cargo metadata` lists the resolved
dependencies with their declared rust-version, and clippy's `incompatible_msrv` lint (on by
default, denied in Cargo.toml's [lints]) flags our own use of std APIs newer than ours.
Exit 1 names every dependency that needs a newer compiler than we claim.
"""

import json
import subprocess
import sys


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def main():
    host = subprocess.run(
        ["rustc", "-vV"], check=True, capture_output=True, text=True
    ).stdout
    target = next(
        line.split(": ", 1)[1] for line in host.splitlines() if line.startswith("host: ")
    )
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", target],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    # The lock (and so `metadata`'s resolve) holds every optional dependency too; what this
    # platform builds, with the features we use, is what `cargo tree` walks.
    tree = subprocess.run(
        ["cargo", "tree", "--locked", "--target", target, "-e", "normal,build,dev",
         "--prefix", "none", "--format", "{p}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    built = set()
    for line in tree.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].startswith("v"):
            built.add((parts[0], parts[1][1:]))
    root = metadata["resolve"]["root"]
    resolved = {
        p["id"] for p in metadata["packages"] if (p["name"], p["version"]) in built
    } | {root}
    ours = next(p for p in metadata["packages"] if p["id"] == root)
    if not ours.get("rust_version"):
        print("msrv: Cargo.toml declares no rust-version", file=sys.stderr)
        return 1
    msrv = version(ours["rust_version"])
    newer = sorted(
        (version(p["rust_version"]), p["name"], p["version"])
        for p in metadata["packages"]
        if p["id"] in resolved and p["id"] != root and p.get("rust_version")
        and version(p["rust_version"]) > msrv
    )
    for needed, name, release in newer:
        print(
            f"msrv: {name} {release} requires rustc {'.'.join(map(str, needed))}, "
            f"newer than our rust-version {ours['rust_version']}",
            file=sys.stderr,
        )
    if newer:
        return 1
    print(f"msrv: {len(resolved) - 1} dependencies build with rustc {ours['rust_version']} or older")
    return 0


if __name__ == "__main__":
    sys.exit(main())
