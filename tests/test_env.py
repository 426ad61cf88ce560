"""`civdsl.env`: the PettingZoo AEC environment passes PettingZoo's API test for RTTA, Warp Spawn and
Avalon Hill, plays exactly the game the engine plays with the same answers, and says what is wrong in
words; the OpenSpiel game (when `open_spiel` is installed) passes OpenSpiel's random simulation test."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from civdsl.engine.agents import ScriptedAgent, make_agents
from civdsl.engine.interpreter import Game
from civdsl.env import env
from civdsl.language.diagnostics import CivError


@pytest.mark.parametrize("edition, players, cycles", [("roll-through-the-ages", 2, 300),
                                                      ("warp-spawn-solitaire", 2, 300),
                                                      ("avalon-hill-1981", 3, 150)])
def test_pettingzoo_api_test_passes(edition, players, cycles):
    from pettingzoo.test import api_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its advice for image observations: ours are a vector and a mask)
        api_test(env(edition=edition, players=players, max_rounds=6), num_cycles=cycles)


def play_env(e, rng: random.Random, final: dict | None = None) -> dict[int, list]:
    """Play the environment to its end with random legal actions; the answers each seat gave (and each
    agent's reward at the end, into `final`)."""
    e.reset()
    answers: dict[int, list] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            if final is not None:
                final[agent] = reward
            e.step(None)
            continue
        assert obs["observation"].shape == (len(e.feature_names()),)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == info["options"]
        choice = int(rng.choice(legal))
        answers.setdefault(int(agent.split("_")[1]), []).append({"index": choice})
        e.step(choice)
    return answers


@pytest.mark.parametrize("edition, players, seats, rounds", [
    ("roll-through-the-ages", 2, None, None),
    ("avalon-hill-1981", 3, [None, "heuristic", None], 4),  # (nations are chosen in the set-up)
    ("warp-spawn-solitaire", 2, ["mcts(iterations=2, horizon=1)", None], 8),
])
def test_the_environment_plays_the_game_the_engine_plays(edition, players, seats, rounds):
    e = env(edition=edition, players=players, agents=seats, seed=5, max_rounds=rounds)
    answers = play_env(e, random.Random(1))
    agents = []
    for i in range(players):
        if seats and seats[i] is not None:
            names = ["random"] * players
            names[i] = seats[i]
            agents.append(make_agents(names, players, 5)[i])
        else:
            agents.append(ScriptedAgent(answers.get(i, [])))
    game = Game(e.program, players, 5, agents, logging=False, max_rounds=rounds)
    result = game.run()
    assert result.to_json() == e.result.to_json()
    assert game.state.to_json() == e.stepper.final.state.to_json()
    assert all(not a.answers for a in agents if isinstance(a, ScriptedAgent))


def test_rewards_are_places_by_the_ranking():
    final: dict = {}
    e = env(edition="avalon-hill-1981", players=3, seed=3, max_rounds=3)
    play_env(e, random.Random(0), final)
    assert set(final) == {"player_0", "player_1", "player_2"} and abs(sum(final.values())) < 1e-9
    ranking = e.result.ranking
    assert final[f"player_{ranking[0]['seat'] - 1}"] >= final[f"player_{ranking[-1]['seat'] - 1}"]
    e = env(edition="warp-spawn-solitaire", players=1, seed=3, max_rounds=2)
    final.clear()
    play_env(e, random.Random(0), final)
    assert final == {"player_0": -1.0}  # alone, not won (stopped at the round cap)


def test_resets_play_the_next_seed_unless_one_is_given():
    e = env(edition="roll-through-the-ages", players=2, seed=10)
    e.reset()
    assert e.cfg.seed == 10
    e.reset()
    assert e.cfg.seed == 11
    e.reset(seed=10)
    assert e.cfg.seed == 10


def test_words_views_and_renders():
    e = env(edition="roll-through-the-ages", players=2, render_mode="ansi")
    e.reset()
    d = e.decision()
    assert d["agent"] == e.agent_selection and len(d["labels"]) == len(d["options"]) > 1
    assert e.view(e.agent_selection)["seat"] == "P1"
    text = e.render()
    assert isinstance(text, str) and "P1" in text
    assert "p0.counter:food" in e.feature_names()
    e = env(edition="roll-through-the-ages", players=2, render_mode="rgb_array")
    e.reset()
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_mistakes_are_diagnostics():
    with pytest.raises(CivError) as caught:
        env(edition="roll-through-the-ages", players=2, agents=["heuristic", "random"])
    assert caught.value.diagnostics[0].code == "ENV003"
    with pytest.raises(CivError) as caught:
        env(edition="roll-through-the-ages", players=2, agents=[None, "mcts(iterations=0)"])
    assert caught.value.diagnostics[0].code == "CFG020"
    e = env(edition="roll-through-the-ages", players=2)
    with pytest.raises(CivError) as caught:
        e.step(0)
    assert caught.value.diagnostics[0].code == "ENV004"
    e.reset()
    n = e.infos[e.agent_selection]["options"]
    with pytest.raises(CivError) as caught:
        e.step(n)
    assert caught.value.diagnostics[0].code == "ENV002" and f"has {n} options" in caught.value.diagnostics[0].message
    with pytest.raises(CivError) as caught:
        env(edition="roll-through-the-ages", players=2, max_actions=1).reset()
    assert caught.value.diagnostics[0].code == "ENV001"


def test_openspiel_game_passes_its_random_simulation_test():
    pyspiel = pytest.importorskip("pyspiel")
    from civdsl.env import register_openspiel
    name = register_openspiel()
    for edition, players in [("roll-through-the-ages", 2), ("avalon-hill-1981", 3)]:
        game = pyspiel.load_game(name, {"edition": edition, "players": players, "seed": 2, "max_rounds": 3})
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_an_openspiel_clone_plays_on_as_the_original():
    pyspiel = pytest.importorskip("pyspiel")
    from civdsl.env import register_openspiel
    game = pyspiel.load_game(register_openspiel(), {"edition": "roll-through-the-ages", "players": 2, "seed": 4})
    state, rng, clone, at = game.new_initial_state(), random.Random(3), None, 0
    while not state.is_terminal():
        if len(state.history()) == 20:
            clone, at = state.clone(), 20
        state.apply_action(rng.choice(state.legal_actions()))
    for action in state.history()[at:]:
        clone.apply_action(action)
    assert clone.is_terminal() and clone.returns() == state.returns()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_the_example_of_the_agents_page_runs(capsys):
    """docs/agents.md's learner against `heuristic` (3 games instead of 300) and its OpenSpiel lines."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "agents.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    learner = next(b for b in blocks if "agent_iter" in b)
    assert "range(300)" in learner
    exec(compile(learner.replace("range(300)", "range(3)"), "agents.md", "exec"), {})
    assert capsys.readouterr().out.startswith("won ")
    spiel = next(b for b in blocks if "pyspiel" in b)
    pytest.importorskip("pyspiel")
    exec(compile(spiel, "agents.md", "exec"), {})
