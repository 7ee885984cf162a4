#!/usr/bin/env bash
# Configures and builds roofcast in build/ (extra arguments go to cmake's configure step).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
grep '^-- roofcast:' build.configure.log || true
cmake --build build --parallel "$(nproc)"
