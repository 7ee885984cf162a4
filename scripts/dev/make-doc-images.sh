#!/usr/bin/env bash
# Regenerates the chart images of docs/images/ (shown in README.md and docs/plots.md) from the
# bundled thesis data. Each PNG gets its gnuplot data (.dat) and script (.gp) beside it.
# Usage: scripts/dev/make-doc-images.sh [ROOFCAST_BINARY]   (default: build/bin/roofcast)
set -euo pipefail
cd "$(dirname "$0")/../.."
roofcast=${1:-build/bin/roofcast}
out=docs/images
mkdir -p "$out"

"$roofcast" plot roofline --model thesis --device "GTX-1060 6GB" --profile thesis-rodinia --output "$out/roofline-gtx-1060-6gb-rodinia.png"
"$roofcast" plot quadrant --model thesis --profile thesis-redblack --kernel sor_red --output "$out/quadrant-sor-red.png"
"$roofcast" plot accuracy --model thesis --profile thesis-redblack --output "$out/accuracy-thesis-redblack.png"

# The top of an HTML report, as headless Chromium shows it (skipped without chromium).
if command -v chromium >/dev/null; then
  work=$(mktemp -d /tmp/roofcast-doc-images-XXXXXX)
  "$roofcast" report --model thesis --profile thesis-rodinia --device GTX-660 --device "GTX-1060 6GB" --output "$work/report" >/dev/null
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$work/profile" \
    --window-size=1200,1500 --hide-scrollbars --screenshot="$out/report-thesis-rodinia.png" \
    "file://$work/report/index.html" >/dev/null 2>&1
  rm -rf "$work"
  echo "wrote $out/report-thesis-rodinia.png"
else
  echo "chromium not installed: $out/report-thesis-rodinia.png not regenerated"
fi
