#!/usr/bin/env python3
"""Scores of scripts/dev/derived-devices-validate.sh: the validation corpus with the targets'
device profiles measured (the runs' own), derived from the same GPU's achieved/peak and derived
from the other GPU's only, per reference -> target pair, scored as scripts/dev/corpus-summary.py
scores the corpus (cross-GPU pairs the headline, the reference's own partitions apart); the
done-criterion of issue 30 (derived from the other GPU within 5 percentage points of the measured
profile's within-25 % share); and keys.md beside it: every derived profile against the run's
measured one, key by key."""
import json
import statistics
import sys
from pathlib import Path

VARIANTS = ("measured", "same-gpu", "other-gpu")
MODELS = (("pipes", "pipes (the default: with reference-time)"),
          ("pipes-without-reference-time", "pipes without reference-time"))
GPUS = ("h200", "h100")
OTHER = {"h200": "h100", "h100": "h200"}
PARTS = ("full", "mps50", "mps25")
GPU_LABEL = {"h200": "H200", "h100": "H100"}
PART_LABEL = {"full": "", "mps50": " MPS 50 %", "mps25": " MPS 25 %"}
VARIANT_LABEL = {"measured": "measured (the run's bench)",
                 "same-gpu": "derived from the same GPU's achieved/peak",
                 "other-gpu": "derived from the other GPU's only"}


def stats(errors):
    apes = [abs(e) for e in errors]
    return len(apes), 100 * sum(a <= 0.25 for a in apes) / len(apes), 100 * statistics.median(apes)


def load(folder):
    """(variant, model, reference, gpu, part) -> the errors of that pair's predictions."""
    errors = {}
    for variant in VARIANTS:
        names = {}
        for source in ("measured", variant):
            for gpu in GPUS:
                for part in PARTS:
                    names[json.load(open(folder / source / "devices" / f"{gpu}-{part}.json"))["name"]] = (gpu, part)
        for model, _ in MODELS:
            for reference in GPUS:
                run = json.load(open(folder / variant / f"{reference}-{model}.json"))
                for entry in run["entries"]:
                    gpu, part = names[entry["device"]]
                    errors.setdefault((variant, model, reference, gpu, part), []).append(entry["error"])
    return errors


def cell(errors):
    if not errors:
        return "-"
    _, within, median = stats(errors)
    return f"{within:.0f} % / {median:.1f} %"


def pooled(errors, variant, model, pairs):
    return [e for (reference, gpu, part) in pairs for e in errors.get((variant, model, reference, gpu, part), [])]


def criterion(errors):
    """Returns whether the done-criterion holds for both GPUs."""
    print("| reference -> target (pipes, the default) | predictions | measured (the run's bench) | derived from the same "
          "GPU | derived from the other GPU only | Δ pp vs measured | within 5 pp |\n|---|---:|---:|---:|---:|---:|---|")
    verdicts = []
    for gpu in GPUS:
        reference = OTHER[gpu]
        for parts, label in ((("full",), ""), (PARTS, " and its MPS partitions")):
            pairs = [(reference, gpu, part) for part in parts]
            m, s, o = (pooled(errors, v, "pipes", pairs) for v in VARIANTS)
            d = stats(o)[1] - stats(m)[1]
            ok = d >= -5
            if parts == ("full",):
                verdicts.append(ok)
            print(f"| {GPU_LABEL[reference]} -> {GPU_LABEL[gpu]}{label} | {len(m)} | {cell(m)} | {cell(s)} | {cell(o)} | "
                  f"{d:+.1f} | {'yes' if ok else 'NO'} |")
    return all(verdicts)


def headline(errors):
    print("| pairs | model | predictions | " + " | ".join(VARIANT_LABEL[v] for v in VARIANTS) +
          " |\n|---|---|---:|---:|---:|---:|")
    kinds = (("cross-GPU (the headline)", lambda r, g: g != r), ("the reference's own MPS partitions", lambda r, g: g == r))
    for kind, keep in kinds:
        pairs = [(r, g, p) for r in GPUS for g in GPUS for p in PARTS if keep(r, g) and not (g == r and p == "full")]
        for model, label in MODELS:
            cells = [pooled(errors, v, model, pairs) for v in VARIANTS]
            print(f"| {kind} | {label} | {len(cells[0])} | " + " | ".join(cell(c) for c in cells) + " |")


