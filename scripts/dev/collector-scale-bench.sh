#!/usr/bin/env bash
# On the GPU machine (issue 15): the collector at application scale. After building roofcast,
# roofcast-cupti, roofcast_injection and the workloads in BUILD:
#  1. workloads/heat2d (20,802 launches of 6 kernels): the app alone, `roofcast profile` with the
#     full metric set (default sample) and --timing-only, and ncu with the same metrics and cache
#     control on as many launches as roofcast profiled and on the first NCU_LAUNCHES; where the
#     counter run's time goes, from the collector's per-launch costs (--records-dir).
#  2. Sampled (default --sample 5) against --sample all on the corpus workloads (thesis counters).
#  3. PARTS=ncu: on every corpus program (RUN_ARGS as scripts/dev/validate-gpu.sh runs them),
#     the wall time of `roofcast profile` (full metric set, default sample) against ncu with the
#     same metrics, cache and clock control, on as many launches as roofcast profiled (-c);
#     ncu-vs-roofcast.md is the table, with how many runs of the application roofcast made
#     (--runs auto: one, or two where some kernel's launches differ in time).
#     Stops starting programs NCU_PART_BUDGET_S seconds in; PROGRAMS="lmsor ..." picks programs;
#     torch_OP is workloads/pytorch_ops.py --op OP alone in its process (--warmups 2 --repeats 5,
#     its defaults: 8 launches of the op), e.g. torch_matmul_fp32, torch_layernorm, torch_softmax.
#     NCU_FILTER=per-launch-config: ncu profiles the first NCU_SAMPLE (5) launches of each kernel and
#     launch shape (--filter-mode per-launch-config -c 5 --kernel-name-base mangled: roofcast's
#     --sample 5 per shape; with ncu's default name base, template instances of one function share
#     a launch configuration and ncu profiles fewer launches than roofcast: 99 against 119 in
#     pytorch_ops) instead of the first N launches of the program.
# Usage: scripts/dev/collector-scale-bench.sh [BUILD] [RESULTS]   PARTS="scale sample ncu" picks parts
# (default "scale sample").
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build-gpu}
R=${2:-${OUT:-$PWD}/collector-scale}
BIN=$PWD/$BUILD/bin
PARTS=" ${PARTS:-scale sample} "
NCU_LAUNCHES=${NCU_LAUNCHES:-100}
mkdir -p "$R"
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
T="timeout -k 5 ${STEP_TIMEOUT:-200}"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "ncu: $(ncu --version 2>/dev/null | tail -1)"
  echo "commands: scripts/dev/collector-scale-bench.sh $BUILD <results> (PARTS=\"$PARTS\", PROGRAMS=\"${PROGRAMS:-}\", NCU_FILTER=${NCU_FILTER:-first})"
  echo "git: $(git describe --always --dirty 2>/dev/null)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"
} >"$R/environment.txt"

