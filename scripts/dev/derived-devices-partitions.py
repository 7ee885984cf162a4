#!/usr/bin/env python3
"""What the measured MPS partitions draw of their GPU (docs/derived-devices.md, "MPS partitions"):
per profile of data/devices/measured, DRAM read / write / copy as a share of the datasheet
bandwidth of data/specs/gpus.json, the L2 read bandwidth and the block dispatch rate per SM."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROFILES = (("h100-sxm", "H100, 132 SMs"), ("h100-sxm-mps50", "H100 MPS 50 %, 66 SMs"), ("h100-sxm-mps25", "H100 MPS 25 %, 32 SMs"),
            ("h200-sxm", "H200, 132 SMs"), ("h200-sxm-mps50", "H200 MPS 50 %, 66 SMs"), ("h200-sxm-mps25", "H200 MPS 25 %, 32 SMs"))


def value(throughput, key):
    entry = throughput[key]
    return entry["value"] if isinstance(entry, dict) else entry


def main():
    specs = json.loads((ROOT / "data/specs/gpus.json").read_text())
    datasheet = {name: gpu["memory_gbps"] for gpu in specs["gpus"] for name in gpu["device_names"]}
    print("| | DRAM read / write / copy, % of the datasheet | L2 read GB/s per SM | block dispatch, M blocks/s per SM |")
    print("|---|---|---:|---:|")
    for file, label in PROFILES:
        profile = json.loads((ROOT / "data/devices/measured" / f"{file}.json").read_text())
        throughput, sms = profile["throughput"], profile["device"]["sm_count"]
        peak = datasheet[profile["device"]["name"]]
        shares = " / ".join(f"{100 * value(throughput, k) / peak:.0f}" for k in ("dram_read_gbps", "dram_write_gbps", "dram_copy_gbps"))
        print(f"| {label} | {shares} | {value(throughput, 'l2_gbps') / sms:.0f} | "
              f"{1000 * value(throughput, 'block_dispatch_gblocks') / sms:.1f} |")


if __name__ == "__main__":
    main()
