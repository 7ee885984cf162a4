#!/usr/bin/env bash
# Peak memory and wall time of `roofcast merge` on two large profiles, of `predict` on a profile
# whose bulk is a member no reader reads, and of `roofcast devices` with a large stray .json in a
# data folder (issue 27), each with /usr/bin/time -v, for this build and, where given, an earlier
# binary. Writes the results, with the machine, the date, the commit and this command line, to
# docs/scale/merge.md (or --results FILE). Build first: cmake --build build --target roofcast.
#
#   scripts/dev/merge-scale.sh [--kernels 200000,1000000] [--before OLD_ROOFCAST]
#                              [--before-kernels 200000] [--ignored-mb 1000] [--build build]
#                              [--work /tmp/roofcast-merge-scale] [--results docs/scale/merge.md]
# --before runs an earlier roofcast on the same files, for the sizes in --before-kernels only (the
# merge of main at c5d130f took 16 times its input in memory: 1M-kernel profiles would need
# ~28 GB). Target: merge's peak memory under 4 times its two inputs.
set -euo pipefail

kernels=200000,1000000
before=""
before_kernels=200000
ignored_mb=1000
build=build
work=/tmp/roofcast-merge-scale
results=docs/scale/merge.md
command_line="scripts/dev/merge-scale.sh${*:+ $*}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --kernels) kernels="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --before-kernels) before_kernels="$2"; shift 2 ;;
    --ignored-mb) ignored_mb="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "merge-scale: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/../.."
after="$build/bin/roofcast"
[[ -x "$after" ]] || { echo "merge-scale: $after not found: build the roofcast target first" >&2; exit 1; }
[[ -z "$before" || -x "$before" ]] || { echo "merge-scale: --before $before is not a program" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "merge-scale: /usr/bin/time not found (Debian package time)" >&2; exit 1; }
mkdir -p "$work"

rows=()
# run NAME INPUT_BYTES BINARY_LABEL COMMAND...: one run, stdout to /dev/null; a row with its wall
# time, peak resident memory, that memory over the input's size, and how it ended.
run() {
  local name="$1" input_bytes="$2" which="$3"
  shift 3
  echo "merge-scale: $which: $name" >&2
  local log="$work/time.log" status=0
  /usr/bin/time -v -o "$log" "$@" >/dev/null 2>"$work/stderr.log" || status=$?
  local wall kb
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
           n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; printf "%.1f", s }' "$log")
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
  local ended="exit $status"
  [[ $status -ne 0 ]] && ended+=": $(tail -1 "$work/stderr.log" | cut -c1-120 | sed 's/|/\\|/g')"
  rows+=("| $name | $which | $((input_bytes / 1000000)) | $wall | $((kb / 1024)) | $(awk -v r="$kb" -v i="$input_bytes" 'BEGIN { printf "%.2f", r * 1024 / i }') | $ended |")
}

bytes() { stat -c %s "$1"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for n in ${kernels//,/ }; do
  a="$work/kernels-$n-a.json" b="$work/kernels-$n-b.json"
  for side in a b; do
    file="$work/kernels-$n-$side.json"
    [[ -s $file ]] || python3 scripts/dev/scale-profile.py --kernels "$n" --metrics thesis \
      --seed "$([[ $side == a ]] && echo 1 || echo 2)" --output "$file"
  done
  both=$(($(bytes "$a") + $(bytes "$b")))
  run "\`merge\` of two profiles of $n kernels" "$both" after "$after" merge "$a" "$b" -o "$work/merged.json"
  run "\`predict\` of one of them (for scale)" "$(bytes "$a")" after "$after" predict --profile "$a" \
    --device GTX-660 --format csv
  if [[ -n $before && ",$before_kernels," == *",$n,"* ]]; then
    run "\`merge\` of two profiles of $n kernels" "$both" before "$before" merge "$a" "$b" -o "$work/merged.json"
  fi
  rm -f "$work/merged.json"
done

# A small profile whose bulk is a member no reader reads, in two shapes: many numbers, one string.
ignored_numbers="$work/ignored-numbers.json" ignored_string="$work/ignored-string.json"
python3 - "$ignored_mb" "$ignored_numbers" "$ignored_string" <<'EOF'
import json, sys
megabytes, numbers_path, string_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
profile = json.load(open("tests/fuzz/corpus/kernel_profile_json/thesis-redblack.json"))
head = json.dumps(profile)[:-1]
with open(numbers_path, "w") as f:
    f.write(head + ', "tool_samples": [')
    chunk = "1.25, " * 100000
    for _ in range(megabytes * 1000000 // len(chunk)):
        f.write(chunk)
    f.write("0]}\n")
with open(string_path, "w") as f:
    f.write(head + ', "tool_note": "')
    chunk = "x" * 1000000
    for _ in range(megabytes):
        f.write(chunk)
    f.write('"}\n')
EOF
small="tests/fuzz/corpus/kernel_profile_json/thesis-redblack.json"
for file in "$ignored_numbers" "$ignored_string"; do
  shape=$([[ $file == "$ignored_numbers" ]] && echo "an array of numbers" || echo "one string")
  for which in after before; do
    binary=$([[ $which == after ]] && echo "$after" || echo "$before")
    [[ -n $binary ]] || continue
    run "\`predict\`, profile of $ignored_mb MB, bulk: $shape no reader reads" "$(bytes "$file")" "$which" \
      "$binary" predict --profile "$file" --device GTX-660 --format csv
    run "\`merge\` of it and a small profile" "$(($(bytes "$file") + $(bytes "$small")))" "$which" \
      "$binary" merge "$file" "$small" -o "$work/merged.json"
    rm -f "$work/merged.json"
  done
done

# `roofcast devices` with the numbers file as a stray .json in a data folder.
mkdir -p "$work/data/devices"
ln -f "$ignored_numbers" "$work/data/devices/stray.json"
for which in after before; do
  binary=$([[ $which == after ]] && echo "$after" || echo "$before")
  [[ -n $binary ]] || continue
  run "\`devices\`, a data folder holding a stray $ignored_mb MB .json" \
    "$(bytes "$ignored_numbers")" "$which" env ROOFCAST_DATA_DIR="$work/data" "$binary" devices
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

commit=$(git rev-parse --short HEAD)
[[ -n $(git status --porcelain --untracked-files=no) ]] && commit+=" (with uncommitted changes)"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
memory=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
{
  echo "# Merge and large inputs: memory and time"
  echo
  echo "Written by \`scripts/dev/merge-scale.sh\`; every number below comes from its run (see docs/profiler.md"
  echo "and docs/formats.md for what changed)."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: $(nproc) CPUs, $cpu, $memory memory"
  echo "- Load average (1, 5, 15 min) before: $load_before; after: $load_after"
  echo "- Commit: $commit (after)${before:+; before: \`$before\`}"
  echo "- Command: \`$command_line\`"
  echo "- Profiles: \`scripts/dev/scale-profile.py --metrics thesis\`, seeds 1 and 2"
  echo
  echo "Wall time and peak resident memory (max RSS) from \`/usr/bin/time -v\`, one run each; RSS / input is"
  echo "the peak memory over the size of the files read. Target (issue 27): merge under 4."
  echo
  echo "| command | build | input MB | wall s | max RSS MB | RSS / input | result |"
  echo "|---|---|---:|---:|---:|---:|---|"
  printf '%s\n' "${rows[@]}"
} >"$results"
echo "merge-scale: wrote $results" >&2
