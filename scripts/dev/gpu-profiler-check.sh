#!/usr/bin/env bash
# On the GPU machine, after a build in BUILD (default build-gpu): checks the CUPTI collector
# end to end and against Nsight Compute. Writes everything to RESULTS (default
# $OUT/profiler or ./profiler-check-out) and prints a short table last.
# Usage: scripts/dev/gpu-profiler-check.sh [BUILD] [RESULTS]
# PROFILER_CHECK_PARTS (default "testapp torch robustness predict walltime") picks the parts.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build-gpu}
R=${2:-${OUT:-$PWD}/profiler}
mkdir -p "$R"
BIN=$PWD/$BUILD/bin
APP=$BIN/roofcast-profiler-test-app
summary=()
status=0
note() { summary+=("$1|$2"); [[ $2 == ok* ]] || status=1; }
now() { date +%s.%N; }
# The raw page of a report as CSV, kernels by mangled name (plain names if this ncu refuses).
ncu_csv() {
  ncu -i "$1" --csv --page raw --print-units base --print-kernel-base mangled >"$2" 2>"$2.err" ||
    ncu -i "$1" --csv --page raw --print-units base >"$2" 2>>"$2.err"
}
T="timeout -k 5 150"  # nothing here may hang the whole check
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
PARTS=" ${PROFILER_CHECK_PARTS:-testapp torch robustness predict walltime} "
want() { [[ $PARTS == *" $1 "* ]]; }

{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; ncu --version; } >"$R/environment.txt" 2>&1
$T "$BIN/roofcast" profile --list-metrics >"$R/list-metrics.txt" 2>&1 && note "list-metrics" "ok: $(tail -1 "$R/list-metrics.txt")" || note "list-metrics" "FAILED"

# ncu NCU_RUNS times on the same command, with roofcast's cache and clock policy.
NCU_RUNS=${NCU_RUNS:-3}
ncu_runs() {  # NAME COMMAND...: ncu NCU_RUNS times; prints the CSV paths
  local name=$1; shift
  for run in $(seq 1 "$NCU_RUNS"); do
    $T ncu --metrics "$METRICS" --cache-control all --clock-control none -f -o "$R/$name-ncu-$run" "$@" >"$R/$name-ncu-$run.log" 2>&1
    ncu_csv "$R/$name-ncu-$run.ncu-rep" "$R/$name-ncu-$run.csv"
    echo "$R/$name-ncu-$run.csv"
  done
}

# 1. Our test program: profile, then ncu with the same metrics, then compare.
METRICS=$("$BIN/roofcast" profile --list-metrics --metrics full --chip GH100 | awk '/__/{print $1}' | paste -sd,)
if want testapp; then
$T "$BIN/roofcast" profile --per-launch --sample all --records-dir "$R/testapp-records" -o "$R/testapp-profile.json" -- "$APP" >"$R/testapp-profile.log" 2>&1
note "profile test app" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/testapp-profile.log")"
# Its copies (full size: n = 1056 x 256): bytes per (kind, pinned) as the app copies them.
note "test app transfers" "$(python3 - "$R/testapp-profile.json" <<'PY' 2>&1
import json, sys
n = 1056 * 256
# d2h pageable: the triad check (4 B), the pipe kernels' read-backs (8 x n floats) and the
# atomic counts (65 words) and the graph check (4 B).
expected = {"h2d_pageable": 16 * n, "h2d_pinned": 4 * n, "d2d_pinned": 4 * n, "d2h_pinned": 4 * n,
            "d2h_pageable": 4 + 8 * 4 * n + 65 * 4 + 4}
found = {f"{t['kind']}_{'pinned' if t['pinned'] else 'pageable'}": t for t in json.load(open(sys.argv[1])).get("transfers", [])}
text = ", ".join(f"{k} {t['count']:g}x {t['bytes']:.0f} B {t['measured_ms']:.3f} ms" for k, t in found.items())
ok = {k: t["bytes"] for k, t in found.items()} == expected
print(("ok: " if ok else f"FAILED (expected bytes {expected}): ") + text)
PY
)"
# Against ncu with its default cache control (L2 emptied before every pass, as roofcast's
# default --cache-control all does) and without its clock locking (roofcast leaves the clocks
# alone): every counter within 1 % of ncu, instruction counts exact. ncu runs three times: a
# counter outside 1 % of the first run but within the spread of the three is reported apart
# (ncu does not reproduce DRAM write-backs, occupancy or racing atomics' conflicts either).
mapfile -t testapp_csvs < <(ncu_runs testapp "$APP")
python3 scripts/dev/compare-with-ncu.py "$R/testapp-profile.json" "${testapp_csvs[@]}" --label "test app, ncu --cache-control all --clock-control none" >"$R/compare-testapp.txt" 2>&1
note "test app vs ncu" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-testapp.txt")"
# roofcast --cache-control none (CUPTI's kernel replay): DRAM/L2 counters then depend on the cache
# state the memory restore leaves; reported, not checked.
$T "$BIN/roofcast" profile --sample all --cache-control none -o "$R/testapp-profile-cache-none.json" -- "$APP" >"$R/testapp-profile-cache-none.log" 2>&1
python3 scripts/dev/compare-with-ncu.py "$R/testapp-profile-cache-none.json" "${testapp_csvs[@]}" --cache-dependent report --label "test app, roofcast --cache-control none" >"$R/compare-testapp-cache-none.txt" 2>&1
note "  roofcast --cache-control none" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-testapp-cache-none.txt")"
"$BIN/roofcast" import ncu "${testapp_csvs[0]}" -o "$R/testapp-imported.json" >"$R/import.log" 2>&1
note "import ncu csv" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/import.log")"
fi

