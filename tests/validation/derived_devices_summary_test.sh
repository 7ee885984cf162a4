#!/usr/bin/env bash
# The derived-device figures are the code's: regenerates the validation of derived device
# profiles (scripts/dev/derived-devices-validate.sh on the committed GPU runs
# docs/validation/2026-11-24-latency/{h200-run,h100-run}, the spec table and data/devices/measured)
# with this build's roofcast and compares its summary.md and keys.md with the committed ones,
# which README.md and docs/derived-devices.md quote.
# Usage: derived_devices_summary_test.sh ROOFCAST_BINARY
set -uo pipefail
roofcast=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "FAILED: python3 not found: scripts/dev/derived-devices-summary.py needs it (scripts/setup.sh)"; exit 1; }
results=docs/validation/2026-11-28-derived-devices/results
runs=docs/validation/2026-11-24-latency
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $1"; failures=$((failures + 1)); }

if ! ROOFCAST=$roofcast "$root/scripts/dev/derived-devices-validate.sh" "$runs/h200-run" "$runs/h100-run" "$work" \
  >"$work/out.txt" 2>&1; then
  cat "$work/out.txt"
  fail "scripts/dev/derived-devices-validate.sh failed"
else
  for file in summary.md keys.md; do
    diff -u "$root/$results/$file" "$work/$file" ||
      fail "$results/$file is not what scripts/dev/derived-devices-validate.sh gives now (above: - committed, + now); regenerate it:
  scripts/dev/derived-devices-validate.sh $runs/h200-run $runs/h100-run $results
and update the docs that quote it"
  done
fi
exit $((failures > 0))
