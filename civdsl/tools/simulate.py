"""The simulation tier of `civdsl check`: play seeded games with random agents and report any runtime
error or broken invariant, with the seed and a replay log that reproduces it.

Per-game seeds come from one root seed through `random.Random(root)`, so a batch is reproducible and
games do not share streams. Invariants declared in the ruleset are checked after every phase.
"""
from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..api import allowed_players, compile_entry
from ..engine.agents import make_agents
from ..engine.interpreter import Game
from ..engine.program import Program
from ..language.config import GameConfig
from ..language.diagnostics import CivError, Diagnostic


def game_seeds(root: int, n: int) -> list[int]:
    rng = random.Random(f"simulate:{root}")
    return [rng.randrange(2**31) for _ in range(n)]


def simulate(entry: Path, n: int, root_seed: int, log_dir: Path | None = None,
             jobs: int | None = None) -> tuple[list[Diagnostic], int, str]:
    """Play n games of the edition at `entry` (in parallel processes); return the diagnostics of failed
    games, how many ended cleanly, and the edition's name."""
    program = compile_entry(entry)
    counts = allowed_players(program.ruleset) or [1]
    jobs_list = [(str(entry), counts[i % len(counts)], seed) for i, seed in enumerate(game_seeds(root_seed, n))]
    workers = max(1, min(jobs or os.cpu_count() or 1, len(jobs_list)))
    if workers == 1:
        outcomes = [_play_one(job) for job in jobs_list]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(_play_one, jobs_list, chunksize=4))
    edition = program.ruleset.edition()
    target = edition if entry.name == "game.civ" else str(entry)  # an overlay plays as its own entry
    diags: list[Diagnostic] = []
    for (entry_s, players, seed), failure in zip(jobs_list, outcomes):
        if failure is None:
            continue
        d, rnd, phase = failure
        where = _write_failure_log(program, players, seed, log_dir) if log_dir is not None else ""
        diags.append(Diagnostic("SIM001", f"{edition}: game with {players} player(s), seed {seed}, failed in "
                                f"round {rnd}, phase `{phase}`: [{d.code}] {d.message}", d.span, "error",
                                f"reproduce with `civdsl play --edition {target} --players {players} "
                                f"--seed {seed}`" + (f"; replay log: {where}" if where else "")))
    return diags, n - len(diags), edition


_PROGRAMS: dict[str, Program] = {}


def _play_one(job: tuple[str, int, int]):
    """One simulated game in a worker; None when it ended cleanly, else (diagnostic, round, phase)."""
    entry, players, seed = job
    program = _PROGRAMS.get(entry)
    if program is None:
        program = _PROGRAMS[entry] = compile_entry(Path(entry))
    game = Game(program, players, seed, make_agents(["random"], players, seed), logging=False,
                check_invariants=True)
    try:
        game.run()
        return None
    except CivError as exc:
        return exc.diagnostics[0], game.state.round, game.state.phase


def _write_failure_log(program: Program, players: int, seed: int, log_dir: Path) -> str:
    from .gamelog import write_log
    cfg = GameConfig(edition=program.ruleset.entry, players=players, seed=seed, agents=["random"] * players)
    game = Game(program, players, seed, make_agents(["random"], players, seed), check_invariants=True)
    try:
        game.run()
    except CivError:
        pass
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / f"failure-{program.ruleset.edition()}-{players}p-seed{seed}.jsonl"
    write_log(str(path), game, cfg)
    return str(path)
