#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it): today's `roofcast bench` of this GPU whole and of
# its MPS 50 % and 25 % partitions, named as data/devices/measured names them, so that they can
# replace the shipped profiles (one current profile per device and partition; its README says
# where each came from). Prints last, per profile, the bench keys the pipes model reads that it
# still lacks (`roofcast devices`, the model's own list): "all" is what
# tests/model/shipped_device_profiles_test.cpp needs.
#
# Usage: OUT=... scripts/dev/bench-shipped-devices.sh
#   writes $OUT/<id>{,-mps50,-mps25}.{json,csv,md} with <id> h100-sxm or h200-sxm (from the GPU's
#   name), $OUT/logs/ and $OUT/summary.txt (the table printed last).
# Environment: BUILD [build-gpu-validation] (configured and built here for sm_90 when it has no
#   roofcast-bench), PARTITIONS ["50 25"], COMPLETE_FROM [none]: a folder of earlier profiles of
#   the same names (data/devices/measured): each is completed (`roofcast bench --complete`) with
#   the benches of the keys the model reads that it lacks, not benched again whole.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/bench-shipped-out}
BUILD=${BUILD:-build-gpu-validation}
PARTITIONS=${PARTITIONS:-"50 25"}
COMPLETE_FROM=${COMPLETE_FROM:-}
BIN=$ROOT/$BUILD/bin
mkdir -p "$OUT/logs" "$OUT/data/devices"

if [[ ! -x $BIN/roofcast-bench ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DROOFCAST_ENABLE_HIP=OFF -DROOFCAST_BUILD_TESTS=OFF >"$OUT/logs/configure.log" 2>&1 &&
    cmake --build "$BUILD" --parallel "$(nproc)" >"$OUT/logs/build.log" 2>&1 || { tail -20 "$OUT/logs/build.log"; exit 1; }
fi
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in *H100*) id=h100-sxm ;; *H200*) id=h200-sxm ;; *) echo "no shipped profile for $gpu" >&2; exit 1 ;; esac

status=0
bench_as() {  # FILE-STEM: the bench of what this process sees now (with COMPLETE_FROM: what it lacks)
  local complete=()
  [[ -n $COMPLETE_FROM ]] && complete=(--complete "$COMPLETE_FROM/$1.json")
  "$BIN/roofcast" bench "${complete[@]}" --output "$OUT/$1.json" >"$OUT/logs/bench-$1.log" 2>&1 ||
    { status=1; tail -3 "$OUT/logs/bench-$1.log"; }
}
bench_as "$id"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/roofcast-mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/roofcast-mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d || { echo "MPS did not start" >&2; exit 1; }
trap 'echo quit | nvidia-cuda-mps-control' EXIT
for p in $PARTITIONS; do CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$p bench_as "$id-mps$p"; done

# What each still lacks, by the model's own list.
cp "$OUT"/*.json "$OUT/data/devices/"
ROOFCAST_DATA_DIR=$OUT/data "$BIN/roofcast" devices --format json | python3 -c '
import json, sys
print("| profile | device | bench keys the pipes model reads, missing |")
print("|---|---|---|")
for d in json.load(sys.stdin):
    if d["source"].startswith(sys.argv[1]):
        missing = ", ".join(d["missing_bench_keys"]) or "none (all)"
        print("| " + d["id"] + " | " + d["name"] + " | " + missing + " |")
' "$OUT/data" | tee "$OUT/summary.txt"
rm -r "$OUT/data"
exit $status
