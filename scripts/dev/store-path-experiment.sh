#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about a minute: how scattered stores and a chain of
# dependent loads share an SM, on the whole GPU and under MPS 50 % and 25 % (issue 28; the kernel
# and its table: scripts/dev/store-path-experiment.cu). Prints the tables.
# Usage: scripts/dev/store-path-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
source "$(dirname "$0")/workload-variants.sh"
"$NVCC" -O3 -std=c++17 -arch=sm_90 scripts/dev/store-path-experiment.cu -o "$WORK/store-path"
run() {
  local busy=132
  [[ $1 == "MPS 50 %" ]] && busy=64
  [[ $1 == "MPS 25 %" ]] && busy=32
  "$WORK/store-path" "$1" "$busy"
}
run_on_targets run
