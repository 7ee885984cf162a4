#!/usr/bin/env python3
"""What the gather benches (`dram_gather_gbps`, `l2_gather_gbps`, microbench/gpu/gathers.cu) say
about the latency classes the pipes model still misses (issue 28): prints markdown tables from
device profiles of one GPU whole and of its MPS partitions, and a latency-class run of the same
GPU (scripts/dev/latency-classes-gpu.sh). Design-half kernels only (workloads/latency_classes.json).

Usage:
  scripts/dev/gather-findings.py --run RUN WHOLE.json MPS50.json MPS25.json
  (the device profiles in that order: whole GPU, MPS 50 %, MPS 25 %)
Exit status: 0 done, 1 bad input (a message names the file).
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("whole GPU", "MPS 50 %", "MPS 25 %")
SECTOR = 32


class InputError(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read JSON ({e})") from None


def measured(profile, path, key):
    try:
        value = float(profile["measurements"][key]["value"]["median"])
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{path}: no measurements.{key}.value.median (bench it with today's roofcast bench)") from None
    if not value > 0:
        raise InputError(f"{path}: measurements.{key} must be > 0")
    return value


def device_rates(path):
    profile = load(path)
    sms = profile.get("device", {}).get("sm_count")
    if not isinstance(sms, int) or sms <= 0:
        raise InputError(f"{path}: device.sm_count must be a positive integer")
    keys = ("dram_gather_gbps", "l2_gather_gbps", "dram_read_gbps", "l2_gbps", "latency_dram_ns")
    rates = {k: measured(profile, path, k) for k in keys}
    rates["sm_count"] = sms
    rates["clock_ghz"] = float(profile.get("clocks", {}).get("sm_clock_mhz_in_kernel") or 0) / 1000
    rates["name"] = profile.get("device", {}).get("name", path)
    return rates


def base_name(kernel):
    """A kernel's function name without its signature ("merge_chains_b32_t512"); "" when none."""
    name = re.match(r"(?:void\s+)?(\w+)", str(kernel.get("name", "")))
    return name.group(1) if name else ""


def kernel_times(run, program):
    """Microseconds per launch of each kernel of `program` on the three targets."""
    files = [run / "profiles" / f"{program}.json", run / "measured" / f"mps50-{program}.json",
             run / "measured" / f"mps25-{program}.json"]
    times = {}
    for column, f in enumerate(files):
        for k in load(f).get("kernels", []):
            if base_name(k) and k.get("invocations"):
                times.setdefault(base_name(k), [None] * 3)[column] = 1000 * k["measured_ms"] / k["invocations"]
    return times


