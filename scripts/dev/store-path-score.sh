#!/usr/bin/env bash
# Issue 28, branch store-path: the latency classes' design half and the 2026-11-24 corpus scored
# with the SM's path to L2 (this build) against a build without it, from the H200 data of
# docs/validation/2026-11-28-store-path/h200 (taken by scripts/dev/store-path-gpu.sh: today's
# profiles with L2 write requests, and device profiles completed with scattered_store_sm_gops and
# scattered_store_gops) beside the runs' earlier files (the H100's, and the MPS times).
#   [HALF=held-out] scripts/dev/store-path-score.sh BEFORE_ROOFCAST AFTER_ROOFCAST OUTDIR
# HALF picks the latency classes' half [design]; the held-out half is for the report once the term
# is designed (docs/latency-classes.md).
# The corpus' 2026-11-24 H200 device profiles get the two keys from the 2026-11-28 ones of the
# same partition (what `roofcast bench --complete` would add to them on that GPU).
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# == 3 ]] || { echo "usage: $0 BEFORE_ROOFCAST AFTER_ROOFCAST OUTDIR" >&2; exit 2; }
before=$1 after=$2 out=$3 half=${HALF:-design}
data=docs/validation/2026-11-28-store-path/h200
rm -rf "$out/runs" && mkdir -p "$out/runs/classes/h200-run" "$out/runs/corpus/h200-run"
classes=docs/validation/2026-11-27-latency-classes corpus=docs/validation/2026-11-24-latency
cp -r "$classes/h100-run" "$out/runs/classes/"
cp -r "$data/classes/devices" "$data/classes/profiles" "$classes/h200-run/measured" "$out/runs/classes/h200-run/"
cp -r "$corpus/h100-run" "$out/runs/corpus/"
cp -r "$corpus/h200-run/devices" "$corpus/h200-run/measured" "$data/corpus/profiles" "$out/runs/corpus/h200-run/"
python3 - "$out/runs/corpus/h200-run/devices" "$data/classes/devices" <<'PY'
import json, sys
for name in ("full", "mps50", "mps25"):
    path = f"{sys.argv[1]}/{name}.json"
    device, today = json.load(open(path)), json.load(open(f"{sys.argv[2]}/{name}.json"))
    for key in ("scattered_store_sm_gops", "scattered_store_gops"):
        device["throughput"][key] = today["throughput"][key]
    json.dump(device, open(path, "w"), indent=1)
PY
for v in before after; do
  roofcast=$before
  [[ $v == after ]] && roofcast=$after
  scripts/dev/latency-classes-score.py --roofcast "$roofcast" --halves "$half" --output "$out/classes-$v" \
    "$out/runs/classes/h100-run" "$out/runs/classes/h200-run" > "$out/classes-$v.txt"
  ROOFCAST=$roofcast scripts/dev/validate-corpus.sh "$out/runs/corpus/h200-run" "$out/runs/corpus/h100-run" \
    "$out/corpus-$v" > /dev/null
done
echo "## Latency classes, $half half, all pairs: before -> after"
paste -d'\n' <(sed -n '/^## All pairs/,/^## Same/p' "$out/classes-before.txt" | grep '^| [a-z]' | grep -v '^| class') \
  <(sed -n '/^## All pairs/,/^## Same/p' "$out/classes-after.txt" | grep '^| [a-z]' | grep -v '^| class') |
  paste - - | awk -F'|' '{ printf "| %s | %s -> %s %% | %s -> %s %% |\n", $2, $5, $12, $6, $13 }'
echo
echo "## Corpus, cross-GPU pairs: before, after"
grep -m1 'pipes (the default' "$out/corpus-before/summary.md"
grep -m1 'pipes (the default' "$out/corpus-after/summary.md"
echo
echo "## Latency classes, $half half, H200 reference -> H200 targets (where both have the new counter and keys): within 25 %, before -> after"
for v in before after; do
  grep -E "^\\| [a-z_]+_[a-z0-9_]+ \\| [a-z_]+ \\| $half \\| NVIDIA H200 -> NVIDIA H200" "$out/classes-$v/latency-classes.md" |
    sed "s/^/$v/"
done | awk -F'|' '{ k = $3; n[$1 k]++; e = $9 + 0; if (e >= -25 && e <= 25) w[$1 k]++; seen[k] = 1 }
  END { for (k in seen) printf "| %s | %d -> %d of %d |\n", k, w["before" k], w["after" k], n["after" k] }' | sort
