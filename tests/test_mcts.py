"""The `mcts` agent: it plays every shipped edition, the same game for the same seed, within its time
budget, through configs, the command line and the balance lab — and it never peeks: its decisions do not
change when what its player cannot know (other hands, the order of the stacks, the future dice) does."""
from __future__ import annotations

import math
import random

import pytest

from civdsl.api import load_program, new_game
from civdsl.engine.agents import HeuristicAgent, make_agents
from civdsl.engine.interpreter import Game
from civdsl.engine.search import MctsAgent
from civdsl.engine.search.determinize import canonical, hidden_places
from civdsl.engine.search.mcts import margins, rewards, root_prior
from civdsl.engine.search.tree import Node, expand, select_prior
from civdsl.interfaces.config_args import split_agents
from civdsl.language.agentspec import parse_agent
from civdsl.language.config import GameConfig, load_config, merge_cli
from civdsl.language.diagnostics import CivError

SMALL = "mcts(iterations=6, horizon=1)"


@pytest.fixture(scope="module")
def programs():
    return {}


def program(programs, edition):
    if edition not in programs:
        programs[edition] = load_program(edition)
    return programs[edition]


def play(prog, players, seed, agents, rounds, logging=True):
    game = Game(prog, players, seed, make_agents(agents, players, seed), logging=logging, max_rounds=rounds)
    return game, game.run()


# ---- playing ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition, players", [("roll-through-the-ages", 2), ("warp-spawn-solitaire", 1),
                                              ("warp-spawn-solitaire", 2), ("avalon-hill-1981", 3),
                                              ("gibsons-uk", 3), ("mega-empires-the-west", 5)])
def test_mcts_plays_every_shipped_edition(programs, edition, players):
    agents = [SMALL] + ["heuristic"] * (players - 1)
    game, result = play(program(programs, edition), players, 3, agents, 2, logging=False)
    assert result.rounds == 2 or result.reason != "round cap"
    mcts = game.agents[0]
    assert game.state.players[0].agent == "mcts(iterations=6, horizon=1)"
    assert mcts.last.get("searched") and mcts.last["iterations"] == 6


def test_the_same_seed_plays_the_same_game(programs):
    prog = program(programs, "roll-through-the-ages")
    first, _ = play(prog, 2, 5, ["mcts(iterations=5)", "heuristic"], 3)
    second, _ = play(prog, 2, 5, ["mcts(iterations=5)", "heuristic"], 3)
    assert first.events == second.events
    other, _ = play(prog, 2, 6, ["mcts(iterations=5)", "heuristic"], 3)
    assert other.events != first.events


def test_the_search_prefers_what_wins(programs):
    """In RTTA the searched choice is the most visited, and the tree's values are rewards in 0..1."""
    prog = program(programs, "roll-through-the-ages")
    game, _ = play(prog, 2, 2, ["mcts(iterations=24)", "heuristic"], 2, logging=False)
    last = game.agents[0].last
    assert sum(last["visits"].values()) == 24 and all(0 <= v <= 1 for v in last["values"].values())


class FakeClock:
    """A clock that moves on by `step` seconds each time it is read: the search's time budget is tested
    without measuring the machine."""

    def __init__(self, step: float):
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.mark.parametrize("edition, players", [("avalon-hill-1981", 3), ("roll-through-the-ages", 2)])
def test_a_time_budget_is_kept_within_ten_percent(programs, edition, players):
    """On a clock that moves with every decision of the simulated games, each search of a time budget
    ends within 10% of it: a simulated game that runs out of time is dropped at its next decision."""
    prog = program(programs, edition)
    budget, step = 0.25, 0.25 / 200
    seen = []

    class Timed(MctsAgent):
        def choose(self, decision):
            start = self.clock()
            answer = super().choose(decision)
            if self.last.get("searched"):
                seen.append((self.clock() - self.clock.step - start, self.last["iterations"]))
            if len(seen) >= 4:
                raise StopIteration
            return answer

    mcts = Timed(1, 1, {"time": budget})
    mcts.clock = FakeClock(step)
    game = Game(prog, players, 1, [mcts] + [HeuristicAgent(1, s) for s in range(2, players + 1)], logging=False,
                max_rounds=6)
    with pytest.raises(StopIteration):
        game.run()
    assert len(seen) == 4
    for elapsed, iterations in seen:
        assert budget <= elapsed <= budget * 1.1 and iterations >= 1, seen


