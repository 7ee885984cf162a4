#!/usr/bin/env python3
"""Latency-class predictions by kind of target (whole GPU, MPS 50 %, MPS 25 %), per class: the
share within 25 % and the median signed error, from latency-classes.json files that
scripts/dev/latency-classes-score.py --output wrote.

Usage: scripts/dev/latency-classes-by-device.py [--half design|held-out] NAME=JSON [NAME=JSON...]
Prints one markdown table per kind of target, a column pair per file (e.g. before=... after=...).
Exit status: 0 done, 1 bad input (the message names the file), 2 usage.
"""
import argparse
import json
import statistics
import sys

KINDS = (("whole GPU", lambda d: "MPS" not in d), ("MPS 50 %", lambda d: "MPS 50" in d),
         ("MPS 25 %", lambda d: "MPS 25" in d))


def load(spec):
    name, sep, path = spec.partition("=")
    if not sep or not name or not path:
        raise SystemExit(f"usage: give NAME=JSON, found {spec!r}")
    try:
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)["predictions"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: not a latency-classes.json with predictions ({e})", file=sys.stderr)
        sys.exit(1)
    return name, rows


def cell(rows):
    if not rows:
        return "| | "
    within = 100 * sum(r["ape"] <= 0.25 for r in rows) / len(rows)
    return f"| {within:.0f} | {100 * statistics.median(r['error'] for r in rows):+.1f} "


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("design", "held-out"), default="design")
    parser.add_argument("files", nargs="+", help="NAME=latency-classes.json")
    args = parser.parse_args()
    runs = [load(spec) for spec in args.files]
    classes = list(dict.fromkeys(r["class"] for _, rows in runs for r in rows))
    for kind, matches in KINDS:
        print(f"\n### {kind} targets, {args.half} half\n")
        print("| class | " + " | ".join(f"{n}: within 25 % | {n}: median error %" for n, _ in runs) + " |")
        print("|---|" + "---:|---:|" * len(runs))
        for cls in classes + ["all classes"]:
            line = f"| {cls} "
            for _, rows in runs:
                line += cell([r for r in rows if r["half"] == args.half and matches(r["device"])
                              and (cls == "all classes" or r["class"] == cls)])
            print(line + "|")


if __name__ == "__main__":
    main()
