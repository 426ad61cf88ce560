"""Roll Through the Ages: command-line games, options, and 1,000 seeded games whose final scores are
recomputed independently from the final state."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game

ROOT = Path(__file__).resolve().parent.parent
EDITION = "roll-through-the-ages"


def civdsl(*args):
    out = subprocess.run([sys.executable, "-m", "civdsl", *args], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_solitaire_plays_ten_rounds_and_prints_the_score_breakdown():
    out = civdsl("play", "--edition", EDITION, "--players", "1", "--seed", "3")
    assert "Game over after 10 round(s)" in out
    header = next(line for line in out.splitlines() if "place" in line and "player" in line)
    assert header.split() == ["place", "player", "score", "developments", "monuments", "bonus", "disasters", "total"]


def test_four_players_play_to_the_end_condition():
    out = civdsl("play", "--edition", EDITION, "--players", "4", "--seed", "5", "--agents", "greedy")
    assert "victory" in out and re.search(r"Winner: P\d", out)


@pytest.mark.parametrize("option", ["trading", "revised"])
def test_options_run(option):
    out = civdsl("play", "--edition", EDITION, "--players", "3", "--seed", "2", "--option", option)
    assert "Game over" in out


def first_builders(events) -> dict[str, str]:
    """Monument → the player who completed it first, from the game log."""
    first: dict[str, str] = {}
    for ev in events:
        if ev["type"] == "add" and ev["zone"].endswith(".monuments"):
            first.setdefault(ev["item"], ev["zone"].split(".")[0])
    return first


def recomputed_score(prog, player, first) -> int:
    def field(name, f):
        return prog.entities[name].fields[f][0]
    devs = player.zones["developments"]
    monuments = player.zones["monuments"]
    total = sum(field(d, "points") + field(d, "per_monument") * len(monuments) + field(d, "per_city") *
                player.counters["cities"] for d in devs)
    total += sum(field(m, "first") if first[m] == player.name else field(m, "later") for m in monuments)
    return total - player.counters["disasters"]


def test_1000_seeded_games_end_and_every_score_recomputes():
    prog = load_program(EDITION)
    for seed in range(1000):
        players = 1 + seed % 4
        game = Game(prog, players, seed, make_agents(["random"], players, seed), check_invariants=seed % 10 == 0)
        result = game.run()
        assert result.reason in ("victory", "round cap"), (seed, result.reason)
        first = first_builders(game.events)
        scores = {row["player"]: row["score"] for row in result.ranking}
        for p in game.state.players:
            assert scores[p.name] == recomputed_score(prog, p, first), (seed, p.name)
