"""`civdsl simulate`: the games of a config not yet in the results file, played and stored as they
finish. Stored in batches (at least every two seconds), so Ctrl-C or a crash loses at most the games
of the last two seconds, which the next `simulate` plays again: no game lost, none counted twice."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from ... import __version__
from ...language.config import GameConfig
from .runner import RunSpec, config_hash, play_run, start_ray
from .store import Store

FLUSH_SECONDS = 2.0


@dataclass
class Outcome:
    """What a `simulate` did."""

    run_id: str
    edition: str
    requested: int
    already: int = 0
    played: int = 0
    failed: list[dict] = field(default_factory=list)  # the failed games' rows
    seconds: float = 0.0
    interrupted: bool = False
    startup: float = 0.0  # seconds to start the backend (Ray), not counted in `seconds`


def prepare(cfg: GameConfig):
    """Check the config by making its first game (a config error stops here, before any game is played);
    the spec, the resolved number of players and the ruleset's hash."""
    from ...api import load_program, new_game
    program = load_program(cfg.edition, cfg.options, cfg.house_rules)
    game = new_game(cfg, program, logging=False)
    spec = RunSpec.of(cfg)
    return spec, len(game.state.players), program.ruleset.digest(), program.ruleset.edition()


def simulate(cfg: GameConfig, config_path: str | None, games: int, out: str | Store, jobs: int,
             backend: str = "local", address: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Play seeds `cfg.seed` .. `cfg.seed + games - 1` of the config, skipping those stored already, into
    the results file `out` (a path, opened once the config is known to be good, or an open `Store`)."""
    spec, players, ruleset_hash, edition = prepare(cfg)
    if isinstance(out, Store):
        return _simulate(spec, players, ruleset_hash, edition, cfg.seed, config_path, games, out, jobs, backend,
                         address, progress)
    store = Store(out)
    try:
        return _simulate(spec, players, ruleset_hash, edition, cfg.seed, config_path, games, store, jobs, backend,
                         address, progress)
    finally:
        store.close()


def _simulate(spec: RunSpec, players: int, ruleset_hash: str, edition: str, first: int, config_path: str | None,
              games: int, store: Store, jobs: int, backend: str, address: str | None,
              progress: Callable[[int, int], None] | None) -> Outcome:
    run_id = config_hash(spec, ruleset_hash, players)
    store.add_run(run_id, config_path, edition, ruleset_hash, players, spec.describe(), __version__)
    wanted = range(first, first + games)
    stored = store.stored_seeds(run_id)
    seeds = [s for s in wanted if s not in stored]
    out = Outcome(run_id, edition, games, already=games - len(seeds))
    if backend == "ray" and seeds:
        started = time.perf_counter()
        start_ray(jobs, address)
        out.startup = time.perf_counter() - started
    start, last, buffer = time.perf_counter(), time.perf_counter(), []
    try:
        for rows in play_run(spec, seeds, jobs, backend, address):
            buffer.append(rows)
            if rows["game"]["error_code"]:
                out.failed.append(rows["game"])
            if time.perf_counter() - last >= FLUSH_SECONDS:
                store.add_games(run_id, buffer)
                out.played += len(buffer)
                buffer, last = [], time.perf_counter()
            if progress:
                progress(out.played + len(buffer), len(seeds))
    except KeyboardInterrupt:
        out.interrupted = True
    finally:
        store.add_games(run_id, buffer)
        out.played += len(buffer)
        out.seconds = time.perf_counter() - start
    return out
