#!/usr/bin/env python3
"""merge_chains' time against its stores at the bench's scattered-store rate (issue 28).

    scripts/dev/merge-chains-stores.py TIMES.md WHOLE.json MPS50.json MPS25.json

TIMES.md: scripts/dev/merge-chains-experiment.sh's table (the kernels with and without their
stores); the profiles: `roofcast bench` of the same GPU whole and under MPS 50 % and 25 %, with
`scattered_store_gops`. Prints, per target and design kernel, the stores' time at that rate (one
store per merged key: 2^25, workloads/merge_chains.cu), the chains' time (the no-stores variant),
the measured time, and the two combined by max, soft max (sqrt(a^2 + b^2), as the pipes model joins
DRAM and its parallelism) and sum, each with its error against the measured time."""
import json
import math
import pathlib
import sys

KEYS = 2 ** 25
TARGETS = ("whole GPU", "MPS 50 %", "MPS 25 %")


def read_times(path):
    times = {}
    for line in pathlib.Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in TARGETS:
            times[(cells[0], cells[1], cells[2])] = float(cells[3])
    return times


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    times = read_times(sys.argv[1])
    rates = {}
    for target, path in zip(TARGETS, sys.argv[2:]):
        m = json.loads(pathlib.Path(path).read_text())["measurements"]["scattered_store_gops"]
        rates[target] = m["value"]["median"]
    print("| target | kernel | store rate G/s | stores ms | chains ms | measured ms | max | soft max | sum |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for target in TARGETS:
        for kernel in ("merge_chains_b32_t512", "merge_chains_b64_t1024"):
            stores = KEYS / rates[target] * 1e-6
            chains, measured = times[(target, "no-stores", kernel)], times[(target, "original", kernel)]
            combined = {"max": max(stores, chains), "soft": math.hypot(stores, chains), "sum": stores + chains}
            cells = " | ".join(f"{v:.3f} ({100 * (v / measured - 1):+.0f} %)" for v in combined.values())
            print(f"| {target} | {kernel} | {rates[target]:.1f} | {stores:.3f} | {chains:.3f} | {measured:.3f} | {cells} |")


if __name__ == "__main__":
    main()
