#!/usr/bin/env bash
# On the GPU machine, as root (MPS needs it), in one call of about 5 minutes: the held-out set
# (docs/validation/heldout/README.md, the programs of ROOFCAST_HELDOUT_WORKLOADS in
# workloads/CMakeLists.txt) through scripts/dev/validate-gpu.sh: build, bench the whole GPU,
# profile each program with the full counter set (the reference), bench the MPS 50 % and 25 %
# partitions and time the programs on each, and validate on this GPU.
#
# Results under $OUT (or ./heldout-gpu-out): validate-gpu.sh's files (validation-run.tar.gz holds
# devices/, profiles/, measured/ and logs/: unpacked, the run folder scripts/dev/heldout-score.sh
# scores) and kernel-times.txt: each kernel's median time on the whole GPU and on each partition,
# marked where a launch is under 50 us. Printed last: validate-gpu.sh's summary, then that table.
#
# Usage: scripts/dev/heldout-gpu.sh [step...]   (validate-gpu.sh's steps; default all)
# Environment: validate-gpu.sh's, except PROGRAMS (the held-out list); DEADLINE_S defaults to
# 480 here, so that the whole call ends within about 9 minutes.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# The list's one-line definition, not the later line that passes it to the parent scope.
PROGRAMS=$(sed -n '/PARENT_SCOPE/!s/^set(ROOFCAST_HELDOUT_WORKLOADS \(.*\))$/\1/p' workloads/CMakeLists.txt)
if [[ -z $PROGRAMS ]]; then
  echo "heldout-gpu: no one-line set(ROOFCAST_HELDOUT_WORKLOADS ...) in workloads/CMakeLists.txt" >&2
  exit 1
fi
export PROGRAMS
export OUT=${OUT:-$PWD/heldout-gpu-out}
export DEADLINE_S=${DEADLINE_S:-480}
export BUILD=${BUILD:-build-gpu-validation}

scripts/dev/validate-gpu.sh "$@"
status=$?

read -ra programs <<<"$PROGRAMS"
python3 - "$BUILD/validation-run" "${programs[@]}" >"$OUT/kernel-times.txt" <<'EOF'
import json, sys
from pathlib import Path
run, programs = Path(sys.argv[1]), sys.argv[2:]
def percent(stem):  # mps50 -> 50: the partitions from the largest
    return int(stem[3:]) if stem[3:].isdigit() else 0
partitions = sorted((p.stem for p in (run / "devices").glob("mps*.json")), key=percent, reverse=True)
def medians(path):
    try:
        return {k["name"]: k["median_ms"] for k in json.load(open(path))["kernels"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}
print("== held-out kernels: median ms per launch (! under 0.050 ms) ==")
print(f"{'kernel':<24}{'whole GPU':>9} " + "".join(f"{p:>9} " for p in partitions))
short = 0
for program in programs:
    whole = medians(run / "profiles" / f"{program}.json")
    if not whole:
        print(f"{program:<24} {'no profile':>10}")
        continue
    for name, ms in whole.items():
        times = [ms] + [medians(run / "measured" / f"{p}-{program}.json").get(name) for p in partitions]
        cells = "".join(f"{t:>9.3f}{'!' if t < 0.05 else ' '}" if t is not None else f"{'-':>10}" for t in times)
        short += any(t is not None and t < 0.05 for t in times)
        print(f"{name.split('(')[0]:<24}{cells}")
print(f"kernels with a launch under 50 us: {short}")
EOF
cat "$OUT/kernel-times.txt"
exit $status
