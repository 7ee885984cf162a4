#!/usr/bin/env bash
# Regenerates the chart images of docs/images/ (shown in README.md and docs/plots.md) from the
# bundled thesis data. Each PNG gets its gnuplot data (.dat) and script (.gp) beside it.
# Usage: scripts/make-doc-images.sh [ROOFCAST_BINARY]   (default: build/bin/roofcast)
set -euo pipefail
cd "$(dirname "$0")/.."
roofcast=${1:-build/bin/roofcast}
out=docs/images
mkdir -p "$out"

"$roofcast" plot roofline --device "GTX-1060 6GB" --profile thesis-rodinia --output "$out/roofline-gtx-1060-6gb-rodinia.png"
"$roofcast" plot quadrant --profile thesis-redblack --kernel sor_red --output "$out/quadrant-sor-red.png"
"$roofcast" plot accuracy --profile thesis-redblack --output "$out/accuracy-thesis-redblack.png"
