"""Secrets on every surface: in every edition with trading, no seat ever sees what another player holds in
secret: not in its observations, not in the view its heuristic scores in, not in the log it may read.

The spy plays heuristic games of at least 14 rounds and, at every decision, looks for every other
player's hidden holdings (the items of their hidden zones, the values of their hidden counters and
variables) in the deciding player's observation. It first proves that it would see a leak: with Mega
Empires' `traded_by` declared public again (as it was), it finds many."""
from __future__ import annotations

import json

import pytest
from one_file import one_file_edition

from civdsl.api import compile_entry, load_program
from civdsl.engine.agents import HeuristicAgent
from civdsl.engine.interpreter import Game
from civdsl.engine.visibility import Visibility
from civdsl.interfaces.cli import main

TRADING = [("avalon-hill-1981", 5, 1), ("gibsons-uk", 5, 2), ("mega-empires-the-west", 5, 3)]


class Spy(HeuristicAgent):
    """A heuristic player that checks every observation it is given against the others' secrets."""

    def __init__(self, seed, seat, report):
        super().__init__(seed, seat)
        self.report = report

    def choose(self, decision):
        game, viewer = decision.game, decision.player
        seen = decision.observation()
        self.report["observations"] += 1
        for other, section in zip(game.state.players, seen["players"]):
            if other is not viewer:
                self.report["secrets"] += sum(1 for _ in secrets(game, other, viewer))
                self.report["leaks"] += leaks(game, other, viewer, section)
        return super().choose(decision)


def secrets(game, owner, viewer):
    """(where, value) of everything `owner` holds that `viewer` may not see, empty values left out."""
    sight = game.sight
    for name in sight.hidden_zones(owner, viewer):
        for item in owner.zones.get(name, []):
            yield name, item
    for name in sight.hidden_values(owner, viewer):
        store = owner.counters if name in owner.counters else owner.vars
        if store.get(name) not in (None, {}, [], 0):
            yield name, store[name]


def leaks(game, owner, viewer, section: dict) -> int:
    """How many of `owner`'s secrets show in `section` (their part of `viewer`'s observation): as a
    zone's or value's own content, or as a name anywhere in what `viewer` sees of `owner` outside the
    zones that show it to all (a card also held openly is no secret)."""
    public = {json.dumps(i) for name, items in section["zones"].items() if isinstance(items, list) for i in items}
    found = 0
    for where, value in secrets(game, owner, viewer):
        masked = section["zones"].get(where, section["vars"].get(where, section["counters"].get(where)))
        if isinstance(masked, list) or (isinstance(masked, dict) and not masked.get("hidden")):
            found += 1
            continue
        for item in (value if isinstance(value, (list, dict)) else [value]):
            text = json.dumps(item)
            if isinstance(item, str) and text not in public and text in json.dumps(section):
                found += 1
    return found


def spy_game(edition, players, seed, public_values=False):
    program = load_program(edition)
    report = {"observations": 0, "secrets": 0, "leaks": 0}
    game = Game(program, players, seed, [Spy(seed, i, report) for i in range(players)], max_rounds=16)
    if public_values:  # the declarations as they were before secrets had visibility
        game.sight = Visibility(dict(program.zones), {})
    game.run()
    return game, report


@pytest.mark.parametrize("edition, players, seed", TRADING, ids=[e for e, _, _ in TRADING])
def test_no_seat_sees_what_others_hold_in_secret(edition, players, seed):
    game, report = spy_game(edition, players, seed)
    assert game.state.round >= 14
    assert report["observations"] > 500 and report["secrets"] > 5000  # there was much to leak
    assert report["leaks"] == 0
    for seat in game.state.players:  # the log each seat may read shows none of it either
        assert log_leaks(game, seat) == 0


def test_the_spy_sees_a_leak_when_there_is_one():
    _, report = spy_game("mega-empires-the-west", 5, 3, public_values=True)
    assert report["leaks"] > 50


def log_leaks(game, viewer) -> int:
    """Events of `viewer`'s log that show an item in, or a value of, something `viewer` may not see."""
    names = [p.name for p in game.state.players]
    found = 0
    for ev in game.sight.seat_events(game.events, viewer.name, names):
        places = [ev.get(k) for k in ("zone", "source", "to", "target") if isinstance(ev.get(k), str)]
        shown = ev.get("item", ev.get("value"))
        if shown is None or ev["type"] not in ("add", "remove", "move", "set"):
            continue
        if places and not any(_visible(game, place, viewer) for place in places):
            found += 1
    return found


