"""`Game.fork()`: an independent copy of a game that continues from the same point. A fork taken while a
player decides re-runs the step with the answers already given; given the same decisions, a forked
game plays the very game the original plays, byte for byte, on every edition."""
from __future__ import annotations

import json

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import HeuristicAgent, make_agents
from civdsl.engine.fork import fork_agent
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError


class ForkAt:
    """Wraps every seat's agent; at the game's `at`-th question asked during play (the set-up cannot be
    forked), forks the game with copies of all agents as they are before this answer."""

    def __init__(self, inner, counter: list, at: int):
        self.inner, self.counter, self.at, self.forks = inner, counter, at, []
        self.name = inner.name

    def choose(self, decision) -> int:
        game = decision.game
        if game.started:
            self.counter[0] += 1
            if self.counter[0] == self.at:
                self.forks.append(game.fork([fork_agent(_inner(a)) for a in game.agents]))
        return self.inner.choose(decision)


def wrapped(agents: list, at: int) -> list:
    counter = [0]
    return [ForkAt(a, counter, at) for a in agents]


def _inner(agent):
    return agent.inner if isinstance(agent, ForkAt) else agent


def log(game: Game) -> list[str]:
    return [json.dumps(e, sort_keys=True) for e in game.events]


CASES = [  # edition, players, agent, fork at the game's nth question, round cap
    ("roll-through-the-ages", 1, "random", 25, None),
    ("roll-through-the-ages", 3, "heuristic", 30, None),
    ("warp-spawn-solitaire", 2, "random", 80, 60),
    ("avalon-hill-1981", 5, "random", 60, 10),
    ("avalon-hill-1981", 4, "heuristic", 60, 8),
    ("gibsons-uk", 4, "random", 50, 8),
    ("mega-empires-the-west", 5, "random", 40, 6),
]


@pytest.mark.parametrize("edition, players, agent, at, rounds", CASES)
def test_a_fork_taken_while_deciding_replays_the_original(edition, players, agent, at, rounds):
    agents = wrapped(make_agents([agent], players, 7), at)
    game = Game(load_program(edition), players, 7, agents, max_rounds=rounds)
    result = game.run()
    (fork,) = [f for a in agents for f in a.forks]
    assert fork.events and len(fork.events) < len(game.events)  # it starts from the original's log so far
    assert fork.run().to_json() == result.to_json()
    assert log(fork) == log(game)


def test_a_fork_between_rounds_replays_the_original_and_is_independent():
    program = load_program("avalon-hill-1981")
    game = Game(program, 3, 5, make_agents(["random"], 3, 5), max_rounds=8)
    game.start()
    for _ in range(3):
        game.play_round()
    fork = game.fork()
    fork.state.players[0].counters["treasury"] = 99  # the copy's own state
    fork.state.players[0].counters["treasury"] = game.state.players[0].counters["treasury"]
    assert game.run().to_json() == fork.run().to_json()
    assert log(fork) == log(game)
    reference = Game(program, 3, 5, make_agents(["random"], 3, 5), max_rounds=8)
    reference.run()
    assert log(reference) == log(game)  # forking changed nothing in the original


def test_forks_diverge_only_by_their_decisions():
    program = load_program("roll-through-the-ages")
    game = Game(program, 1, 3, make_agents(["random"], 1, 3))
    game.start()
    game.play_round()
    same = game.fork()
    other = game.fork(make_agents(["random"], 1, 99))
    zone = same.state.players[0].zones["developments"]
    zone.append("a card no rule knows")  # a change to one copy is not seen by the others
    assert "a card no rule knows" not in game.state.players[0].zones["developments"]
    zone.pop()
    results = [g.run().to_json() for g in (game, same, other)]
    assert results[0] == results[1] and log(game) == log(same)
    assert log(other) != log(game)


def test_a_fork_of_a_fork_replays_too():
    program = load_program("warp-spawn-solitaire")
    agents = wrapped(make_agents(["random"], 1, 4), 30)
    game = Game(program, 1, 4, agents)
    game.run()
    first = agents[0].forks[0]
    first.agents = wrapped(first.agents, 5)
    first.run()
    (second,) = first.agents[0].forks
    second.run()
    assert log(second) == log(first) == log(game)


def test_a_fork_is_refused_where_a_game_cannot_be_copied():
    program = load_program("avalon-hill-1981")

    class ForksWhileScoring(HeuristicAgent):
        refused = 0

        def choose(self, decision):
            game = decision.game
            with game.scoring_view(decision.player):  # as a heuristic would see the game
                with pytest.raises(CivError) as exc:
                    game.fork()
            assert exc.value.diagnostics[0].code == "FRK001"
            self.refused += 1
            return super().choose(decision)

    agents = [ForksWhileScoring(1, 1)] + make_agents(["random"], 3, 1)[1:]
    game = Game(program, 3, 1, agents, max_rounds=2)
    game.run()
    assert agents[0].refused
    seen = []

    def on_round(n, rows):  # the round is not over for the game yet
        with pytest.raises(CivError):
            game2.fork()
        seen.append(n)

    game2 = Game(program, 3, 1, make_agents(["random"], 3, 1), max_rounds=2, on_round=on_round)
    game2.run()
    assert seen == [1, 2]


def test_the_look_ahead_example_of_the_performance_page_plays():
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "performance.md").read_text(encoding="utf-8")
    scope: dict = {}
    exec(re.search(r"```python\n(.*?)```", text, re.S).group(1), scope)  # noqa: S102 - our own docs
    agents = make_agents(["random"], 2, 3)
    agents[0] = scope["LookAhead"](3, 1)
    result = Game(load_program("roll-through-the-ages"), 2, 3, agents, logging=False).run()
    assert result.reason == "victory" and result.winners
