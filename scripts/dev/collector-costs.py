#!/usr/bin/env python3
"""Where a `roofcast profile` run's time goes, from its records folder (--records-dir): the
profiled launches' per-launch costs (cost_ns of each profiled launch: setup, checkpoint save and
restores, L2 flushes, replay passes, decode) and the launches each run recorded.
Usage: collector_costs.py RECORDS_DIR [SCALE_TXT]"""
import json
import pathlib
import sys


def records(folder, mode):
    # Two runs: timing/ and counters/; one run (--runs auto, one): both in the folder, and the
    # counter run of --runs auto, where it made one, in spread/.
    places = [pathlib.Path(folder, mode), pathlib.Path(folder)]
    if mode == "counters":
        places.append(pathlib.Path(folder, "spread"))
    paths = [path for place in places for path in sorted(place.glob(f"roofcast-{mode}-*.jsonl"))]
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                pass


def main():
    folder = sys.argv[1]
    timing = sum(1 for r in records(folder, "timing") if r.get("type") == "launch")
    costs, profiled, passes = {}, 0, None
    for r in records(folder, "counters"):
        if r.get("type") == "config":
            passes = r.get("passes")
        if r.get("type") == "launch":
            profiled += 1
            for part, ns in r.get("cost_ns", {}).items():
                costs[part] = costs.get(part, 0.0) + ns
    total = sum(costs.values())
    print(f"timing run: {timing} launches recorded; counter run: {profiled} launches profiled, "
          f"{passes} replay passes each")
    print("counter run, profiled launches, where the time goes (all launches together, per launch, share):")
    for part, ns in sorted(costs.items(), key=lambda item: -item[1]):
        print(f"  {part:20s} {ns / 1e9:8.3f} s {ns / 1e6 / max(profiled, 1):9.3f} ms/launch {100 * ns / max(total, 1):5.1f} %")
    print(f"  {'total':20s} {total / 1e9:8.3f} s {total / 1e6 / max(profiled, 1):9.3f} ms/launch")


if __name__ == "__main__":
    main()
