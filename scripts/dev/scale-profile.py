#!/usr/bin/env python3
"""Writes a synthetic kernel profile of N kernels for the scale benchmark (scripts/dev/scale-bench.sh).

Every kernel is a variant of a kernel profiled on a real GPU (the committed profiles under
docs/validation/2026-11-22-pipes/*-run/profiles): its counters, measured times and invocations
are scaled by random factors, its launch grids resized, and its name made unique with a
template argument list, so that the profile has the mix of counters, launch shapes and names
that `roofcast profile` writes, only many more kernels. The output is deterministic for a seed.

  scripts/dev/scale-profile.py --kernels 100000 --output /tmp/scale/profile.json
"""

import argparse
import glob
import json
import os
import random
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATE_PROFILES = "docs/validation/2026-11-22-pipes/h100-run/profiles/*.json"

# The thesis' nine counters (`roofcast profile --metrics thesis`; profiler/src/metric_set.cpp).
THESIS_COUNTERS = {
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_memory_pred_on.sum", "smsp__inst_executed.sum",
    "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum", "dram__sectors_read.sum", "dram__sectors_write.sum",
}

# Counters that are rates or percentages, not amounts: kept as they are when a kernel is scaled.
UNSCALED_COUNTERS = {"sm__warps_active.avg.pct_of_peak_sustained_active", "sm__cycles_elapsed.avg.per_second"}


def template_kernels():
    kernels, reference, collector = [], None, None
    for path in sorted(glob.glob(os.path.join(ROOT, TEMPLATE_PROFILES))):
        with open(path) as f:
            profile = json.load(f)
        reference = reference or profile.get("reference_device")
        collector = collector or profile.get("collector")
        kernels += [k for k in profile["kernels"] if "counters" in k]
    if not kernels:
        raise SystemExit(f"scale-profile: no template kernels in {TEMPLATE_PROFILES}")
    return kernels, reference, collector


def short_name(name):
    """`void ns::kernel<T, ...>(args)` -> `kernel`: the base name a variant is built from."""
    base = re.sub(r"\(.*", "", name)
    base = re.sub(r"<.*", "", base)
    base = base.replace("void ", "").strip()
    return base.split("::")[-1] or "kernel"


def variant(template, index, rng, metrics):
    work = rng.lognormvariate(0, 1.0)  # how much more (or less) work than the template
    calls = max(1, round(template.get("invocations", 1) * rng.choice([1, 1, 2, 4, 10, 100])))
    per_call = work * calls / max(1, template.get("invocations", 1))
    kernel = {
        "name": f"{short_name(template['name'])}<{index}, {rng.choice(['float', 'double', 'int', '__half'])}>"
                f"(int, float*)",
        "invocations": calls,
        "counters": {key: value if key in UNSCALED_COUNTERS else round(value * per_call)
                     for key, value in template["counters"].items()
                     if metrics == "full" or key in THESIS_COUNTERS},
        "launch_shapes": [],
    }
    scale = per_call / calls
    for shape in template.get("launch_shapes", []):
        shape = dict(shape)
        shape["grid"] = [max(1, round(shape["grid"][0] * scale)), shape["grid"][1], shape["grid"][2]]
        shape["invocations"] = max(1, round(shape["invocations"] * calls / max(1, template.get("invocations", 1))))
        kernel["launch_shapes"].append(shape)
    for key in ("measured_ms", "median_ms", "min_ms", "max_ms"):
        if key in template:
            kernel[key] = template[key] * per_call * rng.uniform(0.8, 1.25)
    return kernel


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, required=True, help="number of kernels")
    parser.add_argument("--output", required=True, help="profile file to write")
    parser.add_argument("--metrics", choices=["full", "thesis"], default="full",
                        help="counters per kernel, as `roofcast profile --metrics` (default: full, 61)")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    templates, reference, collector = template_kernels()
    profile = {
        "format": "roofcast-profile",
        "version": 1,
        "reference_device": reference,
        "description": f"synthetic: {args.kernels} variants of the kernels of {TEMPLATE_PROFILES} "
                       f"(scripts/dev/scale-profile.py, seed {args.seed})",
        "kernels": [variant(rng.choice(templates), i, rng, args.metrics) for i in range(args.kernels)],
    }
    if collector:
        profile["collector"] = dict(collector, metric_set=args.metrics,
                                    metrics=[m for m in collector["metrics"]
                                             if args.metrics == "full" or m in THESIS_COUNTERS])
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(profile, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
