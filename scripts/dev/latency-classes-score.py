#!/usr/bin/env python3
"""Scores roofcast on the latency-class workloads of issue 28 (workloads/latency_classes.json),
on a CPU, from one or more runs of scripts/dev/latency-classes-gpu.sh (one per GPU: each run
folder holds devices/full.json and devices/mpsNN.json, profiles/*.json and measured/mpsNN-*.json,
as validation-run.tar.gz unpacks).

Every run's kernel profiles are a reference; every run's GPU and MPS partitions are the targets
(the reference GPU timed by its own profiles, another GPU by its profiles, a partition by its
measured files). `roofcast validate` predicts each pair; the predictions are then grouped by
the manifest's class and half, and by pair: the reference GPU itself, its own partitions, and
other GPUs (whole or partitioned).

Only the design half is shown unless --halves says otherwise: the held-out half is for the
final report, not for designing the model.

Usage:
  scripts/dev/latency-classes-score.py [--roofcast PATH] [--model pipes|thesis]
      [--halves design|held-out|both] [--output DIR] RUN [RUN...]
  scripts/dev/latency-classes-score.py --check-manifest
Prints a markdown summary; with --output, also writes there latency-classes.md (the summary, then
every prediction of the halves shown) and latency-classes.json (the groups' numbers and those
predictions).
Exit status: 0 done, 1 bad input (a message names the file), 2 usage.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "workloads" / "latency_classes.json"
HALVES = ("design", "held-out")
SCOPES = (("self", "the reference GPU"), ("partition", "its MPS partitions"), ("cross", "other GPUs"))


class InputError(Exception):
    """Bad input: the message names the file and what is wrong with it."""


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read JSON ({e})") from None


def write_atomically(path, text):
    """Writes `path` whole or not at all: a temporary file beside it, then a rename."""
    path = Path(path)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                     delete=False) as f:
        f.write(text)
    Path(f.name).replace(path)


def printable(text):
    """A name from an input file, safe in a markdown table and on a terminal."""
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in str(text))
    return text.replace("|", "\\|").replace("`", "'")


# --- the manifest ------------------------------------------------------------------------------

def load_manifest(path):
    manifest = load_json(path)
    if manifest.get("format") != "roofcast-latency-classes":
        raise InputError(f"{path}: not a latency-class manifest (format {manifest.get('format')!r})")
    classes = manifest.get("classes")
    kernels = manifest.get("kernels")
    if not isinstance(classes, list) or not isinstance(kernels, list):
        raise InputError(f"{path}: 'classes' and 'kernels' must be lists")
    names = [c.get("class") for c in classes]
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise InputError(f"{path}: class names must be non-empty and unique")
    seen = set()
    for k in kernels:
        name, cls, half = k.get("kernel"), k.get("class"), k.get("half")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise InputError(f"{path}: kernel {name!r} is not a function name")
        if name in seen:
            raise InputError(f"{path}: kernel {name} is listed twice")
        seen.add(name)
        if cls not in names:
            raise InputError(f"{path}: kernel {name}: unknown class {cls!r}")
        if half not in HALVES:
            raise InputError(f"{path}: kernel {name}: half must be design or held-out, found {half!r}")
    for cls in names:
        for half in HALVES:
            if not any(k["class"] == cls and k["half"] == half for k in kernels):
                raise InputError(f"{path}: class {cls} has no {half} kernel")
    return manifest


def check_manifest_against_sources(manifest, path):
    """Each class's program is a latency-class workload, and prints a line for each of its kernels."""
    cmake = (ROOT / "workloads" / "CMakeLists.txt").read_text(encoding="utf-8")
    listed = re.search(r"set\(ROOFCAST_LATENCY_CLASS_WORKLOADS([^)]*)\)", cmake)
    programs = set(listed.group(1).split()) if listed else set()
    problems = []
    for cls in manifest["classes"]:
        program = cls.get("program", "")
        if program not in programs:
            problems.append(f"class {cls['class']}: program {program!r} is not in ROOFCAST_LATENCY_CLASS_WORKLOADS")
            continue
        source = (ROOT / "workloads" / f"{program}.cu").read_text(encoding="utf-8")
        for k in manifest["kernels"]:
            if k["class"] != cls["class"]:
                continue
            if not re.search(rf"\b{k['kernel']}\b", source.replace(f'"{k["kernel"]}"', "")):
                problems.append(f"kernel {k['kernel']}: no such kernel in workloads/{program}.cu")
            if f'"{k["kernel"]}"' not in source:
                problems.append(f"kernel {k['kernel']}: workloads/{program}.cu never prints it")
    if programs != {c.get("program") for c in manifest["classes"]}:
        problems.append("ROOFCAST_LATENCY_CLASS_WORKLOADS and the manifest's programs differ: "
                        + ", ".join(sorted(programs ^ {c.get("program") for c in manifest["classes"]})))
    if problems:
        raise InputError(f"{path}: " + "; ".join(problems))


