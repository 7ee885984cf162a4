#!/usr/bin/env bash
# On the GPU machine, as root (issue 31): is roofcast at parity with Nsight Compute and cudaMemcpy?
# One device call of at most ~9 minutes on 16 cores:
#  1. build  what it needs into build-gpu (-DCMAKE_CUDA_ARCHITECTURES=90; incremental where build-gpu
#            is there already from an earlier call on the same machine),
#  2. bench  `roofcast bench` (full suite, twice): DRAM copy against cudaMemcpy device to device on
#            the same buffers, and the copy configuration the bench kept,
#  3. profile  `roofcast profile` (default --runs auto, --sample 5, full metric set) against `ncu` with
#            the same 101 metrics, --cache-control all --clock-control none, on the same launches:
#            --filter-mode per-launch-config -c 5 --kernel-name-base mangled, the first 5 of each
#            kernel (template instances apart) and launch shape (what
#            roofcast's sample takes in its first run; the launches roofcast profiles beyond them to
#            spread its sample over the run are its own cost), wall time of each and their ratio, on
#            the collector corpus programs, pytorch_ops and three one-op PyTorch programs
#            (torch_matmul_fp32, torch_layernorm, torch_softmax: pytorch_ops.py --op OP, one op per
#            process, 8 launches of it) through scripts/dev/collector-scale-bench.sh PARTS=ncu,
#  4. sample (only when named in STEPS; about 3 minutes): default sampled totals against --sample all
#            on the corpus workloads (--small, thesis counters; collector-scale-bench.sh PARTS=sample),
#  5. a tar of the results under $OUT, and a short table last.
# Programs are started in the order of PROGRAMS while the call's time allows (PARITY_BUDGET_S, 530 s
# from the start, less the longest program's expected time: 120 s where pytorch_ops is among them, else
# 60 s); those left are named at the end with the PROGRAMS=... to resume with in the next call.
# Usage: [STEPS="build bench profile"] [PROGRAMS="torch_matmul_fp32 ..."] scripts/dev/collector-parity.sh
# (carry .deps: scripts/dev/gpu-deps.sh). A cold machine needs the build (a few minutes); on a warm
# one it is a no-op. Calls that fit: (1) PROGRAMS="torch_matmul_fp32 torch_layernorm torch_softmax"
# (2) STEPS="build profile" PROGRAMS="pytorch_ops merge_sort graph_gather" (3) STEPS="build profile"
# with the other C++ programs.
set -uo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
OUT=${OUT:-$PWD/collector-parity-out}
R=$OUT/collector-parity
mkdir -p "$R"
STEPS=" ${STEPS:-build bench profile} "
ALL_PROGRAMS="torch_matmul_fp32 torch_layernorm torch_softmax pytorch_ops merge_sort graph_gather lmsor stream sgemm \
redblack_sor int_heavy divergent short_kernel serial_latency launch_chain low_occupancy atomics bulk_copy"
PROGRAMS=${PROGRAMS:-$ALL_PROGRAMS}
BUDGET_S=${PARITY_BUDGET_S:-530}
summary=()

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "ncu: $(ncu --version 2>/dev/null | tail -1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"
  echo "git: $(git describe --always --dirty 2>/dev/null) ($(git log -1 --format=%h 2>/dev/null))"
  echo "command: STEPS=\"$STEPS\" PROGRAMS=\"$PROGRAMS\" scripts/dev/collector-parity.sh"
} >"$R/environment.txt"

# The build dependencies (carry .deps), and at run time their shared libraries.
source scripts/dev/gpu-deps.sh || exit 1
if [[ $STEPS == *" build "* ]]; then
  t0=$(date +%s)
  targets=(roofcast roofcast-cupti roofcast_injection roofcast-bench)
  for w in $ALL_PROGRAMS; do [[ $w == pytorch_ops || $w == torch_* ]] || targets+=("roofcast-workload-$w"); done
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DROOFCAST_ENABLE_HIP=OFF >"$R/configure.log" 2>&1 &&
    cmake --build build-gpu --parallel "$(nproc)" --target "${targets[@]}" >"$R/build.log" 2>&1
  status=$?
  summary+=("build|$([[ $status == 0 ]] && echo "ok, $(($(date +%s) - t0)) s" || echo "FAILED, see build.log")")
  ((status == 0)) || { tail -20 "$R/build.log"; exit 1; }
fi

