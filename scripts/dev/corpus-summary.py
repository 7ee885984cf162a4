#!/usr/bin/env python3
"""Accuracy over every reference -> target pair of the validation corpus: pools the
predictions of the `roofcast validate` runs of scripts/dev/validate-corpus.sh (one per reference
GPU and model) and prints markdown.

The pairs are told apart, because the profiles carry the reference GPU's measured times:
- cross-GPU (the headline): the other GPU and its MPS partitions;
- the reference GPU's own MPS partitions;
- self-pairs: the reference GPU itself, where the pipes model's reference-time term bounds the
  prediction by the very time it is scored against (docs/pipes-model.md).
Each is given with and without the reference-time term ("pipes without reference-time", a row
of the pipes run's ablation), then the ablation of every term, the pipes model per reference ->
target pair, on the latency-bound class (the programs written for it), and on two halves of the
corpus split by a hash of the kernel's name (no constant of the model is fitted; the halves
show that its structure was not shaped on one part of the corpus)."""
import hashlib
import json
import re
import statistics
import sys
from pathlib import Path

REFS = ("h200", "h100")
WITHOUT_REFERENCE_TIME = "pipes without reference-time"
KINDS = (("cross", "Cross-GPU pairs: the other GPU and its MPS partitions (the headline)"),
         ("partitions", "The reference GPU's own MPS partitions"),
         ("self", "Self-pairs: the reference GPU predicted from its own profile"))
# The programs of the corpus written for latency-bound kernels (issue 13's class).
LATENCY_PROGRAMS = ("serial_latency", "launch_chain", "low_occupancy", "graph_gather", "merge_sort")
HEADER = "| {} | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|"


def summary(errors):
    apes = [abs(e) for e in errors]
    if not apes:
        return "| 0 | - | - | - |"
    return (f"| {len(apes)} | {100 * statistics.median(apes):.1f} | {100 * sum(a <= 0.25 for a in apes) / len(apes):.0f}"
            f" | {100 * sum(a <= 0.5 for a in apes) / len(apes):.0f} |")


