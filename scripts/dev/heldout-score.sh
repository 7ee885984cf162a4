#!/usr/bin/env bash
# The held-out set's accuracy (docs/validation/heldout/README.md), with no GPU: from the run
# folders of scripts/dev/heldout-gpu.sh (one GPU each, with its MPS partitions), every reference ->
# target pair predicted by the current build with the thesis model and the pipes model (with its
# ablation), then summary.md: cross-GPU pairs as the headline, the reference's own MPS partitions
# and the self-pairs in rows of their own (scripts/dev/heldout-summary.py).
#
# Usage: scripts/dev/heldout-score.sh OUTPUT_DIR RUN_DIR [RUN_DIR]
#   RUN_DIR: one GPU's run (devices/full.json, devices/mpsNN.json, profiles/*.json,
#   measured/mpsNN-*.json: validation-run.tar.gz of heldout-gpu.sh, unpacked), e.g. an H100 run
#   and an H200 run; each is the reference in turn, and every device of every run a target.
#   The folders' names label the output files: <name>-<model>.{json,md,txt,notes.txt}.
# Environment: ROOFCAST, the roofcast binary [build/bin/roofcast of this checkout].
set -euo pipefail
usage() { echo "usage: $0 OUTPUT_DIR RUN_DIR [RUN_DIR]" >&2; exit 2; }
(($# == 2 || $# == 3)) || usage
# Paths relative to the checkout, as the reports then name them (the profiles' paths are in every
# prediction), whatever folder this was called from.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
relative() { realpath -m --relative-to="$ROOT" "$1"; }
OUTDIR=$(relative "$1")
shift
runs=()
for run in "$@"; do runs+=("$(relative "$run")"); done
ROOFCAST=$(realpath -m "${ROOFCAST:-$ROOT/build/bin/roofcast}")
cd "$ROOT"
fail() { echo "heldout-score: error: $1" >&2; exit 1; }
shown() { realpath -m "$1"; }  # a path in a message: absolute, whatever folder this was called from
# The "name" of a device profile, or a one-line error (exit 1).
device_name() {
  python3 - "$1" "$(shown "$1")" <<'EOF'
import json, sys
try:
    name = json.load(open(sys.argv[1]))["name"]
    assert isinstance(name, str) and name
except Exception as e:
    sys.exit(f"heldout-score: error: {sys.argv[2]}: no device name ({type(e).__name__}: {e})")
print(name)
EOF
}

[[ -x $ROOFCAST ]] || fail "$ROOFCAST: no roofcast binary (build it, or set ROOFCAST)"
labels=() names=()
for run in "${runs[@]}"; do
  [[ -f $run/devices/full.json ]] ||
    fail "$(shown "$run/devices/full.json"): missing (not a run folder of heldout-gpu.sh?)"
  compgen -G "$run/profiles/*.json" >/dev/null || fail "$(shown "$run/profiles"): no kernel profiles"
  label=$(basename "$(cd "$run" && pwd)")
  [[ $label =~ ^[A-Za-z0-9._-]+$ ]] ||
    fail "$(shown "$run"): the folder's name labels the output files: use letters, digits, . _ -"
  for other in "${labels[@]}"; do [[ $other != "$label" ]] || fail "$(shown "$run"): two run folders named $label"; done
  labels+=("$label")
  name=$(device_name "$run/devices/full.json")
  for other in "${names[@]}"; do
    [[ $other != "$name" ]] || fail "both runs are of $name: give runs of two different GPUs"
  done
  names+=("$name")
done
mkdir -p "$OUTDIR"

for i in "${!runs[@]}"; do
  reference=${runs[$i]}
  args=()
  for f in "$reference"/profiles/*.json; do args+=(--reference-profile "$f"); done
  for run in "${runs[@]}"; do
    args+=(--device "$run/devices/full.json")
    # Another GPU's kernel profiles are its measured times; the reference's own profiles time it.
    if [[ $run != "$reference" ]]; then
      for f in "$run"/profiles/*.json; do args+=(--measured "$f"); done
    fi
    # An MPS client reports the whole GPU's name: the partition's profile names its times.
    for device in "$run"/devices/mps*.json; do
      [[ -e $device ]] || continue
      partition=$(basename "$device" .json)
      args+=(--device "$device")
      name=$(device_name "$device")
      for f in "$run"/measured/"$partition"-*.json; do [[ -e $f ]] && args+=(--measured "$name=$f"); done
    done
  done
  for model in thesis pipes; do
    extra=()
    [[ $model == pipes ]] && extra=(--ablation)
    out=$OUTDIR/${labels[$i]}-$model
    "$ROOFCAST" validate "${args[@]}" --allow-missing --model "$model" "${extra[@]}" \
      --output "$out.json" --markdown "$out.md" >"$out.txt" 2>"$out.notes.txt" ||
      fail "roofcast validate failed for reference ${labels[$i]}, model $model: see $(shown "$out.notes.txt")"
  done
done

summary_args=()
for i in "${!runs[@]}"; do summary_args+=("${labels[$i]}=${runs[$i]}"); done
python3 scripts/dev/heldout-summary.py "$OUTDIR" "${summary_args[@]}" >"$OUTDIR/summary.md.tmp" ||
  { rm -f "$OUTDIR/summary.md.tmp"; exit 1; }
mv "$OUTDIR/summary.md.tmp" "$OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
