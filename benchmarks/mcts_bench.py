#!/usr/bin/env python3
"""How strong `mcts` is (`bench.py --only mcts`): seeded matches against `heuristic`, the win rate of the
mcts seat with its 95% Wilson interval, and the search's seconds per decision.

    python benchmarks/mcts_bench.py                         # the three matches of docs/agents.md
    python benchmarks/mcts_bench.py --smoke                 # tiny: it runs
    python benchmarks/mcts_bench.py --match rtta --games 40 --agent "mcts(iterations=100)"

Game `i` of a match is played with seed `first + i`, the mcts agent in seat `i mod players` (every seat in
turn, so the seat's own advantage cancels out) and `heuristic` in the others. The mcts seat wins a game
when it is first by the ruleset's ranking (its winner condition, then its rank keys: the order `civdsl
play` prints); a shared first place counts as a win, as the balance lab counts it. A match may stop its
games at a round cap (`max_rounds`); the ranking then decides on what the players have.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from civdsl.api import load_program  # noqa: E402
from civdsl.engine.agents import make_agents  # noqa: E402
from civdsl.engine.interpreter import Game  # noqa: E402
from civdsl.engine.search import MctsAgent  # noqa: E402
from civdsl.engine.search.mcts import SEARCH_DEFAULTS  # noqa: E402
from civdsl.language.agentspec import parse_agent  # noqa: E402
from civdsl.tools.lab.intervals import wilson  # noqa: E402

# name: (edition, players, mcts spec, games, max_rounds) — the figures of docs/agents.md (the search's
# defaults: prior=1, paired=yes, reward=margin)
MATCHES = {
    "rtta": ("roll-through-the-ages", 2, "mcts(iterations=60)", 200, None),
    "ws": ("warp-spawn-solitaire", 2, "mcts(iterations=12, horizon=2)", 40, None),
    "ah": ("avalon-hill-1981", 3, "mcts(iterations=8, horizon=1)", 12, 8),
}
SMOKE = {name: (ed, n, "mcts(iterations=2, horizon=1)", n, 2) for name, (ed, n, *_rest) in MATCHES.items()}
_programs: dict = {}


class Timed(MctsAgent):
    """The mcts agent, timing its searches."""

    def choose(self, decision):
        start = time.perf_counter()
        answer = super().choose(decision)
        if self.last.get("searched"):
            self.times.append(time.perf_counter() - start)
        return answer


def split_spec(spec: str) -> tuple[str, dict]:
    """`mcts(iterations=60, prior=1)` → (`mcts(iterations=60)`, {"prior": 1.0}): the options of the search
    that `agentspec` does not know yet (`SEARCH_DEFAULTS`) taken out, for the agent's Python API."""
    head, _, rest = spec.partition("(")
    kept, extra = [], {}
    for part in filter(None, (p.strip() for p in rest.rstrip(")").split(","))):
        key, _, value = (x.strip() for x in part.partition("="))
        if key in SEARCH_DEFAULTS:
            extra[key] = value if isinstance(SEARCH_DEFAULTS[key], str) else float(value)
        else:
            kept.append(part)
    return (f"{head}({', '.join(kept)})" if kept else head), extra


def play_one(job: tuple) -> dict:
    """One game of a match: where the mcts seat placed, and the seconds of its searches."""
    edition, players, spec, seed, rounds = job
    program = _programs.get(edition) or _programs.setdefault(edition, load_program(edition))
    seat = seed % players
    names = ["heuristic"] * players
    names[seat], extra = split_spec(spec)
    agents = make_agents(names, players, seed)
    mine = agents[seat]
    if extra:
        mine = MctsAgent(seed, seat + 1, dict(parse_agent(names[seat]).options) | extra, spec)
    timed = Timed.__new__(Timed)
    timed.__dict__.update(mine.__dict__)
    timed.times = []
    agents[seat] = timed
    start = time.perf_counter()
    result = Game(program, players, seed, agents, logging=False, max_rounds=rounds).run()
    top = result.ranking[0]
    first = [r["seat"] - 1 for r in result.ranking
             if r["winner_condition"] == top["winner_condition"] and r["keys"] == top["keys"]]
    return {"seed": seed, "seat": seat, "win": seat in first, "shared": len(first) > 1 and seat in first,
            "rounds": result.rounds, "reason": result.reason, "times": timed.times,
            "seconds": time.perf_counter() - start}


