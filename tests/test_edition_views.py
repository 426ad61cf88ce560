"""Every shipped edition declares its views and its decisions in words (issue 16), and they show the game
as each seat may see it.

For each edition (and Gibsons, which gets its views through Avalon Hill 1981) a seeded heuristic game is
played; at several rounds the views of every seat and of a spectator are evaluated and compared with the
real state: the panels are there with the real values, a seat sees its own hand and only the size of the
others' (no other seat's card name anywhere in its view), the A.S.T. has one marker per nation where the
nation stands. During the game the words of the decisions asked are evaluated too: no error, and where
the ruleset words a decision its options read as words, not bare numbers.
"""
from __future__ import annotations

import json
import re

import pytest

from civdsl.api import load_program, new_game
from civdsl.engine.agents import make_agents
from civdsl.engine.views import seat_view
from civdsl.language.config import GameConfig

WORDS_PER_TAG = 4  # the decisions of one tag whose words are evaluated, per game


class Spy:
    """A heuristic agent that also reads each decision in words (a few of each tag), as a person's
    terminal or page would."""

    def __init__(self, inner, seen: dict, shown: dict):
        self.inner, self.seen, self.shown = inner, seen, shown

    def choose(self, decision):
        asked = self.seen.setdefault(decision.tag, [])
        if len(asked) < WORDS_PER_TAG:
            asked.append((decision.question, decision.labels, [str(o) for o in decision.options]))
            # the view the deciding seat is shown at this moment, with the real state beside it
            p = decision.player
            self.shown.setdefault(decision.tag, []).append(
                (seat_view(decision.game, p.index), p.name, dict(p.counters), dict(p.vars)))
        return self.inner.choose(decision)


def play(edition: str, players: int, seed: int, check_rounds: list[int], options=()):
    """Play to the last round in `check_rounds`; at each, every seat's view, the spectator's and the real
    state. Returns (snapshots, decisions seen, program, views shown at decisions)."""
    program = load_program(edition, list(options))
    cfg = GameConfig(edition=edition, players=players, seed=seed, agents=["heuristic"], options=list(options))
    seen: dict = {}
    shown: dict = {}
    agents = [Spy(a, seen, shown) for a in make_agents(["heuristic"], players, seed)]
    game = new_game(cfg, program, agents=agents, logging=False)
    game.start()
    snapshots = []
    for r in range(1, max(check_rounds) + 1):
        ended = game.play_round()
        if r in check_rounds or ended:
            views = {seat: seat_view(game, seat) for seat in [*range(players), None]}
            views["reveal"] = seat_view(game, None, reveal=True)  # a finished game's replay: everything
            json.dumps(views)  # plain JSON
            real = [{"name": p.name, "counters": dict(p.counters), "vars": dict(p.vars),
                     "zones": {k: list(v) for k, v in p.zones.items()}} for p in game.state.players]
            table = {"zones": {k: list(v) for k, v in game.state.zones.items()}, "vars": dict(game.state.vars),
                     "game": game}
            snapshots.append((r, views, real, table))
        if ended:
            break
    return snapshots, seen, program, shown


def panels(view: dict, name: str, player: str | None) -> dict:
    """The panels of view `name` of `player` (None: the table's), by title."""
    found = [v for v in view["views"] if v["name"] == name and v["player"] == player]
    assert len(found) == 1, f"view {name} of {player}: {len(found)} found"
    return {p["title"]: p for p in found[0]["panels"]}


def counters(panel: dict) -> dict:
    assert panel["kind"] == "counters"
    return dict(panel["items"])