def md(text):
    """Text for a markdown table cell: a name is data, its pipes are escaped."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def gpu_of(device):
    """The whole GPU a device is, or is an MPS partition of."""
    return re.sub(r" \(MPS \d+%\)$", "", device)


def kind_of(reference, device):
    if device == reference:
        return "self"
    return "partitions" if gpu_of(device) == reference else "cross"


def program_of(entry):
    return Path(entry.get("profile", "")).stem


def half_of(entry):
    return "A" if hashlib.sha256(entry["kernel"].encode()).digest()[0] % 2 == 0 else "B"


class Prediction:
    """One (kernel, reference, target) of the pipes run, with the error of every ablation variant."""

    def __init__(self, reference, entry, variants):
        self.reference, self.entry, self.variants = reference, entry, variants
        self.kind = kind_of(reference, entry["device"])

    def error(self, model):
        return self.entry["error"] if model == "pipes" else self.variants[model]


def load(folder):
    runs = {(r, m): json.load(open(folder / f"{r}-{m}.json")) for r in REFS for m in ("thesis", "pipes")}
    pipes = []
    for r in REFS:
        run = runs[(r, "pipes")]
        entries, ablation = run["entries"], run.get("ablation", [])
        # Every variant scores the same joined entries, in the same order (validation_join).
        for row in ablation:
            if len(row["errors"]) != len(entries):
                sys.exit(f"{r}-pipes.json: ablation row {row['model']!r} has {len(row['errors'])} errors for "
                         f"{len(entries)} entries")
        full = next((row for row in ablation if row["model"] == "pipes"), None)
        if full is None or any(abs(a - e["error"]) > 1e-12 for a, e in zip(full["errors"], entries)):
            sys.exit(f"{r}-pipes.json: the ablation's 'pipes' row is not the entries' errors in their order")
        for i, entry in enumerate(entries):
            variants = {row["model"]: row["errors"][i] for row in ablation}
            pipes.append(Prediction(run["reference_device"], entry, variants))
    thesis = [(runs[(r, "thesis")]["reference_device"], e) for r in REFS for e in runs[(r, "thesis")]["entries"]]
    return runs, thesis, pipes


def corrected(reference, entries):
    return [e["corrected_error"] for e in entries if e.get("corrected_error") is not None and e["device"] != reference]


def kind_table(kind, thesis, pipes):
    print(HEADER.format("model"))
    t = [(ref, e) for ref, e in thesis if kind_of(ref, e["device"]) == kind]
    p = [x for x in pipes if x.kind == kind]
    print("| thesis " + summary([e["error"] for _, e in t]))
    if kind != "self":
        print("| thesis, E_util-corrected " + summary([e["corrected_error"] for ref, e in t
                                                    if e.get("corrected_error") is not None]))
    print("| pipes (the default: with reference-time) " + summary([x.error("pipes") for x in p]))
    print(f"| {WITHOUT_REFERENCE_TIME} " + summary([x.error(WITHOUT_REFERENCE_TIME) for x in p]))
    if kind != "self":
        print("| pipes, calibrated on the reference GPU " + summary([x.entry["corrected_error"] for x in p
                                                                   if x.entry.get("corrected_error") is not None]))


def with_and_without(title, groups):
    """Per group: the pipes model with the reference-time term, and without it."""
    print(f"\n## {title}\n")
    print("| group | predictions | median APE % | within 25 % | within 50 % "
          "| without reference-time: median APE % | within 25 % | within 50 % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in sorted(groups):
        group = groups[name]
        without = summary([x.error(WITHOUT_REFERENCE_TIME) for x in group]).split("|")[2:5]
        print(f"| {md(name)} " + summary([x.error("pipes") for x in group]) + "|".join(without) + "|")


def main(folder):
    folder = Path(folder)
    runs, thesis, pipes = load(folder)
    if not any(WITHOUT_REFERENCE_TIME in x.variants for x in pipes):
        sys.exit(f"{folder}: the pipes runs have no {WITHOUT_REFERENCE_TIME!r} ablation row (validate --ablation)")
    print("References: " + ", ".join(md(runs[(r, "thesis")]["reference_device"]) for r in REFS) +
          "; targets: every device with measured times. The profiles carry the reference GPU's measured "
          "times, which the pipes model's reference-time term reads (docs/pipes-model.md); on a self-pair "
          "that term bounds the prediction by the very time it is scored against. Calibrated and "
          "E_util-corrected rows scale by those times by design.")
    for kind, title in KINDS:
        print(f"\n## {title}\n")
        kind_table(kind, thesis, pipes)

    print("\n## All pairs together\n")
    print(HEADER.format("model"))
    print("| thesis " + summary([e["error"] for _, e in thesis]))
    print("| pipes " + summary([x.error("pipes") for x in pipes]))
    print(f"| {WITHOUT_REFERENCE_TIME} " + summary([x.error(WITHOUT_REFERENCE_TIME) for x in pipes]))

    print("\n## Ablation over the cross-GPU pairs\n")
    print(HEADER.format("model"))
    cross = [x for x in pipes if x.kind == "cross"]
    for model in cross[0].variants:
        print(f"| {md(model)} " + summary([x.error(model) for x in cross]))

    pairs, classes, halves = {}, {}, {}
    for x in pipes:
        pairs.setdefault(f"{x.reference} -> {x.entry['device']}", []).append(x)
        if x.kind != "cross":
            continue
        label = "latency-bound programs" if program_of(x.entry) in LATENCY_PROGRAMS else "other programs"
        classes.setdefault(label, []).append(x)
        halves.setdefault(f"half {half_of(x.entry)}", []).append(x)
    with_and_without("Pipes model per reference -> target pair", pairs)
    with_and_without("Pipes model by class, cross-GPU pairs", classes)
    with_and_without("Pipes model on two halves of the corpus (by a hash of the kernel name), cross-GPU pairs",
                     halves)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: corpus-summary.py FOLDER (of scripts/dev/validate-corpus.sh)")
    main(sys.argv[1])