if [[ $PARTS == *" scale "* ]]; then
  APP=$BIN/roofcast-workload-heat2d
  METRICS=$("$BIN/roofcast" profile --list-metrics --metrics full | awk '/__/{print $1}' | paste -sd,)
  {
    for i in 1 2 3; do
      t0=$(now); $T "$APP" >"$R/heat2d-app-$i.log" 2>&1; t1=$(now)
      echo "app alone (run $i): $(elapsed $t0 $t1) s; $(grep '^solver' "$R/heat2d-app-$i.log")"
    done
    t0=$(now)
    $T "$BIN/roofcast" profile --timing-only -o "$R/heat2d-measured.json" -- "$APP" >"$R/heat2d-timing-only.log" 2>&1
    rc=$?; t1=$(now)
    echo "roofcast profile --timing-only: $(elapsed $t0 $t1) s, rc $rc: $(grep 'launches timed' "$R/heat2d-timing-only.log" | tail -1)"
    rm -rf "$R/heat2d-records"
    t0=$(now)
    $T "$BIN/roofcast" profile --records-dir "$R/heat2d-records" -o "$R/heat2d-profile.json" -- "$APP" \
      >"$R/heat2d-profile.log" 2>&1
    rc=$?; t1=$(now)
    echo "roofcast profile (full set, --sample 5): $(elapsed $t0 $t1) s, rc $rc: $(grep 'launches (' "$R/heat2d-profile.log" | tail -1)"
    profiled=$(python3 -c "import json,sys; print(sum(k.get('profiled_invocations',0) for k in json.load(open(sys.argv[1]))['kernels']))" "$R/heat2d-profile.json" 2>/dev/null || echo 32)
    t0=$(now)
    $T ncu --metrics "$METRICS" --cache-control all --clock-control none -c "$profiled" -f -o "$R/heat2d-ncu-c$profiled" "$APP" \
      >"$R/heat2d-ncu-c$profiled.log" 2>&1
    rc=$?; t1=$(now)
    echo "ncu, same metrics, --cache-control all --clock-control none -c $profiled (as many launches as roofcast profiled): $(elapsed $t0 $t1) s, rc $rc"
    t0=$(now)
    $T ncu --metrics "$METRICS" --cache-control all --clock-control none -c "$NCU_LAUNCHES" -f -o "$R/heat2d-ncu-c$NCU_LAUNCHES" "$APP" \
      >"$R/heat2d-ncu-c$NCU_LAUNCHES.log" 2>&1
    rc=$?; t1=$(now)
    echo "ncu, same metrics and cache control, -c $NCU_LAUNCHES: $(elapsed $t0 $t1) s, rc $rc"
  } >"$R/heat2d-scale.txt" 2>&1
  python3 scripts/dev/collector-costs.py "$R/heat2d-records" "$R/heat2d-scale.txt" >"$R/where-the-time-goes.txt" 2>&1
  cat "$R/heat2d-scale.txt" "$R/where-the-time-goes.txt"
fi

if [[ $PARTS == *" sample "* ]]; then
  : >"$R/sample-vs-all.txt"
  for workload in ${SAMPLE_WORKLOADS:-redblack_sor lmsor sgemm stream int_heavy divergent short_kernel serial_latency launch_chain low_occupancy atomics graph_gather merge_sort}; do
    APP=$BIN/roofcast-workload-$workload
    [[ -x $APP ]] || continue
    $T "$BIN/roofcast" profile --metrics thesis -o "$R/sample-$workload.json" -- "$APP" --small >"$R/sample-$workload.log" 2>&1
    $T "$BIN/roofcast" profile --metrics thesis --sample all -o "$R/all-$workload.json" -- "$APP" --small >"$R/all-$workload.log" 2>&1
    python3 scripts/dev/compare-sampled-profiles.py "$R/sample-$workload.json" "$R/all-$workload.json" --label "$workload" \
      >>"$R/sample-vs-all.txt" 2>&1
  done
  cat "$R/sample-vs-all.txt"
fi

