#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it): the data issue 28's SM-path term (branch store-path,
# docs/pipes-model.md there, "The SM's path to L2") needs from this GPU, in steps of about 1-4
# minutes each. Run it from that branch: the completing steps add only keys the model reads.
#   shipped          this GPU's shipped profiles (data/devices/measured), whole and MPS 50/25 %,
#                    completed with the benches of the keys the model reads that they lack
#                    (scripts/dev/bench-shipped-devices.sh with COMPLETE_FROM) -> $OUT/shipped/
#   classes-devices  the same for the device profiles of the 2026-11-27 latency-class run of
#                    this GPU (docs/validation/2026-11-27-latency-classes/<gpu>-run/devices)
#                    -> $OUT/classes-devices/{full,mps50,mps25}.json
#   classes          the latency-class programs profiled on the whole GPU with today's counters
#                    (scripts/dev/validate-gpu.sh reference) -> $OUT/classes-run.tar.gz
#   corpus           the same for the 2026-11-24 corpus' programs -> $OUT/corpus-run.tar.gz
# Usage: OUT=... scripts/dev/store-path-gpu.sh STEP...   (BUILD [build-gpu], built once for sm_90)
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export OUT=${OUT:-$ROOT/store-path-out} BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H100*) id=h100 ;; *H200*) id=h200 ;; *) echo "error: no runs of $gpu to complete" >&2; exit 1 ;; esac
status=0

step_shipped() {
  OUT=$OUT/shipped COMPLETE_FROM=$ROOT/data/devices/measured scripts/dev/bench-shipped-devices.sh || status=1
}

step_classes-devices() {
  local run=docs/validation/2026-11-27-latency-classes/$id-run/devices from
  from=$(mktemp -d)
  cp "$run/full.json" "$from/$id-sxm.json"
  cp "$run/mps50.json" "$from/$id-sxm-mps50.json"
  cp "$run/mps25.json" "$from/$id-sxm-mps25.json"
  OUT=$OUT/classes-bench COMPLETE_FROM=$from scripts/dev/bench-shipped-devices.sh || status=1
  mkdir -p "$OUT/classes-devices"
  cp "$OUT/classes-bench/$id-sxm.json" "$OUT/classes-devices/full.json"
  cp "$OUT/classes-bench/$id-sxm-mps50.json" "$OUT/classes-devices/mps50.json"
  cp "$OUT/classes-bench/$id-sxm-mps25.json" "$OUT/classes-devices/mps25.json"
  rm -r "$from"
}

# profile NAME PROGRAMS: validate-gpu.sh's build and reference steps, packed as $OUT/NAME-run.tar.gz.
profile() {
  OUT=$OUT/$1-validate PROGRAMS=$2 DEADLINE_S=560 scripts/dev/validate-gpu.sh build reference || status=1
  tar -czf "$OUT/$1-run.tar.gz" -C "$BUILD/validation-run" devices profiles logs
}

step_classes() {
  profile classes "$(python3 -c 'import json; print(" ".join(c["program"] for c in json.load(open("workloads/latency_classes.json"))["classes"]))')"
}

step_corpus() {
  profile corpus "redblack_sor lmsor sgemm stream int_heavy divergent short_kernel serial_latency launch_chain \
low_occupancy atomics graph_gather merge_sort bulk_copy pytorch_ops"
}

for step in "$@"; do "step_$step"; done
exit $status