def _visible(game, label: str, viewer) -> bool:
    owner_name, _, name = label.rpartition(".")
    owner = next((p for p in game.state.players if p.name == owner_name), None)
    if label.startswith("["):
        return True  # a record's key (only shown when no value anywhere is secret)
    hidden = game.sight.hidden_zones(owner, viewer) | game.sight.hidden_values(owner, viewer)
    return (name if owner else label) not in hidden


SECRET = '''game "Secrets" { edition: "secrets" players: 2 }
player var secret visible to owner = {card: "Gold"}
player counter score visible to owner = 7
player var open = "shown"
global var pot visible to hidden = [1, 2]

phase main {
  let pick = players[1] chooses "guess" from ["a", "b"]
}
sequence { phases: main }
victory { max_rounds: 1 }
'''


def test_hidden_values_in_observation_heuristic_and_log(tmp_path):
    program = compile_entry(one_file_edition(tmp_path, SECRET))
    assert program.secrets == {("player", "secret"): "owner", ("player", "score"): "owner",
                               ("global", "pot"): "hidden"}
    game = Game(program, 2, 0, [HeuristicAgent(0, 0), HeuristicAgent(0, 1)])
    game.start()
    p1, p2 = game.state.players
    seen = game.observation(p1)
    assert seen["players"][1]["vars"] == {"secret": {"hidden": True}, "open": "shown"}
    assert seen["players"][1]["counters"]["score"] == {"hidden": True}
    assert seen["players"][0]["vars"]["secret"] == {"card": "Gold"}  # its own
    assert seen["vars"]["pot"] == {"hidden": True}
    with game.scoring_view(p1):
        assert p2.vars["secret"] == {} and p2.counters["score"] == 0 and game.state.vars["pot"] == []
        assert p1.vars["secret"] == {"card": "Gold"} and p2.vars["open"] == "shown"
    assert p2.vars["secret"] == {"card": "Gold"} and p2.counters["score"] == 7  # put back


def test_a_seat_log_hides_others_answers_and_secret_values(tmp_path):
    sight = Visibility({("player", "hand"): "owner", ("global", "deck"): "hidden"},
                       {("player", "secret"): "owner"})
    names = ["P1", "P2"]
    events = [
        {"type": "move", "item": "Gold", "source": "deck", "to": "P2.hand"},
        {"type": "move", "item": "Iron", "source": "deck", "to": "P1.hand"},
        {"type": "move", "item": "Salt", "source": "P2.hand", "to": "discard"},
        {"type": "set", "target": "P2.secret", "value": {"Gold": "P1"}, "was": {}},
        {"type": "set", "target": "P2.open", "value": 3, "was": 2},
        {"type": "decision", "player": "P2", "tag": "give", "options": 3, "choice": 1, "value": "Gold"},
        {"type": "decision", "player": "P1", "tag": "give", "options": 3, "choice": 2, "value": "Iron"},
    ]
    items = [ev.get("item", ev.get("value")) for ev in sight.seat_events(events, "P1", names)]
    assert items == [None, "Iron", "Salt", None, 3, None, "Iron"]
    items = [ev.get("item", ev.get("value")) for ev in sight.seat_events(events, "P2", names)]
    assert items == ["Gold", None, "Salt", {"Gold": "P1"}, 3, "Gold", None]


def test_the_cli_shows_a_seat_its_log(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--edition", "mega-empires-the-west", "--players", "5", "--seed", "3",
                 "--agents", "heuristic", "--max-rounds", "8", "--log", str(log), "-q"]) == 0
    capsys.readouterr()
    assert main(["view", str(log), "--seat", "P2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seat"] == "P2"
    full = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == len(full)
    others = [ev for ev in lines if ev["type"] == "decision" and ev["player"] != "P2"]
    assert others and all(ev["value"] is None for ev in others)
    hands = [ev for ev in lines if ev["type"] == "move" and ev.get("to", "").endswith(".hand")]
    assert any(ev["item"] is None for ev in hands) and any(ev["item"] for ev in hands if ev["to"] == "P2.hand")
    assert main(["view", str(log), "--seat", "P9"]) == 2
