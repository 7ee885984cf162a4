#!/usr/bin/env bash
# Instructions, not seconds: the commands of scripts/dev/scale-bench.sh (and markdown) under
# callgrind on a smaller synthetic profile with the same 10 devices, for builds of several
# commits. Counts do not depend on the machine's load, which a shared 2-core machine's wall
# times do; they are not wall times either (cache misses and threads waiting are not in them).
# Writes a table, with the machine, the builds and this command, to
# docs/scale/results-callgrind.md (or --results FILE).
#
#   scripts/dev/scale-callgrind.sh [--kernels 5000] [--build [NAME=]build] [--baseline [NAME=]DIR]...
#                                  [--work /tmp/roofcast-callgrind] [--results FILE] [--repeats 3]
# Each command runs --repeats times under each build (oneTBB's threads make counts vary by a
# few tenths of a percent); the table has the median, one column per build, the baselines
# first, and the last build against the first. NAME labels a build (default: its --version,
# which names the commit it was configured at).
set -euo pipefail

kernels=5000
build=build
baselines=()
work=/tmp/roofcast-callgrind
results=docs/scale/results-callgrind.md
repeats=3
command_line="scripts/dev/scale-callgrind.sh${*:+ $*}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --kernels) kernels="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --baseline) baselines+=("$2"); shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "scale-callgrind: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/../.."
command -v valgrind > /dev/null || { echo "scale-callgrind: valgrind not found (Debian package valgrind)" >&2; exit 1; }
# The builds, baselines first: their directories and their labels.
dirs=() labels=()
for b in "${baselines[@]}" "$build"; do
  dir="${b#*=}" label=""
  [[ "$b" == *=* ]] && label="${b%%=*}"
  [[ -x "$dir/bin/roofcast" ]] || { echo "scale-callgrind: $dir/bin/roofcast not found: build the roofcast target first" >&2; exit 1; }
  [[ -z "$label" ]] && label="$("$dir/bin/roofcast" --version)"
  dirs+=("$dir")
  labels+=("$label")
done

source scripts/dev/scale-inputs.sh
make_scale_profile "$work" "$kernels" thesis scale-callgrind

rows=()
# count NAME ARGUMENTS...: `roofcast ARGUMENTS` of each build under callgrind, $repeats times;
# adds a row of the median instructions (millions) per build.
count() {
  local name="$1"
  shift
  echo "scale-callgrind: $name" >&2
  local row="| \`$name\` |" first="" last="" b i n
  for b in "${!dirs[@]}"; do
    local counts=()
    for ((i = 0; i < repeats; ++i)); do
      rm -rf "$work/report"
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "${dirs[b]}/bin/roofcast" "$@" \
        > /dev/null 2> "$work/valgrind.log" || {
        # Without gnuplot the report draws no chart and exits 1, its work otherwise done.
        grep -q "gnuplot not found" "$work/valgrind.log" ||
          { echo "scale-callgrind: $name (${dirs[b]}) failed:" >&2; cat "$work/valgrind.log" >&2; exit 1; }
      }
      counts+=("$(grep -o 'Collected : [0-9]*' "$work/valgrind.log" | grep -o '[0-9]*$')")
    done
    mapfile -t counts < <(printf '%s\n' "${counts[@]}" | sort -n)
    n=${counts[$(((${#counts[@]} - 1) / 2))]}
    [[ -z "$first" ]] && first=$n
    last=$n
    row+=" $(awk -v n="$n" 'BEGIN { printf "%.1f", n / 1e6 }') |"
  done
  row+=" $(awk -v a="$first" -v b="$last" 'BEGIN { printf "%+.1f %%", 100 * (b - a) / a }') |"
  rows+=("$row")
}

count "predict --format json" predict --profile "$profile" "${device_args[@]}" --format json
count "predict --format csv" predict --profile "$profile" "${device_args[@]}" --format csv
count "predict --format table" predict --profile "$profile" "${device_args[@]}" --format table
count "predict --format markdown" predict --profile "$profile" "${device_args[@]}" --format markdown
count "predict --model thesis --format json" predict --model thesis --profile "$profile" "${device_args[@]}" --format json
count "rank" rank --profile "$profile" "${device_args[@]}"
count "report" report --profile "$profile" "${device_args[@]}" --output "$work/report"

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!docs/scale' || commit+=" (with uncommitted changes)"
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
mkdir -p "$(dirname "$results")"
{
  echo "# Scale: instructions (callgrind)"
  echo
  echo "Written by \`scripts/dev/scale-callgrind.sh\`; every number below comes from its run (see docs/scale/README.md)."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) CPUs, $cpu; $(valgrind --version)"
  echo "- Commit: $commit"
  echo "- Builds: $(for b in "${!dirs[@]}"; do printf '%s (%s); ' "${labels[b]}" "${dirs[b]}"; done | sed 's/; $//')"
  echo "- Command: \`$command_line\`"
  echo "- Profile: \`scripts/dev/scale-profile.py --kernels $kernels --metrics thesis\`, 10 devices:" \
       "$(printf '%s, ' "${devices[@]##*/}" | sed 's/, $//')"
  echo
  echo "Millions of instructions of every thread (\`valgrind --tool=callgrind\`), the median of $repeats runs;" \
       "standard output to /dev/null; the report writes its page, data and charts."
  echo
  echo "| command |$(printf ' %s |' "${labels[@]}") last against first |"
  echo "|---|$(printf -- '---:|%.0s' "${labels[@]}")---:|"
  printf '%s\n' "${rows[@]}"
} > "$results"
echo "scale-callgrind: wrote $results" >&2
cat "$results"
