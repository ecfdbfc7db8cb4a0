#!/usr/bin/env bash
# Upstream's bundle verifier (assay_evidence::verify_bundle, the commit the bundle spec was read
# at) over bundle files: one JSON line per file (see src/main.rs), files of a directory sorted.
#
#   ASSAY_SRC=/path/to/assay scripts/upstream-verify/run.sh FILE_OR_DIR...
#   ASSAY_SRC=/path/to/assay RUNS=5 scripts/upstream-verify/run.sh --time FILE
#
# ASSAY_SRC: a checkout of github.com/Rul1an/assay at f919ce8628ad151b5da4f196b9f762b150a5e6d5.
# The four crates the verifier needs are copied into target/upstream-verify with upstream's
# Cargo.lock and built there with this harness (needs crates.io; about 10 minutes the first time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${ASSAY_SRC:?set ASSAY_SRC to a checkout of github.com/Rul1an/assay at f919ce86}
work=${ASSAY_WORK:-$here/../../target/upstream-verify}
if [ ! -x "$work/target/release/verify-harness" ]; then
  mkdir -p "$work/crates" "$work/verify-harness/src"
  for crate in assay-evidence assay-common assay-canonical assay-runner-schema; do
    rm -rf "$work/crates/$crate" && cp -r "$src/crates/$crate" "$work/crates/$crate"
  done
  cp "$src/Cargo.lock" "$work/Cargo.lock"
  python3 - "$src/Cargo.toml" "$work/Cargo.toml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'members = \[.*?\]', 'members = ["crates/assay-evidence", "crates/assay-common", '
              '"crates/assay-canonical", "crates/assay-runner-schema", "verify-harness"]', text,
              count=1, flags=re.S)
text = re.sub(r'default-members = \[.*?\]\n', '', text, count=1, flags=re.S)
text = re.sub(r'\[patch\.crates-io\].*?\n\n', '', text, count=1, flags=re.S)
open(sys.argv[2], 'w').write(text)
PY
  cp "$here/Cargo.toml.in" "$work/verify-harness/Cargo.toml"
  cp "$here/src/main.rs" "$work/verify-harness/src/main.rs"
  cargo build --release --manifest-path "$work/Cargo.toml" -p verify-harness >&2
fi
if [ "${1:-}" = "--time" ]; then
  exec "$work/target/release/verify-harness" "$@"
fi
files=()
for arg in "$@"; do
  if [ -d "$arg" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$arg" -name '*.tar.gz' | sort)
  else
    files+=("$arg")
  fi
done
exec "$work/target/release/verify-harness" "${files[@]}"
