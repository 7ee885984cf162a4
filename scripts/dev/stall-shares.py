#!/usr/bin/env python3
"""Each kernel's share of its warps' stall cycles for one stall reason (ncu's
smsp__warps_issue_stalled_REASON.sum over the sum of all reasons), highest first.

    scripts/dev/stall-shares.py [--reason drain] [--top 15] PROFILE.json...

Used for issue 28's pack_pairs lead: is a high drain share (warps at EXIT waiting for their stores)
a sign of stores that wait for a block's chain, or common among kernels the model predicts well?"""
import argparse
import json
import pathlib

PREFIX = "smsp__warps_issue_stalled_"


def shares(path, reason):
    for kernel in json.loads(pathlib.Path(path).read_text())["kernels"]:
        counters = kernel.get("counters", {})
        stalls = {name[len(PREFIX):-len(".sum")]: value for name, value in counters.items()
                  if name.startswith(PREFIX) and name.endswith(".sum")}
        total = sum(stalls.values())
        if total > 0 and reason in stalls:
            yield stalls[reason] / total, pathlib.Path(path).stem, kernel["name"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reason", default="drain")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("profiles", nargs="+")
    args = parser.parse_args()
    rows = sorted((row for path in args.profiles for row in shares(path, args.reason)), reverse=True)
    print(f"| {args.reason} share of stall cycles | profile | kernel |")
    print("|---:|---|---|")
    for share, profile, name in rows[:args.top]:
        cell = name[:70].replace("`", "'").replace("|", "\\|")  # names are data: no markdown from them
        print(f"| {100 * share:.1f} % | {profile} | `{cell}` |")
    print(f"\n{len(rows)} kernels; median {100 * rows[len(rows) // 2][0]:.1f} %" if rows else "no kernels with stall counters")


if __name__ == "__main__":
    main()
