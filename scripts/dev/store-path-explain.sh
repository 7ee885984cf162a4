#!/usr/bin/env bash
# Issue 28: what today's model makes of merge_chains' design kernels with and without their stores
# (the profiles of docs/validation/2026-11-28-store-path/profiles/, taken on an H200 by
# PROFILE_WITH=... scripts/dev/merge-chains-experiment.sh), on the 2026-11-27 H200 device profiles:
# per launch, the latency term's time, the DRAM cost and the prediction, beside the measured time
# of the same variant (merge-chains-times.md, same run).
#   scripts/dev/store-path-explain.sh [ROOFCAST]   (default build-cpu/bin/roofcast)
set -euo pipefail
cd "$(dirname "$0")/../.."
roofcast=${1:-build-cpu/bin/roofcast}
dir=docs/validation/2026-11-28-store-path
devices=docs/validation/2026-11-27-latency-classes/h200-run/devices
declare -A target=([full]="whole GPU" [mps50]="MPS 50 %" [mps25]="MPS 25 %")
echo "| variant | kernel | target | latency term ms | DRAM cost ms | predicted ms | measured ms | error |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for variant in original no-stores; do
  for kernel in merge_chains_b32_t512 merge_chains_b64_t1024; do
    for device in full mps50 mps25; do
      measured=$(awk -F'|' -v t="${target[$device]}" -v v="$variant" -v k="$kernel" \
        '{ gsub(/ /, "", $3); gsub(/ /, "", $4) } $2 ~ t && $3 == v && $4 == k { print $5 + 0 }' "$dir/merge-chains-times.md")
      "$roofcast" explain --profile "$dir/profiles/$variant.json" --device "$devices/$device.json" --kernel "$kernel" |
        awk -v v="$variant" -v k="$kernel" -v t="${target[$device]}" -v m="$measured" '
          /launches profiled/ { n = substr($0, index($0, "(") + 1) + 0 }
          /^  latency  memory/ { lat = $3 } /^  memory   DRAM/ { dram = $3 }
          /^Per launch: predicted/ { p = $4 }
          END { printf "| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %+.0f %% |\n", v, k, t, lat / n, dram / n, p, m, 100 * (p - m) / m }'
    done
  done
done
