#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about 2 minutes: what slows pack_pairs on MPS
# partitions (issue 28)? Builds workloads/pack_pairs.cu as it is and in three variants that keep
# its loads and scan: `no-atomic` (each block's place from its index instead of the counter),
# `no-stores` (nothing scattered: the loads, the scans and the counter only) and `extra-atomic`
# (one more atomicAdd of 0 on the counter per block), runs each on the whole GPU and under MPS
# 50 % and 25 %, and prints the design kernels' median time per launch. The variants' checks fail
# (their outputs differ); only their times are read.
# Usage: scripts/dev/pack-pairs-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=$(mktemp -d)
# The MPS daemon first: its pipe folder is under $WORK.
trap '[[ -n ${CUDA_MPS_PIPE_DIRECTORY:-} ]] && echo quit | nvidia-cuda-mps-control; rm -rf "$WORK"' EXIT
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
src = open("workloads/pack_pairs.cu").read()
atomic = "if (lane == kWarps - 1) block_offset = atomicAdd(kept_count, total);"
stores = ("if (keep_first) {", "if (keep_second) {")
for needle in (atomic, *stores):
    if needle not in src:
        sys.exit(f"workloads/pack_pairs.cu: no longer has {needle!r}")
variants = {
    "original": src,
    "no-atomic": src.replace(atomic, "if (lane == kWarps - 1) block_offset = blockIdx.x * 2 * kThreads;"),
    "no-stores": src.replace(stores[0], "if (pairs == 0) {").replace(stores[1], "if (pairs == 0) {"),
    "extra-atomic": src.replace(atomic, atomic + " if (lane == kWarps - 1) atomicAdd(kept_count, 0u);"),
}
for name, text in variants.items():
    open(f"{work}/{name}.cu", "w").write(text)
PY
variants="original no-atomic no-stores extra-atomic"
for v in $variants; do
  "$NVCC" -O3 -std=c++17 -arch=sm_90 -I"$ROOT/workloads" "$WORK/$v.cu" "$ROOT/workloads/common/workload_support.cpp" \
    -o "$WORK/$v" &
done
wait
run_all() {
  for v in $variants; do
    # The variants' checks fail, and their programs exit 1: only the times are read.
    { "$WORK/$v" --repeats 5 || true; } |
      awk -v t="$1" -v v="$v" '/^kernel pack_pairs_(f32_t256|f64_t512) / {printf "| %s | %s | %s | %.4f |\n", t, v, $2, $4}'
  done
}
echo "| target | variant | kernel | median ms per launch |"
echo "|---|---|---|---:|"
run_all "whole GPU"
export CUDA_MPS_PIPE_DIRECTORY=$WORK/mps-pipe CUDA_MPS_LOG_DIRECTORY=$WORK/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50 run_all "MPS 50 %"
CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25 run_all "MPS 25 %"
