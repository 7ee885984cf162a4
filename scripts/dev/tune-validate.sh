#!/usr/bin/env bash
# On the GPU machine: validates `roofcast tune` and the diagnostics of `roofcast explain`
# (docs/tuning.md) with roofcast-workload-tune_sweep.
#   1. Block-size sweeps (sweep_triad, sweep_fma, sweep_reduce, sweep_stencil, sweep_scale4, and
#      sweep_sgemm and sweep_sgemm_micro over SGEMM_BLOCKS with --fixed-tile; SWEEPS picks some): profile one configuration
#      (PROFILED_BLOCK threads), `roofcast tune` over BLOCKS, measure every one of them; the
#      Spearman rank correlation of predicted and measured times, and how far the measured
#      time of the predicted best is from the measured best. Each sweep is measured a second
#      time, after all the others, to show how far its measured ranking repeats.
#   2. Good/bad pairs (strided/contiguous loads, divergent/uniform branches, conflicting/padded
#      shared tiles): profile and measure both; the gain `roofcast explain` predicts for fixing
#      the bad one against the measured gain (bad time / good time).
# Results under $OUT (or ./tune-validate-out): summary.md, summary.json, environment.txt and
# tune-validate-run.tar.gz (profiles, tune tables, explain outputs, measured times, logs).
# Environment (defaults in brackets):
#   DEVICE_JSON     the target's device profile [benched here first: device.json, kept in $OUT]
#   BLOCKS          block sizes to tune over [32,64,...,1024]
#   SGEMM_BLOCKS    sweep_sgemm's and sweep_sgemm_micro's [64,128,256,512,1024]
#   SWEEPS, PAIRS   the sweeps and the pair kernels to run [all; PAIRS="" runs none]
#   PROFILED_BLOCK  the configuration that is profiled [256]
#   PROFILE_EACH    sweeps whose every configuration is also profiled and explained on its own
#                   (KERNEL@THREADS.json, KERNEL@THREADS-explain.txt) [none]
#   RUN_ARGS        arguments of every measured run [--warmups 3 --repeats 20]
#   BUILD           build folder [build-gpu-tune]
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/tune-validate-out}
BUILD=${BUILD:-build-gpu-tune}
DEVICE_JSON=${DEVICE_JSON:-}
BLOCKS=${BLOCKS:-32,64,96,128,160,192,256,320,384,512,640,768,1024}
SGEMM_BLOCKS=${SGEMM_BLOCKS:-64,128,256,512,1024}
PROFILED_BLOCK=${PROFILED_BLOCK:-256}
RUN_ARGS=${RUN_ARGS:-"--warmups 3 --repeats 20"}
RUN=$ROOT/$BUILD/tune-validate-run
mkdir -p "$OUT" "$RUN"
BIN=$ROOT/$BUILD/bin
W=$BIN/roofcast-workload-tune_sweep

targets=(roofcast roofcast_injection roofcast-workload-tune_sweep)
[[ -z $DEVICE_JSON ]] && targets+=(roofcast-bench)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DROOFCAST_ENABLE_HIP=OFF >"$RUN/configure.log" 2>&1 &&
  cmake --build "$BUILD" --parallel "$(nproc)" --target "${targets[@]}" >"$RUN/build.log" 2>&1 ||
  { tail -40 "$RUN/build.log"; exit 1; }
if [[ -z $DEVICE_JSON ]]; then
  DEVICE_JSON=$OUT/device.json
  "$BIN/roofcast-bench" --output "$DEVICE_JSON" --csv "$RUN/device.csv" --report "$RUN/device.md" >"$RUN/bench.log" 2>&1 ||
    { tail -20 "$RUN/bench.log"; exit 1; }
fi

{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
  echo "device profile: ${DEVICE_JSON#$ROOT/}"
  echo "command: scripts/dev/tune-validate.sh (BLOCKS=$BLOCKS PROFILED_BLOCK=$PROFILED_BLOCK RUN_ARGS=$RUN_ARGS)"
  git -C "$ROOT" rev-parse HEAD 2>/dev/null || true
} >"$OUT/environment.txt"

profile() {  # NAME KERNEL [THREADS]: a kernel profile of one launch configuration
  "$BIN/roofcast" profile -o "$RUN/$1.json" -- "$W" --kernel "$2" --blocks "${3:-$PROFILED_BLOCK}" --warmups 0 \
    --repeats 1 >"$RUN/$1-profile.log" 2>&1 || echo "profile $1 failed (see $1-profile.log)"
}

for kernel in ${SWEEPS:-sweep_triad sweep_fma sweep_reduce sweep_stencil sweep_scale4 sweep_sgemm sweep_sgemm_micro}; do
  profile "$kernel" "$kernel"
  blocks=$BLOCKS tile=()
  # The SGEMM's block keeps its 64 x 64 output tile: its threads share it (--fixed-tile).
  [[ $kernel == sweep_sgemm* ]] && blocks=$SGEMM_BLOCKS tile=(--fixed-tile)
  "$BIN/roofcast" tune --profile "$RUN/$kernel.json" --device "$DEVICE_JSON" --block-sizes "$blocks" "${tile[@]}" \
    --top 3 >"$RUN/$kernel-tune.txt" 2>&1
  "$BIN/roofcast" tune --profile "$RUN/$kernel.json" --device "$DEVICE_JSON" --block-sizes "$blocks" "${tile[@]}" \
    --top 3 --format json >"$RUN/$kernel-tune.json" 2>"$RUN/$kernel-tune-json.log"
  "$W" --kernel "$kernel" --blocks "$blocks" $RUN_ARGS >"$RUN/$kernel-measured.txt" 2>&1
  if [[ " ${PROFILE_EACH:-} " == *" $kernel "* ]]; then
    for threads in ${blocks//,/ }; do
      profile "$kernel@$threads" "$kernel" "$threads"
      "$BIN/roofcast" explain --profile "$RUN/$kernel@$threads.json" --device "$DEVICE_JSON" \
        >"$RUN/$kernel@$threads-explain.txt" 2>&1
    done
  fi
done

# Each sweep measured once more, in another process after all the others: does its ranking repeat?
for kernel in ${SWEEPS:-sweep_triad sweep_fma sweep_reduce sweep_stencil sweep_scale4 sweep_sgemm sweep_sgemm_micro}; do
  blocks=$BLOCKS
  [[ $kernel == sweep_sgemm* ]] && blocks=$SGEMM_BLOCKS
  "$W" --kernel "$kernel" --blocks "$blocks" $RUN_ARGS >"$RUN/$kernel-measured-repeat.txt" 2>&1
done

for kernel in ${PAIRS-access_strided access_contiguous branch_divergent branch_uniform transpose_conflicting transpose_padded}; do
  profile "$kernel" "$kernel"
  "$BIN/roofcast" explain --profile "$RUN/$kernel.json" --device "$DEVICE_JSON" >"$RUN/$kernel-explain.txt" 2>&1
  "$W" --kernel "$kernel" $RUN_ARGS >"$RUN/$kernel-measured.txt" 2>&1
done

python3 scripts/dev/tune-validate-summary.py "$RUN" "$OUT" "$PROFILED_BLOCK"
cp "$RUN"/*-tune.txt "$OUT/" 2>/dev/null
(cd "$RUN/.." && tar -czf "$OUT/tune-validate-run.tar.gz" "$(basename "$RUN")")
cat "$OUT/summary.md"
