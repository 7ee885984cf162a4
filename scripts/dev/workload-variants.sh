# Sourced by the workload experiments (hot-word-, pack-pairs-, merge-chains-experiment.sh): a
# work folder removed at exit, an MPS daemon started on demand and stopped at exit, and a
# build of one variant of a workload's source. Runs on the GPU machine (nvcc, sm_90).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
WORK=$(mktemp -d)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
# The MPS daemon first: its pipe folder is under $WORK.
trap '[[ -n ${CUDA_MPS_PIPE_DIRECTORY:-} ]] && echo quit | nvidia-cuda-mps-control; rm -rf "$WORK"' EXIT

start_mps() {
  export CUDA_MPS_PIPE_DIRECTORY=$WORK/mps-pipe CUDA_MPS_LOG_DIRECTORY=$WORK/mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d
}

# build_variants PROGRAM...: each PROGRAM.cu (with the workloads' support code) to PROGRAM, all at
# once; stops the script when one does not build.
build_variants() {
  local program pid pids=()
  for program in "$@"; do
    "$NVCC" -O3 -std=c++17 -arch=sm_90 -I"$ROOT/workloads" "$program.cu" "$ROOT/workloads/common/workload_support.cpp" \
      -o "$program" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
}

# build_named_variants NAME...: $WORK/NAME.cu to $WORK/NAME for each NAME (build_variants).
build_named_variants() {
  local name programs=()
  for name in "$@"; do programs+=("$WORK/$name"); done
  build_variants "${programs[@]}"
}

# run_on_targets RUN: `RUN "whole GPU"`, then under MPS 50 % and 25 % (the daemon started here):
# RUN prints its rows for the target it is given.
run_on_targets() {
  "$1" "whole GPU"
  start_mps
  CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50 "$1" "MPS 50 %"
  CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=25 "$1" "MPS 25 %"
}
