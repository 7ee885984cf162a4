#!/usr/bin/env python3
"""Accuracy over every reference -> target pair of the validation corpus: pools the
predictions of the `roofcast validate` runs of scripts/dev/validate-corpus.sh (one per reference
GPU and model) and prints markdown: both models, with and without calibration, then the
ablation (each term of the pipes model switched off in turn), the pipes model per reference ->
target pair, on the latency-bound class (the programs written for it), and on two halves of
the corpus split by a hash of the kernel's name (no constant of the model is fitted; the halves
show that its structure was not shaped on one part of the corpus)."""
import hashlib
import json
import statistics
import sys
from pathlib import Path


def summary(errors):
    apes = [abs(e) for e in errors]
    if not apes:
        return "| 0 | - | - | - |"
    return (f"| {len(apes)} | {100 * statistics.median(apes):.1f} | {100 * sum(a <= 0.25 for a in apes) / len(apes):.0f}"
            f" | {100 * sum(a <= 0.5 for a in apes) / len(apes):.0f} |")


def main(folder):
    folder = Path(folder)
    refs = ["h200", "h100"]
    runs = {(r, m): json.load(open(folder / f"{r}-{m}.json")) for r in refs for m in ("thesis", "pipes")}
    print("References: " + ", ".join(runs[(r, "thesis")]["reference_device"] for r in refs) +
          "; targets: every device with measured times (the reference itself included).\n")
    print("| model | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|")
    for model, label in (("thesis", "thesis"), ("pipes", "pipes")):
        entries = [e for r in refs for e in runs[(r, model)]["entries"]]
        print(f"| {label} " + summary([e["error"] for e in entries]))
        corrected = [e["corrected_error"] for r in refs for e in runs[(r, model)]["entries"]
                     if e.get("corrected_error") is not None and e["device"] != runs[(r, model)]["reference_device"]]
        name = "E_util-corrected" if model == "thesis" else "calibrated"
        print(f"| {label}, {name} (reference device itself excluded) " + summary(corrected))
    print("\n## Ablation over all pairs\n")
    print("| model | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|")
    variants = {}
    for r in refs:
        for row in runs[(r, "pipes")].get("ablation", []):
            variants.setdefault(row["model"], []).extend(row["errors"])
    for model, errors in variants.items():
        print(f"| {model} " + summary(errors))


# The programs of the corpus written for latency-bound kernels (issue 13's class).
LATENCY_PROGRAMS = ("serial_latency", "launch_chain", "low_occupancy", "graph_gather", "merge_sort")


def program_of(entry):
    return Path(entry.get("profile", "")).stem


def half_of(entry):
    return "A" if hashlib.sha256(entry["kernel"].encode()).digest()[0] % 2 == 0 else "B"


def pipes_breakdown(folder):
    folder = Path(folder)
    pairs, classes, halves = {}, {}, {}
    for r in ("h200", "h100"):
        run = json.load(open(folder / f"{r}-pipes.json"))
        for e in run["entries"]:
            pairs.setdefault(f"{run['reference_device']} -> {e['device']}", []).append(e["error"])
            label = "latency-bound programs" if program_of(e) in LATENCY_PROGRAMS else "other programs"
            classes.setdefault(label, []).append(e["error"])
            halves.setdefault(f"half {half_of(e)}", []).append(e["error"])
    for title, groups in (("Pipes model per reference -> target pair", pairs),
                          ("Pipes model by class", classes),
                          ("Pipes model on two halves of the corpus (by a hash of the kernel name)", halves)):
        print(f"\n## {title}\n")
        print("| group | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|")
        for name in sorted(groups):
            print(f"| {name} " + summary(groups[name]))


if __name__ == "__main__":
    main(sys.argv[1])
    pipes_breakdown(sys.argv[1])
