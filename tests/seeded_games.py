"""Seeded whole games for the edition tests: one game's failure as a line, and many games on all cores."""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError


def failure_of(program, players: int, seed: int, agents: list[str], rounds: int) -> str | None:
    """Play one game with invariant checks to `rounds`; None when it ended cleanly (the round cap, or a
    winner), else what went wrong."""
    game = Game(program, players, seed, make_agents(agents, players, seed), logging=False,
                check_invariants=True, max_rounds=rounds)
    try:
        result = game.run()
    except CivError as exc:
        return f"{players} players, seed {seed}: {exc.diagnostics[0].headline()}"
    if result.rounds != rounds and not result.winners:
        return f"{players} players, seed {seed}: ended after {result.rounds} rounds without a winner"
    return None


def failures(play, jobs: list) -> list[str]:
    """`play(job)` for every job, on all cores (`play` must be a module-level function)."""
    workers = min(len(jobs), os.cpu_count() or 1)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [f for f in pool.map(play, jobs, chunksize=2) if f]
