#!/usr/bin/env python3
"""Summarizes a tune-validate run (scripts/dev/tune-validate.sh): RUN OUT PROFILED_BLOCK.

Sweeps: Spearman rank correlation of predicted and measured times over the block sizes both
have, and the measured time of the predicted best against the measured best. Where the sweep
was measured a second time (KERNEL-measured-repeat.txt, another process), the Spearman of the
two measurements: how far the sweep's ranking repeats at all, the most a model can be scored on;
and how close the contenders are: the spread of the faster half's measured times (the slowest of
them / the fastest - 1). Pairs: the gain
`roofcast explain` predicts for fixing the bad variant against the measured bad/good ratio."""
import json
import re
import sys
from pathlib import Path

SWEEPS = ["sweep_triad", "sweep_fma", "sweep_reduce", "sweep_stencil", "sweep_scale4", "sweep_sgemm",
          "sweep_sgemm_micro"]
# Tuned with --fixed-tile: each block size has its own work per thread.
FIXED_TILE = {"sweep_sgemm", "sweep_sgemm_micro"}
PAIRS = [("access_strided", "access_contiguous", "uncoalesced global loads"),
         ("branch_divergent", "branch_uniform", "warp divergence"),
         ("transpose_conflicting", "transpose_padded", "shared-memory bank conflicts")]


def measured(path):
    """{threads: median ms} from the workload's 'kernel NAME@THREADS median_ms T ...' lines."""
    times = {}
    if not path.exists():
        return times
    for line in path.read_text().splitlines():
        m = re.match(r"kernel \S+@(\d+) median_ms (\S+)", line)
        if m:
            times[int(m.group(1))] = float(m.group(2))
    return times


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va > 0 and vb > 0 else float("nan")


