#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), in one call of about 7 minutes on an H100 or H200
# with 16 cores: the latency-class workloads of issue 28 (workloads/latency_classes.json, one
# program per class) through scripts/dev/validate-gpu.sh's steps build, reference and
# partitions: build for Hopper, bench the whole GPU, profile each program with the full counter
# set, then under MPS 50 % and 25 % bench each partition and time the programs. Then each
# kernel's time per launch on each device, and the scores of the design half on this GPU
# (scripts/dev/latency-classes-score.py: this GPU's profiles as reference, the GPU and its
# partitions as targets).
#
# Results under $OUT (or ./latency-classes-out): validation-run.tar.gz (devices/, profiles/,
# measured/, logs/: the run folder that latency-classes-score.py reads), environment.txt,
# kernel-times.txt, latency-classes.md and .json (the design half's scores), summary.txt (the
# steps, then the two tables printed last). validate-gpu.sh's own validate step is left out: it
# would score the held-out half too.
#
# Cross-GPU scores, on any machine with a build of roofcast: run this once on an H100 and once on
# an H200, unpack each validation-run.tar.gz into a folder of its own, then
#   scripts/dev/latency-classes-score.py H100_RUN H200_RUN
#
# Usage: scripts/dev/latency-classes-gpu.sh [step...]   (validate-gpu.sh's steps; default
#   build reference partitions). Environment: validate-gpu.sh's (RUN_ARGS, PARTITIONS,
#   BENCH_ARGS), with BUILD [build-gpu-latency] and DEADLINE_S [500]: the scoring and the
#   packing run after it, inside one 10-minute call.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export OUT=${OUT:-$ROOT/latency-classes-out}
export BUILD=${BUILD:-build-gpu-latency}
export DEADLINE_S=${DEADLINE_S:-500}
mkdir -p "$OUT"
RUN=$ROOT/$BUILD/validation-run

PROGRAMS=$(python3 -c 'import json, sys; print(" ".join(c["program"] for c in json.load(open(sys.argv[1]))["classes"]))' \
  workloads/latency_classes.json) || { echo "error: workloads/latency_classes.json: cannot read its programs" >&2; exit 1; }
export PROGRAMS

steps=("$@")
((${#steps[@]})) || steps=(build reference partitions)
scripts/dev/validate-gpu.sh "${steps[@]}" >"$OUT/validate-gpu.txt" 2>&1
status=$?

# Each manifest kernel's time per launch (mean over its launches) on each device of the run.
python3 - "$RUN" workloads/latency_classes.json >"$OUT/kernel-times.txt" <<'EOF'
import json, re, sys
from pathlib import Path
run, manifest = Path(sys.argv[1]), json.load(open(sys.argv[2]))
def times(files):
    found = {}
    for f in files:
        try:
            kernels = json.load(open(f)).get("kernels", [])
        except (OSError, ValueError):
            continue
        for k in kernels:
            name = re.match(r"(?:void\s+)?(\w+)", k.get("name", ""))
            if name and k.get("invocations"):
                found[name.group(1)] = 1000 * k["measured_ms"] / k["invocations"]
    return found
columns = [("whole GPU", times(sorted(run.glob("profiles/*.json"))))]
for p in sorted({f.name.split("-")[0] for f in run.glob("measured/mps*-*.json")}, key=lambda m: -int(m[3:])):
    columns.append((f"MPS {p[3:]} %", times(sorted(run.glob(f"measured/{p}-*.json")))))
print(f"{'kernel (us per launch)':32} {'half':9}" + "".join(f"{c:>12}" for c, _ in columns))
short = missing = 0
for k in manifest["kernels"]:
    cells = [t.get(k["kernel"]) for _, t in columns]
    flag = "  < 50 us" if cells[0] is not None and cells[0] < 50 else ""
    short += bool(flag)
    missing += cells[0] is None
    print(f"{k['kernel']:32} {k['half']:9}" + "".join(f"{c:12.1f}" if c is not None else f"{'-':>12}" for c in cells) + flag)
print(f"{short} kernel(s) under 50 us per launch on the whole GPU, {missing} not profiled"
      if short or missing else "every kernel profiled, each >= 50 us per launch on the whole GPU")
EOF

if [[ -x $BUILD/bin/roofcast && -e $RUN/devices/full.json ]]; then
  python3 scripts/dev/latency-classes-score.py --roofcast "$BUILD/bin/roofcast" --output "$OUT" "$RUN" \
    >"$OUT/latency-classes.txt" 2>&1 || status=1
else
  echo "not scored: no roofcast build or no device profile of the whole GPU" >"$OUT/latency-classes.txt"
  status=1
fi

{
  cat "$OUT/validate-gpu.txt"
  echo
  echo "== latency classes: kernel times ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)) =="
  cat "$OUT/kernel-times.txt"
  echo
  echo "== latency classes: design half on this GPU and its partitions (latency-classes.md has every prediction) =="
  # The first table (all pairs) of the score's summary, or its error.
  awk '/^## /{n++} n==1 && /^\|/' "$OUT/latency-classes.txt" | grep . || cat "$OUT/latency-classes.txt"
} | tee "$OUT/summary.txt"
exit $status
