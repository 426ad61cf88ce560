#!/usr/bin/env python3
"""What `civdsl check` (without `--simulate`) catches of single-edit mistakes in the shipped rule files.

    python benchmarks/mutants_bench.py                       # the corpus: 300 mutants, seed 0 (~10 min)
    python benchmarks/mutants_bench.py --count 40 --seed 3   # another, smaller corpus
    python benchmarks/mutants_bench.py --missed missed.txt   # also write the missed mutants to a file

The corpus (`tests/mutation_corpus.py`) has four categories of mutants: a misspelled field name, a text
where the rules compute with a number, a wrong number of arguments, a misspelled thing name. Each mutant
is checked (`civdsl check` of the editions that load the file) and played (a few short seeded games:
`tests/mutation_harness.py`). The table gives, per category, how many mutants make a game fail, how
many `check` catches, and how many of the game-failing ones it catches. Targets: `check` catches at
least 98% of the mutants that make a game fail, and every misspelled field name.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests", Path(__file__).resolve().parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from mutation_corpus import CATEGORIES, DEFAULT_COUNT, mutants  # noqa: E402
from mutation_harness import Verdict, judge_all  # noqa: E402

SMOKE_COUNT = 4
GAME_FAILING_TARGET = 0.98


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f}%" if b else "-"


def summary(verdicts: list[Verdict]) -> dict:
    """Counts per category and overall, and the two target figures."""
    rows = {}
    for cat in [*CATEGORIES, "all"]:
        vs = [v for v in verdicts if cat == "all" or v.mutant.category == cat]
        failing = [v for v in vs if v.fails_game]
        rows[cat] = {"mutants": len(vs), "fail": len(failing), "caught": sum(v.caught for v in vs),
                     "caught_failing": sum(v.caught for v in failing),
                     "warned_only": sum(bool(v.warnings) and not v.caught for v in vs),
                     "check_crash": sum(bool(v.check_crash) for v in vs)}
    fields = [v for v in verdicts if v.mutant.category == "field"]
    return {"rows": rows,
            "failing_caught": (rows["all"]["caught_failing"], rows["all"]["fail"]),
            "fields_caught": (sum(v.caught for v in fields), len(fields))}


def missed(verdicts: list[Verdict]) -> list[Verdict]:
    """The mutants that count against a target: game-failing ones `check` does not catch, and field
    misspellings it does not catch (game-failing or not)."""
    return [v for v in verdicts if not v.caught and (v.fails_game or v.mutant.category == "field")]


def missed_line(v: Verdict) -> str:
    m = v.mutant
    game = v.failures[0] if v.failures else "no game failed"
    extra = f" [{v.check_crash}]" if v.check_crash else ""
    warned = f" (check warned: {v.warnings[0]})" if v.warnings else ""
    opts = f" [option {','.join(m.options)}]" if m.options else ""
    return f"{m.where}  {m.category}  {m.description}{opts}  | entry {m.entry} | game: {game}{warned}{extra}"


def table(s: dict) -> list[str]:
    head = ("category", "mutants", "fail a game", "caught by check", "caught of game-failing", "warning only")
    cells = [head]
    for cat, r in s["rows"].items():
        cells.append((cat, str(r["mutants"]), str(r["fail"]), f"{r['caught']} ({_pct(r['caught'], r['mutants'])})",
                      f"{r['caught_failing']}/{r['fail']} ({_pct(r['caught_failing'], r['fail'])})",
                      str(r["warned_only"])))
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def target_rows(s: dict, smoke: bool) -> list[tuple]:
    """(name, figure, target, met) rows, as `bench.py` prints them."""
    caught, failing = s["failing_caught"]
    fcaught, fields = s["fields_caught"]
    rate = caught / failing if failing else 1.0
    frate = fcaught / fields if fields else 1.0
    return [(f"check catches game-failing mutants ({failing} of {s['rows']['all']['mutants']} fail a game)",
             f"{caught}/{failing} = {100 * rate:.1f}%", ">= 98%", None if smoke else rate >= GAME_FAILING_TARGET),
            (f"check catches misspelled field names ({fields} mutant{'s' if fields != 1 else ''})",
             f"{fcaught}/{fields} = {100 * frate:.1f}%",
             "100%", None if smoke else fcaught == fields)]


def measure_mutants(smoke: bool) -> list[tuple]:
    """For `bench.py`: the target figures on the default corpus (a handful with `--smoke`)."""
    verdicts = judge_all(mutants(seed=0, count=SMOKE_COUNT if smoke else DEFAULT_COUNT))
    return target_rows(summary(verdicts), smoke)


def report(verdicts: list[Verdict], seed: int, seconds: float) -> str:
    s = summary(verdicts)
    out = [f"mutant corpus: seed {seed}, {len(verdicts)} mutants, {seconds:.0f} s — {time.strftime('%Y-%m-%d %H:%M')}",
           "", *table(s), ""]
    for name, figure, target, ok in target_rows(s, False):
        out.append(f"{name}: {figure} (target {target}) {'met' if ok else 'NOT met'}")
    crashes = [v for v in verdicts if v.check_crash]
    if crashes:
        out += ["", f"check crashed (a traceback, not a diagnostic) on {len(crashes)} mutant(s):"]
        out += [f"  {v.mutant.where}  {v.mutant.description}  | {v.check_crash}" for v in crashes]
    miss = missed(verdicts)
    out += ["", f"missed ({len(miss)}): game-failing mutants check does not catch, and uncaught field misspellings"]
    out += [f"  {missed_line(v)}" for v in miss]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="What civdsl check catches of single-edit mutants of the rule files.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT)
    ap.add_argument("--smoke", action="store_true", help=f"only {SMOKE_COUNT} mutants: checks that it runs")
    ap.add_argument("--categories", default=",".join(CATEGORIES), help="comma-separated categories")
    ap.add_argument("--missed", metavar="FILE", help="also write the report (with the missed mutants) to FILE")
    ap.add_argument("--all", metavar="FILE", help="also write every mutant's verdict to FILE")
    ap.add_argument("--no-types", action="store_true",
                    help="check without its type check (`check_paths(types=False)`): the figure before it")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    count = SMOKE_COUNT if args.smoke else args.count
    start = time.perf_counter()
    corpus = mutants(seed=args.seed, count=count, categories=[c for c in args.categories.split(",") if c])

    def progress(i, v):
        if not args.quiet:
            mark = ("C" if v.caught else "-") + ("F" if v.fails_game else "-")
            print(f"[{i + 1}/{len(corpus)}] {mark} {v.mutant.where} {v.mutant.description}", file=sys.stderr, flush=True)
    verdicts = judge_all(corpus, progress, types=not args.no_types)
    text = report(verdicts, args.seed, time.perf_counter() - start)
    if args.no_types:
        text = "(check without its type check)\n" + text
    print(text)
    if args.missed:
        Path(args.missed).write_text(text + "\n", encoding="utf-8")
    if args.all:
        lines = []
        for v in verdicts:
            m = v.mutant
            lines.append(f"{m.id}\t{m.where}\t{m.category}\tcaught={v.caught}\tfails={v.fails_game}\t{m.description}"
                         f"\t{(v.errors or [''])[0]}\t{(v.failures or [''])[0]}\t{v.check_crash}")
        Path(args.all).write_text("\n".join(lines) + "\n", encoding="utf-8")
    s = summary(verdicts)
    return 0 if args.smoke or all(ok is not False for *_, ok in target_rows(s, False)) else 1


if __name__ == "__main__":
    sys.exit(main())
