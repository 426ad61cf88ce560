"""Avalon Hill Civilization (1981): whole games.

Two hundred seeded 4-7 player games with random agents must end without a rule error while the
ruleset's invariants hold after every phase: each player's 55 tokens (board + stock + treasury + set
aside), 9 cities and 4 ships, and every trade card, are conserved (rulesets/civ-core/invariants.civ).
Random games never reach the end of the A.S.T., so they are capped at a number of rounds; the heuristic
agent's game must reach a winner.
"""
from __future__ import annotations

import pytest
from seeded_games import failure_of, failures

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game

EDITION = "avalon-hill-1981"
GAMES = 200
ROUNDS = 60
_PROGRAM = None


def _program():
    global _PROGRAM
    if _PROGRAM is None:
        _PROGRAM = load_program(EDITION)
    return _PROGRAM


def _play(job: tuple[int, int]):
    players, seed = job
    return failure_of(_program(), players, seed, ["random"], ROUNDS)


def test_two_hundred_random_games_end_cleanly_and_conserve_everything():
    assert failures(_play, [(4 + i % 4, 1000 + i) for i in range(GAMES)]) == []


def test_a_game_replays_move_for_move():
    def events(seed):
        game = Game(_program(), 5, seed, make_agents(["random"], 5, seed), max_rounds=8)
        game.run()
        return game.events
    assert events(7) == events(7)
    assert events(7) != events(8)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_every_player_count_sets_up_its_nations_and_areas(players):
    game = Game(_program(), players, 3, make_agents(["random"], players, 3), max_rounds=1,
                check_invariants=True)
    game.run()
    nations = [p.vars["nation"] for p in game.state.players]
    assert len(set(nations)) == players
    tokens = {2: 55, 3: 47, 4: 55, 5: 47, 6: 55, 7: 47}[players]
    for p in game.state.players:
        assert p.counters["set_aside"] == 55 - tokens
