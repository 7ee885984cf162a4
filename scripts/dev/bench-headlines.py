#!/usr/bin/env python3
"""Prints the headline numbers of a roofcast device profile as `label|value` rows, for the
summary table of scripts/dev/gpu-check.sh. Usage: bench_headlines.py DEVICE.json"""
import json
import sys


def main(path):
    with open(path) as f:
        profile = json.load(f)
    fraction = profile.get("fraction_of_theoretical", {})
    throughput = profile["throughput"]

    def percent(key):
        return f"{100 * fraction[key]:.1f} %" if key in fraction else "n/a"

    def gbps(key):
        return f"{throughput[key]:.0f}" if key in throughput else "n/a"

    clocks = profile.get("clocks", {})
    device = profile.get("device", {})
    print(f"bench device|{device.get('name', '?')}, {device.get('sm_count', '?')} SMs, "
          f"{clocks.get('sm_clock_mhz_in_kernel', 0):.0f} MHz in kernels")
    print(f"bench fp32/fp64/half2 FMA|{percent('fp32_gflops')} / {percent('fp64_gflops')} / "
          f"{percent('half2_gflops')} of theoretical")
    memcpy = throughput.get("memcpy_d2d_gbps", 0)
    below = [k for k in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps") if throughput.get(k, 0) < memcpy]
    print(f"bench DRAM read/write/copy|{gbps('dram_read_gbps')} / {gbps('dram_write_gbps')} / "
          f"{gbps('dram_copy_gbps')} GB/s vs memcpy D2D {memcpy:.0f} GB/s"
          f"{' (below memcpy: ' + ', '.join(below) + ')' if below else ''}")
    if "dram_elementwise_add_gbps" in throughput:
        add = throughput["dram_elementwise_add_gbps"]
        short = [k for k in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps") if throughput.get(k, 0) < add]
        print(f"bench DRAM elementwise add|{add:.0f} GB/s read + written"
              f"{' (above ' + ', '.join(short) + ')' if short else ' (read, write, copy all at least this)'}")
    latencies = [(label, key) for label, key in (
        ("FFMA", "latency_ffma_ns"), ("DFMA", "latency_dfma_ns"), ("IMAD", "latency_imad_ns"),
        ("HFMA2", "latency_hfma2_ns"), ("MUFU", "latency_mufu_ns"), ("issue", "warp_issue_interval_ns"),
        ("LDS", "latency_shared_load_ns"), ("L1", "latency_l1_hit_ns"), ("L2", "latency_l2_hit_ns"),
        ("DRAM", "latency_dram_ns"), ("DRAM, 32 lines", "latency_dram_warp_ns"), ("atomic global", "latency_atomic_global_ns"),
        ("atomic shared", "latency_atomic_shared_ns")) if key in profile.get("measurements", {})]
    if latencies:
        measurements = profile["measurements"]
        print("bench latencies (cycles)|" + ", ".join(
            f"{label} {measurements[key].get('cycles', float('nan')):.1f}" for label, key in latencies))
    sweep = profile.get("roofline_sweep", [])
    dips, last = [], {}
    for point in sweep:
        left = last.get(point["precision"])
        if left and point["gops"] < 0.97 * left["gops"]:
            dips.append(f"{point['precision']}@{point['iterations']:g}")
        last[point["precision"]] = point
    print(f"bench roofline sweep|{len(sweep)} points, " + (f"dips: {' '.join(dips)}" if dips else "monotonic"))
    transfers = profile.get("transfers", {})
    copies = [f"{key} {transfers[key]['bandwidth_gbps']:.1f} GB/s + {transfers[key]['latency_us']:.1f} us "
              f"({100 * transfers[key].get('worst_relative_residual', 0):.0f} %)"
              for key in ("h2d_pinned", "h2d_pageable", "d2h_pinned", "d2h_pageable", "d2d") if key in transfers]
    print(f"bench copies (fit, worst residual)|{'; '.join(copies) if copies else 'none'}")
    print(f"bench wall time|{profile['provenance']['wall_seconds']:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
