#!/usr/bin/env bash
# Issue 28: is a prediction with a shipped device profile (`--device h200-sxm`, data/devices/measured/)
# as accurate as with a device profile benched the same day as the measured times? On the 2026-11-24
# corpus: each GPU's kernel profiles predicted for the other GPU, once with the shipped profile of
# that GPU and once with the run's own bench, scored against the other GPU's measured times.
# Usage: scripts/dev/shipped-vs-fresh.sh [ROOFCAST]   (default build/bin/roofcast); markdown on stdout.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOFCAST=${1:-build/bin/roofcast}
RUNS=docs/validation/2026-11-24-latency
echo "| reference -> target | target device profile | predictions | median APE % | within 25 % |"
echo "|---|---|---:|---:|---:|"
for pair in "h100 h200" "h200 h100"; do
  read -r reference target <<<"$pair"
  args=()
  for f in "$RUNS/$reference-run"/profiles/*.json; do args+=(--reference-profile "$f"); done
  for f in "$RUNS/$target-run"/profiles/*.json; do args+=(--measured "$f"); done
  for device in "$target-sxm" "$RUNS/$target-run/devices/full.json"; do
    row=$("$ROOFCAST" validate "${args[@]}" --device "$device" 2>/dev/null | awk '/^all devices/ {print $3, $4, $7}')
    read -r n median within25 <<<"$row"
    label="shipped \`$device\`"
    [[ $device == *.json ]] && label="same-day bench \`$device\`"
    echo "| ${reference^^} -> ${target^^} | $label | $n | $median | $within25 |"
  done
done