def test_setup_decisions_are_answered_by_the_rollout_policy(programs):
    """A game cannot be forked during its set-up (AH asks for nations there): no search, no error."""
    prog = program(programs, "avalon-hill-1981")
    seen = []

    class Watch(MctsAgent):
        def choose(self, decision):
            answer = super().choose(decision)
            seen.append((decision.game.state.round, self.last["searched"]))
            return answer

    game = Game(prog, 3, 4, [Watch(4, 1, {"iterations": 2, "horizon": 1}), HeuristicAgent(4, 2),
                             HeuristicAgent(4, 3)], logging=False, max_rounds=1)
    game.run()
    assert (0, False) in seen and (1, True) in seen


def test_rewards_rank_players_by_the_victory_ranking():
    rows = [{"seat": 2, "winner_condition": True, "keys": [3]}, {"seat": 1, "winner_condition": False, "keys": [5]},
            {"seat": 3, "winner_condition": False, "keys": [5]}]
    assert rewards(rows, 3, "victory", 9, []) == [0.25, 1.0, 0.25]
    seen: list = []
    assert rewards([{"seat": 1, "winner_condition": True, "keys": [1]}], 1, "victory", 30, seen) == [0.5]
    assert rewards([{"seat": 1, "winner_condition": True, "keys": [1]}], 1, "victory", 20, seen) == [1.0]
    assert rewards([{"seat": 1, "winner_condition": False, "keys": [9]}], 1, "round cap", 40, seen) == [0.0]


def test_the_margin_reward_is_half_place_half_score_margin():
    """A constructed end: P1 30 points, P2 24, P3 30 (scale: a fifth of 30 = 6). P1 is ahead of P3 on the
    second rank key, so the place shares are 1, 0 and 0.5; the margins to the best other are 0, -6 and 0."""
    rows = [{"seat": 1, "winner_condition": False, "keys": [30, 1], "score": 30},
            {"seat": 3, "winner_condition": False, "keys": [30, 0], "score": 30},
            {"seat": 2, "winner_condition": False, "keys": [24, 5], "score": 24}]
    got = rewards(rows, 3, "victory", 9, [], "margin")
    low = 0.5 + 0.5 * math.tanh(-1)
    assert got == pytest.approx([(1.0 + 0.5) / 2, (0.0 + low) / 2, (0.5 + 0.5) / 2])
    assert rewards(rows, 3, "victory", 9, [], "place") == [1.0, 0.0, 0.5]
    assert margins(rows, 3) == pytest.approx([0.5, low, 0.5])
    # a big lead saturates towards 1, and a victory without a score falls back to the places
    far = [{"seat": 1, "winner_condition": False, "keys": [90], "score": 90},
           {"seat": 2, "winner_condition": False, "keys": [10], "score": 10}]
    assert margins(far, 2)[0] > 0.99 and margins(far, 2)[1] < 0.01
    # without a score, the first rank key is the score; without a numeric one, the places alone
    plain = [{k: v for k, v in r.items() if k != "score"} for r in rows]
    assert margins(plain, 3) == pytest.approx([0.5, low, 0.5])
    words = [r | {"keys": ["x"]} for r in plain]
    assert margins(words, 3) is None and rewards(words, 3, "victory", 9, [], "margin") == [0.5, 0.5, 0.5]


def test_the_prior_ranks_the_root_by_the_heuristics():
    prior = root_prior({"a": 0, "b": 1, "c": 2})
    assert prior == pytest.approx({"a": 4 / 7, "b": 2 / 7, "c": 1 / 7})
    root = Node()
    legal = {"a": 0, "b": 1, "c": 2}
    key, child = select_prior(root, 0, "t", legal, prior, 1.0, {"a": 0, "b": 1, "c": 2})
    assert key == (0, "t", "a") and child is None  # first try: the prior's favourite
    a = expand(root, key)
    a.visits, a.reward, root.visits = 2, 0.0, 2  # it lost twice: the next try goes elsewhere
    key, _ = select_prior(root, 0, "t", legal, prior, 1.0, {"a": 0, "b": 1, "c": 2})
    assert key == (0, "t", "b")


def test_with_one_simulated_game_the_prior_plays_as_the_heuristic(programs):
    """With the prior, one simulated game per decision answers the heuristics' favourite: the search
    starts from the heuristic and only leaves it on evidence. Without the prior it may not."""
    prog = program(programs, "roll-through-the-ages")
    compared = []

    class Both(MctsAgent):
        def choose(self, decision):
            answer = super().choose(decision)
            scores = decision.game.score_options(decision.player, decision.tag, decision.options)
            if self.last.get("searched") and scores is not None:
                compared.append((answer, max(range(len(scores)), key=lambda i: (scores[i], -i))))
            return answer

    game = Game(prog, 2, 4, [Both(4, 1, {"iterations": 1}), HeuristicAgent(4, 2)], logging=False, max_rounds=4)
    game.run()
    assert len(compared) > 10 and all(a == b for a, b in compared)


