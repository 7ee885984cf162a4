#!/usr/bin/env bash
# On the GPU machine (issue 15): `roofcast profile` over `torchrun --nproc_per_node 2`, one
# profile per worker from %q{RANK}, merged and predicted. Needs PyTorch with CUDA in python3.
# Usage: scripts/dev/torchrun-check.sh [BUILD] [RESULTS]
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=$PWD/${1:-build-gpu}/bin
R=${2:-${OUT:-$PWD}/torchrun-check}
mkdir -p "$R"
python3 -c 'import torch; assert torch.cuda.is_available()' || { echo "torchrun-check: no PyTorch with CUDA"; exit 77; }
"$BIN/roofcast" profile --metrics thesis --output "$R/prof-%q{RANK}.json" -- \
  python3 -m torch.distributed.run --standalone --nproc_per_node 2 "$PWD/scripts/dev/torchrun-worker.py" \
  >"$R/profile.log" 2>&1
rc=$?
grep -E "^rank|roofcast profile" "$R/profile.log"
echo "roofcast profile exit code $rc"
status=0
for rank in 0 1; do
  python3 - "$R/prof-$rank.json" "$rank" <<'PY' || status=1
import json, sys
profile = json.load(open(sys.argv[1]))
kernels = profile["kernels"]
profiled = sum(k.get("profiled_invocations", 0) for k in kernels)
print(f"prof-{sys.argv[2]}.json: {len(kernels)} kernels, {sum(k['invocations'] for k in kernels)} launches, "
      f"{profiled} profiled, processes {len(profile.get('processes', []))}")
sys.exit(0 if kernels and profiled > 0 else 1)
PY
done
"$BIN/roofcast" merge "$R/prof-0.json" "$R/prof-1.json" -o "$R/merged.json" >"$R/merge.log" 2>&1 || status=1
"$BIN/roofcast" predict --profile "$R/merged.json" --device h100-sxm >"$R/predict.txt" 2>&1 || status=1
grep -c "\[prof-" "$R/predict.txt" | sed 's/^/predicted kernels of the two workers: /'
echo "torchrun-check: $([[ $status == 0 && $rc == 0 ]] && echo ok || echo FAILED)"
[[ $status == 0 && $rc == 0 ]]
