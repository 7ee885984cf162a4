#!/usr/bin/env python3
"""Markdown summary of committed device profiles (roofcast bench JSON): one column per
profile, measured value and percent of theoretical, and whether each issue #3 target holds
(FP32/FP64 >= 97 %, half2 >= 95 %, DRAM read/write/copy >= cudaMemcpy D2D, monotonic sweep,
suite <= 60 s). Usage: bench_summary.py PROFILE.json... > summary.md"""
import json
import sys
from pathlib import Path

ROWS = [
    ("fp32_gflops", "FP32 FMA, GFLOP/s"), ("fp64_gflops", "FP64 FMA, GFLOP/s"), ("half2_gflops", "half2 FMA, GFLOP/s"),
    ("int32_mad_giops", "INT32 multiply-add, GIOP/s"), ("int32_add_giops", "INT32 add, GIOP/s"),
    ("pipe_fma_gwips", "FMA pipe, G warp inst/s"), ("pipe_alu_gwips", "ALU pipe, G warp inst/s"),
    ("pipe_fmaheavy_gwips", "FMA-heavy pipe (IMAD), G warp inst/s"), ("pipe_fp64_gwips", "FP64 pipe, G warp inst/s"),
    ("pipe_fp16_gwips", "FP16 pipe, G warp inst/s"), ("pipe_xu_gwips", "XU pipe (MUFU), G warp inst/s"),
    ("pipe_lsu_gwips", "LSU pipe (LDS), G warp inst/s"), ("pipe_issue_gwips", "issue (FFMA + LOP3), G warp inst/s"),
    ("shared_ldst_gops", "shared ld/st 32-bit, G/s"), ("tensor_fp16_gflops", "tensor fp16 (mma.sync), GFLOP/s"),
    ("tensor_bf16_gflops", "tensor bf16 (mma.sync), GFLOP/s"), ("tensor_tf32_gflops", "tensor tf32, GFLOP/s"),
    ("tensor_fp64_gflops", "tensor fp64 (DMMA), GFLOP/s"), ("tensor_int8_giops", "tensor int8, GIOP/s"),
    ("atomic_global_gops", "global atomics, G/s"), ("atomic_global_same_address_gops", "global atomics, one line, G/s"),
    ("atomic_global_scattered_gops", "global atomics, a line per lane, G/s"),
    ("atomic_global_same_word_gops", "global atomics, lane 0 on one word, G/s"),
    ("atomic_global_same_word_f32_gops", "global float atomics, lane 0 on one word, G/s"),
    ("atomic_shared_gops", "shared atomics, G/s"),
    ("l1_gbps", "L1 read, GB/s"), ("l2_gbps", "L2 read, GB/s"), ("dram_read_gbps", "DRAM read, GB/s"),
    ("dram_write_gbps", "DRAM write, GB/s"), ("dram_copy_gbps", "DRAM copy, GB/s"),
    ("dram_elementwise_add_gbps", "DRAM elementwise add (float4), GB/s"),
    ("memcpy_d2d_gbps", "cudaMemcpy D2D, GB/s"), ("dram_gbps", "B_mem, GB/s"),
    ("dram_latency_ns", "DRAM latency under streaming, ns"),
    ("latency_ffma_ns", "FFMA latency, ns"), ("latency_dfma_ns", "DFMA latency, ns"),
    ("latency_imad_ns", "IMAD latency, ns"), ("latency_hfma2_ns", "HFMA2 latency, ns"),
    ("latency_mufu_ns", "MUFU latency, ns"), ("warp_issue_interval_ns", "one warp's issue interval, ns"),
    ("latency_shared_load_ns", "shared load latency, ns"), ("latency_l1_hit_ns", "L1-hit latency, ns"),
    ("latency_l2_hit_ns", "L2-hit latency, ns"), ("latency_dram_ns", "DRAM latency (unloaded), ns"),
    ("latency_dram_warp_ns", "DRAM latency, 32 lines per warp load, ns"),
    ("latency_atomic_global_ns", "global atomic latency, ns"), ("latency_atomic_shared_ns", "shared atomic latency, ns"),
    ("kernel_floor_us", "kernel floor, us"), ("block_dispatch_gblocks", "block dispatch, G blocks/s"),
    ("launch_overhead_us", "launch overhead, us"),
]


def cell(profile, key):
    value = profile["throughput"].get(key)
    if value is None:
        return "-"
    fraction = profile.get("fraction_of_theoretical", {}).get(key)
    number = f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if fraction is not None and not key.endswith(("_us", "_ns")) and key != "dram_probe_gbps":
        number += f" ({100 * fraction:.1f} %)"
    return number


def monotonic(profile, tolerance=0.03):
    """Every roofline curve rises: no point more than `tolerance` below its left neighbour in
    GOP/s, per precision (the report's "Every curve rises monotonically", from the JSON)."""
    curves = {}
    for point in profile.get("roofline_sweep", []):
        curves.setdefault(point["precision"], []).append((point["iterations"], point["gops"]))
    for points in curves.values():
        points.sort()
        if any(b[1] < (1 - tolerance) * a[1] for a, b in zip(points, points[1:])):
            return False
    return True


def targets(profile):
    if profile["device"].get("mps_active_thread_percentage"):
        return "n/a (an MPS partition; the targets are for whole GPUs)"
    t, f = profile["throughput"], profile.get("fraction_of_theoretical", {})
    memcpy = t.get("memcpy_d2d_gbps", float("inf"))
    checks = [
        f.get("fp32_gflops", 0) >= 0.97, f.get("fp64_gflops", 0) >= 0.97, f.get("half2_gflops", 0) >= 0.95,
        all(t.get(k, 0) >= memcpy for k in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps")),
        monotonic(profile),
        profile["provenance"].get("wall_seconds", 1e9) <= 60,
    ]
    names = ["FP32 >= 97 %", "FP64 >= 97 %", "half2 >= 95 %", "DRAM read/write/copy >= memcpy", "monotonic sweep",
             "suite <= 60 s"]
    failed = [n for n, ok in zip(names, checks) if not ok]
    return "all met" if not failed else "not met: " + ", ".join(failed)


def main(paths):
    profiles = [(Path(p), json.load(open(p))) for p in paths]
    print("# Measured device profiles\n")
    print("Generated by `scripts/dev/bench-summary.py " + " ".join(Path(p).name for p in paths) +
          "` from the `roofcast bench` profiles beside it (each one's `provenance` says the date and command). "
          "Percent: of the theoretical peak at the clock measured in the kernel (DRAM: at the memory clock).\n")
    print("| | " + " | ".join(p.stem for p, _ in profiles) + " |")
    print("|---|" + "---:|" * len(profiles))
    print("| device | " + " | ".join(f"{d['name']}, {d['device']['sm_count']} SMs" for _, d in profiles) + " |")
    print("| date (UTC) | " + " | ".join(d["provenance"].get("date_utc", "?") for _, d in profiles) + " |")
    print("| suite wall time, s | " + " | ".join(f"{d['provenance'].get('wall_seconds', 0):.1f}" for _, d in profiles) + " |")
    for key, label in ROWS:
        print(f"| {label} | " + " | ".join(cell(d, key) for _, d in profiles) + " |")
    print("| issue #3 targets | " + " | ".join(targets(d) for _, d in profiles) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
