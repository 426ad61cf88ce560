#!/usr/bin/env python3
"""What the type checker adds to `civdsl check rulesets/`: the check with and without it, in the same run.

    python benchmarks/typecheck_bench.py            # 5 alternating pairs of runs (about a minute)
    python benchmarks/typecheck_bench.py --smoke    # one pair: it runs

Both runs of a pair check every shipped edition, its options and its variants in-process, with the parse
cache and the compiler's caches warm (a first run, not timed, warms them); the type checker's own memory
of earlier checks is cleared before each run with it, so it starts from nothing as `civdsl check` does,
and the garbage of the run before is collected before the clock starts (it is not charged to the next run).
The figure is the median ratio of the pairs. Target: type checking adds at most 20% (ratio <= 1.20).
"""
from __future__ import annotations

import gc
import statistics
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


def _timed(types: bool) -> float:
    typecheck.clear_caches()
    gc.collect()  # (the garbage of the run before is not charged to this one)
    start = time.perf_counter()
    found, _ = check_paths([str(ROOT / "rulesets")], types)
    took = time.perf_counter() - start
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise SystemExit(f"the shipped rulesets do not check: {errors[0].headline()}")
    return took


def measure_typecheck(smoke: bool) -> list[tuple]:
    pairs = 1 if smoke else 5
    _timed(True)  # warm: parse cache, compiled rules
    without, with_types, ratios = [], [], []
    for i in range(pairs):
        order = (False, True) if i % 2 == 0 else (True, False)  # (alternate: drift in the machine's load)
        got = {flag: _timed(flag) for flag in order}
        without.append(got[False])
        with_types.append(got[True])
        ratios.append(got[True] / got[False])
    ratio = statistics.median(ratios)
    return [("check rulesets/ without type checking", f"{statistics.median(without):.2f} s", "", None),
            ("check rulesets/ with type checking", f"{statistics.median(with_types):.2f} s", "", None),
            ("check with / without type checking", f"{ratio:.2f}", f"<= {TARGET:.2f}",
             None if smoke else ratio <= TARGET)]


if __name__ == "__main__":
    sys.exit(0 if print_rows(measure_typecheck("--smoke" in sys.argv)) else 1)