def design_kernels():
    manifest = load(ROOT / "workloads" / "latency_classes.json")
    return {k["kernel"]: k["class"] for k in manifest["kernels"] if k["half"] == "design"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", required=True, type=Path)
    parser.add_argument("devices", nargs=3)
    args = parser.parse_args()
    devices = [device_rates(p) for p in args.devices]
    design = design_kernels()
    print_bench_table(devices)
    print_frontier_table(args.run, devices, design)
    print_merge_table(args.run, devices, design)


def print_bench_table(devices):
    print("## The benches, per target\n")
    print("| target | SMs | dram_gather_gbps | per SM | of dram_read_gbps | l2_gather_gbps | per SM | sectors per SM cycle "
          "| of l2_gbps | DRAM sectors in flight per SM (gather rate x latency_dram_ns) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for target, d in zip(TARGETS, devices):
        dram_per_sm, l2_per_sm = d["dram_gather_gbps"] / d["sm_count"], d["l2_gather_gbps"] / d["sm_count"]
        per_cycle = l2_per_sm / SECTOR / d["clock_ghz"] if d["clock_ghz"] > 0 else float("nan")
        print(f"| {target} ({d['name']}) | {d['sm_count']} | {d['dram_gather_gbps']:.0f} | {dram_per_sm:.1f} | "
              f"{d['dram_gather_gbps'] / d['dram_read_gbps']:.0%} | {d['l2_gather_gbps']:.0f} | {l2_per_sm:.1f} | "
              f"{per_cycle:.2f} | {d['l2_gather_gbps'] / d['l2_gbps']:.0%} | "
              f"{dram_per_sm * d['latency_dram_ns'] / SECTOR:.0f} |")


def print_frontier_table(run, devices, design):
    print("\n## frontier_expand (design half): its DRAM traffic against the gather rate\n")
    print("DRAM bytes from the whole-GPU profile's counters (the same launches on every target).\n")
    print("| kernel | target | us per launch | DRAM GB/s | x dram_gather_gbps |")
    print("|---|---|---:|---:|---:|")
    times = kernel_times(run, "frontier_expand")
    for k in load(run / "profiles" / "frontier_expand.json").get("kernels", []):
        name = base_name(k)
        if design.get(name) != "frontier_expand":
            continue
        c, launches = k["counters"], k["invocations"]
        dram_bytes = (c["dram__sectors_read.sum"] + c["dram__sectors_write.sum"]) * SECTOR / launches
        for column, (target, d) in enumerate(zip(TARGETS, devices)):
            us = times[name][column]
            rate = dram_bytes / us / 1000
            print(f"| {name} | {target} | {us:.1f} | {rate:.0f} | {rate / d['dram_gather_gbps']:.2f} |")


def print_merge_table(run, devices, design):
    print("\n## merge_chains (design half): a load's wait against the gathers' per-SM rates\n")
    print("Per global load of a warp: the measured time per launch / loads per warp (one wave: every warp runs its "
          "chain from the start); the bounds are the SM's resident warps x the load's sectors past L1 (x the DRAM "
          "share of its L2 reads) x 32 B / the gather rate per SM.\n")
    print("| kernel | target | warps per SM | measured ns per load | L2-gather bound ns | DRAM-gather bound ns |")
    print("|---|---|---:|---:|---:|---:|")
    times = kernel_times(run, "merge_chains")
    for k in load(run / "profiles" / "merge_chains.json").get("kernels", []):
        name = base_name(k)
        if design.get(name) != "merge_chains":
            continue
        c, launches = k["counters"], k["invocations"]
        warps = c["sm__warps_launched.sum"] / launches
        loads_per_warp = c["smsp__inst_executed_op_global_ld.sum"] / launches / warps
        miss = c["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"]
        missed_sectors = miss / c["smsp__inst_executed_op_global_ld.sum"]
        dram_share = c["dram__sectors_read.sum"] / c["lts__t_sectors_srcunit_tex_op_read.sum"]
        blocks, threads = kernel_shape(k)
        for column, (target, d) in enumerate(zip(TARGETS, devices)):
            warps_per_sm = -(-blocks // d["sm_count"]) * threads / 32
            ns = times[name][column] * 1000 / loads_per_warp
            l2 = warps_per_sm * missed_sectors * SECTOR / (d["l2_gather_gbps"] / d["sm_count"])
            dram = warps_per_sm * missed_sectors * dram_share * SECTOR / (d["dram_gather_gbps"] / d["sm_count"])
            print(f"| {name} | {target} | {warps_per_sm:.0f} | {ns:.0f} | {l2:.0f} | {dram:.0f} |")


def kernel_shape(kernel):
    """Blocks and threads per block of a kernel's (single) launch shape."""
    shapes = kernel.get("launch_shapes")
    if isinstance(shapes, list) and len(shapes) == 1:
        grid, block = shapes[0].get("grid", [1, 1, 1]), shapes[0].get("block", [1, 1, 1])
        return grid[0] * grid[1] * grid[2], block[0] * block[1] * block[2]
    raise InputError(f"kernel {kernel.get('name')}: not one launch shape")


if __name__ == "__main__":
    try:
        main()
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
