#!/usr/bin/env python3
"""Fingerprints of many seeded games, to prove that an interpreter change plays the same games.

Plays a fixed matrix of games across the shipped editions, options and house rules (random and
heuristic agents, logging on), and prints one line per game: the game's id and the SHA-256 of its
JSON Lines events (or of the error it stopped with). Run it before and after a change and compare:

    python tools/game_digests.py > before.txt      # on the old commit
    python tools/game_digests.py > after.txt       # on the new one
    diff before.txt after.txt && echo "same games, byte for byte"

`--quick` plays a smaller matrix; `--jobs K` spreads the games over K processes (default: all cores).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# (id, edition, options, house rules, players, agents, seeds, round cap)
MATRIX = [
    ("rtta-1p", "roll-through-the-ages", [], [], 1, "random", 300, None),
    ("rtta-3p", "roll-through-the-ages", [], [], 3, "random", 100, None),
    ("rtta-4p-trading", "roll-through-the-ages", ["trading"], [], 4, "random", 60, None),
    ("rtta-2p-revised-heuristic", "roll-through-the-ages", ["revised"], [], 2, "heuristic", 60, None),
    ("rtta-1p-solitaire-12", "roll-through-the-ages", [], ["rulesets/variants/rtta-solitaire-12.civ"], 1, "random", 40, None),
    ("ws-1p", "warp-spawn-solitaire", [], [], 1, "random", 150, None),
    ("ws-3p-heuristic", "warp-spawn-solitaire", [], [], 3, "heuristic", 40, None),
    ("ws-2p-scholars", "warp-spawn-solitaire", [], ["rulesets/variants/warp-spawn-scholars.civ"], 2, "random", 30, None),
    ("ah-3p", "avalon-hill-1981", [], [], 3, "random", 60, 12),
    ("ah-7p", "avalon-hill-1981", [], [], 7, "random", 30, 10),
    ("ah-5p-heuristic", "avalon-hill-1981", [], [], 5, "heuristic", 20, 10),
    ("ah-4p-nomads", "avalon-hill-1981", ["nomads_and_seafarers"], [], 4, "random", 20, 10),
    ("ah-4p-farmers-24", "avalon-hill-1981", ["farmers_and_citizens", "rule_24_1"], [], 4, "random", 20, 10),
    ("ah-7p-heuristic-full", "avalon-hill-1981", [], [], 7, "heuristic", 3, None),
    ("ah-4p-gentle", "avalon-hill-1981", [], ["rulesets/variants/gentle-calamities.civ",
                                              "rulesets/variants/advanced-civ-credits.civ"], 4, "random", 20, 10),
    ("ah-4p-no-negotiation", "avalon-hill-1981", [], ["rulesets/variants/no-negotiation-trade.civ"], 4, "heuristic", 10, 8),
    ("gibsons-5p", "gibsons-uk", [], [], 5, "random", 40, 10),
    ("gibsons-4p-heuristic", "gibsons-uk", [], [], 4, "heuristic", 10, 10),
    ("me-5p", "mega-empires-the-west", [], [], 5, "random", 30, 10),
    ("me-9p-expert", "mega-empires-the-west", ["expert"], [], 9, "random", 10, 8),
    ("me-6p-heuristic", "mega-empires-the-west", ["short"], [], 6, "heuristic", 6, 8),
]
QUICK_SEEDS = 3


def play(job) -> str:
    """One game: its id and the digest of its events (or of its error)."""
    from civdsl.api import new_game
    from civdsl.language.config import GameConfig
    from civdsl.language.diagnostics import CivError
    game_id, edition, options, house, players, agent, seed, cap = job
    house = [str(ROOT / h) for h in house]
    cfg = GameConfig(edition=edition, players=players, seed=seed, agents=[agent], options=list(options),
                     house_rules=house, max_rounds=cap)
    program = _program(edition, tuple(options), tuple(house))
    game = new_game(cfg, program)
    try:
        result = game.run()
        outcome = f"{result.reason} after {result.rounds}"
        text = "\n".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in game.events)
    except CivError as exc:
        outcome = "error"
        text = exc.diagnostics[0].headline()
    return f"{game_id} seed={seed} {hashlib.sha256(text.encode()).hexdigest()[:20]} {outcome}"


_PROGRAMS: dict = {}


def _program(edition, options, house):
    from civdsl.api import load_program
    key = (edition, options, house)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = load_program(edition, list(options), list(house))
    return _PROGRAMS[key]


def jobs(quick: bool) -> list:
    out = []
    for game_id, edition, options, house, players, agent, seeds, cap in MATRIX:
        for seed in range(1, (min(seeds, QUICK_SEEDS) if quick else seeds) + 1):
            out.append((game_id, edition, options, house, players, agent, seed, cap))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_SEEDS} seeds per row of the matrix")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    todo = jobs(args.quick)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for line in pool.map(play, todo, chunksize=4):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
