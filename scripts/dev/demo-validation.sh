#!/usr/bin/env bash
# The demo's last step (scripts/demo.sh, docs/demo.md): the validation corpus' kernels profiled on
# an H200, predicted for an H100 by the multi-pipeline model (the default) and scored against the
# times the H100 measured, with the utilization correction from the H200's measured times
# (docs/validation/2026-11-24-latency: how these files were made). No GPU needed.
# Usage: scripts/dev/demo-validation.sh [ROOFCAST_BINARY]   (default: build/bin/roofcast)
set -euo pipefail
cd "$(dirname "$0")/../.."
roofcast=${1:-build/bin/roofcast}
corpus=docs/validation/2026-11-24-latency
profiles=() measured=()
for f in $corpus/h200-run/profiles/*.json; do profiles+=(--reference-profile "$f"); done
for f in $corpus/h100-run/profiles/*.json; do measured+=(--measured "$f"); done
"$roofcast" validate "${profiles[@]}" "${measured[@]}" --device $corpus/h100-run/devices/full.json \
  --reference-device $corpus/h200-run/devices/full.json --allow-missing
