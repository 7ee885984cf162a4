#!/usr/bin/env bash
# The main job on bundled data: set up, build, and predict the thesis' kernels on its six GPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh >/dev/null
build/bin/roofcast devices
echo
build/bin/roofcast predict --profile thesis-redblack --utilization-correction
echo
build/bin/roofcast predict --profile thesis-rodinia --device GTX-480 --device "GTX-1060 6GB"