def run_match(name: str, spec: str | None = None, games: int | None = None, first: int = 1, jobs: int = 2,
              smoke: bool = False, progress=None) -> dict:
    edition, players, default_spec, default_games, rounds = (SMOKE if smoke else MATCHES)[name]
    spec, games = spec or default_spec, games or default_games
    jobs_list = [(edition, players, spec, seed, rounds) for seed in range(first, first + games)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(play_one, jobs_list))
    else:
        rows = []
        for j in jobs_list:
            rows.append(play_one(j))
            if progress:
                r = rows[-1]
                progress(f"game {len(rows)} (seed {r['seed']}, seat {r['seat'] + 1}): {'won' if r['win'] else 'lost'}; "
                         f"{sum(x['win'] for x in rows)}/{len(rows)} so far, {statistics.median(r['times'] or [0]):.3f} "
                         f"s median decision, {r['seconds']:.0f} s")
    wins = sum(r["win"] for r in rows)
    low, high = wilson(wins, len(rows))
    times = [t for r in rows for t in r["times"]]
    return {"match": name, "edition": edition, "players": players, "agent": spec, "games": len(rows),
            "max_rounds": rounds, "wins": wins, "shared": sum(r["shared"] for r in rows),
            "rate": wins / len(rows),
            "low": low, "high": high, "fair": 1 / players, "decision_s": statistics.mean(times) if times else 0.0,
            "decision_median_s": statistics.median(times) if times else 0.0,
            "decision_max_s": max(times) if times else 0.0, "decisions": len(times),
            "cpu_s": sum(r["seconds"] for r in rows), "wall_s": time.perf_counter() - start}


def row_text(m: dict) -> str:
    cap = f", {m['max_rounds']} rounds" if m["max_rounds"] else ""
    return (f"{m['match']}: {m['edition']} {m['players']}p{cap}, {m['agent']} vs heuristic: "
            f"{m['wins']}/{m['games']} = {m['rate']:.0%} [{m['low']:.0%}, {m['high']:.0%}] (fair share "
            f"{m['fair']:.0%}; {m['shared']} shared), {m['decision_s']:.3f} s/decision "
            f"(median {m['decision_median_s']:.3f}, max {m['decision_max_s']:.2f}), {m['cpu_s']:.0f} s of games")


def measure_mcts(smoke: bool) -> list[tuple]:
    """The rows `bench.py` prints: the win rate of each match (and its interval) against its target."""
    rows = []
    for name in MATCHES:
        m = run_match(name, smoke=smoke, jobs=1 if smoke else 2)
        target = ">= 60%" if name == "rtta" else f">= {m['fair']:.0%}"
        goal = 0.6 if name == "rtta" else m["fair"]
        rows.append((f"{m['edition']} {m['players']}p, {m['agent']} vs heuristic ({m['games']} games)",
                     f"{m['rate']:.0%} [{m['low']:.0%}, {m['high']:.0%}]", target,
                     None if smoke else m["rate"] >= goal))
        rows.append((f"  seconds per decision ({m['decisions']} searches)", f"{m['decision_s']:.3f} s",
                     "<= 0.5 s", None if smoke else m["decision_s"] <= 0.5))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes: it runs, figures not meaningful")
    ap.add_argument("--match", action="append", choices=sorted(MATCHES), help="play only this match (repeatable)")
    ap.add_argument("--games", type=int, help="games per match (default: the match's)")
    ap.add_argument("--first", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--agent", help="the mcts spec (default: the match's)")
    ap.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--progress", action="store_true", help="a line per game on standard error (with --jobs 1)")
    args = ap.parse_args(argv)
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if args.progress else None
    for name in args.match or list(MATCHES):
        m = run_match(name, args.agent, args.games, args.first, args.jobs, args.smoke, say)
        print(row_text(m), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
