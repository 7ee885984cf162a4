#!/usr/bin/env bash
# On the GPU machine: build for Hopper, run the GPU tests and the benches, print a short
# table last. Full logs go under $OUT (or ./gpu-check-out when OUT is unset).
# Usage: scripts/dev/gpu-check.sh [step...]   steps: build tests profiler bench parity scale
#        (default: build tests profiler bench)
#   BUILD_TARGETS="t1 t2"  build only these targets (default: all); `gpu-tests` names every GPU
#                          test program with what it runs
#   TESTS_TIMEOUT_S=N      stop the GPU tests after N seconds (the others' results are kept)
#   PARITY_PROGRAMS="..."  the programs of the parity step (scripts/dev/collector-parity.sh, its
#                          profile step against ncu: the bench copy is checked by the GPU tests)
#   CALL_BUDGET_S=N        the parity step starts no program past N s from this script's start
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1  # the build dependencies, on the bare GPU machine
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
steps=("$@")
((${#steps[@]})) || steps=(build tests profiler bench)
summary=()

# The GPU test programs (tests/CMakeLists.txt: roofcast_add_gpu_test) bring what they run.
gpu_test_targets=(roofcast roofcast-bench roofcast_injection microbench_gpu_tests bench_complete_gpu_tests
                  profiler_gpu_tests profiler_records_dir_gpu_tests collector_scale_gpu_tests
                  collector_torch_gpu_tests workloads_gpu_tests heldout_workloads_gpu_tests)

step_build() {
  local t0=$SECONDS targets=()
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DROOFCAST_ENABLE_HIP=OFF >"$OUT/configure.log" 2>&1 || { summary+=("build|FAILED, see configure.log"); return 1; }
  for t in ${BUILD_TARGETS:-}; do
    if [[ $t == gpu-tests ]]; then
      targets+=("${gpu_test_targets[@]}")
      # Only where find_package(MPI) found MPI. Not `grep -q`: it stops reading at the first
      # match, ninja dies of SIGPIPE, and pipefail then said "no MPI test" (an H200 run built none).
      ninja -C build-gpu -t targets all 2>/dev/null | grep '^collector_mpi_gpu_tests:' >/dev/null &&
        targets+=(collector_mpi_gpu_tests)
    else
      targets+=("$t")
    fi
  done
  cmake --build build-gpu --parallel "$(nproc)" ${targets[@]:+--target "${targets[@]}"} >"$OUT/build.log" 2>&1
  local status=$?
  summary+=("build|$([[ $status == 0 ]] && echo "ok, $((SECONDS - t0)) s" || echo FAILED, see build.log)")
  tail -20 "$OUT/build.log"
  return $status
}

# The CUPTI collector against Nsight Compute, end to end (scripts/dev/gpu-profiler-check.sh).
step_profiler() {
  mkdir -p "$OUT/profiler"
  scripts/dev/gpu-profiler-check.sh build-gpu "$OUT/profiler" >"$OUT/profiler/check.log" 2>&1
  local status=$?
  summary+=("profiler|$([[ $status == 0 ]] && echo ok || echo FAILED, see profiler/check.log)")
  return $status
}

# The full micro-benchmark suite (roofcast bench): profile, CSV and report under $OUT/bench.
step_bench() {
  mkdir -p "$OUT/bench"
  build-gpu/bin/roofcast bench --output "$OUT/bench/device.json" >"$OUT/bench/bench.log" 2>&1
  local status=$?
  if [[ $status == 0 ]]; then
    while IFS= read -r row; do summary+=("$row"); done < <(scripts/dev/bench-headlines.py "$OUT/bench/device.json")
  else
    summary+=("bench|FAILED, see bench/bench.log: $(tail -1 "$OUT/bench/bench.log")")
  fi
  return $status
}

step_tests() {
  local t0=$SECONDS
  (cd build-gpu && timeout "${TESTS_TIMEOUT_S:-3600}" ctest --output-on-failure -L gpu --output-junit "$OUT/gpu-tests.xml") \
    >"$OUT/gpu-tests.log" 2>&1
  local status=$?
  summary+=("gpu tests ($((SECONDS - t0)) s)|$(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log" | tail -1)")
  ((status == 124)) && summary+=("gpu tests|STOPPED at TESTS_TIMEOUT_S=${TESTS_TIMEOUT_S:-}")
  local copy_line
  copy_line=$(grep -ho 'DRAM copy vs cudaMemcpy D2D: [^(]*' "$OUT/gpu-tests.xml" 2>/dev/null | head -1)
  [[ -n $copy_line ]] && summary+=("bench copy|${copy_line#DRAM copy vs cudaMemcpy D2D: } (microbench_gpu_tests)")
  while IFS= read -r line; do summary+=("  ${line%% *}|${line#* }"); done < <(
    grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$OUT/gpu-tests.log" |
      sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) [. ]*(.*)$/\1 \2/')
  return $status
}

# The collector against ncu and the bench copy against cudaMemcpy (issue 31), on the build above.
step_parity() {
  STEPS="profile" PROGRAMS="${PARITY_PROGRAMS:-}" PARITY_BUDGET_S=$((${CALL_BUDGET_S:-560} - SECONDS)) OUT="$OUT" bash scripts/dev/collector-parity.sh \
    >"$OUT/parity.log" 2>&1
  local status=$?
  sed -n '/== collector-parity/,$p' "$OUT/parity.log"
  summary+=("parity|$([[ $status == 0 ]] && echo ok || echo "exit $status, see parity.log")")
  return $status
}

nvidia-smi 2>&1 | tee "$OUT/nvidia-smi.txt" | head -15
# predict, rank and report at scale on this machine's cores (no GPU needed; docs/scale/README.md).
step_scale() {
  scripts/dev/scale-bench.sh --build build-gpu --results "$OUT/scale-$(nproc)-cores.md" >"$OUT/scale.log" 2>&1
  local status=$?
  summary+=("scale ($(nproc) cores)|$([[ $status == 0 ]] && echo "ok, scale-$(nproc)-cores.md" || echo "exit $status, see scale.log")")
  sed -n '/^| command/,$p' "$OUT/scale-$(nproc)-cores.md" 2>/dev/null
  return $status
}

overall=0
for step in "${steps[@]}"; do
  "step_$step" || overall=1
done

echo
echo "== gpu-check summary ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)) =="
for row in "${summary[@]}"; do
  printf '%-28s %s\n' "${row%%|*}" "${row#*|}"
done
exit $overall
