#!/usr/bin/env python3
"""What the type checker adds to `civdsl check rulesets/`: the check with and without it, in the same run.

    python benchmarks/typecheck_bench.py            # 9 alternating pairs of each kind of run (about 2 minutes)
    python benchmarks/typecheck_bench.py --smoke    # one pair of each: it runs

Two measurements, each the median ratio of alternating pairs (with, without; then without, with: drift
in the machine's load falls on both):

* **as run** — the target: `civdsl check rulesets/` as a user runs it, each run a fresh Python process
  (imports, loading, compiling, checking every shipped edition, its options and its variants), with the
  parse cache on disk warm (a first run, not timed, fills it), as it is from a user's second run on.
  The process runs the command's own function (`checker.check_paths`) with the type check on or off.
* **in one process** — stricter: both runs in this process with the parse cache and the compiler's
  caches warm, and the type checker's own memory cleared before each run with it, so only the type
  check starts from nothing. Reported, without a target: it is the figure to watch when the type
  checker changes (the compiler's share of a real run is left out).

Target: type checking adds at most 20% to `civdsl check rulesets/` (ratio <= 1.20).
"""
from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
for path in (ROOT, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from rows import print_rows  # noqa: E402

from civdsl.compiler.typecheck import check as typecheck  # noqa: E402
from civdsl.tools.checker import check_paths  # noqa: E402

TARGET = 1.20
PAIRS = 9   # (single runs on a shared machine scatter by ±0.05: the median of nine pairs by much less)
_AS_RUN = """
import sys
from civdsl.tools.checker import check_paths
found, _ = check_paths([sys.argv[1]], sys.argv[2] == "types")
sys.exit(1 if any(d.severity == "error" for d in found) else 0)
"""


def _as_run(types: bool) -> float:
    """Wall time of one `civdsl check rulesets/` in a fresh process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _AS_RUN, str(ROOT / "rulesets"), "types" if types else "plain"],
                          cwd=ROOT, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the shipped rulesets do not check:\n{done.stdout}{done.stderr}")
    return took


def _in_process(types: bool) -> float:
    typecheck.clear_caches()
    gc.collect()  # (the garbage of the run before is not charged to this one)
    start = time.perf_counter()
    found, _ = check_paths([str(ROOT / "rulesets")], types)
    took = time.perf_counter() - start
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise SystemExit(f"the shipped rulesets do not check: {errors[0].headline()}")
    return took


def _pairs(run, pairs: int) -> tuple[float, float, float]:
    """Medians of the runs without and with type checking, and of their pairs' ratios."""
    run(True)  # (warm: the parse cache, and in one process the compiled rules)
    without, with_types, ratios = [], [], []
    for i in range(pairs):
        order = (False, True) if i % 2 == 0 else (True, False)
        got = {flag: run(flag) for flag in order}
        without.append(got[False])
        with_types.append(got[True])
        ratios.append(got[True] / got[False])
    return statistics.median(without), statistics.median(with_types), statistics.median(ratios)


def measure_typecheck(smoke: bool) -> list[tuple]:
    pairs = 1 if smoke else PAIRS
    run_without, run_with, run_ratio = _pairs(_as_run, pairs)
    one_without, one_with, one_ratio = _pairs(_in_process, pairs)
    return [("check rulesets/ as run, without type checking", f"{run_without:.2f} s", "", None),
            ("check rulesets/ as run, with type checking", f"{run_with:.2f} s", "", None),
            ("check with / without type checking, as run", f"{run_ratio:.2f}", f"<= {TARGET:.2f}",
             None if smoke else run_ratio <= TARGET),
            ("in one process (caches warm), without type checking", f"{one_without:.2f} s", "", None),
            ("in one process (caches warm), with type checking", f"{one_with:.2f} s", "", None),
            ("check with / without type checking, in one process", f"{one_ratio:.2f}", "", None)]


if __name__ == "__main__":
    sys.exit(0 if print_rows(measure_typecheck("--smoke" in sys.argv)) else 1)
