#!/usr/bin/env python3
"""Condenses scripts/dev/store-path-experiment.sh's table (issue 28): per configuration the chain
alone, the stores alone, both, and what the stores add to the chain as a share of their own time
(1: they add up; 0: hidden under the chain), with the stores' rate per busy SM per cycle.

    scripts/dev/store-path-summary.py STORE_PATH_MD [--ghz 1.98]

Blocks fewer than the SMs are spread one per SM by the block scheduler, whatever their shared
memory lets fit, so the busy SMs are min(blocks, SMs of the target) and the warps per SM follow."""
import argparse
import sys

SMS = {"whole GPU": 132, "MPS 50 %": 66, "MPS 25 %": 32}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("--ghz", type=float, default=1.98, help="SM clock of the run, GHz [1.98]")
    args = parser.parse_args()
    rows = {}
    for line in open(args.table):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 10 or not cells[1].isdigit():
            continue
        target, threads, per_sm, _, busy, data, mode, ms = cells[:8]
        if target not in SMS:
            sys.exit(f"error: {args.table}: unknown target {target!r}")
        blocks = int(busy) * int(per_sm)
        rows[(target, int(threads), blocks, data, mode)] = float(ms)
    print("| target | threads/block | blocks | busy SMs | warps/SM | chain data | chain ms | stores ms | both ms "
          "| stores added / stores alone | stores /busy SM/cycle |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    steps = 512
    for (target, threads, blocks, data, mode), chain in sorted(rows.items()):
        if mode != "chain":
            continue
        stores = rows.get((target, threads, blocks, "DRAM", "stores"))
        both = rows.get((target, threads, blocks, data, "both"))
        if stores is None or both is None:
            continue
        busy = min(blocks, SMS[target])
        warps = threads // 32 * -(-blocks // busy)
        rate = threads * blocks * steps / busy / (stores * 1e6 * args.ghz)
        print(f"| {target} | {threads} | {blocks} | {busy} | {warps} | {data} | {chain:.3f} | {stores:.3f} | {both:.3f} "
              f"| {(both - chain) / stores:.2f} | {rate:.3f} |")


if __name__ == "__main__":
    main()
