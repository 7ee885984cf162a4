#!/usr/bin/env python3
"""Tests scripts/dev/latency-classes-score.py without a GPU, on run folders made from the
committed 2026-11-24 runs (docs/validation/2026-11-24-latency, an H200 and an H100 run): their
kernels renamed to kernels of the latency-class manifest, so that the script's classes, halves
and pairs can be checked against `roofcast validate` run directly on the original folders.

Usage: latency_classes_score_test.py ROOFCAST   (exit 0: passed, 1: failed)
"""
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "dev" / "latency-classes-score.py"
MANIFEST = ROOT / "workloads" / "latency_classes.json"
CORPUS = ROOT / "docs" / "validation" / "2026-11-24-latency"
PROGRAMS = ("serial_latency", "low_occupancy", "atomics", "stream", "int_heavy")
# Corpus kernel -> latency-class kernel (int_hash stays unmapped: the script must leave it out).
RENAMED = {
    "serial_fma_chain": "merge_chains_b32_t512", "pointer_chase": "merge_chains_b48_t768",
    "lowocc_fp32_loop": "tree_reduce_t1024_c2048", "lowocc_fp64_loop": "tree_reduce_t512_c512",
    "histogram_shared": "histogram1024_uniform_t256", "scatter_add_distinct_1m": "histogram1024_skewed_t256",
    "scatter_add_distinct_64k": "bucket_count_r8_b256", "scatter_add_distinct_1k": "bucket_count_r16_b1024",
    "scatter_add_distinct_32": "bucket_count_r12_b4096", "scatter_add_distinct_1": "block_dispatch_t16",
    "stream_copy": "mesh_flux_scalar_t16", "stream_scale": "mesh_flux_pair_t16",
    "stream_add": "plane_sweep_7pt_f32_global", "stream_triad": "plane_sweep_7pt_f64_shared",
}
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}")


def function_name(kernel):
    return kernel.split("(")[0].split()[-1]


def renamed_copy(source, destination):
    """A run folder of the given corpus run's files for PROGRAMS, kernels renamed."""
    (destination / "devices").mkdir(parents=True)
    (destination / "profiles").mkdir()
    (destination / "measured").mkdir()
    for device in ("full", "mps50", "mps25"):
        shutil.copy(source / "devices" / f"{device}.json", destination / "devices")
    files = [f"profiles/{p}.json" for p in PROGRAMS] + [f"measured/mps{m}-{p}.json" for m in (50, 25) for p in PROGRAMS]
    for name in files:
        data = json.loads((source / name).read_text())
        for k in data["kernels"]:
            base = function_name(k["name"])
            if base in RENAMED:
                k["name"] = RENAMED[base] + k["name"][len(base):]
        (destination / name).write_text(json.dumps(data))


def score(roofcast, *args):
    return subprocess.run([sys.executable, str(SCRIPT), "--roofcast", roofcast, *map(str, args)],
                          capture_output=True, text=True)


def expected_rows(roofcast, runs, scratch):
    """(manifest kernel, scope) -> APEs, from `roofcast validate` on the original corpus files."""
    manifest = {k["kernel"]: k for k in json.loads(MANIFEST.read_text())["kernels"]}
    rows = []
    for i, reference in enumerate(runs):
        args = [roofcast, "validate", "--allow-missing", "--output", str(scratch / f"direct-{i}.json")]
        args += [a for p in PROGRAMS for a in ("--reference-profile", str(reference / "profiles" / f"{p}.json"))]
        for run in runs:
            args += ["--device", str(run / "devices" / "full.json")]
            if run != reference:
                args += [a for p in PROGRAMS for a in ("--measured", str(run / "profiles" / f"{p}.json"))]
            for m in (50, 25):
                device = run / "devices" / f"mps{m}.json"
                name = json.loads(device.read_text())["name"]
                args += ["--device", str(device)]
                args += [a for p in PROGRAMS for a in ("--measured", f"{name}={run / 'measured' / f'mps{m}-{p}.json'}")]
        subprocess.run(args, check=True, capture_output=True)
        report = json.loads((scratch / f"direct-{i}.json").read_text())
        gpu = report["reference_device"]
        for e in report["entries"]:
            base = function_name(e["kernel"])
            if base not in RENAMED:
                continue
            scope = "self" if e["device"] == gpu else "partition" if e["device"].startswith(gpu + " (MPS") else "cross"
            rows.append({**manifest[RENAMED[base]], "scope": scope, "ape": e["ape"], "error": e["error"]})
    return rows


