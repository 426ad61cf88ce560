"""Choosing a subset (`who chooses subset "tag" [lo..hi] of items`): the syntax, the order and encoding
of the options (`engine/subsets.py`), and every kind of player answering it — random, heuristic,
scripted, a program's own agent that only returns an index, the terminal and the web app — with the
log, replay and forks."""
from __future__ import annotations

import io
import json
from itertools import combinations

import pytest
from one_file import one_file_edition
from web_fixtures import start, test_client, wait_state

from civdsl.api import compile_entry, load_program
from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine.agents import HeuristicAgent, RandomAgent, ScriptedAgent
from civdsl.engine.budget import TooLarge
from civdsl.engine.interpreter import Game
from civdsl.engine.subsets import MAX_SUBSETS, Subsets
from civdsl.interfaces.terminal.agent import TerminalAgent
from civdsl.language.config import GameConfig
from civdsl.language.diagnostics import CivError
from civdsl.language.formatter import format_file_text
from civdsl.language.loader import load_ruleset
from civdsl.language.parser import parse_text
from civdsl.tools.gamelog import replay, write_log

GAME = """
game "subsets" { players: 1..2 }
die d6 = 1..6
player var dice = []
player var kept = []
player var two = []
phase play {
  player.dice = rolls(d6, 5)
  player.kept = player chooses subset "keep" of player.dice
  player.two = player chooses subset "two" [2] of player.dice
}
sequence { phases: play }
heuristic "keep" = 10 * count(option, 6) - len(option)
decision "keep" { question: "Keep which?" label: "a " + str(option) }
victory { max_rounds: 2 }
"""


def program(tmp_path, text: str = GAME):
    return compile_entry(one_file_edition(tmp_path, text))


def decisions(game: Game) -> list[dict]:
    return [e for e in game.events if e["type"] == "decision"]


# ---- syntax ------------------------------------------------------------------------------------------------
def test_the_forms_of_the_size_parse():
    rf = parse_text('procedure f(p) { let a = p chooses subset "a" of p.dice\n'
                    'let b = p chooses subset "b" [2] of p.dice\n'
                    'let c = p chooses subset "c" [1..] of p.dice\n'
                    'let d = p chooses subset "d" [1..len(p.dice) - 1] of p.dice }', "x.civ")
    forms = [(s.value.lo is not None, s.value.hi is not None, s.value.exact) for s in rf.items[0].body]
    assert forms == [(False, False, False), (True, False, True), (True, False, False), (True, True, False)]


def test_subset_stays_a_name_everywhere_else():
    parse_text("procedure f(subset) { let size = subset  size += 1  return size }", "x.civ")


def test_fmt_keeps_a_subset_decision_as_it_is(tmp_path):
    text = 'procedure f(p) {\n  let keep = p chooses subset "keep" [1..3] of p.dice\n  return 2 ** keep[1]\n}\n'
    assert format_file_text(text, "x.civ") == text


# ---- the options: order and encoding ------------------------------------------------------------------------
def test_options_are_by_size_then_positions():
    s = Subsets(["a", "b", "c"], 0, 3)
    assert list(s) == [[], ["a"], ["b"], ["c"], ["a", "b"], ["a", "c"], ["b", "c"], ["a", "b", "c"]]
    assert [s[i] for i in range(len(s))] == list(s)


