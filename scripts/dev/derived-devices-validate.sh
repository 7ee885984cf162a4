#!/usr/bin/env bash
# Validates device profiles derived from the spec table (docs/derived-devices.md) on the
# validation corpus, with no GPU: every reference -> target pair of scripts/dev/validate-corpus.sh
# (the H200 and H100 runs, each GPU and its MPS 50 % / 25 % partitions as targets), scored three
# times with the targets' device profiles swapped:
#   measured   the runs' own device profiles (devices/{full,mps50,mps25}.json)
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

# The measured-time files of GPU $1's partition $2: the GPU's kernel profiles (whole GPU), or its
# MPS runs' times.
measured_files() {
  if [[ $2 == full ]]; then ls "${RUN[$1]}"/profiles/*.json; else ls "${RUN[$1]}"/measured/"$2"-*.json; fi
}

for variant in measured same-gpu other-gpu; do
  mkdir -p "$OUTDIR/$variant/devices"
  targets=() measured=()
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
      targets+=(--device "$file")
      name=$(device_name "$file")
      while read -r f; do measured+=(--measured "$name=$f"); done < <(measured_files "$gpu" "$part")
    done
  done
  for reference in h200 h100; do
    args=()
    for f in "${RUN[$reference]}"/profiles/*.json; do args+=(--reference-profile "$f"); done
    # The run's own names: a reference profile's times are its reference device's, given again
    # under that name would list them twice.
    run_measured=()
    if [[ $variant == measured ]]; then
      ref_name=$(device_name "${RUN[$reference]}/devices/full.json")
      for ((i = 0; i < ${#measured[@]}; i += 2)); do
        [[ ${measured[i + 1]} == "$ref_name="* ]] || run_measured+=("${measured[i]}" "${measured[i + 1]}")
      done
    else
      run_measured=("${measured[@]}")
    fi
    "$ROOFCAST" validate "${args[@]}" "${targets[@]}" "${run_measured[@]}" --allow-missing --model pipes \
      --output "$OUTDIR/$variant/$reference-pipes.json" >"$OUTDIR/$variant/$reference-pipes.txt" \
      2>"$OUTDIR/$variant/$reference-pipes.notes.txt"
  done
done
python3 scripts/dev/derived-devices-summary.py "$OUTDIR" >"$OUTDIR/summary.md"
cat "$OUTDIR/summary.md"
