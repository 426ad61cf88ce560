#!/usr/bin/env python3
"""Speed benchmark of civdsl: how long an edition takes to load, and how fast it plays.

For every edition under `rulesets/` (each folder with a `game.civ`; the test ruleset
`tests/data/rulesets/tiny` when there is none) this reports:

* **load** — parse + load + compile time of the edition (`civdsl.api.load_program`), median of
  `--runs` runs, with the Lark parser already built and its cache warm, so the figure is the cost of
  the rule files, not of building the grammar;
* **games/s** — games per second with random agents, logging off, seeds 1..`--games`, for the
  smallest player count the edition allows and also for 3 players when it allows 3; median of
  `--runs` runs. The compiled program is reused across games, as a long series of games would.

`--players N` measures that player count instead, `--agents NAME` plays with that agent (e.g. the
`heuristic` agent, to time whole games to a winner); the table also gives seconds per game.

Usage: `python benchmarks/bench.py [--runs N] [--games N] [--edition PATH ...] [--players N] [--agents NAME]`.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a source checkout without installing
    sys.path.insert(0, str(ROOT))

from civdsl.api import allowed_players, load_program  # noqa: E402
from civdsl.engine.agents import make_agents  # noqa: E402
from civdsl.engine.interpreter import Game  # noqa: E402
from civdsl.language.diagnostics import CivError  # noqa: E402
from civdsl.language.parser import lark_parser  # noqa: E402

FALLBACK = ROOT / "tests" / "data" / "rulesets" / "tiny"


def editions(explicit: list[str] | None) -> list[Path]:
    """Edition folders to measure: the ones given, else every `rulesets/*/game.civ`, else `tiny`."""
    if explicit:
        return [Path(e).resolve() for e in explicit]
    found = sorted(p.parent for p in (ROOT / "rulesets").glob("*/game.civ"))
    return found or [FALLBACK]


def time_load(edition: Path, runs: int) -> float:
    """Median seconds to parse, load and compile the edition."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        load_program(str(edition))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def play_games(program, players: int, games: int, agent: str = "random") -> tuple[float, int]:
    """Seconds to play seeds 1..games, and the total number of rounds played."""
    rounds = 0
    start = time.perf_counter()
    for seed in range(1, games + 1):
        agents = make_agents([agent], players, seed)
        result = Game(program, players, seed, agents, logging=False).run()
        rounds += result.rounds
    return time.perf_counter() - start, rounds


def player_counts(program, wanted: int | None = None) -> list[int]:
    allowed = allowed_players(program.ruleset) or [1]
    if wanted is not None:
        return [wanted] if wanted in allowed else []
    counts = [min(allowed)]
    if 3 in allowed and 3 not in counts:
        counts.append(3)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark civdsl: edition load time and games per second.")
    ap.add_argument("--runs", type=int, default=5, help="repetitions; the median is reported (default 5)")
    ap.add_argument("--games", type=int, default=50, help="games per run, seeds 1..N (default 50)")
    ap.add_argument("--edition", action="append", metavar="PATH",
                    help="an edition folder to measure instead of every one under rulesets/ (repeatable)")
    ap.add_argument("--players", type=int, help="measure this player count only (editions that allow it)")
    ap.add_argument("--agents", default="random", help="agent for every seat (default random)")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        ap.error("--runs and --games must be at least 1")

    lark_parser()  # build the LALR tables once (and write/read Lark's on-disk cache)
    rows: list[tuple[str, ...]] = []
    failed = False
    for edition in editions(args.edition):
        name = edition.name
        try:
            load_program(str(edition))  # warm: Lark cache, imports, file system
            load_s = time_load(edition, args.runs)
            program = load_program(str(edition))
        except CivError as exc:
            rows.append((name, "-", "-", "-", "-", "-", f"does not load: {exc.diagnostics[0].headline()}"))
            failed = True
            continue
        for players in player_counts(program, args.players):
            rates, rounds = [], 0
            try:
                for _ in range(args.runs):
                    secs, rounds = play_games(program, players, args.games, args.agents)
                    rates.append(args.games / secs if secs > 0 else float("inf"))
            except CivError as exc:
                rows.append((name, f"{load_s * 1000:.1f}", str(players), "-", "-", "-",
                             f"game failed: {exc.diagnostics[0].headline()}"))
                failed = True
                continue
            rate = statistics.median(rates)
            rows.append((name, f"{load_s * 1000:.1f}", str(players), f"{rate:.2f}", f"{1 / rate:.2f}",
                         f"{rounds / args.games:.1f}", ""))

    header = ("edition", "load ms", "players", "games/s", "s/game", "rounds/game", "note")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    print(f"civdsl benchmark: median of {args.runs} run(s), {args.games} game(s) per run, "
          f"{args.agents} agents, logging off")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
