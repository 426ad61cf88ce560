"""Play the games of a run: game `i` of a run is the config played with seed `first + i`, whoever plays
it (`--jobs 1`, a pool of processes, a Ray cluster), so every backend stores the same rows.

A worker loads the program once and plays each seed it is given with logging off; a game that fails
(a rule error, a budget exceeded) becomes a row with its diagnostic, never an exception. The pool is
rebuilt when a worker dies (killed, out of memory), and the games it had not returned are played
again; a seed whose worker dies twice is recorded as failed.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from ...language.config import GameConfig
from ...language.diagnostics import CivError, error
from .store import encode

WORKER_DIED = "LAB001"  # the code of a game whose worker process died twice


@dataclass(frozen=True)
class RunSpec:
    """What a run plays: everything of a config but its seed (plain data, sent to every worker)."""

    edition: str
    players: int | None = None
    agents: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    house_rules: tuple[str, ...] = ()
    max_rounds: int | None = None
    choices: dict = field(default_factory=dict)

    @classmethod
    def of(cls, cfg: GameConfig) -> "RunSpec":
        return cls(cfg.edition, cfg.players, tuple(cfg.agents), tuple(cfg.options), tuple(cfg.house_rules),
                   cfg.max_rounds, dict(cfg.choices or {}))

    def config(self, seed: int) -> GameConfig:
        return GameConfig(edition=self.edition, players=self.players, seed=seed, agents=list(self.agents),
                          options=list(self.options), house_rules=list(self.house_rules),
                          max_rounds=self.max_rounds, choices=dict(self.choices))

    def describe(self) -> dict:
        """The spec as JSON data: what `config_hash` hashes and the database keeps."""
        return {"edition": self.edition, "players": self.players, "agents": list(self.agents),
                "options": list(self.options), "house_rules": list(self.house_rules),
                "max_rounds": self.max_rounds, "choices": self.choices}


def config_hash(spec: RunSpec, ruleset_hash: str, players: int) -> str:
    """The run's key: the config (with the number of players it resolves to) and the rules' hash, so a
    changed rule file starts a new run instead of mixing its games with the old rules' games."""
    data = spec.describe() | {"players": players, "ruleset_hash": ruleset_hash}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# ---- one game -------------------------------------------------------------------------------------------

_program_cache: dict = {}


def _program(spec: RunSpec):
    from ...api import load_program
    key = (spec.edition, spec.options, spec.house_rules)
    if key not in _program_cache:
        _program_cache.clear()
        _program_cache[key] = load_program(spec.edition, list(spec.options), list(spec.house_rules))
    return _program_cache[key]


def play_one(spec: RunSpec, seed: int) -> dict:
    """One game as rows: {"game": {...}, "players": [...], "measures": [...]} (see `lab`)."""
    from ...api import new_game
    start = time.perf_counter()
    game = None
    try:
        game = new_game(spec.config(seed), _program(spec), logging=False)
        result = game.run()
    except CivError as exc:
        d = exc.diagnostics[0]
        where = f"{d.span.file}:{d.span.line}" if d.span else None
        return failed_game(seed, d.code, d.message, where, time.perf_counter() - start,
                           game.rs.digest() if game is not None else None)
    wall = time.perf_counter() - start
    agents = {p.name: p.agent for p in game.state.players}
    players = [{"seat": row["seat"], "player": row["player"], "label": _text(result.labels.get(row["player"])),
                "agent": agents.get(row["player"]), "place": row["place"], "score": _number(row.get("score")),
                "winner": row["player"] in result.winners, "breakdown": row.get("breakdown", {})}
               for row in result.ranking]
    measures = [{"seq": i, "round": m["round"], "name": m["name"], "player": _text(m["fields"].get("player")),
                 "value": _number(m["fields"].get("value")), "fields": m["fields"]}
                for i, m in enumerate(game.measures)]
    row = {"seed": seed, "ruleset_hash": game.rs.digest(), "players": len(game.state.players),
           "rounds": result.rounds, "end_reason": result.reason, "winners": list(result.winners),
           "wall_time": wall, "error_code": None, "error_message": None, "error_rule": None}
    return {"game": row, "players": players, "measures": measures}


def failed_game(seed: int, code: str, message: str, where: str | None, wall: float = 0.0,
                ruleset_hash: str | None = None) -> dict:
    return {"game": {"seed": seed, "ruleset_hash": ruleset_hash, "players": None, "rounds": None,
                     "end_reason": None, "winners": [], "wall_time": wall, "error_code": code,
                     "error_message": message, "error_rule": where}, "players": [], "measures": []}


