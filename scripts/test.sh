#!/usr/bin/env bash
# Set up, build and run every test, then the fuzz targets briefly. GPU tests report SKIP where no
# GPU is present; with CI=true any other skipped test fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-hip
scripts/build.sh
# Under CI=true only the GPU tests (label gpu) may skip: every other test's needs are installed
# by setup.sh (docs/developing.md, "Tests that may skip").
(cd build && ctest --output-on-failure --parallel "$(nproc)" --output-junit ctest-results.xml)
if [[ ${CI:-} == true ]]; then scripts/dev/check-skipped-tests.py build ctest-results.xml; fi
# The readers' fuzz targets (docs/fuzzing.md): the seed corpus replayed, then 15 s of fuzzing each.
scripts/dev/fuzz.sh --jobs "$(nproc)" 15
