#!/usr/bin/env bash
# The >= 1 M runs per target campaign (issue 14) on a machine with many cores but no clang: the
# GPU machine. The fuzzers are built here, carried there, and run by fuzz.sh --no-build.
#   Here:  scripts/dev/fuzz-campaign.sh pack    builds the fuzzers (scripts/dev/fuzz.sh --replay) and
#                                               packs them into .fuzzers/ (git-ignored): name ".fuzzers"
#                                               and ".deps" (scripts/dev/gpu-deps.sh) in the run's carry
#   There: scripts/dev/fuzz-campaign.sh run [RUNS [FUZZ.SH OPTIONS...]]
#          fuzzes every target for RUNS runs (default 1000000), split over the cores, updates
#          docs/fuzzing-results.md and copies it and the logs to $OUT; options, where given, replace
#          the targets and workers (e.g. --target launch_records --workers launch_records=16)
set -euo pipefail
cd "$(dirname "$0")/../.."

case "${1:-}" in
  pack)
    scripts/dev/fuzz.sh --replay
    exclude=$(git rev-parse --git-path info/exclude)
    grep -qx '/.fuzzers/' "$exclude" 2>/dev/null || echo '/.fuzzers/' >>"$exclude"
    mkdir -p .fuzzers
    git rev-parse --short HEAD >.fuzzers/commit
    [[ -z $(git status --porcelain --untracked-files=no) ]] || echo "$(cat .fuzzers/commit) (with uncommitted changes)" >.fuzzers/commit
    # Debug info stripped: the carry is at most 64 MiB; a finding's input still reproduces it here.
    tar -cf - build-fuzz/bin/fuzz_* build-fuzz/CMakeFiles/*/CMakeCXXCompiler.cmake |
      tar -xf - -C .fuzzers
    strip --strip-debug .fuzzers/build-fuzz/bin/fuzz_*
    tar -C .fuzzers -cJf .fuzzers/fuzzers.tar.xz build-fuzz
    rm -rf .fuzzers/build-fuzz
    ls -la .fuzzers
    ;;
  run)
    runs=${2:-1000000}
    options=("${@:3}")
    ((${#options[@]})) || options=(--jobs 7 --workers kernel_profile_json=7 --workers launch_records=2
                                   --workers device_json=2 --workers nvprof_csv=2)
    [[ -f .fuzzers/fuzzers.tar.xz ]] || { echo "fuzz-campaign: .fuzzers/fuzzers.tar.xz missing: pack it and carry .fuzzers" >&2; exit 1; }
    source scripts/dev/gpu-deps.sh  # libfmt
    tar -xJf .fuzzers/fuzzers.tar.xz
    # Workers per target in proportion to its cost per run on the H100 machine's cores
    # (kernel profile ~375 runs/s, record lines ~1200, device JSON ~2600, nvprof CSV ~2000,
    # the others faster), 16 processes in all.
    status=0
    # At most 8 minutes, so that a 10-minute device call still copies the results back.
    FUZZ_COMMIT=$(cat .fuzzers/commit) scripts/dev/fuzz.sh --no-build --report --runs "$runs" \
      "${FUZZ_SECONDS:-480}" "${options[@]}" || status=$?
    out=${OUT:-fuzz-campaign-out}
    mkdir -p "$out"
    cp docs/fuzzing-results.md "$out/"
    tar -czf "$out/fuzz-logs.tar.gz" build-fuzz/logs build-fuzz/findings
    exit $status
    ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac
