#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about 2 minutes: what slows pack_pairs on MPS
# partitions (issue 28)? Builds workloads/pack_pairs.cu as it is and in three variants that keep
# its loads and scan: `no-atomic` (each block's place from its index instead of the counter),
# `no-stores` (nothing scattered: the loads, the scans and the counter only) and `extra-atomic`
# (one more atomicAdd of 0 on the counter per block), runs each on the whole GPU and under MPS
# 50 % and 25 %, and prints the design kernels' median time per launch. The variants' checks fail
# (their outputs differ); only their times are read.
# Usage: scripts/dev/pack-pairs-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
source "$(dirname "$0")/workload-variants.sh"
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
build_named_variants $variants
run_all() {
  for v in $variants; do
    # The variants' checks fail, and their programs exit 1: only the times are read.
    { "$WORK/$v" --repeats 5 || true; } |
      awk -v t="$1" -v v="$v" '/^kernel pack_pairs_(f32_t256|f64_t512) / {printf "| %s | %s | %s | %.4f |\n", t, v, $2, $4}'
  done
}
echo "| target | variant | kernel | median ms per launch |"
echo "|---|---|---|---:|"
run_on_targets run_all
