"""What measuring rule coverage costs (`civdsl test --coverage`): the same work with recording on and
off, in one process, runs alternating; the median ratio is the figure (machines are noisy)."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.tools.coverage import recorder
from civdsl.tools.scenario import run_paths

ROOT = Path(__file__).resolve().parent.parent


def _games(seeds: range) -> float:
    program = load_program("roll-through-the-ages")
    start = time.perf_counter()
    for seed in seeds:
        Game(program, 1, seed, make_agents(["random"], 1, seed), logging=False).run()
    return time.perf_counter() - start


def _scenarios(paths: list[str]) -> float:
    start = time.perf_counter()
    run_paths(paths)
    return time.perf_counter() - start


def _ratio(work, runs: int) -> tuple[float, float, float]:
    """(median seconds off, median seconds on, median of on/off), each run warmed once first."""
    off, on = [], []
    for _ in range(runs + 1):
        off.append(work())
        recorder.start()
        try:
            on.append(work())
        finally:
            recorder.stop()
    off, on = off[1:], on[1:]  # (the first of each compiled the rules)
    return statistics.median(off), statistics.median(on), statistics.median(b / a for a, b in zip(off, on))


def measure_coverage(smoke: bool) -> list[tuple]:
    games, runs = (10, 2) if smoke else (200, 5)
    off, on, ratio = _ratio(lambda: _games(range(1, games + 1)), runs)
    paths = ["rulesets/roll-through-the-ages/scenarios"] if smoke else ["rulesets"]
    s_off, s_on, s_ratio = _ratio(lambda: _scenarios([str(ROOT / p) for p in paths]), 1 if smoke else 3)
    return [(f"RTTA solitaire, {games} random games, coverage off", f"{games / off:,.0f} games/s", "", None),
            ("RTTA solitaire, coverage on / off (time)", f"{ratio:.2f}", "<= 1.5", None if smoke else ratio <= 1.5),
            (f"scenarios of {', '.join(paths)}/, coverage off", f"{s_off:.2f} s", "", None),
            ("the same scenarios, coverage on / off (time)", f"{s_ratio:.2f}", "<= 1.5",
             None if smoke else s_ratio <= 1.5)]
