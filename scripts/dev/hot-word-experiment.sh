#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about 1 minute: does the append counter set
# frontier_expand's time (docs/validation/2026-11-28-hot-word)? Builds workloads/frontier_expand.cu
# as it is and with one and two more atomics on the counter after each append (atomicAdd of 0:
# the same results, one more read-modify-write of the same word each), runs the three on the
# whole GPU and under MPS 25 %, and prints each kernel's median time per launch. If the counter's
# serialized requests set the time, each extra one adds about as much as the appends take.
# Usage: scripts/dev/hot-word-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
source "$(dirname "$0")/workload-variants.sh"
append='if (claiming.thread_rank() == 0) first = atomicAdd(counter, claiming.size());'
grep -qF "$append" workloads/frontier_expand.cu || { echo "workloads/frontier_expand.cu: its append line changed" >&2; exit 1; }
extra='atomicAdd(counter, 0u);'
cp workloads/frontier_expand.cu "$WORK/frontier_0.cu"
sed "s|$append|if (claiming.thread_rank() == 0) { first = atomicAdd(counter, claiming.size()); $extra }|" \
  workloads/frontier_expand.cu >"$WORK/frontier_1.cu"
sed "s|$append|if (claiming.thread_rank() == 0) { first = atomicAdd(counter, claiming.size()); $extra $extra }|" \
  workloads/frontier_expand.cu >"$WORK/frontier_2.cu"
build_variants "$WORK"/frontier_{0,1,2}
run_all() {
  for n in 0 1 2; do
    "$WORK/frontier_$n" --repeats 5 | awk -v t="$1" -v n="$n" '/^check .*FAILED/ {print "FAILED: " $0; exit 1}
      /^kernel/ {printf "| %s | %d | %s | %.3f |\n", t, n, $2, $4}'
  done
}
echo "| target | extra atomics per append | kernel | median ms per launch |"
echo "|---|---:|---|---:|"
run_all "whole GPU"
start_mps
CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25 run_all "MPS 25 %"
