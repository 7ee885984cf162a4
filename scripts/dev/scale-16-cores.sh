#!/usr/bin/env bash
# The scale benchmark of this tree against a baseline commit on the GPU machine's 16 cores (no GPU
# needed), each build's run right after the other's (scale-bench.sh --baseline), and again on two
# of its cores (taskset). Here, before the device run:
#   git archive -o build-baseline/COMMIT.tar.gz COMMIT         (build-baseline/ is git-ignored)
# There (carry ".deps" and "build-baseline"):
#   scripts/dev/scale-16-cores.sh COMMIT [REPEATS_16 [REPEATS_2]]
# Writes $OUT/scale-16-cores.md and $OUT/scale-2-cores.md (scale-bench's results), the build logs,
# and prints both tables last.
set -euo pipefail
baseline_commit=$1
repeats_16=${2:-9}
repeats_2=${3:-5}
out=${OUT:-/tmp/scale-16-cores}
mkdir -p "$out"
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh

# configure_and_build SOURCE_DIR BUILD_DIR LOG_NAME
configure_and_build() {
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFCAST_ENABLE_CUDA=OFF -DROOFCAST_ENABLE_HIP=OFF \
    -DROOFCAST_BUILD_TESTS=OFF > "$out/configure-$3.log" 2>&1
  cmake --build "$2" --target roofcast --parallel "$(nproc)" > "$out/build-$3.log" 2>&1
}

baseline_source=build-baseline/$baseline_commit
rm -rf "$baseline_source" && mkdir -p "$baseline_source"
# With or without git archive's --prefix=COMMIT/.
strip=0
[[ $(tar -tzf "build-baseline/$baseline_commit.tar.gz" | head -1) == "$baseline_commit/" ]] && strip=1
tar -xzf "build-baseline/$baseline_commit.tar.gz" -C "$baseline_source" --strip-components=$strip
# The machine's GCC needs <cstdint> where older trees relied on it coming with other headers.
grep -q '<cstdint>' "$baseline_source/model/src/formats/closest_name.cpp" 2>/dev/null ||
  sed -i '1i #include <cstdint>' "$baseline_source/model/src/formats/closest_name.cpp" 2>/dev/null || true
configure_and_build "$baseline_source" "$baseline_source/build-scale" baseline
configure_and_build . build-scale current

echo "machine: $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
scripts/dev/scale-bench.sh --build build-scale --baseline "$baseline_source/build-scale" --repeats "$repeats_16" \
  --work /tmp/scale-work --results "$out/scale-16-cores.md"
taskset -c 0,1 scripts/dev/scale-bench.sh --build build-scale --baseline "$baseline_source/build-scale" \
  --repeats "$repeats_2" --work /tmp/scale-work --results "$out/scale-2-cores.md"
for results in "$out/scale-16-cores.md" "$out/scale-2-cores.md"; do
  echo "== $results"
  grep -E '^\| `|^- (Machine|Load)' "$results"
done
