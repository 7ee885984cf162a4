#!/usr/bin/env bash
# Regenerates the chart images of docs/images/ (shown in README.md and docs/plots.md) from the
# bundled thesis data, each with the command the docs show beside it (scripts/dev/check-docs.py
# checks that they show exactly these). Each PNG gets its gnuplot data (.dat) and script (.gp).
# Usage: scripts/dev/make-doc-images.sh [ROOFCAST_BINARY]   (default: build/bin/roofcast)
#        scripts/dev/make-doc-images.sh --command IMAGE       prints IMAGE's command as the docs show it
#        scripts/dev/make-doc-images.sh --check [ROOFCAST]    says whether the committed charts' data and
#                                                             scripts are what the commands write now
set -euo pipefail
cd "$(dirname "$0")/../.."

# Each image of docs/images/ and the command that draws it, as a user types it (its --output
# becomes the image's path here).
declare -A commands=(
  [roofline-gtx-1060-6gb-rodinia.png]='roofcast plot roofline --model thesis --device "GTX-1060 6GB" --profile thesis-rodinia --output roofline.png'
  [quadrant-sor-red.png]='roofcast plot quadrant --model thesis --profile thesis-redblack --kernel sor_red --output quadrant.png'
  [accuracy-thesis-redblack.png]='roofcast plot accuracy --model thesis --profile thesis-redblack --output accuracy.png'
  [report-thesis-rodinia.png]='roofcast report --model thesis --profile thesis-rodinia --device GTX-660 --device "GTX-1060 6GB" --output report/'
)

if [[ ${1:-} == --command ]]; then
  [[ -n ${commands[${2:-}]:-} ]] || { echo "make-doc-images.sh: no image ${2:-} (images: ${!commands[*]})" >&2; exit 2; }
  echo "${commands[$2]}"
  exit 0
fi
check=0
if [[ ${1:-} == --check ]]; then check=1; shift; fi
roofcast=$(realpath "${1:-build/bin/roofcast}")
out=docs/images
charts=(roofline-gtx-1060-6gb-rodinia.png quadrant-sor-red.png accuracy-thesis-redblack.png)

if ((check)); then
  work=$(mktemp -d /tmp/roofcast-doc-images-XXXXXX)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/$out"
  stale=()
  for image in "${charts[@]}"; do
    command=${commands[$image]% --output *}
    (cd "$work" && eval "\"\$roofcast\"${command#roofcast} --output \"\$out/\$image\"" >/dev/null)
    for file in "${image%.png}.dat" "${image%.png}.gp"; do
      cmp -s "$work/$out/$file" "$out/$file" || stale+=("$out/$file")
    done
  done
  if ((${#stale[@]})); then echo "stale (run scripts/dev/make-doc-images.sh): ${stale[*]}"; else echo "docs/images: current"; fi
  exit 0
fi
mkdir -p "$out"

# Each command as shown, with the binary for `roofcast` and the image's path for its --output.
for image in "${charts[@]}"; do
  command=${commands[$image]% --output *}
  eval "\"\$roofcast\"${command#roofcast} --output \"\$out/\$image\""
done

# The top of an HTML report, as headless Chromium shows it (skipped without chromium).
if command -v chromium >/dev/null; then
  work=$(mktemp -d /tmp/roofcast-doc-images-XXXXXX)
  command=${commands[report-thesis-rodinia.png]% --output *}
  eval "\"\$roofcast\"${command#roofcast} --output \"\$work/report\"" >/dev/null
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$work/profile" \
    --window-size=1200,1500 --hide-scrollbars --screenshot="$out/report-thesis-rodinia.png" \
    "file://$work/report/index.html" >/dev/null 2>&1
  rm -rf "$work"
  echo "wrote $out/report-thesis-rodinia.png"
else
  echo "chromium not installed: $out/report-thesis-rodinia.png not regenerated"
fi
