#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about 1 minute: does the append counter set
# frontier_expand's time (docs/validation/2026-11-28-hot-word)? Builds workloads/frontier_expand.cu
# as it is and with one and two more atomics on the counter after each append (atomicAdd of 0:
# the same results, one more read-modify-write of the same word each), runs the three on the
# whole GPU and under MPS 25 %, and prints each kernel's median time per launch. If the counter's
# serialized requests set the time, each extra one adds about as much as the appends take.
# Usage: scripts/dev/hot-word-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
WORK=$(mktemp -d)
# The MPS daemon first: its pipe folder is under $WORK.
trap '[[ -n ${CUDA_MPS_PIPE_DIRECTORY:-} ]] && echo quit | nvidia-cuda-mps-control; rm -rf "$WORK"' EXIT
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
append='if (claiming.thread_rank() == 0) first = atomicAdd(counter, claiming.size());'
grep -qF "$append" workloads/frontier_expand.cu || { echo "workloads/frontier_expand.cu: its append line changed" >&2; exit 1; }
extra='atomicAdd(counter, 0u);'
cp workloads/frontier_expand.cu "$WORK/frontier_0.cu"
sed "s|$append|if (claiming.thread_rank() == 0) { first = atomicAdd(counter, claiming.size()); $extra }|" \
  workloads/frontier_expand.cu >"$WORK/frontier_1.cu"
sed "s|$append|if (claiming.thread_rank() == 0) { first = atomicAdd(counter, claiming.size()); $extra $extra }|" \
  workloads/frontier_expand.cu >"$WORK/frontier_2.cu"
for n in 0 1 2; do
  "$NVCC" -O3 -std=c++17 -arch=sm_90 -I"$ROOT/workloads" "$WORK/frontier_$n.cu" "$ROOT/workloads/common/workload_support.cpp" \
    -o "$WORK/frontier_$n" &
done
wait
run_all() {
  for n in 0 1 2; do
    "$WORK/frontier_$n" --repeats 5 | awk -v t="$1" -v n="$n" '/^check .*FAILED/ {print "FAILED: " $0; exit 1}
      /^kernel/ {printf "| %s | %d | %s | %.3f |\n", t, n, $2, $4}'
  done
}
echo "| target | extra atomics per append | kernel | median ms per launch |"
echo "|---|---:|---|---:|"
run_all "whole GPU"
export CUDA_MPS_PIPE_DIRECTORY=$WORK/mps-pipe CUDA_MPS_LOG_DIRECTORY=$WORK/mps-log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d
CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25 run_all "MPS 25 %"
