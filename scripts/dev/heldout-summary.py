#!/usr/bin/env python3
"""Accuracy on the held-out set (docs/validation/heldout/README.md): pools the `roofcast validate`
runs that scripts/dev/heldout-score.sh made (one per reference GPU and model) and prints
markdown. Each prediction is sorted by its kind of pair, from the run folder its target device
came from:

  cross-GPU        the target is another GPU than the reference (the whole GPU, or an MPS
                   partition of it): the headline;
  reference MPS    an MPS partition of the reference GPU itself;
  self             the reference GPU itself (the profile predicts its own times).

Usage: heldout-summary.py OUTPUT_DIR LABEL=RUN_DIR [LABEL=RUN_DIR]
  OUTPUT_DIR holds LABEL-thesis.json and LABEL-pipes.json (with --ablation) for each LABEL;
  RUN_DIR is the run folder whose devices/ name the devices of that run."""
import json
import re
import statistics
import sys
from pathlib import Path

CROSS_WHOLE = "cross-GPU, whole GPU"
CROSS_MPS = "cross-GPU, MPS partitions"
REFERENCE_MPS = "MPS partitions of the reference GPU"
SELF = "self-pairs (the reference GPU itself)"
KINDS = (CROSS_WHOLE, CROSS_MPS, REFERENCE_MPS, SELF)
CROSS = (CROSS_WHOLE, CROSS_MPS)


class InputError(Exception):
    pass


def markdown_text(name):
    """A name from the input, safe in a markdown table cell: printable ASCII, pipes escaped."""
    printable = "".join(c if " " <= c <= "~" else "?" for c in str(name))
    return printable.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")


def load_object(path):
    """A JSON file holding an object."""
    try:
        with open(path) as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: {e}")
    if not isinstance(document, dict):
        raise InputError(f"{path}: expected a JSON object")
    return document


def device_name(path):
    name = load_object(path).get("name")
    if not isinstance(name, str) or not name:
        raise InputError(f"{path}: name: missing")
    return name


def run_devices(run_dir):
    """The whole GPU's name and its partitions' names, from the run's device profiles."""
    devices = Path(run_dir) / "devices"
    whole = device_name(devices / "full.json")
    partitions = {device_name(p) for p in sorted(devices.glob("mps*.json"))}
    return whole, partitions


def kind_of(target, reference_label, runs):
    for label, (whole, partitions) in runs.items():
        if target == whole:
            return SELF if label == reference_label else CROSS_WHOLE
        if target in partitions:
            return REFERENCE_MPS if label == reference_label else CROSS_MPS
    raise InputError(f"device {markdown_text(target)!r} is in none of the runs' devices/")


def statistics_row(errors):
    apes = [abs(e) for e in errors]
    if not apes:
        return "| 0 | - | - | - |"
    within = lambda limit: 100 * sum(a <= limit for a in apes) / len(apes)
    return f"| {len(apes)} | {100 * statistics.median(apes):.1f} | {within(0.25):.0f} | {within(0.5):.0f} |"


def program_of(entry):
    return Path(entry.get("profile", "")).stem


