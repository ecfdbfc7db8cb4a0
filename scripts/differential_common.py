"""What the two differential scripts (sdk_differential.py, contextcore_differential.py) share:
their own virtual environment with pinned packages, and the table each keeps in a docs page
between two markers."""

import os
import subprocess
import sys
from pathlib import Path


def ensure_venv(venv, pinned, script):
    """Re-executes `script` inside `venv` (made and filled with `pinned` on first use, or
    when the pins change); returns when already inside it. Exits 2 when it cannot be made."""
    python = venv / "bin" / "python"
    if Path(sys.prefix).resolve() == venv.resolve():
        return
    marker = venv / "installed.txt"
    wanted = "\n".join(pinned)
    if not marker.exists() or marker.read_text().strip() != wanted:
        print(f"making {venv} with {', '.join(pinned)}", file=sys.stderr)
        try:
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pinned],
                check=True,
            )
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"cannot make the venv: {error}", file=sys.stderr)
            sys.exit(2)
        marker.write_text(wanted + "\n")
    os.execv(str(python), [str(python), str(script), *sys.argv[1:]])


def table_in(path, table, start, end):
    """Whether `path` holds exactly `table` between the markers."""
    text = path.read_text() if path.exists() else ""
    return f"{start}\n{table}\n{end}" in text


def write_table(path, table, start, end):
    """Puts `table` between the markers in `path` (a temporary file renamed into place)."""
    text = path.read_text()
    first, last = text.index(start), text.index(end) + len(end)
    new = text[:first] + f"{start}\n{table}\n{end}" + text[last:]
    temp = path.with_suffix(".md.tmp")
    temp.write_text(new)
    temp.replace(path)
    print(f"wrote the table into {path}")


def print_differences(failures, show):
    """Prints up to `show` differences of each class (`failures`: (class tuple, text) pairs),
    then how many of each on stderr; "no difference" when there is none. Returns the exit
    status: 1 when any, else 0."""
    if not failures:
        print("no difference")
        return 0
    shown = {}
    for key, text in failures:
        shown[key] = shown.get(key, 0) + 1
        if shown[key] <= show:
            print(text)
    print(f"\n{len(failures)} difference(s):", file=sys.stderr)
    for key, count in sorted(shown.items()):
        print(f"  {count:5}  {' '.join(key)}", file=sys.stderr)
    return 1


def docs_table(path, table, write, published_run, start, end):
    """Writes `table` into `path` when `write`; else, for the run whose table is published
    (`published_run`: the default seed and count), returns 1 when `path` holds another."""
    if write:
        write_table(path, table, start, end)
    elif published_run and not table_in(path, table, start, end):
        print(f"\nthe table in {path} is not the one this run made: run with --write-docs", file=sys.stderr)
        return 1
    return 0
