#!/usr/bin/env python3
"""Fails when a test that does not need a GPU skipped: in CI only the tests labelled `gpu` may
skip (scripts/test.sh runs this when CI=true; docs/developing.md, "Tests that may skip").

Usage: scripts/dev/check-skipped-tests.py BUILD_DIR JUNIT_FILE
  JUNIT_FILE: what `ctest --output-junit` wrote in BUILD_DIR; the tests' labels come from
  `ctest --show-only=json-v1` there.
"""

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path


def labels_by_test(build_dir: Path) -> dict[str, list[str]]:
    listing = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, check=True, capture_output=True,
                             text=True).stdout
    labels = {}
    for test in json.loads(listing)["tests"]:
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        labels[test["name"]] = properties.get("LABELS", [])
    return labels


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = Path(sys.argv[1])
    junit = build_dir / sys.argv[2] if not Path(sys.argv[2]).is_absolute() else Path(sys.argv[2])
    labels = labels_by_test(build_dir)
    skipped = [case.get("name") for case in ElementTree.parse(junit).getroot().iter("testcase")
               if case.find("skipped") is not None]
    wrong = [name for name in skipped if "gpu" not in labels.get(name, [])]
    if wrong:
        print(f"check-skipped-tests: {len(wrong)} test(s) that need no GPU skipped: {', '.join(wrong)} "
              f"(install what they need: scripts/setup.sh)")
        return 1
    print(f"check-skipped-tests: {len(skipped)} skipped, all GPU tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
