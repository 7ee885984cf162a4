#!/usr/bin/env python3
"""Writes the bundled thesis data (data/devices, data/profiles) from the thesis'
published tables in ../shared/reference. Run from the repository root:
    python3 scripts/dev/import-thesis-reference.py ../shared/reference
"""
import csv
import json
import pathlib
import re
import sys

SOURCE = "Konstantinidis, PhD thesis, University of Athens, 2017"


def rows(path):
    lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
    return list(csv.DictReader(lines))


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def write(path, document):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n")


def main(reference):
    out = pathlib.Path("data")
    for row in rows(reference / "thesis-devices.csv"):
        write(out / "devices" / f"thesis-{slug(row['name'])}.json", {
            "format": "roofcast-device",
            "version": 1,
            "name": row["name"],
            "throughput": {
                "fp32_gflops": float(row["T_SP"]),
                "fp64_gflops": float(row["T_DP"]),
                "int32_mad_giops": float(row["T_int"]),
                "int32_add_giops": float(row["T_add"]),
                "shared_ldst_gops": float(row["T_ldst"]),
                "dram_gbps": float(row["B_mem"]),
            },
            "device": {
                "compute_capability": row["compute_capability"],
                "architecture": row["architecture"],
                "sm_count": int(row["sms"]),
                "cuda_cores": int(row["sps"]),
                "sm_clock_mhz": float(row["sp_clock_mhz"]),
            },
            "provenance": {"source": SOURCE + ", Tables 5.1 and 5.2",
                           "note": "Tesla M2050 and K20c measured with ECC enabled" if "Tesla" in row["name"] else ""},
        })

    invocations = 4
    counters = {r["metric"]: int(r["value"]) * invocations for r in rows(reference / "thesis-redblack.csv")}
    measured = {r["gpu"]: float(r["measured_ms"]) for r in rows(reference / "thesis-redblack-expected.csv")}
    write(out / "profiles" / "thesis-redblack.json", {
        "format": "roofcast-profile",
        "version": 1,
        "reference_device": "GTX-480",
        "description": "Red/black SOR, double precision, 8192x8192, red-element kernel; nvprof counters of "
                       "4 invocations on a GTX-480 (thesis Table 4.4, one invocation x 4)",
        "provenance": {"source": SOURCE + ", Tables 4.4 and 5.6"},
        "kernels": [{"name": "sor_red", "invocations": invocations, "measured_ms": measured["GTX-480"],
                     "counters": counters,
                     "measured_ms_by_device": measured}],
    })

    kernels = []
    for r in rows(reference / "thesis-rodinia-params.csv"):
        kernels.append({
            "name": r["kernel"],
            "benchmark": r["benchmark"],
            "kernel_function": r["kernel_function"],
            "parameters": {
                "K_type": r["K_type"],
                "W_comp": int(r["W_comp"]),
                "W_traf": int(r["W_traf"]),
                "E_mix": round(float(r["E_mix_pct"]) / 100, 6),
                "D_ops": round(float(r["D_ops_pct"]) / 100, 6),
                "D_ldst": round(float(r["D_ldst_pct"]) / 100, 6),
            },
        })
    write(out / "profiles" / "thesis-rodinia.json", {
        "format": "roofcast-profile",
        "version": 1,
        "reference_device": "GTX-480",
        "description": "28 Rodinia 3.1 kernels, parameters from nvprof counters on a GTX-480 (thesis Table 5.16)",
        "provenance": {"source": SOURCE + ", Table 5.16"},
        "kernels": kernels,
    })


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference"))
