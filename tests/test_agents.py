"""Agents: the human agent at a terminal, the greedy agent's use of the ruleset's heuristics."""
from __future__ import annotations

import io
from pathlib import Path

from civdsl.agents import GreedyAgent, HumanAgent, RandomAgent
from civdsl.api import compile_entry
from civdsl.interpreter import Game

TINY = Path(__file__).resolve().parent / "data" / "rulesets" / "tiny" / "game.civ"


def test_human_agent_numbers_the_options_retries_and_shows_state():
    prog = compile_entry(TINY)
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("?\n9\nx\n2\n" * 40), stdout=out)
    game = Game(prog, 2, 1, [human, RandomAgent(1, 2)], max_rounds=1)
    game.run()
    text = out.getvalue()
    assert "P1: how to move" in text and "  1. walk" in text and "  2. run" in text
    assert "counters:" in text  # `?` shows the player's own state
    assert "please type a number from 1 to 2" in text
    decisions = [e for e in game.events if e["type"] == "decision" and e["player"] == "P1"]
    assert decisions and all(e["value"] == "run" for e in decisions)


def test_greedy_agent_follows_the_heuristic():
    prog = compile_entry(TINY)
    game = Game(prog, 2, 3, [GreedyAgent(3, 1), GreedyAgent(3, 2)], max_rounds=3)
    game.run()
    moves = [e["value"] for e in game.events if e["type"] == "decision"]
    assert moves and set(moves) == {"run"}  # heuristic "how to move" scores run 1, walk 0
