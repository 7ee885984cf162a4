#!/usr/bin/env python3
"""Re-runs the commands that README.md and docs/*.md quote with their output, and fails when an
output no longer matches the text (run by ctest as `docs_check`; docs/developing.md).

A quoted output is marked in the markdown, invisibly once rendered:

  <!-- check: COMMAND -->            the text up to <!-- end check --> is COMMAND's output:
  ```text                           a fenced block (the fence is kept), a table, or words
  ...                               inline (`<!-- check: CMD -->94 %<!-- end check -->`)
  ```
  <!-- end check -->

  <!-- check -->                    the fenced block that follows is a shell session: each
  ```text                           `$ COMMAND` line is run, the lines after it up to the next
  $ build/bin/roofcast devices      `$ ` line are its output
  ...
  ```

Commands run with bash from the repository root, with the built roofcast first on PATH (and
`build/bin/roofcast` standing for it), $CHECK_TMP a scratch folder; the repository's path in
their output reads as a relative path. In the expected text, a line `...`
stands for any number of lines. `--update` writes the outputs into the markdown instead of
comparing (an excerpt keeps as many first and last lines as it had), for when a change of the
model or the command line moves the numbers on purpose: review the diff, then commit it.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BEGIN = re.compile(r"<!-- check(?::\s*(?P<command>.*?))?\s*-->")
END = "<!-- end check -->"
ELLIPSIS = "..."


@dataclass
class Check:
    path: Path
    line: int  # 1-based, of the marker
    command: str | None  # None: a session block
    start: int  # offsets into the file's text of what the check compares
    end: int


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """Where the text's fenced code blocks are (a mark shown inside one is an example)."""
    spans, opener, start, at = [], "", 0, 0
    for line in text.splitlines(keepends=True):
        fence = re.match(r"\s*(`{3,})", line)
        if fence and not opener:
            opener, start = fence.group(1), at
        elif fence and fence.group(1).startswith(opener) and line.strip() == fence.group(1):
            spans.append((start, at + len(line)))
            opener = ""
        at += len(line)
    return spans


def checks_in(path: Path, text: str) -> list[Check]:
    found = []
    examples = fenced_spans(text)
    for match in BEGIN.finditer(text):
        if any(start <= match.start() < end for start, end in examples):
            continue
        line = text.count("\n", 0, match.start()) + 1
        command = match.group("command")
        if command is None:  # a session: the fenced block right after the marker
            fence = re.compile(r"\n(```[^\n]*)\n(.*?\n)```", re.S).match(text, match.end())
            if not fence:
                raise SystemExit(f"{path.relative_to(ROOT)}:{line}: <!-- check --> must be followed by a fenced block")
            found.append(Check(path, line, None, fence.start(2), fence.end(2)))
            continue
        end = text.find(END, match.end())
        if end < 0:
            raise SystemExit(f"{path.relative_to(ROOT)}:{line}: no {END} after this check")
        found.append(Check(path, line, command, match.end(), end))
    return found


def run(command: str, environment: dict) -> tuple[str, str | None]:
    """The command's standard output, and an error when it failed."""
    # `build/bin/roofcast`, as the docs write it, is the binary checked.
    command = command.replace("build/bin/roofcast", environment["ROOFCAST"])
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=300)
    output = result.stdout.replace(str(ROOT) + "/", "")
    if result.returncode != 0:
        return output, f"exit status {result.returncode}: {result.stderr.strip()[-500:]}"
    return output, None