if [[ $PARTS == *" ncu "* ]]; then
  METRICS=$("$BIN/roofcast" profile --list-metrics --metrics full | awk '/__/{print $1}' | paste -sd,)
  RUN_ARGS=${RUN_ARGS:-"--warmups 1 --repeats 3"}
  N="$R/ncu-vs-roofcast"
  mkdir -p "$N"
  : >"$N/times.tsv"
  part_start=$(date +%s)
  programs=()
  for w in ${PROGRAMS:-redblack_sor lmsor sgemm stream int_heavy divergent short_kernel serial_latency launch_chain \
    low_occupancy atomics graph_gather merge_sort bulk_copy pytorch_ops}; do
    if [[ $w == pytorch_ops ]]; then
      programs+=("pytorch_ops|python3 $PWD/workloads/pytorch_ops.py $RUN_ARGS")
    elif [[ $w == torch_* ]]; then
      programs+=("$w|python3 $PWD/workloads/pytorch_ops.py --op ${w#torch_} ${ONE_OP_ARGS:---warmups 2 --repeats 5}")
    else
      programs+=("$w|$BIN/roofcast-workload-$w $RUN_ARGS")
    fi
  done
  for entry in "${programs[@]}"; do
    w=${entry%%|*}
    read -ra cmd <<<"${entry#*|}"
    if (($(date +%s) - part_start > ${NCU_PART_BUDGET_S:-240})); then
      printf '%s\tskipped: past NCU_PART_BUDGET_S\n' "$w" >>"$N/times.tsv"
      continue
    fi
    if [[ $w == pytorch_ops || $w == torch_* ]] && ! python3 -c 'import torch; assert torch.cuda.is_available()' >/dev/null 2>&1; then
      printf '%s\tskipped: no PyTorch with CUDA here\n' "$w" >>"$N/times.tsv"
      continue
    fi
    [[ -x ${cmd[0]} || ${cmd[0]} == python3 ]] || { printf '%s\tskipped: not built\n' "$w" >>"$N/times.tsv"; continue; }
    t0=$(now); $T "${cmd[@]}" >"$N/$w-app.log" 2>&1; rc_app=$?; t1=$(now); app=$(elapsed $t0 $t1)
    t0=$(now)
    $T "$BIN/roofcast" profile -o "$N/$w-roofcast.json" -- "${cmd[@]}" >"$N/$w-roofcast.log" 2>&1
    rc_r=$?; t1=$(now); roof=$(elapsed $t0 $t1)
    read -r launches profiled < <(python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels']; print(sum(x['invocations'] for x in k), sum(x.get('profiled_invocations', x['invocations']) for x in k))" "$N/$w-roofcast.json" 2>/dev/null || echo "0 0")
    if [[ ${NCU_FILTER:-first} == per-launch-config ]]; then
      ncu_launches_filter=(--filter-mode per-launch-config -c "${NCU_SAMPLE:-5}" --kernel-name-base mangled)
    else
      ncu_launches_filter=(-c "$profiled")
    fi
    if ((profiled > 0)); then
      t0=$(now)
      $T ncu --metrics "$METRICS" --cache-control all --clock-control none "${ncu_launches_filter[@]}" -f -o "$N/$w-ncu" \
        "${cmd[@]}" >"$N/$w-ncu.log" 2>&1
      rc_n=$?; t1=$(now); ncu_s=$(elapsed $t0 $t1)
      ncu_launches=$(grep -c '^==PROF== Profiling "' "$N/$w-ncu.log")
    else
      rc_n=-; ncu_s=-; ncu_launches=0
    fi
    rm -f "$N/$w-ncu.ncu-rep"  # large; the log keeps what ncu profiled
    # Runs of the application, and shapes sampled over the run in the first run / by a counter run.
    runs=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['collector']; print(f\"{c.get('runs', 2)} ({c.get('in_run_spread_shapes', 0)}/{c.get('spread_shapes', 0)})\")" "$N/$w-roofcast.json" 2>/dev/null || echo -)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$launches" "$profiled" "$runs" "$ncu_launches" "$app" \
      "$roof" "$ncu_s" "$rc_app" "$rc_r" "$rc_n" >>"$N/times.tsv"
  done
  python3 - "$N/times.tsv" >"$R/ncu-vs-roofcast.md" <<'PY'
import sys
print("| program | launches | profiled by roofcast | runs of the application (shapes spread in the first run / by a counter run) | profiled by ncu | app alone (s) "
      "| roofcast profile (s) | ncu (s) | roofcast / ncu | exit codes app/roofcast/ncu |")
print("|---|---|---|---|---|---|---|---|---|---|")
def ratio(a, b):
    try:
        return f"{float(a) / float(b):.2f}" + (" **slower**" if float(a) > float(b) else "")
    except ValueError:
        return "-"
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 11:
        print(f"| {f[0]} | {f[1] if len(f) > 1 else ''} |  |  |  |  |  |  |  |  |")
        continue
    w, launches, profiled, runs, ncu_launches, app, roof, ncu, ra, rr, rn = f
    print(f"| {w} | {launches} | {profiled} | {runs} | {ncu_launches} | {app} | {roof} | {ncu} | {ratio(roof, ncu)} "
          f"| {ra}/{rr}/{rn} |")
PY
  cat "$R/ncu-vs-roofcast.md"
fi