def pair_table(errors):
    print("| reference -> target | predictions | " + " | ".join(VARIANT_LABEL[v] for v in VARIANTS) +
          " | Δ pp other GPU vs measured |\n|---|---:|---:|---:|---:|---:|")
    for reference in GPUS:
        for gpu in (OTHER[reference], reference):
            for part in PARTS:
                if gpu == reference and part == "full":
                    continue
                cells = [errors.get((v, "pipes", reference, gpu, part), []) for v in VARIANTS]
                if not cells[0]:
                    continue
                print(f"| {GPU_LABEL[reference]} -> {GPU_LABEL[gpu]}{PART_LABEL[part]} | {len(cells[0])} | " +
                      " | ".join(cell(c) for c in cells) + f" | {stats(cells[2])[1] - stats(cells[0])[1]:+.0f} |")


def key_rows(folder):
    rows = []
    for gpu in GPUS:
        for part in PARTS:
            measured = json.load(open(folder / "measured" / "devices" / f"{gpu}-{part}.json"))
            derived = {v: json.load(open(folder / v / "devices" / f"{gpu}-{part}.json")) for v in ("same-gpu", "other-gpu")}
            scaling = derived["other-gpu"]["provenance"]["derived"]["scaling"]
            for key, value in sorted(measured["throughput"].items()):
                if not isinstance(value, (int, float)) or value <= 0 or key not in derived["same-gpu"]["throughput"]:
                    continue
                ratios = [derived[v]["throughput"][key] / value if key in derived[v]["throughput"] else None
                          for v in ("same-gpu", "other-gpu")]
                rows.append((gpu, part, key, value, ratios, scaling.get(key, {}).get("scaled_by", "")))
    return rows


def deviation_line(rows, index):
    deviations = [abs(r[4][index] - 1) for r in rows if r[4][index] is not None]
    return (f"{len(deviations)} values, median deviation {100 * statistics.median(deviations):.1f} %, "
            f"{100 * sum(d <= 0.1 for d in deviations) / len(deviations):.0f} % within 10 %, "
            f"{100 * sum(d <= 0.25 for d in deviations) / len(deviations):.0f} % within 25 %")


def keys_report(folder):
    rows = key_rows(folder)
    out = ["# Derived device profiles against the measured ones, key by key\n",
           "Generated by scripts/dev/derived-devices-summary.py. Measured: the validation run's own device profile "
           "(2026-11-24 benches). Derived: from the spec table and data/devices/measured (2026-11-27 benches) of the "
           "same GPU, or of the other GPU only. Each cell: derived / measured - 1.\n"]
    for variant, index in (("same-gpu", 0), ("other-gpu", 1)):
        out.append(f"- {variant}: {deviation_line(rows, index)}")
    for gpu in GPUS:
        for part in PARTS:
            out.append(f"\n## {GPU_LABEL[gpu]}{PART_LABEL[part]}\n")
            out.append("| key | scaled by | measured | same GPU | other GPU |\n|---|---|---:|---:|---:|")
            for g, p, key, value, ratios, scaled_by in rows:
                if (g, p) != (gpu, part):
                    continue
                cells = ["-" if r is None else f"{100 * (r - 1):+.1f} %" for r in ratios]
                out.append(f"| {key} | {scaled_by} | {value:.5g} | {cells[0]} | {cells[1]} |")
    (folder / "keys.md").write_text("\n".join(out) + "\n")
    return rows


def main(folder):
    folder = Path(folder)
    errors = load(folder)
    rows = keys_report(folder)
    print("# Derived device profiles on the validation corpus\n")
    print("Generated by scripts/dev/derived-devices-summary.py from the `roofcast validate` runs of "
          "scripts/dev/derived-devices-validate.sh. Each reference GPU predicts from its own kernel profiles and its "
          "own measured device profile (the run's); only the targets' device profiles change. Cells: share of "
          "predictions within 25 % / median APE.\n")
    print("## Key by key (keys.md)\n")
    for variant, index in (("same-gpu", 0), ("other-gpu", 1)):
        print(f"- derived, {variant}, against the run's measured profiles: {deviation_line(rows, index)}")
    print("\n## Pooled, as scripts/dev/corpus-summary.py pools the corpus\n")
    headline(errors)
    print("\n## Per reference -> target pair (pipes, the default)\n")
    pair_table(errors)
    print("\n## The done-criterion (issue 30)\n")
    met = criterion(errors)
    print(f"\nH200 derived from the H100's measurements only (and H100 from the H200's), as the target of the other GPU's "
          f"kernel profiles, within 5 percentage points of the measured profile's within-25 % share: "
          f"{'met' if met else 'NOT met'} for both.")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: derived-devices-summary.py OUTPUT_DIR")
    main(sys.argv[1])
