"""Views and decision words: declared in rule files, evaluated as a seat sees the game, changing nothing."""
from __future__ import annotations

import json

import pytest
from one_file import TINY, one_file_edition

from civdsl.api import compile_entry
from civdsl.engine.agents import HeuristicAgent, RandomAgent
from civdsl.engine.interpreter import Game
from civdsl.engine.views import seat_view
from civdsl.language.diagnostics import CivError
from civdsl.tools.checker import check_paths

VIEWS = '''
view sheet "Sheet" of p {
  label: "Racer " + p.name
  colour: if p.seat == 2 then "#112233" else "not a colour"
  counters "Score": {Score: p.score, Cards: len(p.hand)}
  list "Hand": p.hand
  dice "Last roll": {six: 1, one: 2}
  table "Cards": [{Card: c, Points: if c == none then none else c.points} for c in p.hand]
}
view board "Table" {
  track "Race": {length: goal, at: [["Racer " + p.name, p.score] for p in players], marks: {Half: goal // 2}}
  list "Deck": deck
  text "Round": round
}
decision "how to move" {
  question: player.name + ", how do you move?"
  label: if option == "run" then "run (roll the die)" else "walk two spaces"
}
'''


def tiny_with(tmp_path, extra: str):
    return compile_entry(one_file_edition(tmp_path, (TINY / "game.civ").read_text() + extra))


def played(prog, rounds: int = 12, seed: int = 2, players: int = 3):
    game = Game(prog, players, seed, [HeuristicAgent(seed, i) for i in range(1, players + 1)], max_rounds=30)
    game.start()
    for _ in range(rounds):
        if game.play_round():
            break
    return game


def test_a_seat_sees_its_own_hand_and_only_the_size_of_others(tmp_path):
    game = played(tiny_with(tmp_path, VIEWS))
    holders = [p for p in game.state.players if p.zones["hand"]]
    assert holders, "the seeded game should deal cards (a 6 draws one)"
    holder = holders[0]
    for seat, viewer in enumerate(game.state.players):
        view = seat_view(game, seat)
        assert view["seat"] == viewer.name
        sheets = [v for v in view["views"] if v["name"] == "sheet"]
        assert sheets[0]["player"] == viewer.name  # the seat's own sheet first
        hand = next(p for p in next(v for v in sheets if v["player"] == holder.name)["panels"] if p["title"] == "Hand")
        if viewer is holder:
            assert hand == {"kind": "list", "title": "Hand", "items": list(holder.zones["hand"]), "hidden": 0}
        else:
            assert hand["items"] == [] and hand["hidden"] == len(holder.zones["hand"])
        deck = next(p for v in view["views"] if v["name"] == "board" for p in v["panels"] if p["title"] == "Deck")
        assert deck["items"] == [] and deck["hidden"] == len(game.state.zones["deck"])


def test_a_hidden_card_never_reaches_another_seat_even_through_a_table(tmp_path):
    game = played(tiny_with(tmp_path, VIEWS))
    holder = next(p for p in game.state.players if p.zones["hand"])
    for seat, viewer in enumerate(game.state.players):
        if viewer is holder:
            continue
        sheet = next(v for v in seat_view(game, seat)["views"] if v["player"] == holder.name)
        cards = next(p for p in sheet["panels"] if p["title"] == "Cards")
        assert cards["rows"] == [[None, None]] * len(holder.zones["hand"])
    spectator = json.dumps(seat_view(game, None))
    assert '"One"' not in spectator and '"Two"' not in spectator
    assert '"One"' in json.dumps(seat_view(game, None, reveal=True)) or '"Two"' in json.dumps(
        seat_view(game, None, reveal=True))


def test_panels_fields_and_colours(tmp_path):
    game = played(tiny_with(tmp_path, VIEWS), rounds=3)
    view = seat_view(game, 1)
    assert [p["colour"] for p in view["players"]][:2] == ["#c0392b", "#112233"]  # a bad colour: the palette's
    assert [p["label"] for p in view["players"]] == ["Racer P1", "Racer P2", "Racer P3"]
    sheet = view["views"][0]
    assert sheet["label"] == "Racer P2" and sheet["title"] == "Sheet"
    panels = {p["title"]: p for p in sheet["panels"]}
    assert panels["Score"]["items"] == [["Score", game.state.players[1].counters["score"]],
                                        ["Cards", len(game.state.players[1].zones["hand"])]]
    assert panels["Last roll"]["items"] == ["six", "one", "one"]
    board = next(v for v in view["views"] if v["name"] == "board")
    track = board["panels"][0]
    assert track["length"] == 10 and track["marks"] == [["Half", 5]]
    assert track["at"] == [[f"Racer {p.name}", p.counters["score"], p.name] for p in game.state.players]
    assert board["panels"][2] == {"kind": "text", "title": "Round", "text": str(game.state.round)}


