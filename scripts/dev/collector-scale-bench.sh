#!/usr/bin/env bash
# On the GPU machine (issue 15): the collector at application scale. After building roofcast,
# roofcast-cupti, roofcast_injection and the workloads in BUILD:
#  1. workloads/heat2d (20,802 launches of 6 kernels): the app alone, `roofcast profile` with the
#     full metric set (default sample) and --timing-only, and ncu with the same metrics and cache
#     control on as many launches as roofcast profiled and on the first NCU_LAUNCHES; where the
#     counter run's time goes, from the collector's per-launch costs (--records-dir).
#  2. Sampled (default --sample 5) against --sample all on the corpus workloads (thesis counters).
# Usage: scripts/dev/collector-scale-bench.sh [BUILD] [RESULTS]   PARTS="scale sample" picks parts.
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
  echo "commands: scripts/dev/collector-scale-bench.sh $BUILD <results> (PARTS=\"$PARTS\")"
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