@pytest.mark.parametrize("n,lo,hi", [(5, 0, 5), (6, 2, 3), (7, 3, 3), (4, 1, 9), (16, 0, 16)])
def test_index_positions_and_masks_convert_both_ways(n, lo, hi):
    s = Subsets(list(range(n)), lo, hi)
    expected = [c for k in range(lo, min(hi, n) + 1) for c in combinations(range(n), k)]
    assert len(s) == len(expected)
    for i in list(range(0, len(s), max(1, len(s) // 200))) + [len(s) - 1]:
        assert s.positions(i) == expected[i]
        assert s.index(list(reversed(expected[i]))) == i
        assert s.index_of_mask(s.mask(i)) == i


def test_values_name_a_subset_in_any_order_and_equal_items_by_their_first_positions():
    s = Subsets([3, 6, 3, 6, 6], 0, 5)
    assert s.positions(s.index_of_values([6, 3, 6])) == (0, 1, 3)
    assert s.index_of_values(["6"]) == s.index([1])  # as written in YAML or a label
    assert s.index_of_values([6, 6, 6, 6]) is None
    assert Subsets([1, 2, 3], 2, 2).index_of_values([1]) is None  # too few


def test_illegal_answers_and_sizes():
    s = Subsets([1, 2, 3], 1, 2)
    for bad in ([], [0, 1, 2], [0, 0], [3]):
        with pytest.raises(ValueError):
            s.index(bad)
    with pytest.raises(ValueError):
        Subsets([1, 2], -1, 2)
    with pytest.raises(TypeError):
        Subsets([1, 2], 0, "2")
    assert len(Subsets([1, 2], 3, 5)) == 0


def test_the_number_of_options_is_bounded():
    assert len(Subsets(list(range(16)), 0, 16)) == MAX_SUBSETS
    with pytest.raises(TooLarge):
        Subsets(list(range(17)), 0, 17)
    assert len(Subsets(list(range(1000)), 1, 1)) == 1000  # many items, few subsets: fine


# ---- answering ------------------------------------------------------------------------------------------------
def test_random_and_heuristic_players_choose_legal_subsets(tmp_path):
    prog = program(tmp_path)
    game = Game(prog, 2, 3, [RandomAgent(3, 1), HeuristicAgent(3, 2)])
    game.run()
    for p in game.state.players:
        assert len(p.vars["two"]) == 2 and all(d in p.vars["dice"] for d in p.vars["kept"])
    heuristic = [e for e in decisions(game) if e["player"] == "P2" and e["tag"] == "keep"]
    for e in heuristic:  # the sixes, and nothing else
        assert e["value"] == [6] * len(e["value"]) and e["options"] == 32


def test_a_program_agent_that_only_returns_an_index_needs_no_change(tmp_path):
    class Last:
        name = "last"

        def choose(self, decision):
            return len(decision.options) - 1
    game = Game(program(tmp_path), 1, 1, [Last()])
    game.run()
    p = game.state.players[0]
    assert p.vars["kept"] == p.vars["dice"] and p.vars["two"] == p.vars["dice"][3:]


def test_scripted_answers_name_the_items_in_any_order(tmp_path):
    prog = program(tmp_path)
    game = Game(prog, 1, 5, [RandomAgent(5, 1)])
    game.start()
    game.state.forced_dice = [3, 6, 3, 6, 6]
    game.agents = [ScriptedAgent([[6, 3, 6], {"index": 0}])]
    game.play_round()
    p = game.state.players[0]
    assert p.vars["kept"] == [3, 6, 6] and p.vars["two"] == [3, 6]
    first = decisions(game)[0]
    assert first["choice"] == Subsets([3, 6, 3, 6, 6], 0, 5).index([0, 1, 3]) and first["value"] == [3, 6, 6]


def test_a_scripted_answer_naming_items_that_are_not_there_is_agt003(tmp_path):
    game = Game(program(tmp_path), 1, 5, [RandomAgent(5, 1)])
    game.start()
    game.state.forced_dice = [1, 2, 3, 4, 5]
    game.agents = [ScriptedAgent([[6]])]
    with pytest.raises(CivError) as exc:
        game.play_round()
    d = exc.value.diagnostics[0]
    assert d.code == "AGT003" and "from 1, 2, 3, 4, 5" in d.message


def test_one_legal_subset_is_not_asked_and_none_is_run021(tmp_path):
    text = GAME.replace('[2] of player.dice', '[len(player.dice)] of player.dice')
    game = Game(program(tmp_path, text), 1, 1, [ScriptedAgent([[]]), ])
    game.start()
    game.play_round()  # "two" has one legal subset, all five: not asked
    assert game.state.players[0].vars["two"] == game.state.players[0].vars["dice"]
    text = GAME.replace('[2] of player.dice', '[6] of player.dice')
    game = Game(program(tmp_path, text), 1, 1, [RandomAgent(1, 1)])
    with pytest.raises(CivError) as exc:
        game.run()
    assert exc.value.diagnostics[0].code == "RUN021" and "exactly 6 items" in exc.value.diagnostics[0].message


def test_sizes_must_be_whole_numbers_of_at_least_0(tmp_path):
    for size, code in (("[-1]", "RUN001"), ('["two"]', "RUN001")):
        text = GAME.replace('"two" [2] of', f'"two" {size} of')
        with pytest.raises(CivError) as exc:
            Game(program(tmp_path, text), 1, 1, [RandomAgent(1, 1)]).run()
        assert exc.value.diagnostics[0].code == code


def test_the_log_replays_and_a_fork_mid_decision_plays_the_same_game(tmp_path):
    prog = program(tmp_path)
    game = Game(prog, 2, 7, [HeuristicAgent(7, 1), RandomAgent(7, 2)])
    game.run()
    path = tmp_path / "game.jsonl"
    cfg = GameConfig(edition=str(one_file_edition(tmp_path, GAME)), players=2, seed=7,
                     agents=["heuristic", "random"])
    write_log(str(path), game, cfg)
    ok, message = replay(str(path))
    assert ok, message

    forks = []

    class Forking(HeuristicAgent):
        def choose(self, decision):
            if decision.subset is not None and not forks:
                forks.append(decision.game.fork(agents=[HeuristicAgent(7, 1), RandomAgent(7, 2)]))
            return super().choose(decision)
    original = Game(prog, 2, 7, [Forking(7, 1), RandomAgent(7, 2)])
    original.run()
    twin = forks[0]
    twin.run()
    assert [e["value"] for e in decisions(twin)] == [e["value"] for e in decisions(original)]


# ---- people ---------------------------------------------------------------------------------------------------
def test_the_terminal_numbers_the_items_and_reads_a_line_of_numbers(tmp_path):
    answers = "9\n1 1\n-\n2,5\n"  # no item 9; item 1 twice; none (fine for "keep"); then two for "two"
    out = io.StringIO()
    agent = TerminalAgent(io.StringIO(answers), out, plain=True, width=100)
    game = Game(program(tmp_path), 1, 4, [agent], logging=True)
    game.start()
    game.state.forced_dice = [5, 1, 6, 2, 6]
    game.play_round()
    text = out.getvalue()
    assert "Keep which?" in text and "  1. a 5" in text and "  5. a 6" in text
    assert "there is no item 9" in text and "item 1 is named twice" in text
    p = game.state.players[0]
    assert p.vars["kept"] == [] and p.vars["two"] == [1, 6]
    assert "choose exactly 2 items by number" in text


def test_the_terminal_tells_a_wrong_number_of_items(tmp_path):
    out = io.StringIO()
    agent = TerminalAgent(io.StringIO("-\n1\n1 2\n"), out, plain=True, width=100)
    game = Game(program(tmp_path), 1, 4, [agent])
    game.start()
    game.state.forced_dice = [5, 1, 6, 2, 6]
    game.play_round()
    assert "1 chosen: choose exactly 2 items" in out.getvalue()
    assert game.state.players[0].vars["two"] == [5, 1]


def test_the_web_app_shows_checkboxes_and_takes_the_items_ticked(tmp_path, monkeypatch):
    from civdsl.interfaces.web.app import make_app
    root = tmp_path / "games"
    one_file_edition(tmp_path, GAME, "subsets")
    (tmp_path / "rulesets").rename(root)
    monkeypatch.setenv("CIVDSL_RULESETS", str(root))
    with test_client(make_app(str(tmp_path / "data"))) as client:
        _, (token,) = start(client, "subsets", ["human"], seed=2)
        state = wait_state(client, token)
        decision = state["decision"]
        assert decision["subset"] == "any number of the 5 items" and decision["labels"][0].startswith("a ")
        page = client.get(f"/seat/{token}")
        assert page.text.count('type="checkbox" name="pick"') == 5 and 'id="picks-done"' in page.text
        r = client.post(f"/seat/{token}/answer", data={"n": decision["n"], "subset": "1", "pick": ["0", "4"]},
                        follow_redirects=False)
        assert r.status_code == 303
        state = wait_state(client, token)
        assert state["decision"]["subset"] == "exactly 2 items"
        wrong = client.post(f"/api/seat/{token}/answer", json={"n": state["decision"]["n"], "picks": [1]})
        assert wrong.status_code == 400 and "choose exactly 2 items" in wrong.json()["error"]
        r = client.post(f"/api/seat/{token}/answer", json={"n": state["decision"]["n"], "picks": [3, 1]})
        assert r.status_code == 200
        state = wait_state(client, token)
        while state["status"] == "waiting":  # round 2: keep none, then the first two
            picks = [] if state["decision"]["subset"].startswith("any") else [0, 1]
            client.post(f"/api/seat/{token}/answer", json={"n": state["decision"]["n"], "picks": picks})
            state = wait_state(client, token)
        assert state["status"] == "finished", state["error"]
        log = client.get(f"/replay/game/{state['game']}/log.jsonl").text
    events = [json.loads(line) for line in log.splitlines()]
    dice = [e["faces"] for e in events if e.get("type") == "roll"]
    values = [e["value"] for e in events if e.get("type") == "decision"]
    assert values[0] == [dice[0][0], dice[0][4]] and values[1] == [dice[0][1], dice[0][3]]
    assert values[2] == [] and values[3] == dice[1][:2]
    saved = tmp_path / "web.jsonl"
    saved.write_text(log, encoding="utf-8")
    ok, message = replay(str(saved))
    assert ok, message


def test_words_label_each_item(tmp_path):
    prog = program(tmp_path)
    seen = []

    class Look:
        name = "look"

        def choose(self, decision):
            if decision.subset is not None and decision.tag == "keep":
                seen.append((decision.question, decision.item_labels, decision.labels[:2], len(decision.labels)))
            return 0
    game = Game(prog, 1, 1, [Look()])
    game.start()
    game.state.forced_dice = [1, 2, 3, 4, 5]
    game.play_round()
    question, items, first_two, n = seen[0]
    assert question == "Keep which?" and items == ["a 1", "a 2", "a 3", "a 4", "a 5"]
    assert first_two == ["none", "a 1"] and n == 32


def test_load_ruleset_reports_an_unknown_tag_of_words_as_before(tmp_path):
    entry = one_file_edition(tmp_path, GAME + 'decision "kep" { question: "?" }\n')
    _, diags = compile_ruleset(load_ruleset(entry))
    assert [d.code for d in diags] == ["LNT007"]
    assert load_program(str(entry)) is not None
