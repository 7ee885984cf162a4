#!/usr/bin/env bash
# Every reference -> target pair of the validation corpus, with no GPU: the files two runs of
# scripts/dev/validate-gpu.sh left (an H200 run with its MPS partitions, and an H100 run), scored
# with the thesis model and the pipes model with its ablation, from each GPU as reference.
#
# Usage: scripts/dev/validate-corpus.sh H200_RUN H100_RUN OUTPUT_DIR
#   H200_RUN, H100_RUN: the runs' folders (devices/, profiles/, measured/ from
#   validation-run.tar.gz). Writes per reference and model: <ref>-<model>.{json,md,txt}, and
#   summary.md (scripts/dev/corpus-summary.py: the cross-GPU pairs as the headline, the
#   reference's own partitions and the self-pairs apart, each with and without the pipes model's
#   reference-time term; the ablation of every term) in OUTPUT_DIR. The ctest corpus_summary
#   runs this on the committed runs and compares with docs/validation/2026-11-25-accuracy.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOFCAST=${ROOFCAST:-build/bin/roofcast}
[[ $# == 3 ]] || { echo "usage: $0 H200_RUN H100_RUN OUTPUT_DIR" >&2; exit 2; }
H200=$1 H100=$2 OUTDIR=$3
mkdir -p "$OUTDIR"

device_name() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$1"; }

# Targets: both whole GPUs and their MPS partitions, each with the files that time it there.
targets=(--device "$H200/devices/full.json" --device "$H100/devices/full.json")
for run in "$H200" "$H100"; do
  for p in 50 25; do
    [[ -e $run/devices/mps$p.json ]] || continue
    targets+=(--device "$run/devices/mps$p.json")
    name=$(device_name "$run/devices/mps$p.json")
    for f in "$run"/measured/mps$p-*.json; do [[ -e $f ]] && targets+=(--measured "$name=$f"); done
  done
done

for reference in h200 h100; do
  if [[ $reference == h200 ]]; then ref_dir=$H200 other_dir=$H100; else ref_dir=$H100 other_dir=$H200; fi
  args=()
  for f in "$ref_dir"/profiles/*.json; do args+=(--reference-profile "$f"); done
  # The other GPU's kernel profiles carry its measured times.
  for f in "$other_dir"/profiles/*.json; do args+=(--measured "$f"); done
  for model in thesis pipes; do
    extra=()
    [[ $model == pipes ]] && extra=(--ablation)
    "$ROOFCAST" validate "${args[@]}" "${targets[@]}" --allow-missing --model "$model" "${extra[@]}" \
      --output "$OUTDIR/$reference-$model.json" --markdown "$OUTDIR/$reference-$model.md" \
      >"$OUTDIR/$reference-$model.txt" 2>"$OUTDIR/$reference-$model.notes.txt"
  done
done
python3 scripts/dev/corpus-summary.py "$OUTDIR" >"$OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