def test_views_change_nothing_and_games_replay_the_same(tmp_path):
    prog = tiny_with(tmp_path, VIEWS + '''
procedure meddle(p) {
  p.score += 100
  return 1
}
view meddling "Meddling" of p {
  counters "Meddled": {x: meddle(p)}
}
''')
    def play(look: bool):
        seen = []

        class Looking(RandomAgent):
            def choose(self, decision):
                if look:
                    seen.append(seat_view(decision.game, decision.player.index))
                return super().choose(decision)
        game = Game(prog, 3, 5, [Looking(5, i) for i in range(1, 4)], max_rounds=30)
        result = game.run()
        return json.dumps(game.events), result, seen

    quiet, result_a, _ = play(False)
    looked, result_b, seen = play(True)
    assert seen and quiet == looked and result_a.winners == result_b.winners
    assert all(p["kind"] == "counters" for s in seen for v in s["views"] if v["name"] == "meddling"
               for p in v["panels"])


def test_a_view_may_not_roll_dice(tmp_path):
    game = played(tiny_with(tmp_path, 'view v "V" { counters "Roll": {r: roll(d6)} }'), rounds=1)
    with pytest.raises(CivError) as exc:
        seat_view(game, 0)
    assert exc.value.diagnostics[0].code == "RUN023"


def test_a_panel_of_the_wrong_shape_is_reported_at_the_panel(tmp_path):
    game = played(tiny_with(tmp_path, 'view v "V" of p {\n  counters "Score": p.score\n}'), rounds=1)
    with pytest.raises(CivError) as exc:
        seat_view(game, 0)
    d = exc.value.diagnostics[0]
    assert (d.code, d.span.line) == ("RUN040", 45)
    assert "counters panel \"Score\"" in d.message and "record" in d.hint


def test_a_looping_view_is_stopped_by_its_own_budget(tmp_path):
    prog = tiny_with(tmp_path, '''
procedure spin(n) {
  let i = 0
  while i < n { i += 1 }
  return i
}
view v "V" { counters "Spin": {n: spin(5000000)} }''')
    game = played(prog, rounds=1)
    before = (game.c.steps, game.work)
    for _ in range(3):
        with pytest.raises(CivError) as exc:
            seat_view(game, 0)
        assert exc.value.diagnostics[0].code in ("RUN010", "RUN011")
    assert (game.c.steps, game.work) == before


def test_decision_words(tmp_path):
    prog = tiny_with(tmp_path, VIEWS)
    asked = []

    class Listening(RandomAgent):
        def choose(self, decision):
            asked.append((decision.question, decision.labels, list(decision.options)))
            return super().choose(decision)
    Game(prog, 2, 1, [Listening(1, 1), Listening(1, 2)], max_rounds=3).run()
    question, labels, options = asked[0]
    assert question in ("P1, how do you move?", "P2, how do you move?")
    assert labels == ["walk two spaces", "run (roll the die)"] and options == ["walk", "run"]


def test_without_views_a_ruleset_is_shown_plainly(tmp_path):
    game = played(compile_entry(TINY / "game.civ"), rounds=12)
    holder = next(p for p in game.state.players if p.zones["hand"])
    other = next(i for i, p in enumerate(game.state.players) if p is not holder)
    view = seat_view(game, other)
    sheet = next(v for v in view["views"] if v["player"] == holder.name)
    panels = {p["title"]: p for p in sheet["panels"]}
    assert panels["Counters"]["items"] == [["score", holder.counters["score"]]]
    assert panels["hand"] == {"kind": "list", "title": "hand", "items": [], "hidden": len(holder.zones["hand"])}


@pytest.mark.parametrize("text, code, line, col", [
    ('view v "V" of p {\n  counter "Score": {s: p.score}\n}', "VEW001", 46, 3),
    ('view v "V" of p {\n  labl: p.name\n}', "VEW002", 46, 3),
    ('decision "how to move" {\n  questoin: "?"\n}', "DEC001", 46, 3),
    ('decision "how to mvoe" { label: "x" }', "LNT007", 45, 1),
])
def test_check_finds_mistakes_in_views_and_words(tmp_path, text, code, line, col):
    entry = one_file_edition(tmp_path, (TINY / "game.civ").read_text() + "\n" + text)
    diags, _files = check_paths([str(entry)])
    found = [d for d in diags if d.code == code]
    assert found, [d.headline() for d in diags]
    assert (found[0].span.line, found[0].span.col) == (line, col)
    assert found[0].hint  # a did-you-mean or the list of what is allowed