def strings(value) -> list[str]:
    """Every text in a JSON value (keys too)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def assert_worded(seen: dict, program) -> None:
    """Every decision asked was put into words without error; where the ruleset words its options, no
    option reads as a bare number."""
    assert seen, "no decision was asked"
    for tag, asked in seen.items():
        words = program.decision_texts.get(tag, {})
        for question, labels, options in asked:
            assert len(labels) == len(options)
            assert all(isinstance(label, str) and label for label in labels), (tag, labels)
            if "question" in words:
                assert isinstance(question, str) and question, tag
            if "label" in words:
                assert not any(label.strip().lstrip("-").isdigit() for label in labels), (tag, labels)


# ---- Roll Through the Ages ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rtta():
    return play("roll-through-the-ages", 2, 5, [1, 4, 8])


def test_rtta_score_sheet_and_dice(rtta):
    snapshots = rtta[0]
    assert snapshots
    for _, views, real, _ in snapshots:
        for seat, view in views.items():
            if isinstance(seat, int):
                assert view["views"][0]["player"] == real[seat]["name"], "the seat's own sheet comes first"
            for p in real:
                sheet = panels(view, "sheet", p["name"])
                dice = p["vars"]["dice"]
                assert len(sheet["Dice"]["items"]) == sum(dice.values())
                for face, n in dice.items():
                    assert sheet["Dice"]["items"].count(face) == n
                food = counters(sheet["Food and cities"])
                assert food["Food"] == p["counters"]["food"] and food["Cities"] == p["counters"]["cities"]
                goods = {row[0]: row[1] for row in sheet["Goods"]["rows"]}
                assert goods == {g: p["counters"][g] for g in ("wood", "stone", "pottery", "cloth", "spearheads")}
                bought = [row[0] for row in sheet["Developments"]["rows"] if row[-1] is True]
                assert sorted(bought) == sorted(p["zones"]["developments"])
                score = counters(sheet["Score"])
                assert score["Disasters"] == -p["counters"]["disasters"]
                assert score["Total"] == sum(score[k] for k in ("Developments", "Monuments", "Bonus", "Disasters"))
                assert sheet["Cities"]["at"][0][1] == p["counters"]["cities"]
            table = panels(view, "table", None)
            assert [row[0] for row in table["Scores"]["items"]] == [p["name"] for p in real]


def test_rtta_dice_shown_while_rerolling(rtta):
    """Before a re-roll the seat sees the dice it rolled (issue 16: asked "re-roll?" without ever being
    shown the dice)."""
    shown = rtta[3]["re-roll?"]
    assert shown
    for view, name, _, variables in shown:
        assert view["views"][0]["player"] == name
        dice = {x["title"]: x for x in view["views"][0]["panels"]}["Dice"]["items"]
        assert sorted(dice) == sorted(face for face, n in variables["dice"].items() for _ in range(n))
        assert dice, "the dice are showing"


def test_rtta_decisions_in_words(rtta):
    _, seen, program, _ = rtta
    assert_worded(seen, program)
    assert "re-roll?" in seen
    for question, labels, options in seen["re-roll?"]:
        assert labels == ["keep all dice", "re-roll some dice"] and "Your dice show" in question
    rerolls = [asked for tag, asked in seen.items() if tag.startswith("re-roll ") and tag.endswith(" dice")]
    assert rerolls
    for asked in rerolls:
        for _, labels, options in asked:
            assert labels[0] in ("keep it", "keep them")
            assert all(re.fullmatch(r"re-roll \d+ [a-z-]+ dic?e", label) for label in labels[1:]), labels


def test_rtta_trading_decisions_in_words():
    """The Trading game's decisions come in words from the file `option trading` imports."""
    _, seen, program, _ = play("roll-through-the-ages", 3, 2, [6], options=["trading"])
    assert_worded(seen, program)
    for _, labels, options in seen["trade with"]:
        assert labels[0] == "no trade" and all(label.startswith("offer a trade to ") for label in labels[1:])
    asked = [tag for tag in seen if tag.startswith("trade") or tag == "accept trade"]
    assert {"trade with", "trade: give", "trade: how many to give"} <= set(asked)
    for question, labels, _ in seen.get("accept trade", []):
        assert question.startswith("You are offered ") and labels == ["decline it", "accept the trade"]
    assert not [tag for tag in asked if not program.decision_texts.get(tag)], "a trading decision without words"


# ---- Warp Spawn ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def warp_spawn():
    return play("warp-spawn-solitaire", 2, 4, [1, 5, 12])


def test_warp_spawn_civilization_sheet(warp_spawn):
    snapshots = warp_spawn[0]
    for _, views, real, _ in snapshots:
        for view in views.values():
            for p in real:
                sheet = panels(view, "sheet", p["name"])
                pop = counters(sheet["Population"])
                c = p["counters"]
                assert [pop["Army"], pop["Agriculture"], pop["Trade"], pop["Labor"]] == \
                    [c["army"], c["agriculture"], c["trade"], c["labor"]]
                assert pop["Total"] == sum(c[s] for s in ("army", "agriculture", "trade", "labor", "scholars"))
                assert counters(sheet["Stores"]) == {"Gold": c["gold"], "Food": c["food"]}
                assert [row[0] for row in sheet["Advances"]["rows"]] == p["zones"]["advances"]
                assert [row[0] for row in sheet["Leaders"]["rows"]] == p["zones"]["leaders"]
                assert counters(sheet["Cities"])["Cities"] == c["cities"]
            label = {p["name"]: p["label"] for p in view["players"]}
            assert all(label[p["name"]] == p["vars"]["culture"] for p in real)
            cultures = panels(view, "table", None)["Cultures"]
            assert [row[0] for row in cultures["rows"]] == [p["name"] for p in real]


def test_warp_spawn_decisions_in_words(warp_spawn):
    _, seen, program, _ = warp_spawn
    assert_worded(seen, program)
    assert "move population from" in seen
    for _, labels, _ in seen["move population from"]:
        assert labels[0].startswith("done") and all(label.startswith("from your ") for label in labels[1:])


# ---- the map editions: Avalon Hill 1981, Gibsons (through it), Mega Empires: The West ---------------------------
MAP_GAMES = {
    "avalon-hill-1981": ("avalon-hill-1981", 3, 2, [2, 6, 10]),
    "gibsons-uk": ("gibsons-uk", 3, 3, [2, 6, 10]),
    "mega-empires-the-west": ("mega-empires-the-west", 5, 2, [2, 6]),
}


FINISH = {"avalon-hill-1981": 16, "gibsons-uk": 16, "mega-empires-the-west": 15}  # the A.S.T.'s finish space