def _text(v) -> str | None:
    return None if v is None else str(v)


def _number(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def play_many(spec: RunSpec, seeds: list[int]) -> list[dict]:
    """A batch of games in this process, encoded for the results file (what a pool worker or a Ray task
    runs, and what one process runs game by game)."""
    return [encode(play_one(spec, s)) for s in seeds]


# ---- backends -------------------------------------------------------------------------------------------

def batches(seeds: list[int], size: int) -> list[list[int]]:
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def batch_size(games: int, jobs: int) -> int:
    """Games a task: enough that sending a task costs little, few enough that every worker keeps busy
    to the end and the progress bar moves (about eight tasks a worker, 4 to 64 games each)."""
    return max(4, min(64, games // (jobs * 8) or 1))


def run_local(spec: RunSpec, seeds: list[int], jobs: int, batch: int | None = None) -> Iterator[dict]:
    """Yield each game's rows as it finishes, over `jobs` processes (in this process when 1). At most
    one batch a worker is in flight, so when a worker dies the suspects are the batches in flight: they
    are played again one game a process, which tells the game that kills its worker from the others."""
    if jobs <= 1:
        for s in seeds:
            yield from play_many(spec, [s])
        return
    queue = batches(seeds, batch or batch_size(len(seeds), jobs))
    while queue:
        running: dict = {}
        try:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                while queue or running:
                    while queue and len(running) < jobs:
                        b = queue.pop(0)
                        running[pool.submit(play_many, spec, b)] = b
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for f in finished:
                        rows = f.result()  # BrokenProcessPool when a worker died
                        del running[f]
                        yield from rows
        except BrokenProcessPool:
            yield from _one_by_one(spec, [s for b in running.values() for s in b])


def _one_by_one(spec: RunSpec, seeds: list[int], lives: int = 2) -> Iterator[dict]:
    """Each game in a worker of its own (reused while it lives): a game whose worker dies `lives` times
    is recorded as failed (`WORKER_DIED`)."""
    pool = ProcessPoolExecutor(max_workers=1)
    try:
        for s in seeds:
            for attempt in range(lives):
                try:
                    yield pool.submit(play_many, spec, [s]).result()[0]
                    break
                except BrokenProcessPool:
                    pool.shutdown(wait=False)
                    pool = ProcessPoolExecutor(max_workers=1)
            else:
                died = f"the worker process playing this game died {lives} times (killed, or out of memory)"
                yield encode(failed_game(s, WORKER_DIED, died, None))
    finally:
        pool.shutdown(wait=False)


def start_ray(jobs: int, address: str | None) -> None:
    """Join the Ray cluster at `address`, or start a local Ray instance of `jobs` CPUs (once)."""
    import logging

    import ray
    if ray.is_initialized():
        return
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    _uncap_memory()  # Ray's own processes reserve more address space than the CLI's cap allows
    try:
        if address:
            ray.init(address=address, **quiet)
        else:  # on this machine only: no other host needs to reach it
            ray.init(num_cpus=jobs, _node_ip_address="127.0.0.1", **quiet)
    except Exception as exc:  # Ray reports a failed start with plain exceptions
        raise error("LAB003", f"Ray did not start: {str(exc).strip().splitlines()[0]}", None,
                    "check the address (`ray status` on the cluster), or use --backend local") from None


def run_ray(spec: RunSpec, seeds: list[int], jobs: int, address: str | None) -> Iterator[dict]:
    """Yield each game's rows as it finishes, over Ray tasks (retried when a worker dies)."""
    import ray
    start_ray(jobs, address)
    task = ray.remote(max_retries=2)(play_many)
    spec_ref = ray.put(spec)
    pending = [task.remote(spec_ref, b) for b in batches(seeds, batch_size(len(seeds), jobs))]
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        for rows in ray.get(finished[0]):
            yield rows


def _uncap_memory() -> None:
    """Lift this process's address-space cap (`--memory-limit`) for the processes it starts: Ray's
    servers map gigabytes they never use. Each game stays bounded by its work and value budgets."""
    try:
        import resource
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def play_run(spec: RunSpec, seeds: list[int], jobs: int, backend: str = "local",
             address: str | None = None) -> Iterable[dict]:
    if backend == "ray":
        return run_ray(spec, seeds, jobs, address)
    return run_local(spec, seeds, jobs)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

