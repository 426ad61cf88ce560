"""Warp Spawn solitaire: the rulebook's numbers, pinned phase by phase, and whole seeded games."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import RandomAgent, ScriptedAgent, make_agents
from civdsl.engine.interpreter import Game

ROOT = Path(__file__).resolve().parent.parent
EDITION = "warp-spawn-solitaire"


@pytest.fixture(scope="module")
def program():
    return load_program(EDITION)


def game_for(program, players=1, answers=None, seed=0):
    """A game with its state and pools created (cultures not rolled) whose decisions come from `answers`."""
    agents = [ScriptedAgent(list(answers or [])) for _ in range(players)]
    g = Game(program, players, seed, agents)
    g.init()
    g.state.zones["leader_pool"].extend(program.by_kind["leader"])
    g.state.zones["wonder_pool"].extend(program.by_kind["wonder"])
    return g


def run(g, phase, player=0, dice=()):
    g.state.forced_dice = list(dice)
    g.run_phase(phase, g.state.players[player])
    assert g.state.forced_dice == [], "every fixed die should have been used"
    return g.state.players[player]


def test_start_state(program):
    g = game_for(program)
    p = g.state.players[0]
    assert p.counters["agriculture"] == 10 and p.counters["cities"] == 1  # "starts with 10 Populations and 1 City"
    assert p.counters["army"] == p.counters["trade"] == p.counters["labor"] == p.counters["scholars"] == 0


def test_setup_rolls_culture_and_gives_its_advance(program):
    g = Game(program, 1, 0, [RandomAgent(0, 1)])
    g.init()
    g.state.forced_dice = [3, 4]  # D12 culture 3 = Athenian; then the turn-order D6
    g.program.setup(g.c)
    p = g.state.players[0]
    assert p.vars["culture"] == "Athenian"
    assert p.zones["advances"] == ["Philosophy"]


@pytest.mark.parametrize("die,gain", [(1, 0), (2, 0), (3, 1), (6, 4)])
def test_population_increase_is_d6_minus_2_minimum_0(program, die, gain):
    g = game_for(program)
    p = run(g, "population_increase", dice=[die])
    assert p.counters["agriculture"] == 10 + gain


def test_religion_adds_one_to_the_population_roll(program):
    g = game_for(program)
    g.state.players[0].zones["advances"].append("Religion")
    p = run(g, "population_increase", dice=[2])
    assert p.counters["agriculture"] == 11


def test_harvest_three_food_per_farmer_and_irrigation_adds_one(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters["agriculture"] = 4
    run(g, "harvest")
    assert p.counters["food"] == 12
    p.counters["food"] = 0
    p.zones["advances"].append("Irrigation")
    run(g, "harvest")
    assert p.counters["food"] == 16


def test_upkeep_feeds_everyone_and_food_is_not_stored_without_pottery(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters["food"] = 14  # 10 population eat 10
    run(g, "upkeep")
    assert p.counters["food"] == 0 and p.counters["agriculture"] == 10
    p.counters["food"] = 14
    p.zones["advances"].append("Pottery")
    run(g, "upkeep")
    assert p.counters["food"] == 4


def test_unfed_populations_are_lost(program):
    g = game_for(program, answers=["agriculture", "agriculture", "trade"])
    p = g.state.players[0]
    p.counters.update(agriculture=7, trade=3, food=7)
    run(g, "upkeep")
    assert p.counters["agriculture"] + p.counters["trade"] == 7 and p.counters["trade"] == 2 and p.counters["food"] == 0


def test_unpaid_armies_are_lost(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters.update(army=5, gold=3, food=100)
    run(g, "upkeep")
    assert p.counters["army"] == 3 and p.counters["gold"] == 0


def test_leader_dies_of_old_age_on_a_1(program):
    g = game_for(program)
    p = g.state.players[0]
    g.state.zones["leader_pool"].remove("Homer")
    p.zones["leaders"].append("Homer")
    p.counters["food"] = 100
    run(g, "upkeep", dice=[1])
    assert p.zones["leaders"] == [] and "Homer" in g.state.zones["leader_pool"]


def test_city_costs_50_labour_and_25_gold(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters.update(labor=10, city_progress=40, gold=25)
    run(g, "build")
    assert p.counters["cities"] == 2 and p.counters["gold"] == 0 and p.counters["city_progress"] == 0


def test_complete_city_waits_for_its_gold(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters.update(labor=20, city_progress=40, gold=24)
    run(g, "build")
    assert p.counters["cities"] == 1 and p.counters["city_progress"] == 50 and p.counters["gold"] == 24


def test_wonder_costs_100_labour_and_50_gold_and_needs_its_advance(program):
    g = game_for(program, answers=["Pyramids", "wonder"])
    p = g.state.players[0]
    p.zones["advances"].append("Engineering")
    p.counters.update(labor=100, gold=50, cities=2)
    run(g, "build")
    assert p.zones["wonders"] == ["Pyramids"] and p.counters["wonders_built"] == 1 and p.counters["gold"] == 0
    assert "Pyramids" not in g.state.zones["wonder_pool"]


def test_research_succeeds_on_11_or_12(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters["scholars"] = 2
    run(g, "research", dice=[5, 5, 6, 5, 2])  # 10 fails; 11 succeeds and D20 2 = Religion
    assert p.zones["advances"] == ["Religion"]


def test_income_one_gold_per_trader_and_city_coinage_adds_per_city(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters.update(trade=3, cities=2)
    run(g, "income")
    assert p.counters["gold"] == 5
    p.zones["advances"].append("Coinage")
    run(g, "income")
    assert p.counters["gold"] == 5 + 7


def test_disaster_on_a_1_skips_build_and_war(program):
    g = game_for(program, answers=["agriculture"] * 3)
    p = g.state.players[0]
    run(g, "disaster_check", dice=[1, 2, 3])  # D6 1: disaster; D20 2 = Earthquake; 1D6 = 3 lost
    assert p.counters["agriculture"] == 7 and p.counters["disasters"] == 1
    assert (0, "build") in g.state.skips and (0, "war") in g.state.skips


def test_mitigated_disaster_halves_the_loss_rounding_down(program):
    g = game_for(program, answers=["agriculture"] * 5)
    p = g.state.players[0]
    p.zones["advances"].append("Engineering")  # mitigates Flood
    run(g, "disaster_check", dice=[1, 1, 6, 5])  # Flood, 2D6 = 11, halved = 5
    assert p.counters["agriculture"] == 5


def test_pirates_take_half_the_gold_rounded_up(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters["gold"] = 7
    run(g, "disaster_check", dice=[1, 4])  # Pirates
    assert p.counters["gold"] == 3


def test_victory_needs_three_wonders_and_fifteen_advances(program):
    g = game_for(program)
    p = g.state.players[0]
    p.counters["wonders_built"] = 3
    p.zones["advances"].extend(program.by_kind["advance"][:14])
    assert not g._check_victory("turn")
    p.zones["advances"].append(program.by_kind["advance"][14])
    assert g._check_victory("turn")


def test_great_wall_reading_requires_coinage(program):
    assert program.entities["Great Wall"].fields["requires"][0] == "Coinage"


def _play(seed: int) -> tuple[int, str, int]:
    prog = load_program(EDITION)
    players = 1 + seed % 4
    g = Game(prog, players, seed, make_agents(["random"], players, seed), logging=False, check_invariants=True)
    res = g.run()
    return seed, res.reason, res.rounds


def test_200_seeded_random_games_end_without_error():
    with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        results = list(pool.map(_play, range(200)))
    assert len(results) == 200
    assert all(reason in ("victory", "round cap") for _, reason, _ in results)
    assert sum(1 for _, reason, _ in results if reason == "victory") > 150


def test_play_command_is_deterministic_and_replays(tmp_path):
    logs = []
    for name in ("a", "b"):
        log = tmp_path / f"{name}.jsonl"
        out = subprocess.run([sys.executable, "-m", "civdsl", "play", "--edition", EDITION, "--players", "3",
                              "--seed", "7", "--log", str(log)], capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        assert re.search(r"Winner: \w+ \(P\d\), in round \d+: first to build 3 Wonders|No winner", out.stdout)
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    rep = subprocess.run([sys.executable, "-m", "civdsl", "replay", str(tmp_path / "a.jsonl")],
                         capture_output=True, text=True, cwd=ROOT)
    assert rep.returncode == 0 and rep.stdout.startswith("OK"), rep.stdout + rep.stderr


def test_every_log_event_names_its_rule(tmp_path):
    g = Game(load_program(EDITION), 2, 3, make_agents(["random"], 2, 3), max_rounds=5)
    g.run()
    changes = [e for e in g.events if e["type"] in ("set", "add", "remove", "move", "roll", "decision")]
    assert changes and all(re.fullmatch(r"warp-spawn-solitaire/\w+\.civ:\d+", e["rule"]) for e in changes)


def test_interpreter_names_no_game_instance():
    names = re.compile(r"warp|famine|pestilence|pottery|egypt|epidemic|mysticism|astronomy|barbarian|pirate",
                       re.IGNORECASE)
    for path in (ROOT / "civdsl").rglob("*.py"):
        assert not names.search(path.read_text(encoding="utf-8")), path
