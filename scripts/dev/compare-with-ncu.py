#!/usr/bin/env python3
"""Compares a roofcast kernel profile with Nsight Compute's numbers for the same kernels.

usage: compare_with_ncu.py PROFILE.json NCU.csv [NCU2.csv ...] [--tolerance 0.01] [--label NAME]

NCU.csv is `ncu --import REPORT --csv --page raw --print-units base` of a run with the same
metrics. Kernels are matched by mangled name (else by demangled name without spaces); counts
are summed over each kernel's launches. Instruction counts (metrics with "inst_executed")
must be equal, except the FP32 pipe halves (smsp__inst_executed_pipe_fmaheavy/fmalite: the
hardware picks the half at issue, so the split moves between runs; compared within the
tolerance); every other counter within the tolerance of the first ncu run. Where more ncu runs
of the same application are given, a counter that misses the first run but lies within the
range of ncu's own runs (widened by the tolerance) is reported as "ok (ncu's spread)": ncu
does not reproduce dynamic counters (DRAM write-backs, occupancy, conflicts between racing
atomics) within 1 % of itself either. Prints a table (one row per kernel and counter), then one
line per counter (kernels agreeing / compared, largest difference); exits 1 on any mismatch,
missing kernel or differing launch count.

With --cache-dependent report, counters that depend on state outside the kernel are listed
apart instead of failing: DRAM/L2 traffic (dram__*, lts__*: what earlier kernels left in the
caches; ncu flushes them before every pass by default) and the SM clock
(sm__cycles_elapsed.avg.per_second: ncu locks clocks to base by default, roofcast leaves them)."""
import argparse
import csv
import json
import re
import sys


def read_ncu(path):
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("==")]
    rows = list(csv.reader(lines))
    header = rows[0]
    data = [r for r in rows[1:] if r and r[0] != ""]  # skip the units row
    name_col = header.index("Kernel Name")
    duration_col = header.index("gpu__time_duration.sum") if "gpu__time_duration.sum" in header else None
    kernels = {}
    for r in data:
        k = kernels.setdefault(r[name_col], {"launches": 0, "counters": {}, "weighted": {}, "duration": 0.0})
        k["launches"] += 1
        duration = 0.0
        if duration_col is not None:
            try:
                duration = float(r[duration_col].replace(",", ""))
            except ValueError:
                pass
        k["duration"] += duration
        for i, metric in enumerate(header):
            if "__" not in metric:
                continue
            try:
                value = float(r[i].replace(",", ""))
            except ValueError:
                continue
            k["counters"][metric] = k["counters"].get(metric, 0.0) + value
            k["weighted"][metric] = k["weighted"].get(metric, 0.0) + value * duration
    return kernels


def is_ratio(metric):
    """The counters roofcast averages over launches (metric_set.cpp, summable = false): occupancy
    and the clock. Every other counter is summed over launches, per-launch .avg and .max
    counters too (lts__cycles_elapsed.avg, lts__d_atomic_input_cycles_active.max)."""
    return ".pct_of_peak" in metric or metric.endswith(".per_second")


def per_kernel_value(kernel, metric):
    """Counts: the sum over launches. Ratios (occupancy, clock): the mean over launches weighted by
    each launch's duration, as roofcast aggregates them (plain mean where ncu gave no duration)."""
    if not is_ratio(metric):
        return kernel["counters"][metric]
    if kernel["duration"] > 0:
        return kernel["weighted"][metric] / kernel["duration"]
    return kernel["counters"][metric] / max(kernel["launches"], 1)


def squash(name):
    return name.replace(" ", "")


def is_exact(metric):
    """Instruction counts must be equal; FP32 work is split between fmaheavy and fmalite at
    issue, dynamically, so those two are compared within the tolerance like other counters."""
    return "inst_executed" in metric and "_pipe_fmaheavy" not in metric and "_pipe_fmalite" not in metric


