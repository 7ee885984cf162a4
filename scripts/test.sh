#!/usr/bin/env bash
# Set up, build and run every test, then the fuzz targets briefly. GPU tests report SKIP where no
# GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
# ROOFCAST_TEST_BROWSER=1 also installs Chromium for the HTML report's browser test (docs/plots.md
# says why CI leaves it out: ~170 MB of packages for one test that otherwise reports SKIP).
setup_options=(--with-hip)
if [[ ${ROOFCAST_TEST_BROWSER:-0} == 1 ]]; then setup_options+=(--with-browser); fi
scripts/setup.sh "${setup_options[@]}"
scripts/build.sh
(cd build && ctest --output-on-failure --parallel "$(nproc)")
# The readers' fuzz targets (docs/fuzzing.md): the seed corpus replayed, then 15 s of fuzzing each.
scripts/dev/fuzz.sh --jobs "$(nproc)" 15
