#!/usr/bin/env python3
"""Regenerate the figures of docs/balance.md: Avalon Hill 1981 with five heuristic players, as shipped
and with the `gentle-calamities` house rule, on the same seeds.

    python tools/balance_example.py [--games 100] [--jobs 2]

Runs `civdsl compare` and `civdsl stats` exactly as the page shows, then writes their output between
the page's `<!-- generated: NAME -->` and `<!-- /generated -->` markers and the figures into
docs/img/balance/. The results file is kept in a temporary folder.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from civdsl.interfaces.cli import main as civdsl  # noqa: E402

PAGE = ROOT / "docs" / "balance.md"
IMAGES = ROOT / "docs" / "img" / "balance"
A, B = "examples/ah-5p.yaml", "examples/ah-gentle-calamities.yaml"


def run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = civdsl(list(argv))
    if code not in (0, 1):
        raise SystemExit(f"civdsl {' '.join(argv)} exited {code}:\n{out.getvalue()}")
    return out.getvalue().rstrip()


def fill(page: str, name: str, text: str) -> str:
    pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(<!-- /generated -->)", re.S)
    if not pattern.search(page):
        raise SystemExit(f"docs/balance.md has no `<!-- generated: {name} -->` marker")
    return pattern.sub(lambda m: m.group(1) + text + "\n" + m.group(2), page)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "results.duckdb")
        n, jobs = str(args.games), str(args.jobs)
        compared = run("compare", A, B, "--games", n, "--jobs", jobs, "--out", db, "--format", "markdown", "-q")
        runs = re.findall(r"run (\w+) —", compared)
        compared = "\n".join(line for line in compared.splitlines() if " game(s) played in " not in line).strip()
        stats_b = run("stats", db, "--run", runs[1], "--format", "markdown", "--plots", str(Path(tmp) / "plots"))
        IMAGES.mkdir(parents=True, exist_ok=True)
        for png in sorted((Path(tmp) / "plots").glob("*.png")):
            shutil.copy(png, IMAGES / png.name)
    page = PAGE.read_text(encoding="utf-8")
    page = fill(page, "compare", f"```text\n$ civdsl compare {A} {B} --games {n}\n```\n\n{compared}")
    page = fill(page, "stats", stats_b)
    PAGE.write_text(page, encoding="utf-8")
    print(f"docs/balance.md and {IMAGES.relative_to(ROOT)}/ regenerated from {args.games} games a side")
    return 0


if __name__ == "__main__":
    sys.exit(main())
