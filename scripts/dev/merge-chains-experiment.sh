#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), about 2 minutes: what sets merge_chains' time
# (issue 28)? Builds workloads/merge_chains.cu as it is and in variants that keep its loads and
# their dependency chains: `no-stores` (the merged keys summed in a register, one store per thread
# at the end, never taken), `l2-resident` (2^22 keys instead of 2^25: 32 MiB of keys and output,
# which the L2 holds, so no load waits for DRAM) and both. Runs each on the whole GPU and under
# MPS 50 % and 25 %, and prints the design kernels' median time per launch and per merged key
# (the L2-resident variants merge 8 x fewer keys per thread). The variants' checks may fail;
# only their times are read.
# With PROFILE_WITH=ROOFCAST (a roofcast built for sm_90) and PROFILES=DIR it also profiles the
# `original` and `no-stores` variants on the whole GPU (`roofcast profile`, all counters) into
# DIR/VARIANT.json, so that the model's chain alone can be set beside the no-stores times.
# Usage: scripts/dev/merge-chains-experiment.sh   (nvcc from /usr/local/cuda, sm_90)
source "$(dirname "$0")/workload-variants.sh"
python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
src = open("workloads/merge_chains.cu").read()
size = "(1u << 25)"
store_a, store_b = "out[k] = next_a;", "out[k] = next_b;"
chain_start = "for (unsigned k = begin; k < end; ++k) {"
body_end = "  }\n}\n\n#define MERGE_CHAINS_KERNEL"
for needle in (size, store_a, store_b, chain_start, body_end):
    if needle not in src:
        sys.exit(f"workloads/merge_chains.cu: no longer has {needle!r}")

def no_stores(text):
    text = text.replace(store_a, "checksum += next_a;").replace(store_b, "checksum += next_b;")
    text = text.replace(chain_start, "unsigned checksum = 0;\n  " + chain_start)
    return text.replace(body_end, "  }\n  if (checksum == 0xffffffffu) out[begin] = checksum;\n}\n\n#define MERGE_CHAINS_KERNEL")

def l2_resident(text):
    return text.replace(size, "(1u << 22)")

variants = {"original": src, "no-stores": no_stores(src), "l2-resident": l2_resident(src),
            "l2-resident-no-stores": l2_resident(no_stores(src))}
for name, text in variants.items():
    open(f"{work}/{name}.cu", "w").write(text)
PY
variants="original no-stores l2-resident l2-resident-no-stores"
build_named_variants $variants
if [[ -n ${PROFILE_WITH:-} ]]; then
  mkdir -p "$PROFILES"
  for v in original no-stores; do
    "$PROFILE_WITH" profile -o "$PROFILES/$v.json" -- "$WORK/$v" --warmups 1 --repeats 3 >"$PROFILES/$v.log" 2>&1 ||
      echo "profile $v: failed, see $PROFILES/$v.log" >&2
  done
fi
run_all() {
  for v in $variants; do
    local keys=$((1 << 25))
    [[ $v == l2-resident* ]] && keys=$((1 << 22))
    { "$WORK/$v" --repeats 5 || true; } |
      awk -v t="$1" -v v="$v" -v keys="$keys" '/^kernel merge_chains_(b32_t512|b64_t1024) / {
        printf "| %s | %s | %s | %.4f | %.3f |\n", t, v, $2, $4, $4 * 1e6 / keys }'
  done
}
echo "| target | variant | kernel | median ms per launch | ns per merged key |"
echo "|---|---|---|---:|---:|"
run_on_targets run_all
