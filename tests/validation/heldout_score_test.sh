#!/usr/bin/env bash
# scripts/dev/heldout-score.sh on run folders made from committed data: three programs of the
# 2026-11-24 corpus runs (docs/validation/2026-11-24-latency, an H200 and an H100, each with
# MPS 50 % / 25 % partitions) in the layout heldout-gpu.sh leaves. Checks how many predictions
# land in each kind of pair, the output files, and the refusals of bad input.
# Usage: heldout_score_test.sh ROOFCAST_BINARY
set -uo pipefail
roofcast=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 not found (heldout-score.sh needs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $1"; failures=$((failures + 1)); }

# stream (4 kernels), sgemm (2) and atomics (6): 12 kernels a reference.
committed=$root/docs/validation/2026-11-24-latency
for gpu in h200 h100; do
  run=$work/$gpu-run
  mkdir -p "$run"/{devices,profiles,measured}
  cp "$committed/$gpu-run"/devices/{full,mps50,mps25}.json "$run/devices/"
  for program in stream sgemm atomics; do
    cp "$committed/$gpu-run/profiles/$program.json" "$run/profiles/"
    cp "$committed/$gpu-run"/measured/mps{50,25}-"$program".json "$run/measured/"
  done
done
# A device name is data: a pipe in it must not break the markdown tables.
python3 - "$work/h100-run/devices/mps25.json" <<'PY'
import json, sys
device = json.load(open(sys.argv[1]))
device["name"] = "NVIDIA H100 80GB HBM3 (MPS 25%) | quarter"
json.dump(device, open(sys.argv[1], "w"))
PY

score() { ROOFCAST=$roofcast "$root/scripts/dev/heldout-score.sh" "$@" >"$work/out.txt" 2>&1; }
# The last call exited 1 (rc) with this message.
refused() { [[ $rc == 1 ]] && grep -qF -- "$1" "$work/out.txt"; }
expect_line() {
  grep -qF -- "$2" "$1" || fail "$(basename "$1") has no line with: $2"
}

# Both runs, each the reference in turn; called from another folder, with relative paths.
(cd "$work" && ROOFCAST=$roofcast "$root/scripts/dev/heldout-score.sh" scores h200-run h100-run >"$work/out.txt" 2>&1)
rc=$?
[[ $rc == 0 ]] || fail "two runs: exit $rc: $(cat "$work/out.txt")"
summary=$work/scores/summary.md
for f in h200-run-thesis h200-run-pipes h100-run-thesis h100-run-pipes; do
  [[ -s $work/scores/$f.json && -s $work/scores/$f.md ]] || fail "no $f.json / $f.md"
done
# 2 references x 12 kernels: the other GPU whole (24), its two partitions (48), the reference's
# own partitions (48), the reference itself (24).
for model in thesis pipes; do
  expect_line "$summary" "| $model | 72 |"
  expect_line "$summary" "| $model | cross-GPU, whole GPU | 24 |"
  expect_line "$summary" "| $model | cross-GPU, MPS partitions | 48 |"
  expect_line "$summary" "| $model | MPS partitions of the reference GPU | 48 |"
  expect_line "$summary" "| $model | self-pairs (the reference GPU itself) | 24 |"
done
expect_line "$summary" "| NVIDIA H100 80GB HBM3 -> NVIDIA H200 | cross-GPU, whole GPU | 12 |"
expect_line "$summary" "| NVIDIA H200 -> NVIDIA H100 80GB HBM3 (MPS 25%) \\| quarter | cross-GPU, MPS partitions | 12 |"
expect_line "$summary" "| NVIDIA H200 -> NVIDIA H200 | self-pairs (the reference GPU itself) | 12 |"
expect_line "$summary" "| pipes without latency | 72 |"
expect_line "$summary" "| atomics | 36 |"
expect_line "$summary" "Programs (3, 12 kernels): atomics, sgemm, stream."
# The predictions name the profiles by paths inside the checkout, as the committed reports do.
grep -q '"profile": "/' "$work/scores/h200-run-pipes.json" && fail "absolute profile paths in h200-run-pipes.json"
cmp -s "$summary" "$work/out.txt" || fail "stdout is not summary.md"

# One run: scored, with no cross-GPU pairs, and said so.
score "$work/one" "$work/h100-run" || fail "one run: exit $?: $(cat "$work/out.txt")"
expect_line "$work/one/summary.md" "No cross-GPU pairs"
expect_line "$work/one/summary.md" "| pipes | self-pairs (the reference GPU itself) | 12 |"

# Refused: the same GPU twice, a folder that is no run, a run without profiles, bad usage.
cp -r "$work/h100-run" "$work/other-h100-run"
score "$work/bad" "$work/h100-run" "$work/other-h100-run"
rc=$?
refused "both runs are of NVIDIA H100 80GB HBM3" || fail "the same GPU twice: exit $rc, $(cat "$work/out.txt")"
mkdir -p "$work/empty"
score "$work/bad" "$work/empty"
rc=$?
refused "empty/devices/full.json: missing" || fail "no run: exit $rc, $(cat "$work/out.txt")"
rm "$work/other-h100-run"/profiles/*.json
score "$work/bad" "$work/other-h100-run"
rc=$?
refused "no kernel profiles" || fail "no profiles: exit $rc, $(cat "$work/out.txt")"
score "$work/bad"
rc=$?
[[ $rc == 2 ]] || fail "no run folder: exit $rc, expected 2"
[[ ! -e $work/bad/summary.md ]] || fail "a refused call wrote summary.md"

((failures == 0)) && echo "heldout-score: all checks passed"
exit $((failures > 0))
