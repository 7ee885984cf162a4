#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in build-fuzz/ (clang, ASan + UBSan), replays the
# seed corpus through each, then fuzzes each target (docs/fuzzing.md).
# Usage: scripts/dev/fuzz.sh [SECONDS_PER_TARGET]  replay, then fuzz each target this long (default 60)
#        scripts/dev/fuzz.sh --runs N [SECONDS]    replay, then fuzz each target for N runs (at most SECONDS)
#        scripts/dev/fuzz.sh --replay              only replay the seed corpus
# Options: --report       write the results table to docs/fuzzing-results.md
#          --target NAME  only this target (repeatable)
#          --jobs N       fuzz N targets at a time (default 1; a campaign on a 2-core machine: --jobs 2)
#          --workers T=W  fuzz target T with W processes sharing its corpus, each for 1/W of --runs
#                         (repeatable; default 1 per target)
#          --no-build     use the fuzzers already in build-fuzz/bin (a machine without clang, e.g. the
#                         GPU machine with binaries built here: scripts/dev/fuzz-campaign.sh)
#          --seeds-from REV  fuzz with the seed corpus of git revision REV instead of today's (same
#                         -max_len), into a corpus folder of its own (coverage before a seed change);
#                         its rows are named "TARGET (seeds of REV)"
# Ends with "fuzz: PASS ..." (exit 0) or "fuzz: FAIL ..." (exit 1); findings (crash-*, timeout-*,
# leak-*, oom-* inputs) are kept in build-fuzz/findings/TARGET/, new corpus inputs in
# build-fuzz/corpus/TARGET/ (the committed corpus in tests/fuzz/corpus/ is only read). Each row
# gives libFuzzer's coverage (its "cov:", code edges reached) of the seeds as the fuzzer reads
# them (cut to -max_len) and at the end of the run.
set -euo pipefail
cd "$(dirname "$0")/../.."

all_targets=(device_json kernel_profile_json measured_json validation_json ncu_csv nvprof_csv launch_records
             tune_two_profiles merge)
seconds=60
seconds_given=0
runs=""
replay_only=0
report=0
jobs=1
targets=()
declare -A workers=()
build=1
seeds_from=""
arguments="$*"
while (($#)); do
  case "$1" in
    --replay) replay_only=1 ;;
    --report) report=1 ;;
    --runs) runs="${2:?--runs needs a number}"; shift ;;
    --target) targets+=("${2:?--target needs a name}"); shift ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift ;;
    --workers)
      [[ ${2:-} =~ ^([a-z_]+)=([1-9][0-9]*)$ ]] || { echo "fuzz.sh: --workers needs TARGET=COUNT" >&2; exit 2; }
      workers[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
      shift ;;
    --no-build) build=0 ;;
    --seeds-from) seeds_from="${2:?--seeds-from needs a git revision}"; shift ;;
    -h | --help) sed -n '2,22p' "$0"; exit 0 ;;
    *[!0-9]* | '') echo "fuzz.sh: unknown argument \"$1\" (see --help)" >&2; exit 2 ;;
    *) seconds="$1"; seconds_given=1 ;;
  esac
  shift
