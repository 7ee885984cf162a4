#!/usr/bin/env bash
# On the GPU machine, after a build in BUILD (default build-gpu): checks the CUPTI collector
# end to end and against Nsight Compute. Writes everything to RESULTS (default
# $OUT/profiler or ./profiler-check-out) and prints a short table last.
# Usage: profiler/scripts/gpu-profiler-check.sh [BUILD] [RESULTS]
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

# 1. Our test program: profile, then ncu with the same metrics, then compare.
METRICS=$("$BIN/roofcast" profile --list-metrics --metrics full --chip GH100 | awk '/__/{print $1}' | paste -sd,)
if want testapp; then
$T "$BIN/roofcast" profile --per-launch --records-dir "$R/testapp-records" -o "$R/testapp-profile.json" -- "$APP" >"$R/testapp-profile.log" 2>&1
note "profile test app" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/testapp-profile.log")"
# Its copies (full size: n = 1056 x 256): bytes per (kind, pinned) as the app copies them.
note "test app transfers" "$(python3 - "$R/testapp-profile.json" <<'PY' 2>&1
import json, sys
n = 1056 * 256
# d2h pageable: the triad check (4 B), the pipe kernels' read-backs (8 x n floats) and the
# atomic counts (65 words).
expected = {"h2d_pageable": 16 * n, "h2d_pinned": 4 * n, "d2d_pinned": 4 * n, "d2h_pinned": 4 * n,
            "d2h_pageable": 4 + 8 * 4 * n + 65 * 4}
found = {f"{t['kind']}_{'pinned' if t['pinned'] else 'pageable'}": t for t in json.load(open(sys.argv[1])).get("transfers", [])}
text = ", ".join(f"{k} {t['count']:g}x {t['bytes']:.0f} B {t['measured_ms']:.3f} ms" for k, t in found.items())
ok = {k: t["bytes"] for k, t in found.items()} == expected
print(("ok: " if ok else f"FAILED (expected bytes {expected}): ") + text)
PY
)"
# ncu defaults (caches flushed before every pass, clocks locked to base), then ncu with neither
# (--cache-control none --clock-control none), as roofcast runs.
for cache in all none; do
  controls=(--cache-control all)
  [[ $cache == none ]] && controls=(--cache-control none --clock-control none)
  $T ncu --metrics "$METRICS" "${controls[@]}" -f -o "$R/testapp-ncu-$cache" "$APP" >"$R/testapp-ncu-$cache.log" 2>&1
  ncu_csv "$R/testapp-ncu-$cache.ncu-rep" "$R/testapp-ncu-$cache.csv"
  python3 profiler/scripts/compare_with_ncu.py "$R/testapp-profile.json" "$R/testapp-ncu-$cache.csv" --label "test app, ncu ${controls[*]}" >"$R/compare-testapp-$cache.txt" 2>&1
  note "test app vs ncu ($cache)" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-testapp-$cache.txt")"
  python3 profiler/scripts/compare_with_ncu.py "$R/testapp-profile.json" "$R/testapp-ncu-$cache.csv" --cache-dependent report --label "test app, ncu ${controls[*]}" >"$R/compare-testapp-$cache-report.txt" 2>&1
  note "  same, DRAM/L2 reported apart" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-testapp-$cache-report.txt")"
done
"$BIN/roofcast" import ncu "$R/testapp-ncu-all.csv" -o "$R/testapp-imported.json" >"$R/import.log" 2>&1
note "import ncu csv" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/import.log")"
fi

# 2. PyTorch: matmul, elementwise, reduction.
if want torch; then
TORCH="python3 profiler/scripts/torch_workload.py"
$T "$BIN/roofcast" profile --per-launch -o "$R/torch-profile.json" -- $TORCH >"$R/torch-profile.log" 2>&1
note "profile torch" "$([[ $? == 0 ]] && echo ok || echo FAILED): $(tail -1 "$R/torch-profile.log")"
$T ncu --metrics "$METRICS" -f -o "$R/torch-ncu" $TORCH >"$R/torch-ncu.log" 2>&1
ncu_csv "$R/torch-ncu.ncu-rep" "$R/torch-ncu.csv"
python3 profiler/scripts/compare_with_ncu.py "$R/torch-profile.json" "$R/torch-ncu.csv" --label "torch" >"$R/compare-torch.txt" 2>&1
note "torch vs ncu" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-torch.txt")"
python3 profiler/scripts/compare_with_ncu.py "$R/torch-profile.json" "$R/torch-ncu.csv" --cache-dependent report --label "torch" >"$R/compare-torch-report.txt" 2>&1
note "  same, DRAM/L2 reported apart" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-torch-report.txt")"
# ncu without its clock locking (our runs leave the clocks alone): dynamic counters such as occupancy.
$T ncu --metrics "$METRICS" --clock-control none -f -o "$R/torch-ncu-clocks" $TORCH >"$R/torch-ncu-clocks.log" 2>&1
ncu_csv "$R/torch-ncu-clocks.ncu-rep" "$R/torch-ncu-clocks.csv"
python3 profiler/scripts/compare_with_ncu.py "$R/torch-profile.json" "$R/torch-ncu-clocks.csv" --cache-dependent report --label "torch, ncu --clock-control none" >"$R/compare-torch-clocks-report.txt" 2>&1
note "torch vs ncu, clocks not locked" "$([[ $? == 0 ]] && echo ok || echo MISMATCH): $(tail -1 "$R/compare-torch-clocks-report.txt")"
# ncu against itself (a second run): how far its own numbers move between runs.
$T ncu --metrics "$METRICS" -f -o "$R/torch-ncu2" $TORCH >"$R/torch-ncu2.log" 2>&1
ncu_csv "$R/torch-ncu2.ncu-rep" "$R/torch-ncu2.csv"
"$BIN/roofcast" import ncu "$R/torch-ncu2.csv" -o "$R/torch-ncu2.json" >>"$R/import.log" 2>&1
python3 profiler/scripts/compare_with_ncu.py "$R/torch-ncu2.json" "$R/torch-ncu.csv" --cache-dependent report --label "torch, ncu run 2 vs ncu run 1" >"$R/compare-torch-ncu-vs-ncu.txt" 2>&1
note "torch: ncu vs ncu (noise)" "$([[ $? == 0 ]] && echo ok || echo DIFFERS): $(tail -1 "$R/compare-torch-ncu-vs-ncu.txt")"
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
DEVICE=$(ls "$R"/device.json "$R"/../bench/device.json data/devices/*h100*.json data/devices/*H100*.json data/devices/*h200*.json 2>/dev/null | head -1)
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