def test_paired_options_are_played_in_the_same_worlds(programs, monkeypatch):
    """Paired, the n-th simulated game of every root answer is played in the same world (the same first
    draw of its stream); unpaired, the worlds of the search are all different."""
    import civdsl.engine.search.mcts as search
    prog = program(programs, "roll-through-the-ages")
    real = search.determinize
    for paired in ("yes", "no"):
        worlds: dict = {}

        def spy(game, viewer, rng, worlds=worlds):
            state = rng.getstate()
            draw = rng.random()
            rng.setstate(state)
            worlds.setdefault("draws", []).append(draw)
            return real(game, viewer, rng)

        monkeypatch.setattr(search, "determinize", spy)

        class Watch(MctsAgent):
            def choose(self, decision):
                worlds["draws"] = []
                answer = super().choose(decision)
                if self.last.get("searched") and len(self.last["visits"]) > 1 and "seen" not in worlds:
                    worlds["seen"] = (list(worlds["draws"]), dict(self.last["visits"]))
                return answer

        game = Game(prog, 2, 2, [Watch(2, 1, {"iterations": 12, "paired": paired}), HeuristicAgent(2, 2)],
                    logging=False, max_rounds=2)
        game.run()
        draws, visits = worlds["seen"]
        assert len(draws) == 12
        if paired == "yes":  # as many worlds as the most visited answer had games; each shared from the start
            assert len(set(draws)) == max(visits.values()) < 12
        else:
            assert len(set(draws)) == 12
    monkeypatch.setattr(search, "determinize", real)


# ---- never peeking --------------------------------------------------------------------------------------------
def scramble(game, viewer, rng: random.Random):
    """Change what `viewer` cannot know, in place: the unseen items dealt again among the hidden zones in
    a new order, the game's random stream reseeded. What to put back."""
    places = hidden_places(game.state, game.sight, viewer)
    saved = [(items, list(items)) for items in places]
    pool = [x for items in places for x in items]
    rng.shuffle(pool)
    at = 0
    for items in places:
        items[:] = pool[at:at + len(items)]
        at += len(items)
    old = game.state.rng
    game.state.rng = type(old)(rng.getrandbits(64))
    return saved, old


def test_decisions_do_not_change_with_what_the_player_cannot_know(programs):
    """At decisions of P1 in an Avalon Hill game (hidden hands, face-down stacks), a copy of the agent
    asked before and a copy asked after the other players' hands, the stacks and the future dice are
    changed find exactly the same values for every option, and answer the same."""
    prog = program(programs, "avalon-hill-1981")
    mcts = MctsAgent(8, 1, {"iterations": 8, "horizon": 1})
    compared = []

    class Probe(HeuristicAgent):
        def choose(self, decision):
            game = decision.game
            places = hidden_places(game.state, game.sight, decision.player)
            others = [items for p in game.state.players[1:] for items in (p.zones.get("hand", []),)]
            if game.state.round >= 3 and len(compared) < 3 and any(others) and len(places) > 1:
                a, b = mcts.fork(), mcts.fork()
                before = a.choose(decision), a.last
                before_places = sorted(canonical(x) for items in places for x in items)
                saved, rng = scramble(game, decision.player, random.Random(len(compared)))
                assert [list(items) for items, _ in saved] != [old for _, old in saved]  # something moved
                after = b.choose(decision), b.last
                for items, old in saved:
                    items[:] = old
                game.state.rng = rng
                assert sorted(canonical(x) for items in places for x in items) == before_places
                compared.append((before, after))
            return super().choose(decision)

    game = Game(prog, 3, 8, [Probe(8, 1), HeuristicAgent(8, 2), HeuristicAgent(8, 3)], logging=False, max_rounds=8)
    game.run()
    assert len(compared) == 3
    for (choice, stats), (choice2, stats2) in compared:
        assert stats["searched"] and stats["iterations"] == 8
        assert stats == stats2 and choice == choice2


