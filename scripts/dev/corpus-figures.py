#!/usr/bin/env python3
"""The validation corpus' figures as README.md and docs/ quote them, from a fresh run of
scripts/dev/validate-corpus.sh on the committed GPU runs of docs/validation/2026-11-24-latency
(no GPU needed; docs/validation/2026-11-25-accuracy/results/ is that run, committed).

  corpus-figures.py table                 the summary's first table (both models, all pairs)
  corpus-figures.py value GROUP COLUMN    one cell: `value pipes "within 25 %"` -> "94 %"
  corpus-figures.py range SECTION COLUMN  a column's lowest and highest over a section's rows:
                                          `range "per reference -> target pair" "median APE %"` -> "5.9-8.6 %"

The run is made once per $CHECK_TMP (scripts/dev/check-docs.py sets it) and reused by the
commands after it; without $CHECK_TMP, in a temporary folder each time.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "docs/validation/2026-11-24-latency"


def summary_lines() -> list[str]:
    scratch = Path(os.environ.get("CHECK_TMP") or tempfile.mkdtemp(prefix="roofcast-corpus-"))
    summary = scratch / "corpus" / "summary.md"
    if not summary.exists():
        subprocess.run([str(ROOT / "scripts/dev/validate-corpus.sh"), str(RUNS / "h200-run"), str(RUNS / "h100-run"),
                        str(scratch / "corpus")], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return summary.read_text().splitlines()


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def tables(lines: list[str]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Each table: the heading above it, its header cells and its rows."""
    found, heading, i = [], "", 0
    while i < len(lines):
        if lines[i].startswith("#"):
            heading = lines[i].lstrip("# ")
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header, rows, i = cells(lines[i]), [], i + 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            found.append((heading, header, rows))
            continue
        i += 1
    return found


def percent(text: str) -> str:
    return f"{text} %"


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("table", "value", "range"):
        print(__doc__, file=sys.stderr)
        return 2
    lines = summary_lines()
    if sys.argv[1] == "table":
        start = next(i for i, line in enumerate(lines) if line.startswith("|"))
        end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
        print("\n".join(lines[start:end]))
        return 0
    what, column = sys.argv[2], sys.argv[3]
    for heading, header, rows in tables(lines):
        if column not in header:
            continue
        at = header.index(column)
        if sys.argv[1] == "value":
            for row in rows:
                if row[0] == what:
                    print(percent(row[at]) if "%" in column else row[at])
                    return 0
        elif what in heading:
            values = sorted((float(row[at]), row[at]) for row in rows)
            print(percent(f"{values[0][1]}-{values[-1][1]}"))
            return 0
    print(f"corpus-figures.py: no {what!r} with a column {column!r} in the summary", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