def main(roofcast):
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        runs = [scratch / "h200", scratch / "h100"]
        renamed_copy(CORPUS / "h200-run", runs[0])
        renamed_copy(CORPUS / "h100-run", runs[1])

        # The manifest agrees with the workloads' sources.
        result = subprocess.run([sys.executable, str(SCRIPT), "--check-manifest"], capture_output=True, text=True)
        check(result.returncode == 0, f"--check-manifest on the committed manifest: {result.stderr.strip()}")

        # Both halves, both runs: every group's numbers are those of validate on the original files.
        result = score(roofcast, "--halves", "both", "--output", scratch / "both", *runs)
        check(result.returncode == 0, f"scoring both halves: exit {result.returncode}: {result.stderr.strip()}")
        scores = json.loads((scratch / "both" / "latency-classes.json").read_text())
        want = expected_rows(roofcast, [CORPUS / "h200-run", CORPUS / "h100-run"], scratch)
        check(len(want) == 14 * 12, f"the original files give {len(want)} predictions of the renamed kernels, not 14 x 12")
        groups = {(g["class"], g["half"]): g for g in scores["groups"]}
        for (cls, half), group in groups.items():
            for key, scopes in (("all", ("self", "partition", "cross")), ("cross", ("cross",)),
                                ("same_gpu", ("self", "partition")), ("self", ("self",))):
                chosen = [r for r in want if (cls == "all classes" or r["class"] == cls) and r["half"] == half
                          and r["scope"] in scopes]
                got = group[key]
                check(got["predictions"] == len(chosen),
                      f"{cls}, {half}, {key}: {got['predictions']} predictions, validate gives {len(chosen)}")
                if chosen and got["predictions"]:
                    apes = [r["ape"] for r in chosen]
                    check(abs(got["median_ape"] - statistics.median(apes)) < 1e-12, f"{cls}, {half}, {key}: median APE")
                    within = sum(a <= 0.25 for a in apes) / len(apes)
                    check(abs(got["within_25"] - within) < 1e-12, f"{cls}, {half}, {key}: within 25 %")
        check(any(k.startswith("int_hash(") for k in scores["unclassified"]), "int_hash is listed as unclassified")
        check("merge_chains_b64_t1024" in scores["missing"], "a manifest kernel without predictions is listed as missing")
        check("| merge_chains | held-out |" in result.stdout, "the held-out rows are printed with --halves both")

        # By default the held-out half stays hidden, in the output and in the files.
        result = score(roofcast, "--output", scratch / "design", *runs)
        check(result.returncode == 0, f"scoring the design half: exit {result.returncode}: {result.stderr.strip()}")
        written = (scratch / "design" / "latency-classes.md").read_text() + (scratch / "design" / "latency-classes.json").read_text()
        for text, where in ((result.stdout, "stdout"), (written, "the files")):
            check("held-out |" not in text and "merge_chains_b48_t768" not in text, f"held-out results in {where} by default")
        check("| tree_reduce | design |" in result.stdout, "the design rows are printed by default")

        # One run: the reference GPU and its partitions only.
        result = score(roofcast, "--halves", "both", "--output", scratch / "one", runs[0])
        one = json.loads((scratch / "one" / "latency-classes.json").read_text())
        check(result.returncode == 0 and all(r["scope"] != "cross" for r in one["predictions"])
              and len(one["predictions"]) == 14 * 3, f"one run: {len(one['predictions'])} predictions, want 14 x 3")

        # Bad input: exit 1 with the file named; usage errors: exit 2.
        broken = scratch / "broken"
        shutil.copytree(runs[0], broken)
        (broken / "devices" / "full.json").unlink()
        result = score(roofcast, runs[0], broken)
        check(result.returncode == 1 and "full.json" in result.stderr, f"a run without devices/full.json: {result.stderr.strip()}")
        result = score(roofcast, runs[0], runs[0])
        check(result.returncode == 1 and "same device" in result.stderr, f"two runs of one GPU: {result.stderr.strip()}")
        result = score(roofcast)
        check(result.returncode == 2, f"no run folder: exit {result.returncode}, want 2")
        manifest = json.loads(MANIFEST.read_text())
        manifest["kernels"] = [k for k in manifest["kernels"] if not (k["class"] == "plane_sweep" and k["half"] == "held-out")]
        (scratch / "no-held-out.json").write_text(json.dumps(manifest))
        result = score(roofcast, "--manifest", scratch / "no-held-out.json", runs[0])
        check(result.returncode == 1 and "plane_sweep has no held-out kernel" in result.stderr,
              f"a class without a held-out kernel: {result.stderr.strip()}")
        manifest = json.loads(MANIFEST.read_text())
        manifest["kernels"][0]["kernel"] = "merge_chains_b99_t99"
        (scratch / "unknown-kernel.json").write_text(json.dumps(manifest))
        result = subprocess.run([sys.executable, str(SCRIPT), "--check-manifest", "--manifest", str(scratch / "unknown-kernel.json")],
                                capture_output=True, text=True)
        check(result.returncode == 1 and "merge_chains_b99_t99" in result.stderr,
              f"--check-manifest with a kernel no workload has: {result.stderr.strip()}")
    print("passed" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
