#!/usr/bin/env python3
"""A sampled profile (roofcast profile, default --sample) against a full collection
(--sample all) of the same program: per kernel, the largest relative difference over its
summable counters (.sum), instruction counts and DRAM traffic apart. Counts under FLOOR per
launch (default 100: a DRAM write-back or two) are compared against FLOOR, so that 1 sector
against 0 is no difference of 100 %. Prints one line per kernel, naming those beyond
TOLERANCE (2 %).
Usage: compare_sampled_profiles.py SAMPLED.json ALL.json [--label NAME] [--tolerance 0.02]"""
import argparse
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sampled")
    parser.add_argument("all")
    parser.add_argument("--label", default="")
    parser.add_argument("--tolerance", type=float, default=0.02)
    parser.add_argument("--floor", type=float, default=100.0, help="per launch")
    args = parser.parse_args()
    try:
        sampled = {k["mangled_name"] if "mangled_name" in k else k["name"]: k for k in json.load(open(args.sampled))["kernels"]}
        full = {k["mangled_name"] if "mangled_name" in k else k["name"]: k for k in json.load(open(args.all))["kernels"]}
    except (OSError, ValueError, KeyError) as error:
        print(f"{args.label}: cannot compare: {error}")
        return 1
    within = 0
    for name, kernel in full.items():
        short = kernel["name"].split("(")[0]
        other = sampled.get(name)
        if other is None:
            print(f"{args.label} {short}: missing from the sampled profile")
            continue
        worst = {"instructions": (0.0, ""), "dram": (0.0, "")}
        floor = args.floor * max(kernel["invocations"], 1)
        for metric, value in kernel["counters"].items():
            if not metric.endswith(".sum"):
                continue
            got = other["counters"].get(metric, 0.0)
            difference = abs(got - value) / max(abs(value), floor)
            group = "dram" if metric.startswith(("dram__", "lts__")) else "instructions"
            if difference > worst[group][0]:
                worst[group] = (difference, metric)
        ok = max(worst["instructions"][0], worst["dram"][0]) <= args.tolerance
        within += ok
        text = "; ".join(f"{group} {100 * d:.2f} %{' (' + m + ')' if m else ''}" for group, (d, m) in worst.items())
        print(f"{args.label} {short}: {other.get('profiled_invocations', '?')} of {kernel['invocations']} launches profiled "
              f"({other.get('counter_scaling', '?')}); largest difference: {text} {'ok' if ok else 'DIFFERS'}")
    print(f"{args.label}: {within} of {len(full)} kernels within {100 * args.tolerance:g} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