def kernel_matcher(manifest):
    """Kernel name from a profile -> its manifest entry, or None."""
    patterns = [(re.compile(rf"^(?:void\s+)?{re.escape(k['kernel'])}(?:<[^()]*>)?\s*\("), k) for k in manifest["kernels"]]

    def match(name):
        for pattern, entry in patterns:
            if pattern.match(name):
                return entry
        return None
    return match


# --- the runs ----------------------------------------------------------------------------------

class Run:
    """One GPU's run folder: its devices, kernel profiles and partitions' measured files."""

    def __init__(self, folder):
        self.folder = Path(folder)
        full = self.folder / "devices" / "full.json"
        if not full.is_file():
            raise InputError(f"{full}: missing (a run folder holds devices/full.json, profiles/, measured/)")
        self.full = full
        self.gpu = self.device_name(full)
        self.profiles = sorted((self.folder / "profiles").glob("*.json"))
        if not self.profiles:
            raise InputError(f"{self.folder / 'profiles'}: no kernel profiles (*.json)")
        self.partitions = []  # (device file, device name, measured files)
        for device in sorted((self.folder / "devices").glob("mps*.json")):
            percent = device.stem[3:]
            if not percent.isdigit():
                continue
            measured = sorted((self.folder / "measured").glob(f"mps{percent}-*.json"))
            self.partitions.append((device, self.device_name(device), measured))

    @staticmethod
    def device_name(path):
        name = load_json(path).get("name")
        if not isinstance(name, str) or not name:
            raise InputError(f"{path}: no device name")
        return name


def validate(roofcast, model, reference, runs, output):
    """`roofcast validate` with `reference`'s profiles, every run's devices as targets."""
    args = [roofcast, "validate", "--allow-missing", "--model", model, "--output", str(output)]
    args += [a for p in reference.profiles for a in ("--reference-profile", str(p))]
    for run in runs:
        args += ["--device", str(run.full)]
        if run is not reference:  # another GPU: its kernel profiles carry its times
            args += [a for p in run.profiles for a in ("--measured", str(p))]
        for device, name, measured in run.partitions:
            args += ["--device", str(device)]
            args += [a for m in measured for a in ("--measured", f"{name}={m}")]
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        raise InputError(f"roofcast validate for {reference.folder} failed: {lines[-1] if lines else 'no message'}")
    return load_json(output)


# --- scoring -----------------------------------------------------------------------------------

def scope_of(device, reference, runs):
    if device == reference.gpu:
        return "self"
    if any(device == name for _, name, _ in reference.partitions):
        return "partition"
    if any(device == r.gpu or any(device == name for _, name, _ in r.partitions) for r in runs):
        return "cross"
    return None


def stats(entries):
    if not entries:
        return {"predictions": 0}
    apes = [e["ape"] for e in entries]
    return {"predictions": len(entries),
            "within_25": sum(a <= 0.25 for a in apes) / len(apes),
            "median_ape": statistics.median(apes),
            "median_error": statistics.median(e["error"] for e in entries)}


def cells(s):
    if not s["predictions"]:
        return "0 | - | - | -"
    return (f"{s['predictions']} | {100 * s['within_25']:.0f} | {100 * s['median_ape']:.1f} | "
            f"{100 * s['median_error']:+.1f}")


def score(manifest, rows, halves):
    """Groups: per class and half, over all pairs and per scope; then per half over all classes."""
    groups = []
    for cls in [c["class"] for c in manifest["classes"]] + [None]:
        for half in halves:
            chosen = [r for r in rows if r["half"] == half and (cls is None or r["class"] == cls)]
            group = {"class": cls or "all classes", "half": half, "all": stats(chosen)}
            for scope, _ in SCOPES:
                group[scope] = stats([r for r in chosen if r["scope"] == scope])
            group["same_gpu"] = stats([r for r in chosen if r["scope"] in ("self", "partition")])
            groups.append(group)
    return groups


def summary_markdown(manifest, groups, runs, model, halves, unclassified, missing):
    out = [f"# Latency classes (issue 28): the {model} model\n",
           "References: " + ", ".join(printable(r.gpu) for r in runs) + " (each run's kernel profiles). Targets: "
           + ", ".join(printable(n) for r in runs for n in [r.gpu] + [p[1] for p in r.partitions]) + ".\n",
           "Halves shown: " + ", ".join(halves)
           + ("" if "held-out" in halves else " (the held-out half is for the final report: --halves both)") + ".\n",
           "Each cell: predictions | within 25 % (%) | median APE (%) | median signed error (%; negative: "
           "predicted too fast). Same GPU: the reference GPU and its own MPS partitions; cross-GPU: the other "
           "GPU, whole and partitioned.\n"]
    for title, key in (("All pairs", "all"), ("Same GPU (self + own partitions)", "same_gpu"),
                       ("Cross-GPU pairs", "cross"), ("Self pairs only", "self"), ("Own partitions only", "partition")):
        out.append(f"\n## {title}\n")
        out.append("| class | half | predictions | within 25 % | median APE % | median error % |")
        out.append("|---|---|---:|---:|---:|---:|")
        for g in groups:
            out.append(f"| {g['class']} | {g['half']} | {cells(g[key])} |")
    if missing:
        out.append("\nManifest kernels with no prediction (not in the profiles, or skipped): " + ", ".join(missing) + ".")
    if unclassified:
        out.append("\nKernels in no class of the manifest (left out): "
                   + ", ".join(f"`{printable(k)}`" for k in sorted(unclassified)) + ".")
    return "\n".join(out) + "\n"