def test_decisions_do_not_change_with_the_future_dice(programs):
    """Warp Spawn hides nothing but its dice: at decisions asked before their step drew a number, a copy
    of the agent asked after the game's random stream is reseeded answers exactly as one asked before."""
    prog = program(programs, "warp-spawn-solitaire")
    mcts = MctsAgent(3, 1, {"iterations": 10, "horizon": 2})
    compared = []

    class Probe(HeuristicAgent):
        def choose(self, decision):
            game = decision.game
            if game.state.round >= 2 and len(compared) < 3 and not game._rng_saved:  # (no roll yet in this step)
                a, b = mcts.fork(), mcts.fork()
                before = a.choose(decision), a.last
                old = game.state.rng
                game.state.rng = type(old)(12345 + len(compared))
                after = b.choose(decision), b.last
                game.state.rng = old
                compared.append((before, after))
            return super().choose(decision)

    game = Game(prog, 2, 3, [Probe(3, 1), HeuristicAgent(3, 2)], logging=False, max_rounds=6)
    game.run()
    assert len(compared) == 3
    for (choice, stats), (choice2, stats2) in compared:
        assert stats["searched"] and stats == stats2 and choice == choice2


# ---- names and options ----------------------------------------------------------------------------------------
def test_agent_specs_parse_with_options_and_have_a_canonical_name():
    spec = parse_agent(" mcts( c=1.5 , iterations=40 ) ")
    assert spec.text == "mcts(iterations=40, c=1.5)" and spec.get("rollout") == "heuristic"
    assert parse_agent("heuristic").text == "heuristic"
    assert split_agents("mcts(iterations=5, c=1),heuristic") == ["mcts(iterations=5, c=1)", "heuristic"]
    [agent] = make_agents(["mcts(time=0.5, rollout=random)"], 1, 0)
    assert agent.time == 0.5 and agent.rollout == "random" and agent.iterations == 1_000_000


@pytest.mark.parametrize("text, message", [
    ("mcts(iteratons=5)", "agent `mcts` has no option `iteratons`"),
    ("mcts(c=-1)", "option `c` of agent `mcts` must be a number from 0 to 100, got `-1`"),
    ("mcts(rollout=smart)", "option `rollout` of agent `mcts` must be one of heuristic, random, got `smart`"),
    ("mcts(iterations=2.5)", "option `iterations` of agent `mcts` must be a whole number from 1 to 1000000, got `2.5`"),
    ("mcts(iterations=5, iterations=6)", "option `iterations` of agent `mcts` is given twice"),
    ("mcts(iterations)", "`iterations` in `mcts(iterations)` is not `key=value`"),
    ("heuristic(x=1)", "agent `heuristic` takes no options"),
])
def test_bad_agent_options_are_config_errors_with_a_location(tmp_path, text, message):
    path = tmp_path / "game.yaml"
    path.write_text(f"edition: roll-through-the-ages\nagents:\n  - random\n  - \"{text}\"\n", encoding="utf-8")
    with pytest.raises(CivError) as caught:
        load_config(str(path))
    [d] = caught.value.diagnostics
    assert d.code == "CFG020" and d.message == f"agents[1]: {message}"
    assert (d.span.line, d.span.col) == (4, 5)
    with pytest.raises(CivError) as caught:
        merge_cli(GameConfig(), agents=["random", text])
    assert caught.value.diagnostics[0].message == f"--agents[1]: {message}"
    with pytest.raises(CivError) as caught:
        make_agents([text], 1, 0)
    assert caught.value.diagnostics[0].code == "CFG020"


def test_a_config_names_mcts_with_options(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("edition: roll-through-the-ages\nplayers: 2\nagents: [\"mcts(iterations=3)\", heuristic]\n"
                    "max_rounds: 1\n", encoding="utf-8")
    cfg = load_config(str(path))
    game = new_game(cfg, logging=False)
    game.run()
    assert [p.agent for p in game.state.players] == ["mcts(iterations=3)", "heuristic"]


def test_the_balance_lab_plays_mcts_seats():
    from civdsl.tools.lab.runner import RunSpec, play_one
    row = play_one(RunSpec("roll-through-the-ages", 2, ("mcts(iterations=3)", "heuristic"), max_rounds=2), 1)
    assert row["game"]["error_code"] is None
    assert {p["agent"] for p in row["players"]} == {"mcts(iterations=3)", "heuristic"}


def test_the_search_options_are_accepted_by_configs_and_the_command_line():
    """`prior`, `paired` and `reward` reach the agent from an agent spec; a bad value is CFG020."""
    agent = make_agents(["mcts(prior=0, paired=no, reward=place)", "heuristic"], 2, 1)[0]
    assert (agent.prior, agent.paired, agent.reward) == (0.0, False, "place")
    default = make_agents(["mcts"], 1, 1)[0]
    assert (default.prior, default.paired, default.reward) == (1.0, True, "margin")
    with pytest.raises(ValueError, match="must be one of margin, place"):
        parse_agent("mcts(reward=score)")
