#!/usr/bin/env bash
# On the GPU machine: checks predicted copy times against measured ones. Benches the GPU (its
# transfer fits), profiles our workloads (their copies, timed), and compares, per workload and
# kind of copy, `roofcast rank`'s prediction on that same GPU with the time the collector measured.
# Needs a build with CUDA (default folder build-gpu, as scripts/dev/gpu-check.sh makes it).
# Writes transfer-check.md and .json under $OUT (or ./transfer-check-out) and prints the table.
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/dev/gpu-deps.sh || exit 1
OUT=${OUT:-$PWD/transfer-check-out}
BUILD=${BUILD:-build-gpu}
BIN=$PWD/$BUILD/bin
WORK=$OUT/transfer-check
mkdir -p "$WORK"

if [[ ! -x $BIN/roofcast-bench ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DROOFCAST_ENABLE_HIP=OFF \
    -DROOFCAST_BUILD_TESTS=OFF >"$WORK/configure.log" 2>&1 && cmake --build "$BUILD" --parallel "$(nproc)" >"$WORK/build.log" 2>&1 ||
    { tail -20 "$WORK/build.log"; exit 1; }
fi

"$BIN/roofcast" bench --output "$WORK/device.json" >"$WORK/bench.log" 2>&1 || { tail -5 "$WORK/bench.log"; exit 1; }
for workload in stream sgemm redblack_sor; do
  "$BIN/roofcast" profile -o "$WORK/$workload.json" -- "$BIN/roofcast-workload-$workload" --warmups 1 --repeats 3 \
    >"$WORK/profile-$workload.log" 2>&1 || echo "profile $workload failed: $(tail -1 "$WORK/profile-$workload.log")"
  "$BIN/roofcast" rank --profile "$WORK/$workload.json" --device "$WORK/device.json" --format json \
    >"$WORK/rank-$workload.json" 2>"$WORK/rank-$workload.log"
done

python3 - "$WORK" "$OUT" <<'PY'
import json, pathlib, sys, datetime
work, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
device = json.loads((work / "device.json").read_text())
rows, worst = [], 0.0
for rank_file in sorted(work.glob("rank-*.json")):
    if rank_file.stat().st_size == 0:
        continue
    workload = rank_file.stem.removeprefix("rank-")
    for t in json.loads(rank_file.read_text())["devices"][0]["transfers"]:
        p, m = t["predicted_ms"], t["measured_ms"]
        error = None if p is None or not m else (p - m) / m
        if error is not None:
            worst = max(worst, abs(error))
        rows.append({"workload": workload, **t, "error": error})
fits = device.get("transfers", {})
lines = [f"# Copy-time predictions against measured copies: {device['name']}", "",
         f"Date (UTC) {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M}; command `scripts/dev/transfer-check.sh` on the GPU machine.",
         "Predicted = count x latency + bytes / bandwidth with the fits `roofcast bench` measured on the same GPU;",
         "measured = the copies' durations that `roofcast profile` recorded while running each workload.", "",
         "| fit | bandwidth GB/s | latency us |", "|---|---:|---:|"]
lines += [f"| {k} | {v['bandwidth_gbps']:.1f} | {v['latency_us']:.2f} |" for k, v in sorted(fits.items())]
lines += ["", "| workload | copy | count | MiB | predicted ms | measured ms | error % |", "|---|---|---:|---:|---:|---:|---:|"]
for r in rows:
    fmt = lambda x: "-" if x is None else f"{x:.4f}"
    err = "-" if r["error"] is None else f"{100 * r['error']:+.1f}"
    lines.append(f"| {r['workload']} | {r['key']} | {r['count']:.0f} | {r['bytes'] / 2**20:.1f} | {fmt(r['predicted_ms'])} | {fmt(r['measured_ms'])} | {err} |")
text = "\n".join(lines) + "\n"
(out / "transfer-check.md").write_text(text)
(out / "transfer-check.json").write_text(json.dumps({"device": device["name"], "fits": fits, "rows": rows}, indent=2))
print(text)
print(f"worst |error| {100 * worst:.1f} %")
PY