def lines_of(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` reads as `expected`, where a `...` line stands for any lines."""
    if ELLIPSIS not in expected:
        return expected == actual
    at = expected.index(ELLIPSIS)
    head, rest = expected[:at], expected[at + 1:]
    if actual[:len(head)] != head:
        return False
    return any(matches(rest, actual[start:]) for start in range(len(head), len(actual) + 1))


def excerpt(expected: list[str], actual: list[str]) -> list[str]:
    """`actual` cut the way `expected` was: as many first and last lines around one `...`."""
    if ELLIPSIS not in expected:
        return actual
    head = expected.index(ELLIPSIS)
    tail = len(expected) - 1 - max(i for i, line in enumerate(expected) if line == ELLIPSIS)
    if head + tail >= len(actual):
        return actual
    return actual[:head] + [ELLIPSIS] + (actual[len(actual) - tail:] if tail else [])


def fenced_parts(region: str) -> tuple[str, str, str]:
    """A region's opening fence, its body and its closing fence ('' when it is not fenced); an
    inline region in backticks (`roofcast ...`) has them as its fences."""
    match = re.fullmatch(r"(\s*```[^\n]*\n)(.*?\n?)(```\s*)", region, re.S)
    if match:
        return match.group(1), match.group(2), match.group(3)
    match = re.fullmatch(r"(`)([^`\n]*)(`)", region)
    return (match.group(1), match.group(2), match.group(3)) if match else ("", region, "")


@dataclass
class Result:
    command: str
    expected: list[str]
    actual: list[str]
    error: str | None


def check_command(check: Check, region: str, environment: dict) -> tuple[Result, str]:
    opening, body, closing = fenced_parts(region)
    output, error = run(check.command, environment)
    expected, actual = lines_of(body), lines_of(output)
    inline = "\n" not in region
    new_body = "\n".join(excerpt(expected, actual))
    if inline:
        new_region = f"{opening}{new_body}{closing}"
    elif opening:
        new_region = f"{opening}{new_body}\n{closing}"
    else:  # lines of markdown (a table): the end marker keeps its indentation
        new_region = f"\n{new_body}\n{region[region.rfind(chr(10)) + 1:]}"
    return Result(check.command, expected, actual, error), new_region


def check_session(region: str, environment: dict) -> tuple[list[Result], str]:
    results, new_lines = [], []
    blocks: list[tuple[str, list[str]]] = []
    for line in region.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            blocks.append((line[2:], []))
        elif blocks:
            blocks[-1][1].append(line)
        else:
            raise SystemExit("a session block must start with a `$ COMMAND` line")
    for i, (command, expected_lines) in enumerate(blocks):
        output, error = run(command, environment)
        expected, actual = lines_of("\n".join(expected_lines)), lines_of(output)
        results.append(Result(command, expected, actual, error))
        new_lines += [f"$ {command}"] + excerpt(expected, actual) + ([""] if i + 1 < len(blocks) else [])
    return results, "\n".join(new_lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--roofcast", default=str(ROOT / "build/bin/roofcast"), help="the roofcast binary to run")
    parser.add_argument("--update", action="store_true", help="write the outputs into the markdown")
    parser.add_argument("files", nargs="*", help="markdown files (default: README.md and docs/*.md)")
    args = parser.parse_args()
    roofcast = Path(args.roofcast).resolve()
    if not os.access(roofcast, os.X_OK):
        print(f"check-docs: {args.roofcast}: no roofcast binary there (build it, or give --roofcast)", file=sys.stderr)
        return 2
    files = [Path(f).resolve() for f in args.files] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

    failures = count = 0
    with tempfile.TemporaryDirectory(prefix="roofcast-check-docs-") as scratch:
        environment = dict(os.environ, LC_ALL="C.UTF-8", ROOFCAST=str(roofcast), CHECK_TMP=scratch, COLUMNS="200",
                           PATH=f"{roofcast.parent}{os.pathsep}{os.environ.get('PATH', '')}")
        for path in files:
            text = path.read_text()
            pieces, at = [], 0
            for check in checks_in(path, text):
                region = text[check.start:check.end]
                if check.command is None:
                    results, new_region = check_session(region, environment)
                else:
                    result, new_region = check_command(check, region, environment)
                    results = [result]
                for result in results:
                    count += 1
                    if result.error is None and matches(result.expected, result.actual):
                        continue
                    failures += 1
                    where = f"{path.relative_to(ROOT)}:{check.line}"
                    if result.error:
                        print(f"{where}: `{result.command}` failed, {result.error}")
                    else:
                        print(f"{where}: the output of `{result.command}` no longer matches the text:")
                    sys.stdout.writelines(difflib.unified_diff([line + "\n" for line in result.expected],
                                                               [line + "\n" for line in result.actual],
                                                               "in the text", "printed now", n=1))
                failed = any(result.error for result in results)
                pieces += [text[at:check.start], region if failed else new_region]
                at = check.end
            pieces.append(text[at:])
            if args.update and "".join(pieces) != text:
                path.write_text("".join(pieces))
                print(f"check-docs: updated {path.relative_to(ROOT)}")
    if args.update:
        return 0
    if failures:
        print(f"check-docs: {failures} of {count} quoted outputs differ; if the change is intended, run "
              f"scripts/dev/check-docs.py --update and review the diff")
        return 1
    print(f"check-docs: {count} quoted outputs match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
