#!/usr/bin/env bash
# On the GPU machine: build for Hopper, run the GPU tests and the benches, print a short
# table last. Full logs go under $OUT (or ./gpu-check-out when OUT is unset).
# Usage: scripts/dev/gpu-check.sh [step...]   steps: build tests profiler bench (default: all)
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1  # the build dependencies, on the bare GPU machine
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
steps=("$@")
((${#steps[@]})) || steps=(build tests profiler bench)
summary=()

step_build() {
  nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DROOFCAST_ENABLE_HIP=OFF >"$OUT/configure.log" 2>&1 &&
    cmake --build build-gpu --parallel "$(nproc)" >"$OUT/build.log" 2>&1
  local status=$?
  summary+=("build|$([[ $status == 0 ]] && echo ok || echo FAILED, see build.log)")
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
  (cd build-gpu && ctest --output-on-failure -L gpu) >"$OUT/gpu-tests.log" 2>&1
  local status=$?
  summary+=("gpu tests|$(grep -E 'tests passed|tests failed' "$OUT/gpu-tests.log" | tail -1)")
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
