"""No observation given to a player shows another player's hidden cards or the random stream."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from civdsl.agents import RandomAgent
from civdsl.api import allowed_players, compile_entry
from civdsl.editions import list_editions
from civdsl.interpreter import Game

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = sorted(list_editions().values()) + [ROOT / "tests" / "data" / "rulesets" / "tiny" / "game.civ"]


class Spy(RandomAgent):
    """A random agent that keeps every observation it is given."""

    def __init__(self, seed, seat, seen):
        super().__init__(seed, seat)
        self.seen = seen

    def choose(self, decision):
        self.seen.append((decision.player, decision.observation()))
        return super().choose(decision)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda p: p.parent.name)
def test_observations_hide_what_others_hold(entry):
    prog = compile_entry(entry)
    counts = allowed_players(prog.ruleset) or [1]
    players = max(counts[:3])
    hidden = {name for (scope, name), vis in prog.zones.items() if scope == "player" and vis != "all"}
    global_hidden = {name for (scope, name), vis in prog.zones.items() if scope == "global" and vis != "all"}
    for seed in range(3):
        seen: list = []
        game = Game(prog, players, seed, [Spy(seed, i, seen) for i in range(1, players + 1)], max_rounds=8)
        game.run()
        for viewer, obs in seen:
            text = json.dumps(obs)
            assert '"rng' not in text and '"seed"' not in text
            for name in global_hidden:
                assert obs["zones"][name].get("hidden") is True
            for pdata in obs["players"]:
                for name in hidden:
                    zone = pdata["zones"][name]
                    if pdata["seat"] == viewer.seat and prog.zones[("player", name)] == "owner":
                        assert isinstance(zone, list)
                    else:
                        assert zone == {"hidden": True, "count": zone["count"]}


def test_tiny_game_really_has_hidden_cards_to_hide():
    prog = compile_entry(ROOT / "tests" / "data" / "rulesets" / "tiny" / "game.civ")
    assert prog.zones[("player", "hand")] == "owner"
