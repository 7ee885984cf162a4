#!/usr/bin/env python3
"""`roofcast tune --fixed-tile` on the SGEMM instances of a tune validation, with one profile and
with two (--second-profile): FOLDER [KERNEL [ROOFCAST]] (KERNEL: sweep_sgemm, the default, or
sweep_sgemm_micro).

Each instance KERNEL<T> is its own binary, compiled with its own registers (the `registers` of
FOLDER/profiles/KERNEL@T.json's launch shape, as cuobjdump reports them), so each block size T
is predicted with `--registers` of its instance. For every profiled instance (one profile) and
every pair of them (two profiles), the predicted times of the five block sizes are ranked
against the measured ones (FOLDER/measured/KERNEL-measured.txt). Writes FOLDER/two-profiles.md
(KERNEL-two-profiles.md for another kernel) and prints it."""
import importlib.util
import itertools
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("summary", HERE / "tune-validate-summary.py")
summary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summary)

BLOCKS = [64, 128, 256, 512, 1024]


def predicted_ms(roofcast, folder, kernel, first, second, threads, registers):
    args = [roofcast, "tune", "--profile", str(folder / f"profiles/{kernel}@{first}.json"), "--device",
            str(folder / "device.json"), "--fixed-tile", "--block-sizes", str(threads), "--registers",
            str(registers), "--format", "json"]
    if second:
        args += ["--second-profile", str(folder / f"profiles/{kernel}@{second}.json")]
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    for launch in out["devices"][0]["launches"]:
        if launch["threads_per_block"] == threads and launch["registers_per_thread"] == registers:
            if "cannot_cost" in launch:
                return "cannot be costed"  # the line gives its block no work
            return launch.get("predicted_ms_per_launch", "cannot launch")
    raise SystemExit(f"no {threads}-thread candidate with {registers} registers in tune's output")


def main():
    folder = Path(sys.argv[1])
    kernel = sys.argv[2] if len(sys.argv) > 2 else "sweep_sgemm"
    roofcast = sys.argv[3] if len(sys.argv) > 3 else "build/bin/roofcast"
    measured = summary.measured(folder / f"measured/{kernel}-measured.txt")
    registers = {t: json.loads((folder / f"profiles/{kernel}@{t}.json").read_text())["kernels"][0]
                 ["launch_shapes"][0]["registers"] for t in BLOCKS}
    best = min(BLOCKS, key=lambda t: measured[t])
    lines = [f"# {kernel}'s instances: `tune --fixed-tile` from one profile and from two", "",
             f"Measured ms per launch: " + ", ".join(f"{t}: {measured[t]:.3f}" for t in BLOCKS) +
             f"; compiled registers: " + ", ".join(f"{t}: {registers[t]}" for t in BLOCKS), "",
             "| profiles | " + " | ".join(f"{t} ms" for t in BLOCKS) +
             " | Spearman | predicted best | its measured ms off the best |",
             "|---|" + "---:|" * (len(BLOCKS) + 3)]
    runs = [(a, None) for a in BLOCKS] + list(itertools.combinations(BLOCKS, 2))
    for first, second in runs:
        times = {t: predicted_ms(roofcast, folder, kernel, first, second, t, registers[t]) for t in BLOCKS}
        ranked = [t for t in BLOCKS if not isinstance(times[t], str)]
        rho = summary.spearman([times[t] for t in ranked], [measured[t] for t in ranked])
        top = min(ranked, key=lambda t: times[t])
        cells = " | ".join(times[t] if isinstance(times[t], str) else f"{times[t]:.3f}" for t in BLOCKS)
        name = f"{first}" + (f" + {second}" if second else "")
        lines.append(f"| {name} | {cells} | {rho:.2f} | {top} | {100 * (measured[top] / measured[best] - 1):.1f} % |")
    name = "two-profiles.md" if kernel == "sweep_sgemm" else f"{kernel}-two-profiles.md"
    (folder / name).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