if [[ $STEPS == *" bench "* ]]; then
  # Twice: the copy configuration is chosen at run time, so both runs say how far it repeats.
  for i in 1 2; do
    t0=$(date +%s)
    build-gpu/bin/roofcast bench --output "$R/bench-$i.json" >"$R/bench-$i.log" 2>&1
    status=$?
    row=$(python3 - "$R/bench-$i.json" <<'PY' 2>/dev/null
import json, sys
m = json.load(open(sys.argv[1]))["measurements"]
copy, runtime = m["dram_copy_gbps"], m["memcpy_d2d_gbps"]
c, r = copy["value"]["median"], runtime["value"]["median"]
print(f"{c:.0f} GB/s vs cudaMemcpy D2D {r:.0f} GB/s: {c / r:.3f} ({'ok' if c >= 0.99 * r else 'BELOW'} at 1 %); "
      f"{copy['details']}")
PY
)
    summary+=("bench copy, run $i ($(($(date +%s) - t0)) s)|${row:-FAILED (exit $status), see bench-$i.log}")
  done
fi

left=()
if [[ $STEPS == *" profile "* ]]; then
  # The longest program (pytorch_ops: ~115 s for the app, roofcast and ncu on an H200; the others
  # under 60 s) must fit after the last start: collector-scale-bench.sh starts none past its budget.
  longest=60
  [[ " $PROGRAMS " == *" pytorch_ops "* ]] && longest=120
  elapsed=$(($(date +%s) - start))
  part_budget=$((BUDGET_S - elapsed - ${LONGEST_PROGRAM_S:-$longest}))
  ((part_budget < 0)) && part_budget=0
  PARTS=ncu NCU_FILTER=per-launch-config NCU_SAMPLE=5 NCU_PART_BUDGET_S=$part_budget STEP_TIMEOUT=${STEP_TIMEOUT:-150} \
    PROGRAMS="$PROGRAMS" scripts/dev/collector-scale-bench.sh build-gpu "$R/scale" >"$R/profile.log" 2>&1
  cp "$R/scale/ncu-vs-roofcast.md" "$R/ncu-vs-roofcast.md" 2>/dev/null
  # The summary lines of each roofcast run (why a counter run was made, where one was).
  for log in "$R"/scale/ncu-vs-roofcast/*-roofcast.log; do
    [[ -e $log ]] && echo "$(basename "$log" -roofcast.log): $(grep 'roofcast profile: .* kernels' "$log" | tail -1)"
  done >"$R/summary-lines.txt"
  if [[ -f $R/scale/ncu-vs-roofcast/times.tsv ]]; then
    while IFS=$'\t' read -r w rest; do
      [[ $rest == "skipped: past NCU_PART_BUDGET_S" ]] && left+=("$w")
    done <"$R/scale/ncu-vs-roofcast/times.tsv"
  fi
fi

if [[ $STEPS == *" sample "* ]]; then
  PARTS=sample STEP_TIMEOUT=${STEP_TIMEOUT:-150} scripts/dev/collector-scale-bench.sh build-gpu "$R/scale" \
    >"$R/sample.log" 2>&1
  summary+=("sampled vs --sample all|$(grep -c ' ok$' "$R/scale/sample-vs-all.txt" 2>/dev/null) kernels within 2 %, $(grep -c ' DIFFERS$' "$R/scale/sample-vs-all.txt" 2>/dev/null) beyond (sample-vs-all.txt)")
fi

tar czf "$OUT/collector-parity.tar.gz" -C "$OUT" collector-parity 2>/dev/null

echo
echo "== collector-parity ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(($(date +%s) - start)) s) =="
for row in "${summary[@]}"; do printf '%-28s %s\n' "${row%%|*}" "${row#*|}"; done
if [[ -f $R/scale/ncu-vs-roofcast/times.tsv ]]; then
  printf '%-20s %8s %9s %10s %9s %8s %10s %8s %s\n' program launches profiled runs ncu_prof app_s roofcast_s ncu_s roofcast/ncu
  while IFS=$'\t' read -r w launches profiled runs ncu_launches app roof ncu_s rc_app rc_r rc_n; do
    [[ -z ${roof:-} ]] && { printf '%-20s %s\n' "$w" "$launches"; continue; }
    ratio=$(python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$roof" "$ncu_s" 2>/dev/null || echo -)
    printf '%-20s %8s %9s %10s %9s %8s %10s %8s %s%s\n' "$w" "$launches" "$profiled" "$runs" "$ncu_launches" "$app" "$roof" \
      "$ncu_s" "$ratio" "$([[ $rc_app/$rc_r/$rc_n != 0/0/0 ]] && echo " (exit codes $rc_app/$rc_r/$rc_n)")"
  done <"$R/scale/ncu-vs-roofcast/times.tsv"
fi
((${#left[@]})) && echo "not run in this call (time): resume with PROGRAMS=\"${left[*]}\" STEPS=\"profile\" (STEPS=\"build profile\" on a cold machine)"
echo "results: $OUT/collector-parity.tar.gz"
