#!/usr/bin/env bash
# Re-scores a committed tune validation (docs/validation/*-tune-*) with the current model, on
# the CPU: `roofcast tune` on its profiles and device profile, then the summary of
# tune-validate-summary.py against its measured times. Writes FOLDER/sweep_*-tune.json,
# FOLDER/summary.md and FOLDER/summary.json.
# Usage: scripts/dev/tune-rescore.sh FOLDER [BUILD]   (FOLDER holds profiles/, measured/,
# explain/, device.json, environment.txt as tune-validate.sh's run left them)
# ABLATE=TERM (a term of the pipes model, e.g. reference-time): `tune --ablate TERM`, written to
# FOLDER/without-TERM/ instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
folder=${1:?usage: tune-rescore.sh FOLDER [BUILD]}
roofcast=${2:-build}/bin/roofcast
out=$folder
ablate=()
if [[ -n ${ABLATE:-} ]]; then
  out=$folder/without-$ABLATE
  ablate=(--ablate "$ABLATE")
  mkdir -p "$out"
  cp "$folder"/environment.txt "$out"/
fi
blocks=32,64,96,128,160,192,256,320,384,512,640,768,1024
sgemm_blocks=64,128,256,512,1024
run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
cp "$folder"/measured/* "$folder"/explain/* "$folder"/environment.txt "$run"/
for kernel in sweep_triad sweep_fma sweep_reduce sweep_stencil sweep_scale4 sweep_sgemm sweep_sgemm_micro; do
  profile=$folder/profiles/$kernel.json
  [[ -f $profile ]] || continue
  args=(--block-sizes "$blocks")
  [[ $kernel == sweep_sgemm* ]] && args=(--block-sizes "$sgemm_blocks" --fixed-tile)
  "$roofcast" tune --profile "$profile" --device "$folder/device.json" "${args[@]}" --top 3 --format json \
    "${ablate[@]}" >"$run/$kernel-tune.json"
  cp "$run/$kernel-tune.json" "$out/"
done
python3 scripts/dev/tune-validate-summary.py "$run" "$out" 256