def print_per_counter(rows):
    """One line per counter: kernels agreeing / compared, the largest difference, who differs."""
    per_metric = {}
    for kernel, metric, _, _, rel, verdict in rows:
        if metric in ("(kernel)", "launches"):
            continue
        entry = per_metric.setdefault(metric, {"ok": 0, "n": 0, "max": 0.0, "differ": []})
        entry["n"] += 1
        entry["max"] = max(entry["max"], float(rel.rstrip("%")))
        if verdict.startswith("ok"):
            entry["ok"] += 1
        else:
            entry["differ"].append(kernel)
    print("per counter: kernels agreeing / compared, largest relative difference, kernels that differ")
    width = max((len(m) for m in per_metric), default=0)
    for metric, e in sorted(per_metric.items()):
        differ = ", ".join(e["differ"])
        print(f"  {metric.ljust(width)}  {e['ok']}/{e['n']}  max {e['max']:.3f}%  {differ}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("ncu_csv", nargs="+")
    parser.add_argument("--tolerance", type=float, default=0.01)
    parser.add_argument("--label", default="")
    parser.add_argument("--cache-dependent", choices=["strict", "report"], default="strict",
                        help="report: DRAM/L2 traffic (dram__*, lts__*), which depends on what earlier kernels left "
                             "in the caches, and the SM clock, which depends on ncu's clock control, are shown but "
                             "not counted as mismatches")
    args = parser.parse_args()

    profile = json.load(open(args.profile))
    runs = [read_ncu(path) for path in args.ncu_csv]
    ncu = runs[0]
    ncu_by_squashed = {squash(name): value for name, value in ncu.items()}
    other_runs = runs[1:]
    within_spread = 0
    ncu_self_differences = 0
    failures = 0
    cache_differences = 0
    rows = []
    our_launches = 0
    for kernel in profile["kernels"]:
        our_launches += kernel["invocations"]
        theirs = ncu.get(kernel.get("mangled_name", "")) or ncu.get(kernel["name"]) or ncu_by_squashed.get(squash(kernel["name"]))
        ncu_name = next((name for name, value in ncu.items() if value is theirs), None)
        short = re.sub(r"\([^()]*\)$", "", kernel["name"])[-40:]  # without the argument list
        if theirs is None:
            rows.append((short, "(kernel)", "-", "-", "-", "MISSING in ncu"))
            failures += 1
            continue
        if theirs["launches"] != kernel["invocations"]:
            rows.append((short, "launches", kernel["invocations"], theirs["launches"], "-", "MISMATCH"))
            failures += 1
        for metric, ours in sorted(kernel["counters"].items()):
            if metric not in theirs["counters"]:
                continue
            ref = per_kernel_value(theirs, metric)
            exact = is_exact(metric)
            diff = abs(ours - ref)
            rel = diff / max(abs(ref), abs(ours)) if max(abs(ref), abs(ours)) > 0 else 0.0
            ok = diff == 0 if exact else rel <= args.tolerance
            # The same counter in ncu's other runs of the application.
            others = []
            for run in other_runs:
                if metric in run.get(ncu_name, {}).get("counters", {}):
                    others.append(per_kernel_value(run[ncu_name], metric))
            references = [ref] + others
            lo, hi = min(references), max(references)
            if hi - lo > args.tolerance * max(abs(hi), abs(lo)):
                ncu_self_differences += 1
            in_spread = (not exact or lo == hi) and lo * (1 - args.tolerance) <= ours <= hi * (1 + args.tolerance)
            cache_dependent = metric.startswith(("dram__", "lts__"))
            clock_dependent = metric.startswith("sm__cycles_elapsed")
            if ok:
                verdict = "ok"
            elif in_spread and len(references) > 1:
                verdict = "ok (ncu's spread)"
                within_spread += 1
            elif cache_dependent and args.cache_dependent == "report":
                verdict = "differs (cache state)"
                cache_differences += 1
            elif clock_dependent and args.cache_dependent == "report":
                verdict = "differs (clock control)"
                cache_differences += 1
            else:
                verdict = "MISMATCH (exact)" if exact else "MISMATCH"
                failures += 1
            rows.append((short, metric, f"{ours:.6g}", f"{ref:.6g}", f"{rel * 100:.3f}%", verdict))
    ncu_launches = sum(k["launches"] for k in ncu.values())
    print(f"== roofcast vs ncu {args.label}: {args.profile} vs {', '.join(args.ncu_csv)}")
    widths = [max(len(str(r[i])) for r in rows + [("kernel", "metric", "roofcast", "ncu", "rel diff", "result")]) for i in range(6)]
    for r in [("kernel", "metric", "roofcast", "ncu", "rel diff", "result")] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))
    launches_ok = our_launches == ncu_launches
    print(f"launches: roofcast {our_launches}, ncu {ncu_launches}: {'equal' if launches_ok else 'DIFFERENT'}")
    if not launches_ok:
        failures += 1
    checked = sum(1 for r in rows if r[1] not in ("(kernel)", "launches"))
    exact_rows = [r for r in rows if is_exact(r[1])]
    print(f"{len(exact_rows)} instruction counts compared, {sum(1 for r in exact_rows if r[5] != 'ok')} differ")
    print_per_counter(rows)
    note = f", {cache_differences} cache/clock-dependent differences reported" if args.cache_dependent == "report" else ""
    if len(runs) > 1:
        note += (f", {within_spread} outside 1 % of ncu run 1 but within the spread of ncu's {len(runs)} runs"
                 f" (ncu's runs differ from each other by more than 1 % in {ncu_self_differences} values)")
    print(f"{checked} counter values compared, {failures} mismatches{note} (tolerance {args.tolerance * 100:g} %, instruction counts exact)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
