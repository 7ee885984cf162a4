#!/usr/bin/env bash
# The main job on bundled data: set up, build, reproduce the thesis' predictions of its kernels on
# its six GPUs, then predict measured PyTorch kernels of an H200 on an H100 with the
# multi-pipeline model (the default).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh >/dev/null
build/bin/roofcast devices
echo
build/bin/roofcast predict --model thesis --profile thesis-redblack --utilization-correction
echo
build/bin/roofcast predict --model thesis --profile thesis-rodinia --device GTX-480 --device "GTX-1060 6GB"
echo
corpus=docs/validation/2026-11-22-pipes
build/bin/roofcast predict --profile $corpus/h200-run/profiles/pytorch_ops.json \
  --device $corpus/h100-run/devices/full.json --device $corpus/h200-run/devices/full.json \
  --utilization-correction --reference-device $corpus/h200-run/devices/full.json