def detail_markdown(rows):
    out = ["\n## Every prediction\n",
           "| kernel | class | half | reference -> target | scope | measured us/launch | predicted us/launch | error % |",
           "|---|---|---|---|---|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: (r["class"], r["half"], r["kernel"], r["reference"], r["device"])):
        per = max(1, r["invocations"])
        out.append(f"| {r['kernel']} | {r['class']} | {r['half']} | {printable(r['reference'])} -> "
                   f"{printable(r['device'])} | {r['scope']} | {1000 * r['measured_ms'] / per:.1f} | "
                   f"{1000 * r['predicted_ms'] / per:.1f} | {100 * r['error']:+.1f} |")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="*", metavar="RUN", help="run folders (devices/, profiles/, measured/), one per GPU")
    parser.add_argument("--roofcast", default=str(ROOT / "build" / "bin" / "roofcast"), help="the roofcast binary")
    parser.add_argument("--manifest", default=str(MANIFEST), help="the class manifest [workloads/latency_classes.json]")
    parser.add_argument("--model", choices=("pipes", "thesis"), default="pipes")
    parser.add_argument("--halves", choices=("design", "held-out", "both"), default="design")
    parser.add_argument("--output", help="folder for latency-classes.md/.json and the validate files")
    parser.add_argument("--check-manifest", action="store_true",
                        help="only check the manifest against workloads/ (classes, halves, programs, kernels)")
    args = parser.parse_args()
    if args.check_manifest == bool(args.runs):
        parser.error("give run folders, or --check-manifest alone")
    try:
        manifest = load_manifest(args.manifest)
        if args.check_manifest:
            check_manifest_against_sources(manifest, args.manifest)
            print(f"{args.manifest}: {len(manifest['classes'])} classes, {len(manifest['kernels'])} kernels: ok")
            return 0
        if not Path(args.roofcast).is_file():
            raise InputError(f"{args.roofcast}: no roofcast binary (build it, or give --roofcast)")
        runs = [Run(f) for f in args.runs]
        names = [n for r in runs for n in [r.gpu] + [p[1] for p in r.partitions]]
        if len(set(names)) != len(names):
            raise InputError("two runs name the same device (" + ", ".join(sorted({printable(n) for n in names
                             if names.count(n) > 1})) + "): give one run per GPU")
        halves = HALVES if args.halves == "both" else (args.halves,)
        match = kernel_matcher(manifest)
        rows, unclassified = [], set()
        # validate's own files list both halves: they stay in a folder of their own, removed after.
        with tempfile.TemporaryDirectory(prefix="latency-classes-") as scratch:
            reports = [(reference, validate(args.roofcast, args.model, reference, runs,
                                            Path(scratch) / f"validate-{i + 1}.json"))
                       for i, reference in enumerate(runs)]
        for reference, report in reports:
            for e in report.get("entries", []):
                entry = match(e["kernel"])
                if entry is None:
                    unclassified.add(e["kernel"])
                    continue
                scope = scope_of(e["device"], reference, runs)
                if scope is None:
                    raise InputError(f"roofcast validate named device {printable(e['device'])}, which is in no run")
                rows.append({"kernel": entry["kernel"], "class": entry["class"], "half": entry["half"], "scope": scope,
                             "reference": reference.gpu, "device": e["device"], "invocations": e.get("invocations", 1),
                             "measured_ms": e["measured_ms"], "predicted_ms": e["predicted_ms"],
                             "error": e["error"], "ape": e["ape"]})
        predicted = {r["kernel"] for r in rows}
        missing = [k["kernel"] for k in manifest["kernels"] if k["half"] in halves and k["kernel"] not in predicted]
        shown = [r for r in rows if r["half"] in halves]
        groups = score(manifest, shown, halves)
        summary = summary_markdown(manifest, groups, runs, args.model, halves, unclassified, missing)
        print(summary, end="")
        if args.output:
            output = Path(args.output)
            output.mkdir(parents=True, exist_ok=True)
            write_atomically(output / "latency-classes.md", summary + detail_markdown(shown))
            write_atomically(output / "latency-classes.json", json.dumps(
                {"format": "roofcast-latency-class-scores", "version": 1, "model": args.model, "halves": list(halves),
                 "references": [r.gpu for r in runs], "groups": groups, "predictions": shown,
                 "missing": missing, "unclassified": sorted(unclassified)}, indent=1) + "\n")
        return 0
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
