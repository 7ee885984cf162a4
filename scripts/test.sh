#!/usr/bin/env bash
# Set up, build and run every test. GPU tests report SKIP where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-hip
scripts/build.sh
cd build
ctest --output-on-failure --parallel "$(nproc)"