def main(output_dir, run_arguments):
    runs, run_dirs = {}, {}
    for argument in run_arguments:
        label, _, run_dir = argument.partition("=")
        if not label or not run_dir:
            raise InputError(f"{argument!r}: expected LABEL=RUN_DIR")
        runs[label] = run_devices(run_dir)
        run_dirs[label] = run_dir
    output_dir = Path(output_dir)

    # Every prediction of each model, with its reference, kind of pair and program; the pipes
    # runs' ablation errors, which come in the order of the entries.
    predictions = {"thesis": [], "pipes": []}
    ablation = {}
    for label in runs:
        for model in predictions:
            path = output_dir / f"{label}-{model}.json"
            report = load_object(path)
            reference = report.get("reference_device", "")
            if reference != runs[label][0]:
                raise InputError(f"{path}: reference_device {markdown_text(reference)!r} is not the device of "
                                 f"{run_dirs[label]}/devices/full.json ({markdown_text(runs[label][0])!r})")
            entries = report.get("entries")
            if not isinstance(entries, list) or not all(
                    isinstance(e, dict) and isinstance(e.get("device"), str) and isinstance(e.get("kernel"), str)
                    and isinstance(e.get("error"), (int, float)) for e in entries):
                raise InputError(f"{path}: entries: expected a list of predictions with device, kernel and error")
            for e in entries:
                e["kind"] = kind_of(e["device"], label, runs)
                e["reference"] = reference
            predictions[model].extend(entries)
            for row in report.get("ablation", []):
                if not isinstance(row, dict) or not isinstance(row.get("model"), str) or not isinstance(
                        row.get("errors"), list):
                    raise InputError(f"{path}: ablation: expected rows with model and errors")
                if len(row["errors"]) != len(entries):
                    raise InputError(f"{path}: ablation {row['model']!r} has {len(row['errors'])} errors for "
                                     f"{len(entries)} entries")
                if row["model"] == model and any(abs(a - e["error"]) > 1e-12 for a, e in zip(row["errors"], entries)):
                    raise InputError(f"{path}: the ablation's {model!r} row is not in the order of the entries")
                ablation.setdefault(row["model"], []).extend(zip(row["errors"], entries))

    programs = sorted({program_of(e) for e in predictions["pipes"]})
    kernels = {e["kernel"] for e in predictions["pipes"]}
    references = ", ".join(markdown_text(runs[label][0]) for label in runs)
    print(f"Programs ({len(programs)}, {len(kernels)} kernels): {', '.join(markdown_text(p) for p in programs)}.  ")
    print(f"References: {references}; targets: each GPU and its MPS partitions.\n")
    if len(runs) < 2:
        print("**No cross-GPU pairs: only one GPU's run was scored** (give runs of two GPUs).\n")

    header = "| model | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|"
    print("## Headline: cross-GPU pairs\n")
    print("The target is another GPU than the reference: the whole GPU or one of its MPS partitions.\n")
    print(header)
    for model in predictions:
        cross = [e for e in predictions[model] if e["kind"] in CROSS]
        print(f"| {model} " + statistics_row([e["error"] for e in cross]))
        corrected = [e["corrected_error"] for e in cross if e.get("corrected_error") is not None]
        name = "E_util-corrected" if model == "thesis" else "calibrated"
        print(f"| {model}, {name} " + statistics_row(corrected))

    print("\n## By kind of pair\n")
    print("| model | pairs | predictions | median APE % | within 25 % | within 50 % |\n|---|---|---:|---:|---:|---:|")
    for model in predictions:
        for kind in KINDS:
            errors = [e["error"] for e in predictions[model] if e["kind"] == kind]
            print(f"| {model} | {kind} " + statistics_row(errors))

    print("\n## Pipes model per reference -> target pair\n")
    print("| reference -> target | pairs | predictions | median APE % | within 25 % | within 50 % |\n"
          "|---|---|---:|---:|---:|---:|")
    pairs = {}
    for e in predictions["pipes"]:
        pairs.setdefault((KINDS.index(e["kind"]), e["reference"], e["device"]), []).append(e["error"])
    for (kind, reference, target), errors in sorted(pairs.items()):
        print(f"| {markdown_text(reference)} -> {markdown_text(target)} | {KINDS[kind]} " + statistics_row(errors))

    print("\n## Pipes model per program, cross-GPU pairs\n")
    print("| program | predictions | median APE % | within 25 % | within 50 % |\n|---|---:|---:|---:|---:|")
    for program in programs:
        errors = [e["error"] for e in predictions["pipes"] if e["kind"] in CROSS and program_of(e) == program]
        print(f"| {markdown_text(program)} " + statistics_row(errors))

    if ablation:
        print("\n## Ablation, cross-GPU pairs (each term of the pipes model switched off in turn)\n")
        print(header)
        for model, pairs_of_model in ablation.items():
            print(f"| {markdown_text(model)} " + statistics_row([a for a, e in pairs_of_model if e["kind"] in CROSS]))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1], sys.argv[2:])
    except InputError as e:
        print(f"heldout-summary: error: {e}", file=sys.stderr)
        sys.exit(1)
