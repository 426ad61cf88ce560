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
from ..compiler.units import COVERAGE
from ..engine.agents import make_agents
from ..engine.interpreter import Game
from ..engine.program import Program
from ..language.config import GameConfig
from ..language.diagnostics import CivError, Diagnostic
from ..language.editions import ENTRY_FILE, list_editions


def game_seeds(root: int, n: int) -> list[int]:
    rng = random.Random(f"simulate:{root}")
    return [rng.randrange(2**31) for _ in range(n)]


def simulate(entry: Path, n: int, root_seed: int, log_dir: Path | None = None,
             jobs: int | None = None, options: list[str] | None = None) -> tuple[list[Diagnostic], int, str]:
    """Play n games of the edition at `entry` with `options` switched on (in parallel processes); return
    the diagnostics of failed games, how many ended cleanly, and the edition's name."""
    options = tuple(options or ())
    program = compile_entry(entry, list(options))
    counts = allowed_players(program.ruleset) or [1]
    jobs_list = [(str(entry), counts[i % len(counts)], seed, options)
                 for i, seed in enumerate(game_seeds(root_seed, n))]
    workers = max(1, min(jobs or os.cpu_count() or 1, len(jobs_list)))
    play = _play_covered if COVERAGE.on else _play_one  # (rule coverage: see `tools.coverage`)
    if workers == 1:
        outcomes = [play(job) for job in jobs_list]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            outcomes = list(pool.map(play, jobs_list, chunksize=4))
    if play is _play_covered:
        outcomes = [_covered(outcome) for outcome in outcomes]
    edition = program.ruleset.edition()
    target = _play_target(entry, edition)
    groups: dict[tuple, list] = {}  # failures alike (the same code at the same place), in seed order
    for (_, players, seed, _options), failure in zip(jobs_list, outcomes):
        if failure is not None:
            d = failure[0]
            key = (d.code, d.span.file, d.span.line, d.span.col) if d.span is not None else (d.code, d.message)
            groups.setdefault(key, []).append((players, seed, *failure))
    target += "".join(f" --option {o}" for o in options)
    diags = [_group_diagnostic(edition, target, n, members, program, log_dir) for members in groups.values()]
    return diags, n - sum(len(members) for members in groups.values()), edition


def _play_target(entry: Path, edition: str) -> str:
    """How `civdsl play --edition` names the entry: a shipped edition by its name, any other edition by
    its folder, an overlay by its file."""
    if entry.name != ENTRY_FILE:
        return str(entry)
    if list_editions().get(edition) == entry.resolve():
        return edition
    return str(entry.parent)


MAX_LOGS = 3    # replay logs written per group of alike failures
MAX_SEEDS = 5   # seeds named per group


def _group_diagnostic(edition: str, target: str, n: int, members: list, program: Program,
                      log_dir: Path | None) -> Diagnostic:
    """One SIM001 for failures alike: the first game's failure, how many failed so, their first seeds,
    and replay logs of the first few."""
    players, seed, d, rnd, phase = members[0]
    logs = [] if log_dir is None else [_write_failure_log(program, p, s, log_dir) for p, s, *_ in members[:MAX_LOGS]]
    if len(members) == 1:
        head = f"{edition}: game with {players} player(s), seed {seed}, failed in round {rnd}, phase `{phase}`"
    else:
        seeds = ", ".join(str(m[1]) for m in members[:MAX_SEEDS])
        more = f" and {len(members) - MAX_SEEDS} more" if len(members) > MAX_SEEDS else ""
        head = (f"{edition}: {len(members)} of {n} games failed alike (seeds {seeds}{more}); the first, with "
                f"{players} player(s), seed {seed}, in round {rnd}, phase `{phase}`")
    where = f"; replay log{'s' if len(logs) > 1 else ''}: {', '.join(logs)}" if logs else ""
    return Diagnostic("SIM001", f"{head}: [{d.code}] {d.message}", d.span, "error",
                      f"reproduce with `civdsl play --edition {target} --players {players} --seed {seed}`{where}")


_PROGRAMS: dict[tuple[str, tuple, bool], Program] = {}


def _play_one(job: tuple[str, int, int, tuple]):
    """One simulated game in a worker; None when it ended cleanly, else (diagnostic, round, phase)."""
    entry, players, seed, options = job
    key = (entry, options, COVERAGE.on)  # (rules instrumented for coverage, or not)
    program = _PROGRAMS.get(key)
    if program is None:
        program = _PROGRAMS[key] = compile_entry(Path(entry), list(options))
    game = Game(program, players, seed, make_agents(["random"], players, seed), logging=False,
                check_invariants=True)
    try:
        game.run()
        return None
    except CivError as exc:
        return exc.diagnostics[0], game.state.round, game.state.phase


def _play_covered(job: tuple[str, int, int, tuple]):
    """`_play_one` while rule coverage is measured: (its outcome, the sites it ran and the rule files
    compiled), for the parent process to merge (a worker started afresh, not forked, starts recording)."""
    COVERAGE.on = True
    outcome = _play_one(job)
    ran = (set(COVERAGE.hits), set(COVERAGE.files))
    COVERAGE.hits.clear()
    COVERAGE.files.clear()
    return outcome, ran


def _covered(result):
    outcome, (hits, files) = result
    COVERAGE.hits.update(hits)
    COVERAGE.files.update(files)
    return outcome


def _write_failure_log(program: Program, players: int, seed: int, log_dir: Path) -> str:
    from .gamelog import write_log
    cfg = GameConfig(edition=program.ruleset.entry, players=players, seed=seed, agents=["random"] * players,
                     options=list(program.ruleset.selected))
    game = Game(program, players, seed, make_agents(["random"], players, seed), check_invariants=True)
    try:
        game.run()
    except CivError:
        pass
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / f"failure-{program.ruleset.edition()}-{players}p-seed{seed}.jsonl"
    write_log(str(path), game, cfg)
    return str(path)
