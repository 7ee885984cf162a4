#!/usr/bin/env bash
# The scale benchmark (issue 14): predict, rank and report on a synthetic profile of many
# kernels (scripts/dev/scale-profile.py) and 10 device profiles, each timed with /usr/bin/time -v.
# Writes the results, with the machine, the commit and this command, to docs/scale/results.md
# (or --results FILE). Build first: cmake --build build --target roofcast (Release).
#
#   scripts/dev/scale-bench.sh [--kernels 100000] [--metrics thesis|full] [--build build]
#                          [--baseline OTHER_BUILD] [--work /tmp/roofcast-scale]
#                          [--results docs/scale/results.md] [--repeats 3]
# Each command runs --repeats times; the median wall time is compared with the target (a 2-core
# VM's times vary by tens of percent from run to run), the range is shown beside it. With
# --baseline (a build of another commit, e.g. main's), each run of that build is followed by
# the same run of --build, and the table has a row for each. No GPU is needed; on the GPU
# machine, see docs/scale/README.md for the build and the command.
set -euo pipefail

kernels=100000
metrics=thesis
build=build
baseline=""
work=/tmp/roofcast-scale
results=docs/scale/results.md
repeats=3
command_line="scripts/dev/scale-bench.sh${*:+ $*}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --kernels) kernels="$2"; shift 2 ;;
    --metrics) metrics="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "scale-bench: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/../.."
for b in "$build" ${baseline:+"$baseline"}; do
  [[ -x "$b/bin/roofcast" ]] || { echo "scale-bench: $b/bin/roofcast not found: build the roofcast target first" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "scale-bench: /usr/bin/time not found (Debian package time)" >&2; exit 1; }
for b in "$build" ${baseline:+"$baseline"}; do
  grep -q 'CMAKE_BUILD_TYPE:STRING=Release' "$b/CMakeCache.txt" 2>/dev/null ||
    echo "scale-bench: warning: $b is not a Release build" >&2
done

source scripts/dev/scale-inputs.sh
make_scale_profile "$work" "$kernels" "$metrics" scale-bench
profile_mb=$(du -m "$profile" | cut -f1)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()
# The builds timed: $build, and with --baseline another build first, each run of one right
# after the same run of the other (a busy machine's load then weighs on both alike).
builds=("$build")
[[ -n "$baseline" ]] && builds=("$baseline" "$build")

