"""Mega Empires: The West: whole games.

Two hundred seeded 5-9 player games with random agents must end without a rule error while every
invariant of the edition holds after every phase (each player's 55 tokens, 9 cities and 4 ships; every
trade card of the game in a stack, a discard pile, the Water cards or a hand; no area with two cities;
the neutral party owning only barbarian tokens and pirate cities). Random games rarely reach the Late
Iron Age, so they are capped at a number of rounds. Heuristic games must reach the end condition and
rank the players by victory points.
"""
from __future__ import annotations

import pytest
from seeded_games import failure_of, failures

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game

EDITION = "mega-empires-the-west"
GAMES = 200
ROUNDS = 24
MIXED_GAMES = 20
MIXED_ROUNDS = 20
_PROGRAMS: dict = {}


def _program(options=()):
    key = tuple(options)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = load_program(EDITION, options=list(options))
    return _PROGRAMS[key]


def _play(job: tuple[int, int, str, int]):
    players, seed, agents, rounds = job
    names = ["random"] if agents == "random" else ["heuristic" if i % 2 else "random" for i in range(players)]
    return failure_of(_program(), players, seed, names, rounds)


def test_two_hundred_random_games_end_cleanly_with_every_invariant():
    assert failures(_play, [(5 + i % 5, 2000 + i, "random", ROUNDS) for i in range(GAMES)]) == []


# Random agents seldom gather the tokens a city needs, so games with heuristic players beside them carry
# every phase (trade cards, trade, calamities, special abilities, advances) under the same invariants.
def test_games_of_random_and_heuristic_players_keep_every_invariant():
    assert failures(_play, [(5 + i % 5, 3000 + i, "mixed", MIXED_ROUNDS) for i in range(MIXED_GAMES)]) == []


@pytest.mark.parametrize("players,options", [(5, ()), (7, ()), (9, ()), (6, ("expert",)), (8, ("short",))])
def test_heuristic_games_reach_the_end_and_rank_by_victory_points(players, options):
    game = Game(_program(options), players, 11, make_agents(["heuristic"], players, 11), logging=False,
                check_invariants=True)
    result = game.run()
    assert result.reason != "round cap" and result.winners, f"no winner after {result.rounds} rounds"
    end = game.state.vars["game_end_round"]
    assert end is not None and result.rounds == end
    scores = [row["score"] for row in result.ranking]
    assert scores == sorted(scores, reverse=True)
    assert result.winners == [result.ranking[0]["player"]]
    top = result.ranking[0]["breakdown"]
    assert top["total"] == top["cities"] + top["advances"] + top["ast"] + top["bonus"] == scores[0]