# 2. PyTorch: matmul, elementwise, reduction.
if want torch; then
TORCH="python3 scripts/dev/torch-workload.py"
$T "$BIN/roofcast" profile --per-launch --sample all -o "$R/torch-profile.json" -- $TORCH >"$R/torch-profile.log" 2>&1
note "profile torch" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/torch-profile.log")"
mapfile -t torch_csvs < <(ncu_runs torch $TORCH)
python3 scripts/dev/compare-with-ncu.py "$R/torch-profile.json" "${torch_csvs[@]}" --label "torch, ncu --cache-control all --clock-control none" >"$R/compare-torch.txt" 2>&1
note "torch vs ncu" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-torch.txt")"
fi

# 3. Timing only, robustness (exit(), abort(), a child process), filters.
if want robustness; then
$T "$BIN/roofcast" profile --timing-only -o "$R/testapp-measured.json" -- "$APP" >"$R/timing-only.log" 2>&1
note "timing-only" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/timing-only.log")"
$T "$BIN/roofcast" profile -o "$R/exit3.json" -- "$APP" --small --exit 3 >"$R/exit3.log" 2>&1
rc=$?; note "app exit(3) passes through" "$([[ $rc == 3 && -s $R/exit3.json ]] && echo ok || echo FAILED) rc=$rc"
$T "$BIN/roofcast" profile -o "$R/abort.json" -- "$APP" --small --abort >"$R/abort.log" 2>&1
rc=$?; note "app abort() passes through" "$([[ $rc == 134 && -s $R/abort.json ]] && echo ok || echo FAILED) rc=$rc"
$T "$BIN/roofcast" profile --records-dir "$R/spawn-records" -o "$R/spawn.json" -- "$APP" --small --spawn >"$R/spawn.log" 2>&1
rc=$?; note "child process merged" "$([[ $rc == 0 ]] && python3 -c "import json,sys; k={x['name'].split('(')[0]:x['invocations'] for x in json.load(open(sys.argv[1]))['kernels']}; sys.exit(0 if k.get('fp32_fma_kernel')==6 else 1)" "$R/spawn.json" && echo ok || echo FAILED) rc=$rc"
$T "$BIN/roofcast" profile -k stream_triad -s 1 -c 2 -o "$R/filtered.json" -- "$APP" --small >"$R/filtered.log" 2>&1
note "filters -k -s -c" "$(python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kernels']; sys.exit(0 if len(k)==1 and k[0]['invocations']==2 else 1)" "$R/filtered.json" 2>/dev/null && echo ok || echo FAILED)"
fi

# 4. Profile -> predict with the bench's device profile for this GPU when there is one.
if want predict; then
GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$GPU_NAME" in *H100*) MEASURED=data/devices/measured/h100-sxm.json ;; *H200*) MEASURED=data/devices/measured/h200-sxm.json ;; *) MEASURED= ;; esac
DEVICE=$(ls "$R"/device.json "$R"/../bench/device.json $MEASURED 2>/dev/null | head -1)
[[ -n $DEVICE ]] || DEVICE=$(ls "$OUT"/*device*.json 2>/dev/null | head -1)
if [[ -n $DEVICE ]]; then
  "$BIN/roofcast" predict --profile "$R/testapp-profile.json" --device "$DEVICE" >"$R/predict.txt" 2>&1
  note "predict with $DEVICE" "$([[ $? == 0 ]] && echo ok || echo FAILED)"
else
  "$BIN/roofcast" predict --profile "$R/testapp-profile.json" --device GTX-660 >"$R/predict.txt" 2>&1
  note "predict (no bench profile yet; GTX-660)" "$([[ $? == 0 ]] && echo ok || echo FAILED)"
fi
fi

# 5. Wall time for the nine thesis metrics: roofcast profile (both runs) vs ncu, same app.
if want walltime; then
THESIS=$("$BIN/roofcast" profile --list-metrics --metrics thesis --chip GH100 | awk '/__/{print $1}' | paste -sd,)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  for i in 1 2 3; do
    t0=$(now); $T "$APP" >/dev/null 2>&1; t1=$(now)
    $T "$BIN/roofcast" profile --metrics thesis -o /tmp/thesis.json -- "$APP" >/dev/null 2>&1; t2=$(now)
    $T ncu --metrics "$THESIS" -f -o /tmp/thesis-ncu "$APP" >/dev/null 2>&1; t3=$(now)
    echo "repeat $i: app alone $(elapsed $t0 $t1) s; roofcast profile --metrics thesis $(elapsed $t1 $t2) s; ncu --metrics <thesis nine> $(elapsed $t2 $t3) s; ratio roofcast/ncu $(python3 -c "print(f'{($t2-$t1)/($t3-$t2):.3f}')")"
  done
  echo "commands: roofcast profile --metrics thesis -o thesis.json -- $APP ; ncu --metrics $THESIS -o thesis-ncu $APP"
} >"$R/walltime.txt" 2>&1
note "wall time" "ok: $(grep 'repeat 3' "$R/walltime.txt" | sed 's/.*ratio/ratio/')"
fi

echo
echo "== profiler check =="
for row in "${summary[@]}"; do printf '%-36s %s\n' "${row%%|*}" "${row#*|}"; done
exit $status