# run NAME TARGET_S TARGET_MB ARGUMENTS...: times `roofcast ARGUMENTS` of each build $repeats
# times (stdout to /dev/null) and adds a row per build: the median wall time (min-max), the
# median CPU time, the largest peak memory.
run() {
  local name="$1" target_s="$2" target_mb="$3"
  shift 3
  echo "scale-bench: $name" >&2
  local log="$work/time.log" note="" b i
  local -a walls cpus rss_kb
  for b in "${!builds[@]}"; do walls[b]=""; cpus[b]=""; rss_kb[b]=0; done
  for ((i = 0; i < repeats; ++i)); do
    for b in "${!builds[@]}"; do
      if ! /usr/bin/time -v -o "$log" "${builds[b]}/bin/roofcast" "$@" > /dev/null 2> "$work/stderr.log"; then
        # A machine without gnuplot (the GPU machine): the report does all its work but drawing
        # the charts (their data and scripts are written), then says so and exits 1.
        if grep -q "gnuplot not found" "$work/stderr.log"; then
          note=" (charts not drawn: no gnuplot here)"
        else
          echo "scale-bench: $name (${builds[b]}) failed:" >&2
          cat "$work/stderr.log" >&2
          exit 1
        fi
      fi
      walls[b]+=" $(awk -F': ' '/Elapsed \(wall clock\)/ {
                     n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; printf "%.2f", s }' "$log")"
      cpus[b]+=" $(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$log")"
      local kb
      kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
      ((kb > rss_kb[b])) && rss_kb[b]=$kb
    done
  done
  # With a baseline: the build's time less the baseline's in each repeat (the two ran one after
  # the other), its median, and in how many repeats the build was the faster.
  local paired=""
  if [[ -n "$baseline" ]]; then
    paired=$(paste <(printf '%s\n' ${walls[0]}) <(printf '%s\n' ${walls[1]}) | awk '{ print $2 - $1 }' | sort -g |
      awk '{ d[NR] = $1; faster += ($1 < 0) } END {
             m = NR % 2 ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
             printf "%+.2f (faster in %d of %d)", m, faster, NR }')
  fi
  for b in "${!builds[@]}"; do
    local sorted median cpu_sorted
    mapfile -t sorted < <(printf '%s\n' ${walls[b]} | sort -g)
    median=${sorted[$(((${#sorted[@]} - 1) / 2))]}
    mapfile -t cpu_sorted < <(printf '%s\n' ${cpus[b]} | sort -g)
    local rss_mb=$((rss_kb[b] / 1024)) met="yes"
    awk -v w="$median" -v t="$target_s" 'BEGIN { exit !(w < t) }' || met="no"
    if [[ "$target_mb" != "-" && "$rss_mb" -ge "$target_mb" ]]; then met="no"; fi
    local target="< $target_s s" build_cell=""
    [[ "$target_mb" != "-" ]] && target+=", < $target_mb MB"
    local paired_cell=""
    if [[ -n "$baseline" ]]; then
      build_cell=" ${builds[b]} |"
      ((b == 1)) && paired_cell=" $paired |" || paired_cell=" |"
    fi
    rows+=("| \`${name}\` |$build_cell $median | ${sorted[0]}-${sorted[-1]} |$paired_cell ${cpu_sorted[$(((${#cpu_sorted[@]} - 1) / 2))]} | $rss_mb | $target | $met$note |")
  done
}

report_folder="$work/report"
rm -rf "$report_folder"
run "predict --format table" 2 500 predict --profile "$profile" "${device_args[@]}" --format table
run "predict --format json" 2 500 predict --profile "$profile" "${device_args[@]}" --format json
run "predict --format csv" 2 500 predict --profile "$profile" "${device_args[@]}" --format csv
run "predict --model thesis --format json" 2 500 predict --model thesis --profile "$profile" \
  "${device_args[@]}" --format json
run "rank" 3 - rank --profile "$profile" "${device_args[@]}"
run "report" 10 - report --profile "$profile" "${device_args[@]}" --output "$report_folder"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!docs/scale' || commit+=" (with uncommitted changes)"
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
mkdir -p "$(dirname "$results")"
{
  echo "# Scale benchmark results"
  echo
  echo "Written by \`scripts/dev/scale-bench.sh\`; every number below comes from its run (see docs/scale/README.md)."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) CPUs, $cpu, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) memory"
  echo "- Load average (1, 5, 15 min) before: $load_before; after: $load_after"
  if awk -v l="${load_before%% *}" 'BEGIN { exit !(l > 1) }'; then
    echo "- Not an idle machine: other jobs shared its CPUs during the run (load average above 1), which makes" \
         "the times longer than on an idle one"
  fi
  echo "- Commit: $commit"
  if [[ -n "$baseline" ]]; then
    echo "- Builds: $baseline ($("$baseline/bin/roofcast" --version)) and $build ($("$build/bin/roofcast" --version))," \
         "each run of the first followed by the same run of the second"
  fi
  echo "- Command: \`$command_line\`"
  echo "- Profile: $kernels kernels with the \`$metrics\` counters ($profile_mb MB of JSON), 10 devices:" \
       "$(printf '%s, ' "${devices[@]##*/}" | sed 's/, $//')"
  echo
  echo "Wall time and peak resident memory from \`/usr/bin/time -v\`, each command run $repeats times (the median" \
       "is held against the target, the range and the median CPU time beside it, the peak memory is the" \
       "largest; with a baseline, the median of the build's time less the baseline's run just before it, and" \
       "in how many repeats the build was the faster); standard output to" \
       "/dev/null; the report" \
       "writes index.html, charts and the full data (predictions.csv, warnings.csv; diagnostics.csv of the kernels the page shows)."
  echo
  if [[ -n "$baseline" ]]; then
    echo "| command | build | median wall s | range s | paired against the baseline: median difference s | median CPU s (user + system) | max RSS MB | target | met |"
    echo "|---|---|---:|---:|---:|---:|---:|---|---|"
  else
    echo "| command | median wall s | range s | median CPU s (user + system) | max RSS MB | target | met |"
    echo "|---|---:|---:|---:|---:|---|---|"
  fi
  printf '%s\n' "${rows[@]}"
} > "$results"
echo "scale-bench: wrote $results" >&2
cat "$results"
