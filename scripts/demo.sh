#!/usr/bin/env bash
# The main job on bundled data, in a few minutes on a fresh machine (docs/demo.md): set up, build
# the roofcast command alone, reproduce the thesis' predictions of its kernels on its six GPUs,
# then predict the kernels of the validation corpus profiled on an H200 for an H100 with the
# multi-pipeline model (the default), beside the times the H100 measured.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --build-only
echo "demo: configuring build/ (log in build.configure.log)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
echo "demo: building the roofcast command"
# Ninja prints [done/total] per step; only the command line is built, not the benches or tests.
cmake --build build --parallel "$(nproc)" --target roofcast
roofcast=build/bin/roofcast

echo
$roofcast devices
echo
$roofcast predict --model thesis --profile thesis-redblack --utilization-correction
echo
$roofcast predict --model thesis --profile thesis-rodinia --device GTX-480 --device "GTX-1060 6GB"
echo

# Profiled on the H200, predicted for the H100, and scored against what the H100 measured.
scripts/dev/demo-validation.sh "$roofcast"