done
((${#targets[@]})) || targets=("${all_targets[@]}")

# The seed corpus of the targets: today's, or that of --seeds-from REV, extracted from git into
# build-fuzz/seeds-of/COMMIT/ (the -max_len stays today's: tests/fuzz/max_len.txt).
seeds_root=tests/fuzz
suffix=""
if [[ -n $seeds_from ]]; then
  commit_of_seeds=$(git rev-parse --short "$seeds_from^{commit}") ||
    { echo "fuzz: FAIL: --seeds-from $seeds_from is not a git revision" >&2; exit 2; }
  seeds_root=build-fuzz/seeds-of/$commit_of_seeds
  rm -rf "$seeds_root"
  mkdir -p "$seeds_root"
  git archive "$commit_of_seeds" tests/fuzz/corpus | tar -x -C "$seeds_root" --strip-components=2
  suffix=" (seeds of $seeds_from)"
fi

if ((build == 0)); then
  compiler=$(sed -n 's/^set(CMAKE_CXX_COMPILER_VERSION "\(.*\)")$/clang \1/p' build-fuzz/CMakeFiles/*/CMakeCXXCompiler.cmake 2>/dev/null | head -1)
  for target in "${targets[@]}"; do
    [[ -x build-fuzz/bin/fuzz_$target ]] || { echo "fuzz: FAIL: --no-build: build-fuzz/bin/fuzz_$target is missing" >&2; exit 1; }
  done
else
  if ! command -v clang++ >/dev/null; then
    echo "fuzz: FAIL: clang++ not found: run scripts/setup.sh (Debian packages clang and libclang-rt-dev)" >&2
    exit 1
  fi
  compiler=$(clang++ --version | head -1)
  mkdir -p build-fuzz
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DROOFCAST_BUILD_FUZZERS=ON -DROOFCAST_BUILD_TESTS=OFF -DROOFCAST_ENABLE_CUDA=OFF -DROOFCAST_ENABLE_HIP=OFF \
    "${launcher[@]}" >build-fuzz/configure.log 2>&1 || { cat build-fuzz/configure.log; echo "fuzz: FAIL: configure"; exit 1; }
  cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"
fi

# The lines of log $1 that say what failed and where the input is.
show_finding() { grep -E "FUZZ FINDING|ERROR:|runtime error:|SUMMARY:|Test unit written" "$1" | head -8 || tail -20 "$1"; }

# The last value of libFuzzer's final statistic $2 in log $1, or "?".
final_stat() { grep -o "^stat::$2: *[0-9]*" "$1" | tail -1 | grep -o '[0-9]*$' || echo "?"; }

# Extra libFuzzer options of a target: its -max_len, where tests/fuzz/max_len.txt gives one (the
# one place it is set; the ctest fuzz_seeds_fit_max_len checks every seed fits it).
extra_options() { awk -v target="$1" '$1 == target && NF == 2 { print "-max_len=" $2 }' tests/fuzz/max_len.txt; }

# The coverage ("cov:") of libFuzzer's last status line in log $1, or "?".
final_coverage() { grep -o ' cov: [0-9]*' "$1" | tail -1 | grep -o '[0-9]*$' || echo "?"; }

mkdir -p build-fuzz/logs
# fuzz_target NAME: replays and fuzzes one target; its table row goes to build-fuzz/logs/NAME.row
# and its finding count to build-fuzz/logs/NAME.findings (targets may run in parallel).
fuzz_target() {
  local target=$1
  local fuzzer corpus findings common log runs_done started elapsed count limit seeds_coverage coverage
  local found_corpus=build-fuzz/corpus/$target
  fuzzer=build-fuzz/bin/fuzz_$target
  corpus=$seeds_root/corpus/$target
  findings=build-fuzz/findings/$target
  if [[ -n $seeds_from ]]; then
    [[ -d $corpus ]] || { echo "fuzz: $target: no seed folder at $seeds_from" >&2; return 1; }
    # A corpus folder of the run's own, emptied: what it reaches is the old seeds' doing.
    found_corpus=build-fuzz/corpus-seeds-of-$commit_of_seeds/$target
    rm -rf "$found_corpus"
  fi
  rm -rf "$findings"
  mkdir -p "$findings" "$found_corpus"
  common=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1)

  log=build-fuzz/logs/$target-replay.log
  # shellcheck disable=SC2046
  if ! "$fuzzer" "${common[@]}" -runs=0 $(extra_options "$target") "$corpus" >"$log" 2>&1; then
    show_finding "$log"
    echo "fuzz: $target: the seed corpus fails (log: $log)"
  fi
  runs_done=$(final_stat "$log" number_of_executed_units)
  seeds_coverage=$(final_coverage "$log")
  coverage=$seeds_coverage
  started=$SECONDS
  if ((replay_only == 0)); then
    local count_of_workers=${workers[$target]:-1} worker done_by_worker
    limit=(-max_total_time="$seconds")
    if [[ -n $runs ]]; then
      limit=(-runs="$(((runs + count_of_workers - 1) / count_of_workers))")
      ((seconds_given)) && limit+=(-max_total_time="$seconds")  # both: whichever ends first
    fi
    # Workers share the corpus folder: each reloads what the others add (libFuzzer's -reload).
    for ((worker = 0; worker < count_of_workers; ++worker)); do
      log=build-fuzz/logs/$target-$worker.log
      # shellcheck disable=SC2046
      "$fuzzer" "${common[@]}" "${limit[@]}" -seed=$((worker + 1)) $(extra_options "$target") \
        -dict="tests/fuzz/dictionaries/$target.dict" "$found_corpus" "$corpus" >"$log" 2>&1 &
    done
    wait
    runs_done=0
    coverage=0
    for ((worker = 0; worker < count_of_workers; ++worker)); do
      log=build-fuzz/logs/$target-$worker.log
      # Workers share one corpus: the run's coverage is the largest any of them reached.
      coverage=$(final_coverage "$log" | awk -v before="$coverage" '{ print ($1 == "?" || before == "?") ? "?" : ($1 > before ? $1 : before) }')
      grep -qE "^==[0-9]+==ERROR|FUZZ FINDING|runtime error:" "$log" && show_finding "$log"
      done_by_worker=$(final_stat "$log" number_of_executed_units)
      [[ $done_by_worker == "?" ]] && runs_done="?"
      [[ $runs_done != "?" ]] && runs_done=$((runs_done + done_by_worker))
    done
  fi
  elapsed=$((SECONDS - started))
  count=$(find "$findings" -type f | wc -l)
  # Small inputs are printed too, so that a CI log alone reproduces the finding.
  find "$findings" -type f -size -4k | while read -r input; do
    echo "fuzz: $target: input $(basename "$input") (base64): $(base64 -w0 "$input")"
  done
  # A run that failed without saving its input still counts as one finding.
  if ((count == 0)) && grep -qE "^==[0-9]+==ERROR|FUZZ FINDING|runtime error:" build-fuzz/logs/"$target"*.log; then count=1; fi
  echo "fuzz: $target$suffix: $runs_done runs in $elapsed s, $count finding(s), coverage $seeds_coverage (seeds) -> $coverage"
  echo "| $target$suffix | $runs_done | $elapsed | $count | $seeds_coverage | $coverage |" >"build-fuzz/logs/$target.row"
  echo "$count" >"build-fuzz/logs/$target.findings"
}

for target in "${targets[@]}"; do
  rm -f "build-fuzz/logs/$target.row" "build-fuzz/logs/$target.findings"
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  fuzz_target "$target" &
done
wait
rows=()
total_findings=0
for target in "${targets[@]}"; do
  rows+=("$(cat "build-fuzz/logs/$target.row" 2>/dev/null || echo "| $target$suffix | ? | ? | 1 (no result) | ? | ? |")")
  total_findings=$((total_findings + $(cat "build-fuzz/logs/$target.findings" 2>/dev/null || echo 1)))
done

if ((report == 1)); then
  # FUZZ_COMMIT: the commit of a tree that is not a git checkout (a copy on the GPU machine).
  if [[ -n ${FUZZ_COMMIT:-} ]]; then
    commit=$FUZZ_COMMIT
  else
    commit=$(git rev-parse --short HEAD)
    # The results file is this script's own output (an earlier run's rows): not a change to the code.
    if [[ -n $(git status --porcelain --untracked-files=no -- . ':!docs/fuzzing-results.md') ]]; then commit+=" (with uncommitted changes)"; fi
  fi
  # One row per target (and per target with the seeds of a revision), each from the last run that
  # fuzzed it: a run of some targets keeps the rows of the others, and each row says which run it
  # comes from (listed below the table).
  results=docs/fuzzing-results.md
  declare -A kept=()
  if [[ -f $results ]]; then
    while IFS= read -r line; do
      label=$(cut -d'|' -f2 <<<"$line" | sed 's/^ *//; s/ *$//')
      [[ " ${all_targets[*]} " == *" ${label%% *} "* ]] || continue
      # A row written before the coverage columns: they are unknown.
      (($(tr -cd '|' <<<"$line" | wc -c) == 6)) && line=$(sed 's/| \(run [0-9]* |\)$/| – | – | \1/' <<<"$line")
      kept[$label]=$line
    done < <(grep -E '^\| [a-z_]+( \(seeds of [^|]*\))? \| [0-9?]' "$results" | grep -E '\| run [0-9]+ \|$' || true)
    mapfile -t runs_listed < <(grep -E '^- run [0-9]+: ' "$results" || true)
  else
    runs_listed=()
  fi
  # The next number after every run listed (a run dropped from the list keeps its number used).
  run_number=$(($(printf '%s\n' "${runs_listed[@]}" | sed -n 's/^- run \([0-9]*\):.*/\1/p' | sort -n | tail -1) + 1))
  for ((i = 0; i < ${#targets[@]}; ++i)); do kept[${targets[$i]}$suffix]="${rows[$i]} run $run_number |"; done
  # The labels in table order: each target, then its rows with the seeds of a revision.
  labels=()
  for t in "${all_targets[@]}"; do
    [[ -n ${kept[$t]:-} ]] && labels+=("$t")
    for label in "${!kept[@]}"; do [[ $label == "$t ("* ]] && labels+=("$label"); done
  done
  # Runs no row comes from any more are dropped from the list.
  used=" $(for label in "${labels[@]}"; do grep -o 'run [0-9]*' <<<"${kept[$label]}" | tail -1; done | tr '\n' ' ')"
  {
    echo "# Fuzzing results"
    echo
    echo "Written by \`scripts/dev/fuzz.sh --report\` (docs/fuzzing.md says what each target checks). Each row"
    echo "is the last run that fuzzed its target; the runs are listed below the table. A finding is an input"
    echo "saved in build-fuzz/findings/TARGET/ of that run. Coverage is libFuzzer's \"cov:\" (code edges"
    echo "reached) of the seeds as the fuzzer reads them (cut to the target's -max_len), then at the end of the"
    echo "run; a row \"TARGET (seeds of REV)\" was fuzzed with the seeds of revision REV and today's -max_len"
    echo "(\`--seeds-from REV\`), from an empty corpus folder of its own."
    echo
    echo "| Target | Runs | Seconds | Findings | Coverage of the seeds | Coverage at the end | From |"
    echo "|---|---:|---:|---:|---:|---:|---|"
    for label in "${labels[@]}"; do echo "${kept[$label]}"; done
    echo
    for entry in "${runs_listed[@]}"; do
      [[ $used == *" $(grep -o 'run [0-9]*' <<<"$entry" | head -1) "* ]] && echo "$entry"
    done
    echo "- run $run_number: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, \`scripts/dev/fuzz.sh${arguments:+ $arguments}\`;" \
      "$(nproc) cores, $jobs target(s) at a time$(for t in "${!workers[@]}"; do printf ', %s by %s workers' "$t" "${workers[$t]}"; done); $compiler"
  } >"$results.tmp"
  mv "$results.tmp" "$results"
  echo "fuzz: wrote $results"
fi

if ((total_findings > 0)); then
  echo "fuzz: FAIL: $total_findings finding(s) in build-fuzz/findings/ (logs in build-fuzz/logs/)"
  exit 1
fi
echo "fuzz: PASS (${#targets[@]} targets, no findings)"