@pytest.fixture(scope="module", params=sorted(MAP_GAMES))
def map_game(request):
    edition, players, seed, rounds = MAP_GAMES[request.param]
    return request.param, play(edition, players, seed, rounds)


def public_cards(real: list[dict], table: dict) -> set[str]:
    """Trade cards every seat may see: calamities in front of players, discard piles, the Water cards."""
    shown = {c for p in real for c in p["zones"]["calamities"]}
    for name, items in table["zones"].items():
        if name.startswith("discard") or name == "water":
            shown |= set(items)
    return shown


def test_hands_are_seen_by_their_owners_only(map_game):
    _, (snapshots, *_) = map_game
    hands_seen = 0
    for _, views, real, table in snapshots:
        public = public_cards(real, table)
        for seat, view in views.items():
            if seat == "reveal":
                for p in real:
                    nation = panels(view, "nation", p["name"])
                    assert nation["Trade cards"]["items"] == p["zones"]["hand"]
                    assert counters(nation["Trade card sets"]).get("All sets", 0) >= 0
                continue
            me = real[seat] if seat is not None else None
            for p in real:
                nation = next(v for v in view["views"] if v["name"] == "nation" and v["player"] == p["name"])
                hand_panel = {x["title"]: x for x in nation["panels"]}["Trade cards"]
                hand = p["zones"]["hand"]
                if p is me:
                    assert hand_panel["items"] == hand and hand_panel["hidden"] == 0
                    hands_seen += len(hand)
                else:
                    assert hand_panel["items"] == [] and hand_panel["hidden"] == len(hand)
                    sets = {x["title"]: x for x in nation["panels"]}["Trade card sets"]
                    assert sets["items"] == [] or not hand
            own = set(me["zones"]["hand"]) if me else set()
            secret = {c for p in real if p is not me for c in p["zones"]["hand"]} - own - public
            texts = strings(view)
            for card in secret:
                assert card not in texts, f"seat {seat} sees {card} of another hand"
                assert not any(t.endswith("× " + card) for t in texts), f"seat {seat} sees a set of {card}"
    assert hands_seen, "no seat held a trade card: the game checks nothing"


def test_board_and_ast(map_game):
    edition, (snapshots, *_) = map_game
    for _, views, real, table in snapshots:
        game, playable = table["game"], table["vars"]["playable"]
        order = {p["name"]: game.program.entities[p["vars"]["nation"]].fields["ast_order"] for p in real}
        for view in views.values():
            board = panels(view, "board", None)
            ast = board["A.S.T."]
            assert ast["kind"] == "track" and ast["length"] == FINISH[edition]
            at = {name: pos for _, pos, name in ast["at"]}
            assert len(ast["at"]) == len(real), "one marker per nation"
            assert at == {p["name"]: p["counters"]["ast"] for p in real}, "each where its nation stands"
            assert [label for label, _, _ in ast["at"]] == [str(p["vars"]["nation"]) for p in
                                                             sorted(real, key=lambda p: order[p["name"]])]
            m = board["Board"]
            assert m["kind"] == "map" and m["map"] == "board"
            layers = dict(m["layers"])
            assert {"flood_plain", "volcano", "city_site", "open_sea"} <= set(layers)
            assert {"token", "city", "ship"} <= set(dict(m["pieces"]))
            assert set(m["shade"]) == {a for a in game.state.maps["board"].areas if a not in playable}
            rows = next(x for t, x in board.items() if x["kind"] == "table")
            assert len(rows["rows"]) == len(real)
            for p in real:
                nation = panels(view, "nation", p["name"])
                own_ast = nation["A.S.T."]
                assert own_ast["at"][0][1] == p["counters"]["ast"]
                assert [mark[1] for mark in own_ast["marks"]] == sorted(mark[1] for mark in own_ast["marks"])
                assert len(own_ast["marks"]) >= 4, "the epochs begin on the nation's row"
                tokens = counters(nation["Tokens"])
                assert tokens["Stock"] == p["counters"]["stock"] and tokens["Treasury"] == p["counters"]["treasury"]
                cards = next(x for t, x in nation.items() if x["kind"] == "table")
                assert [row[0] for row in cards["rows"]] == p["zones"]["cards"]
                assert nation["Calamities to resolve"]["items"] == p["zones"]["calamities"]


def test_market_prices_for_the_seat(map_game):
    _, (snapshots, *_) = map_game
    _, views, real, _ = snapshots[-1]
    for seat, view in views.items():
        market = panels(view, "market", None)
        table = next(iter(market.values()))
        assert table["rows"], "every civilization card has a line"
        assert ("Your price" in table["columns"]) == isinstance(seat, int)
        if isinstance(seat, int):
            held = set(real[seat]["zones"]["cards"])
            price = table["columns"].index("Your price")
            for row in table["rows"]:
                assert (row[price] == "held") == (row[0] in held)


def test_map_decisions_in_words(map_game):
    _, (_, seen, program, _) = map_game
    assert_worded(seen, program)
    for tag in ("move how many", "move from", "build city"):
        if tag in seen:
            for _, labels, options in seen[tag]:
                assert "none" not in labels, (tag, labels)
