#!/usr/bin/env bash
# The corpus figures are the code's: regenerates the accuracy summary of the validation corpus
# from the committed GPU runs (docs/validation/2026-11-24-latency/{h200-run,h100-run}) with this
# build's roofcast (scripts/dev/validate-corpus.sh) and compares it with the committed
# summary.md; then checks that every table row the docs quote from it (the rows after a
# "<!-- rows of SUMMARY -->" line, up to the first line that is not a table row; indented ones
# in a list too) is in it.
# Usage: corpus_summary_test.sh ROOFCAST_BINARY
set -uo pipefail
roofcast=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
# No SKIP: a check CI never runs would pin nothing (scripts/setup.sh installs python3).
command -v python3 >/dev/null || { echo "FAILED: python3 not found: scripts/dev/corpus-summary.py needs it (scripts/setup.sh)"; exit 1; }
summary=docs/validation/2026-11-25-accuracy/results/summary.md
runs=docs/validation/2026-11-24-latency
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $1"; failures=$((failures + 1)); }

if ! ROOFCAST=$roofcast "$root/scripts/dev/validate-corpus.sh" "$runs/h200-run" "$runs/h100-run" "$work" \
  >"$work/out.txt" 2>&1; then
  cat "$work/out.txt"
  fail "scripts/dev/validate-corpus.sh failed"
elif ! diff -u "$root/$summary" "$work/summary.md"; then
  fail "$summary is not what scripts/dev/validate-corpus.sh gives now (above: - committed, + now); regenerate it:
  scripts/dev/validate-corpus.sh $runs/h200-run $runs/h100-run $(dirname "$summary")
and update the docs that quote it"
fi

# Every quoted row, verbatim.
quoted=0
for doc in README.md docs/pipes-model.md docs/validation.md docs/demo.md docs/validation/2026-11-25-accuracy/README.md; do
  while IFS= read -r row; do
    quoted=$((quoted + 1))
    grep -qxF -- "$row" "$root/$summary" || fail "$doc quotes a row $summary does not have: $row"
  done < <(awk -v marker="<!-- rows of $summary -->" '
    { line = $0; sub(/^[ \t]+/, "", line) }
    line == marker { inside = 1; next }
    inside && line ~ /^\|/ { print line; next }
    { inside = 0 }' "$root/$doc")
done
[[ $quoted -gt 0 ]] || fail "no doc quotes $summary (the check above would check nothing)"
echo "$quoted quoted rows checked against $summary"
exit $((failures > 0))
