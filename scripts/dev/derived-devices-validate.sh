#!/usr/bin/env bash
# Validates device profiles derived from the spec table (docs/derived-devices.md) on the
# validation corpus, with no GPU, scored as scripts/dev/validate-corpus.sh scores it: from each
# GPU's kernel profiles as reference (its measured device profile, the run's), every target of the
# two runs (the other GPU and its MPS 50 % / 25 % partitions, the reference's own partitions),
# pipes model, with and without its reference-time term. Three times, the targets' device
# profiles swapped (the reference's own whole-GPU profile stays the run's: it is the GPU we have):
#   measured   the runs' own device profiles (devices/{full,mps50,mps25}.json), as validate-corpus.sh
#   same-gpu   derived from the spec table with the achieved/peak of the same GPU's measured
#              profile (data/devices/measured): as if the GPU had never been benched
#   other-gpu  derived with the OTHER GPU's achieved/peak only (H200 from the H100's, H100 from the
#              H200's): the honest test of a GPU we do not have
# Then compares every derived profile with the run's measured one key by key.
#
# Usage: scripts/dev/derived-devices-validate.sh H200_RUN H100_RUN OUTPUT_DIR
# Writes OUTPUT_DIR/{measured,same-gpu,other-gpu}/{devices/*.json,<ref>-pipes.{json,txt}},
# keys.md and summary.md (printed last).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOFCAST=${ROOFCAST:-build/bin/roofcast}
[[ $# == 3 ]] || { echo "usage: $0 H200_RUN H100_RUN OUTPUT_DIR" >&2; exit 2; }
declare -A RUN=([h200]=$1 [h100]=$2)
OUTDIR=$3
declare -A OTHER=([h200]=h100 [h100]=h200)
PARTS=(full mps50 mps25)
declare -A SHARE=([full]=100 [mps50]=50 [mps25]=25)

device_name() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$1"; }

# The files that time GPU $1's partition $2: the GPU's kernel profiles (whole GPU), or its MPS runs.
measured_files() {
  if [[ $2 == full ]]; then ls "${RUN[$1]}"/profiles/*.json; else ls "${RUN[$1]}"/measured/"$2"-*.json; fi
}

# The target device profiles of each variant.
for variant in measured same-gpu other-gpu; do
  mkdir -p "$OUTDIR/$variant/devices"
  for gpu in h200 h100; do
    for part in "${PARTS[@]}"; do
      file=$OUTDIR/$variant/devices/$gpu-$part.json
      if [[ $variant == measured ]]; then
        cp "${RUN[$gpu]}/devices/$part.json" "$file"
      else
        from=$gpu; [[ $variant == other-gpu ]] && from=${OTHER[$gpu]}
        mps=(); [[ $part != full ]] && mps=(--mps "${SHARE[$part]}")
        "$ROOFCAST" devices --from-spec "$gpu-sxm" "${mps[@]}" --fractions-from "$from-sxm" --output "$file" \
          --format json >/dev/null
      fi
    done
  done
done

for variant in measured same-gpu other-gpu; do
  for reference in h200 h100; do
    # The reference GPU: its kernel profiles (which carry its measured times) and its own device profile.
    args=(--device "$OUTDIR/measured/devices/$reference-full.json")
    for f in "${RUN[$reference]}"/profiles/*.json; do args+=(--reference-profile "$f"); done
    for gpu in h200 h100; do
      for part in "${PARTS[@]}"; do
        [[ $gpu == "$reference" && $part == full ]] && continue
        file=$OUTDIR/$variant/devices/$gpu-$part.json
        name=$(device_name "$file")
        args+=(--device "$file")
        while read -r f; do args+=(--measured "$name=$f"); done < <(measured_files "$gpu" "$part")
      done
    done
    for model in pipes "pipes without reference-time"; do
      out=$OUTDIR/$variant/$reference-${model// /-}
      "$ROOFCAST" validate "${args[@]}" --allow-missing --model "$model" --output "$out.json" >"$out.txt" 2>"$out.notes.txt"
    done
  done
done
python3 scripts/dev/derived-devices-summary.py "$OUTDIR" >"$OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
