"""The balance lab's targets (`bench.py --only lab`): 1,000 two-player RTTA games simulated and stored,
how `--jobs 2` and a local Ray instance scale against one process, what storing costs, and an
estimate of 1,000 five-player Avalon Hill heuristic games."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from civdsl.language.config import GameConfig
from civdsl.tools.lab import simulation, store


def _timed_run(cfg: GameConfig, games: int, jobs: int, backend: str = "local") -> tuple[float, float, float]:
    """(games/s, seconds spent storing, wall seconds) of one `simulate` into a fresh results file."""
    spent = [0.0]
    add = store.Store.add_games

    def timed(self, run_id, rows):
        start = time.perf_counter()
        add(self, run_id, rows)
        spent[0] += time.perf_counter() - start
    store.Store.add_games = timed
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = simulation.simulate(cfg, None, games, str(Path(tmp) / "r.duckdb"), jobs, backend)
    finally:
        store.Store.add_games = add
    return out.played / out.seconds, spent[0], out.seconds


def measure_lab(smoke: bool) -> list[tuple]:
    n = 100 if smoke else 1000
    rtta = GameConfig(edition="roll-through-the-ages", players=2, seed=1)
    one, _, _ = _timed_run(rtta, n, 1)
    two, storing, wall = _timed_run(rtta, n, 2)
    rows = [(f"simulate {n:,} RTTA 2-player games, --jobs 2, stored", f"{wall:.1f} s", "<= 10 s",
             None if smoke else wall <= 10),
            ("  --jobs 2 / --jobs 1", f"{two / one:.2f}x", ">= 1.8x", None if smoke else two / one >= 1.8),
            ("  storing the results / the whole run", f"{100 * storing / wall:.1f} %", "<= 5 %",
             None if smoke else storing / wall <= 0.05)]
    if smoke:
        return rows
    ray_rate, _, _ = _timed_run(rtta, n, 2, "ray")
    rows.append(("  Ray (local, 2 CPUs, start-up not counted) / process pool", f"{ray_rate / two:.2f}",
                 ">= 0.8", ray_rate / two >= 0.8))
    ah = GameConfig(edition="avalon-hill-1981", players=5, agents=["heuristic"], seed=1)
    rate, _, _ = _timed_run(ah, 10, 2)
    minutes = 1000 / rate / 60
    rows.append(("1,000 Avalon Hill 5-player heuristic games, --jobs 2 (from 10)", f"{minutes:.0f} min",
                 "<= 20 min", minutes <= 20))
    return rows