def sweep(run, kernel):
    result = {"kernel": kernel}
    try:
        tune = json.loads((run / f"{kernel}-tune.json").read_text())
    except (OSError, ValueError) as error:
        result["error"] = f"no tune output: {error}"
        return result
    predicted = {}
    for launch in tune["devices"][0]["launches"]:
        if "predicted_ms" in launch and (launch["work_per_thread"] == 1 or kernel in FIXED_TILE):
            predicted[int(launch["threads_per_block"])] = launch.get("predicted_ms_per_launch", launch["predicted_ms"])
    times = measured(run / f"{kernel}-measured.txt")
    common = sorted(set(predicted) & set(times))
    if len(common) < 3:
        result["error"] = f"only {len(common)} configurations both predicted and measured"
        return result
    p = [predicted[t] for t in common]
    m = [times[t] for t in common]
    best_predicted = min(common, key=lambda t: predicted[t])
    best_measured = min(common, key=lambda t: times[t])
    top = [t for t in sorted(common, key=lambda t: predicted[t])[:3]]
    repeat = measured(run / f"{kernel}-measured-repeat.txt")
    repeated = [t for t in common if t in repeat]
    if len(repeated) >= 3:
        result["measurement_spearman"] = spearman([times[t] for t in repeated], [repeat[t] for t in repeated])
    result.update({
        "configurations": [{"threads": t, "predicted_ms": predicted[t], "measured_ms": times[t]} for t in common],
        "spearman": spearman(p, m),
        "predicted_best": best_predicted,
        "measured_best": best_measured,
        "predicted_best_measured_ms": times[best_predicted],
        "measured_best_ms": times[best_measured],
        "predicted_best_off": times[best_predicted] / times[best_measured] - 1,
        "top3_contains_best": best_measured in top,
        "top3_best_off": min(times[t] for t in top) / times[best_measured] - 1,
        "faster_half_spread": sorted(m)[(len(m) - 1) // 2] / min(m) - 1,
    })
    return result


def pair(run, bad, good, diagnostic):
    result = {"bad": bad, "good": good, "diagnostic": diagnostic}
    tb, tg = measured(run / f"{bad}-measured.txt"), measured(run / f"{good}-measured.txt")
    if tb and tg:
        result["measured_bad_ms"], result["measured_good_ms"] = min(tb.values()), min(tg.values())
        result["measured_gain"] = result["measured_bad_ms"] / result["measured_good_ms"]
    explain = run / f"{bad}-explain.txt"
    text = explain.read_text() if explain.exists() else ""
    for line in text.splitlines():
        if line.strip().startswith(diagnostic):
            result["finding"] = line.strip()
            m = re.search(r"if fixed: (\S+) ms instead of (\S+) ms", line)
            if m:
                result["predicted_fixed_ms"], result["predicted_bad_ms"] = float(m.group(1)), float(m.group(2))
                result["predicted_gain"] = result["predicted_bad_ms"] / result["predicted_fixed_ms"]
    good_explain = run / f"{good}-explain.txt"
    for line in (good_explain.read_text() if good_explain.exists() else "").splitlines():
        if line.strip().startswith(diagnostic):
            result["good_finding"] = line.strip()
    return result


def main():
    run, out, profiled = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    # Runs made before a sweep was added have no files for it: those are left out.
    sweeps = [sweep(run, k) for k in SWEEPS if (run / f"{k}-tune.json").exists() or (run / f"{k}-measured.txt").exists()]
    pairs = [pair(run, *p) for p in PAIRS]
    (out / "summary.json").write_text(json.dumps({"sweeps": sweeps, "pairs": pairs}, indent=2) + "\n")
    env = (out / "environment.txt").read_text() if (out / "environment.txt").exists() else ""
    models = sorted({json.loads((run / f"{s['kernel']}-tune.json").read_text()).get("model", "pipes")
                     for s in sweeps if (run / f"{s['kernel']}-tune.json").exists()})
    lines = ["# roofcast tune and diagnostics on the GPU", "", "```", env.strip(), "```", "",
             f"Model: {', '.join(models) or '-'} (`roofcast tune`; \"pipes\" reads the profiled launch's "
             "measured time, the reference-time term of docs/pipes-model.md).", "",
             f"## Block-size sweeps (profiled at {profiled} threads per block)", "",
             "| kernel | configs | Spearman | predicted best | its measured ms | measured best | measured best ms | "
             "predicted best off by | best of predicted top 3 off by | faster half's spread | Spearman of two measurements |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in sweeps:
        if "error" in s:
            lines.append(f"| {s['kernel']} | {s['error']} | | | | | | | | | |")
            continue
        repeats = f"{s['measurement_spearman']:.2f}" if "measurement_spearman" in s else "-"
        lines.append(f"| {s['kernel']} | {len(s['configurations'])} | {s['spearman']:.2f} | {s['predicted_best']} | "
                     f"{s['predicted_best_measured_ms']:.4f} | {s['measured_best']} | {s['measured_best_ms']:.4f} | "
                     f"{100 * s['predicted_best_off']:.1f} % | {100 * s['top3_best_off']:.1f} % | "
                     f"{100 * s['faster_half_spread']:.1f} % | {repeats} |")
    lines += ["", "Per configuration (threads: predicted ms / measured ms):", ""]
    for s in sweeps:
        if "error" not in s:
            cells = ", ".join(f"{c['threads']}: {c['predicted_ms']:.4f}/{c['measured_ms']:.4f}" for c in s["configurations"])
            lines.append(f"- {s['kernel']}: {cells}")
    lines += ["", "## Good/bad pairs: gain of fixing", "",
              "| bad | good | diagnostic | predicted gain | measured gain | explain's finding on the bad variant |",
              "|---|---|---|---|---|---|"]
    for p in pairs:
        pg = f"{p['predicted_gain']:.2f}x" if "predicted_gain" in p else "not flagged"
        mg = f"{p['measured_gain']:.2f}x" if "measured_gain" in p else "not measured"
        lines.append(f"| {p['bad']} | {p['good']} | {p['diagnostic']} | {pg} | {mg} | {p.get('finding', '-')} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
