#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), in one run: build for Hopper, bench the whole
# GPU, profile the validation workloads and a PyTorch script with counters on it (the
# reference), start MPS, bench and time the same programs on each MPS partition (the
# targets; counters cannot be collected under MPS), stop MPS, and run `roofcast validate`.
#
# Results under $OUT (or ./validate-gpu-out): validation.json, validation.md, accuracy.png,
# headline.txt, summary.txt, environment.txt and validation-run.tar.gz (device profiles,
# kernel profiles, measured times, the chart's data and every log). The short table
# printed last is also summary.txt.
#
# Usage: scripts/dev/validate-gpu.sh [step...]
#   steps: build reference partitions validate (default: all four, in that order); the
#   intermediate files stay in $BUILD/validation-run, so steps can be run in separate calls
#   while the machine stays warm.
# Environment (defaults in brackets):
#   PROGRAMS     workload names to run [the 2026-11-24 corpus: 14 CUDA programs and pytorch_ops]
#   PARTITIONS   MPS active-thread percentages to validate on ["50 25"]
#   BENCH_ARGS   extra arguments of every bench run, e.g. --quick [none]
#   RUN_ARGS     arguments of every workload run [--warmups 1 --repeats 3]
#   BUILD        build folder [build-gpu-validation]
#   DEADLINE_S   seconds after the start by which to stop benching and profiling, so that
#                validate and the packing still run inside one 10-minute call [540]; what
#                did not fit is listed as skipped and validated without
set -uo pipefail
STARTED=$(date +%s)
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1  # the build dependencies, on the bare GPU machine
ROOT=$PWD
OUT=${OUT:-$ROOT/validate-gpu-out}
BUILD=${BUILD:-build-gpu-validation}
PARTITIONS=${PARTITIONS:-"50 25"}
BENCH_ARGS=${BENCH_ARGS:-}
RUN_ARGS=${RUN_ARGS:-"--warmups 1 --repeats 3"}
DEADLINE_S=${DEADLINE_S:-540}
BIN=$ROOT/$BUILD/bin
RUN=$ROOT/$BUILD/validation-run
mkdir -p "$OUT" "$RUN"/{devices,profiles,measured,logs}
steps=("$@")
((${#steps[@]})) || steps=(build reference partitions validate)
summary=()
status=0

note() { summary+=("$1|$2"); [[ $2 == ok* ]] || status=1; }
seconds_since() { echo $(($(date +%s) - $1)); }
# True when about `needed` seconds still fit before DEADLINE_S; else notes the item as skipped.
fits() {
  local left=$((STARTED + DEADLINE_S - $(date +%s)))
  ((left >= $2)) && return 0
  summary+=("$1|skipped: ${left} s left before DEADLINE_S=$DEADLINE_S")
  status=1
  return 1
}

# The programs of the corpus: name and command line. Names become file names.
# PROGRAMS (a space-separated list of workload names; pytorch_ops is the PyTorch script) picks
# others, e.g. a new class of workloads run on its own.
PROGRAMS=${PROGRAMS:-"redblack_sor lmsor sgemm stream int_heavy divergent short_kernel \
  serial_latency launch_chain low_occupancy atomics graph_gather merge_sort bulk_copy pytorch_ops"}
programs() {
  local w
  for w in $PROGRAMS; do
    if [[ $w == pytorch_ops ]]; then
      echo "pytorch_ops|python3 $ROOT/workloads/pytorch_ops.py $RUN_ARGS"
    else
      echo "$w|$BIN/roofcast-workload-$w $RUN_ARGS"
    fi
  done
}

# `roofcast bench` when the front end has it, else its companion program.
bench() {
  if "$BIN/roofcast" bench --help >/dev/null 2>&1; then
    "$BIN/roofcast" bench "$@"
  else
    "$BIN/roofcast-bench" "$@"
  fi
}

device_name() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$1"; }

# Workload lines "check NAME ok|FAILED ..." in a log: "ok" or the failed checks.
checks_of() {
  local failed
  failed=$(grep -h '^check .* FAILED' "$@" 2>/dev/null | awk '{print $2}' | sort -u | paste -sd' ')
  if [[ -n $failed ]]; then echo "FAILED checks: $failed"; else echo "ok"; fi
}

start_mps() {
  # Short paths: the pipe folder holds Unix sockets, whose paths are limited to 107 bytes.
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/roofcast-mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/roofcast-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d
}

stop_mps() {
  [[ -n ${CUDA_MPS_PIPE_DIRECTORY:-} ]] || return 0
  echo quit | nvidia-cuda-mps-control
  sleep 2
  cp -r "$CUDA_MPS_LOG_DIRECTORY" "$RUN/logs/mps-log" 2>/dev/null
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY CUDA_MPS_ACTIVE_THREAD_PERCENTAGE
}
trap stop_mps EXIT

step_build() {
  local t0; t0=$(date +%s)
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DROOFCAST_ENABLE_HIP=OFF -DROOFCAST_BUILD_TESTS=OFF >"$RUN/logs/configure.log" 2>&1 &&
    cmake --build "$BUILD" --parallel "$(nproc)" >"$RUN/logs/build.log" 2>&1
  local rc=$?
  note "build" "$([[ $rc == 0 ]] && echo ok || echo "FAILED, see logs/build.log") ($(seconds_since "$t0") s)"
  [[ $rc == 0 ]] || tail -20 "$RUN/logs/build.log"
  return $rc
}

# The whole GPU: its device profile, and a kernel profile (counters + times) of each program.
step_reference() {
  local t0 name command; t0=$(date +%s)
  rm -f "$RUN"/devices/full.* "$RUN"/profiles/*.json
  if fits "bench whole GPU" 60; then
    bench $BENCH_ARGS --output "$RUN/devices/full.json" >"$RUN/logs/bench-full.log" 2>&1
    note "bench whole GPU" "$([[ $? == 0 ]] && echo "ok: $(device_name "$RUN/devices/full.json")" || echo FAILED) ($(seconds_since "$t0") s)"
  fi
  while IFS='|' read -r name command; do
    fits "profile $name" 30 || continue
    t0=$(date +%s)
    "$BIN/roofcast" profile -o "$RUN/profiles/$name.json" -- $command >"$RUN/logs/profile-$name.log" 2>&1
    local rc=$?
    note "profile $name" "$([[ $rc == 0 ]] && checks_of "$RUN/logs/profile-$name.log" || echo "FAILED rc=$rc") ($(seconds_since "$t0") s)"
  done < <(programs)
}

# Each MPS partition: its device profile, and the programs' kernel times (no counters).
step_partitions() {
  local t0 p name command
  rm -f "$RUN"/devices/mps* "$RUN"/measured/*.json
  start_mps || { note "MPS" "FAILED to start nvidia-cuda-mps-control"; return 1; }
  for p in $PARTITIONS; do
    export CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$p
    t0=$(date +%s)
    fits "bench MPS $p %" 60 || continue
    bench $BENCH_ARGS --output "$RUN/devices/mps$p.json" >"$RUN/logs/bench-mps$p.log" 2>&1
    note "bench MPS $p %" "$([[ $? == 0 ]] && echo "ok: $(device_name "$RUN/devices/mps$p.json")" || echo FAILED) ($(seconds_since "$t0") s)"
    while IFS='|' read -r name command; do
      fits "time $name, MPS $p %" 20 || continue
      t0=$(date +%s)
      "$BIN/roofcast" profile --timing-only -o "$RUN/measured/mps$p-$name.json" -- $command \
        >"$RUN/logs/measure-mps$p-$name.log" 2>&1
      local rc=$?
      local sms; sms=$(grep -ho '([0-9]* SMs)' "$RUN/logs/measure-mps$p-$name.log" | head -1)
      note "time $name, MPS $p %" "$([[ $rc == 0 ]] && checks_of "$RUN/logs/measure-mps$p-$name.log" || echo "FAILED rc=$rc") $sms ($(seconds_since "$t0") s)"
    done < <(programs)
  done
  stop_mps
}

step_validate() {
  local args=() f p name
  for f in "$RUN"/profiles/*.json; do [[ -e $f ]] && args+=(--reference-profile "$f"); done
  [[ -e $RUN/devices/full.json ]] && args+=(--device "$RUN/devices/full.json")
  for p in $PARTITIONS; do
    [[ -e $RUN/devices/mps$p.json ]] || continue
    args+=(--device "$RUN/devices/mps$p.json")
    # An MPS client reports the whole GPU's name: tie its times to the partition's profile.
    name=$(device_name "$RUN/devices/mps$p.json")
    for f in "$RUN"/measured/mps$p-*.json; do [[ -e $f ]] && args+=(--measured "$name=$f"); done
  done
  "$BIN/roofcast" validate "${args[@]}" --allow-missing --output "$OUT/validation.json" \
    --markdown "$OUT/validation.md" >"$RUN/logs/validate.txt" 2>&1
  local rc=$?
  note "validate" "$([[ $rc == 0 ]] && echo ok || echo FAILED) (logs/validate.txt)"
  cat "$RUN/logs/validate.txt"
  if [[ $rc == 0 ]]; then
    mkdir -p "$RUN/chart"
    # Not a failure where gnuplot is missing: the chart can be drawn anywhere from validation.json.
    if "$BIN/roofcast" plot accuracy --validation "$OUT/validation.json" -o "$RUN/chart/accuracy.png" \
      >"$RUN/logs/plot.txt" 2>&1 && cp "$RUN/chart/accuracy.png" "$OUT/accuracy.png"; then
      summary+=("plot accuracy|ok: accuracy.png")
    else
      summary+=("plot accuracy|not drawn here (logs/plot.txt); roofcast plot accuracy --validation validation.json")
    fi
  fi
  [[ $rc == 0 ]] && python3 - "$OUT/validation.json" >"$RUN/logs/headline.txt" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
def line(label, s):
    return (f"{label}: {s['kernels']} predictions, median APE {100 * s['median_ape']:.1f} %, "
            f"within 25 % {100 * s['within_25']:.0f} %, within 50 % {100 * s['within_50']:.0f} %")
groups = report["summary"]["by_device"] + [dict(report["summary"]["overall"], device="all devices")]
for g in groups:
    print(line(g["device"], g))
    if g.get("corrected"):
        print(line(g["device"] + ", corrected", g["corrected"]))
EOF
}

{ nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version;
  python3 -c 'import torch; print("torch", torch.__version__)'; date -u; git rev-parse HEAD; } >"$OUT/environment.txt" 2>&1
for step in "${steps[@]}"; do
  "step_$step" || status=1
done

[[ -s $RUN/logs/headline.txt ]] && cp "$RUN/logs/headline.txt" "$OUT/headline.txt"
tar -czf "$OUT/validation-run.tar.gz" -C "$RUN" devices profiles measured logs $([[ -d $RUN/chart ]] && echo chart) 2>/dev/null
{
  echo "== validate-gpu summary ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)) =="
  for row in "${summary[@]}"; do printf '%-32s %s\n' "${row%%|*}" "${row#*|}"; done
  [[ -s $RUN/logs/headline.txt ]] && cat "$RUN/logs/headline.txt"
} | tee "$OUT/summary.txt"
exit $status
