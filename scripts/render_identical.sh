#!/usr/bin/env bash
# Compares `render` output of two binaries byte for byte: every view of every fixture packet
# (a few key sequences and two sizes), and of the big packets of scripts/memory_cases.py.
#   scripts/render_identical.sh NEW_BIN OLD_BIN [BIG_FILE...]
#   FIXTURES= scripts/render_identical.sh NEW_BIN OLD_BIN BIG_FILE...   (the big files only)
# Prints each difference and a count; exit 1 when anything differs. The current clock (a
# timestamp with nanoseconds, which expiry findings show) is masked before comparing.
set -u
new=$1 old=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
differ=0 compared=0
clock='s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{9}Z/CLOCK/g'
compare() { # args...
  "$new" render "$@" 2>&1 | sed -E "$clock" >"$out/new"
  local a=${PIPESTATUS[0]}
  "$old" render "$@" 2>&1 | sed -E "$clock" >"$out/old"
  local b=${PIPESTATUS[0]}
  compared=$((compared + 1))
  if [ $a != $b ] || ! cmp -s "$out/new" "$out/old"; then
    differ=$((differ + 1))
    echo "DIFFERS (exit $a vs $b): render $*"
  fi
}
views="raw conversion handoff digests findings migrate"
for dir in ${FIXTURES-fixtures/*/}; do
  for file in $(cd "$dir" && find . -type f \( -name '*.json' -o -name '*.ndjson' \) | sort); do
    select=${file#./}
    for view in $views; do
      compare --view "$view" --select "$select" "$dir"
    done
    compare --view conversion --size 70x30 --select "$select" "$dir"
    compare --view migrate --keys 'ljj' --select "$select" "$dir"
    compare --view migrate --keys 'l<Space>j<PageDown>' --size 90x24 --select "$select" "$dir"
    compare --view raw --keys 'l<PageDown><PageDown>' --size 60x20 --select "$select" "$dir"
  done
done
for big in "$@"; do
  for view in $views rules formats help what-if; do
    compare --view "$view" "$big"
    compare --view "$view" --keys 'l<PageDown><PageDown>j' --size 100x30 "$big"
  done
  compare --view migrate --keys 'lj<Space>' "$big"
  compare --view conversion --keys 'lG' "$big"
  compare --view migrate --keys 'lG' --size 80x24 "$big"
done
echo "$compared renders compared, $differ differ"
[ $differ = 0 ]
