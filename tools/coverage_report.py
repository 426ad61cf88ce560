#!/usr/bin/env python3
"""The shipped rulesets' rule coverage by their own scenarios: the figures of docs/coverage.md, and the
floor CI holds them to.

    python tools/coverage_report.py                 # the table, as Markdown (docs/coverage.md)
    python tools/coverage_report.py --check         # exit 1 if a figure left its floor (what the test does)
    python tools/coverage_report.py --write-floor   # write the measured figures as the new floor
    python tools/coverage_report.py --json          # every figure and count, as JSON

Each edition (and the house-rule variants) is measured by the scenarios of its own `scenarios/` folder;
`civ-core` by the scenarios of the editions that load it (see `civdsl.tools.coverage.editions`). It runs
the same scenarios as `civdsl test rulesets/`, each folder's with coverage on: about as long.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from civdsl.tools.coverage.editions import against_floor, as_json, figures, write_floor  # noqa: E402

FLOOR = ROOT / "tests" / "data" / "coverage-floor.json"


def markdown(found) -> str:
    rows = ["| rulesets | measured by | scenarios | rules | lines | branches |", "|---|---|---:|---:|---:|---:|"]
    for name, f in found.items():
        by = "its own scenarios" if f.measured_by == [name] else ", ".join(f.measured_by) or "nothing"
        rows.append(f"| {name} | {by} | {f.scenarios} | {f.rules:.1f}% of {f.rules_total} | "
                    f"{f.lines:.1f}% of {f.lines_total} | {f.branches:.1f}% of {f.branches_total} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulesets", default=str(ROOT / "rulesets"), help="the rulesets root (default: rulesets/)")
    ap.add_argument("--floor", default=str(FLOOR), help=f"the floor file (default: {FLOOR.relative_to(ROOT)})")
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="compare with the floor; exit 1 if a figure left it")
    what.add_argument("--write-floor", action="store_true", help="write the measured figures as the floor")
    what.add_argument("--json", action="store_true", help="print every figure as JSON")
    args = ap.parse_args(argv)
    found = figures(Path(args.rulesets))
    if args.json:
        print(json.dumps(as_json(found), indent=2))
        return 0
    if args.write_floor:
        write_floor(Path(args.floor), found)
        print(f"wrote {args.floor}")
        return 0
    print(markdown(found))
    if args.check:
        problems = against_floor(found, json.loads(Path(args.floor).read_text(encoding="utf-8")), args.floor)
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
