"""`civdsl explain`: a rule as written (formatted, comments kept, coloured on a terminal), the rulebook
passage it cites, what it uses, the places that shaped it and how, and what else would change it."""
from __future__ import annotations

import re

import pytest

from civdsl.language.diagnostics import CivError
from civdsl.tools.ruleview import explain, load_target
from tests.cli_run import run, write

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def famine() -> str:
    return explain(load_target("avalon-hill-1981"), "Famine")


def test_the_body_is_shown_as_written_with_its_comments(famine):
    assert "resolve(...) { ... }" not in famine
    assert "    calamity Famine {\n      stack: 3\n" in famine
    assert "        let own = max(0, famine_loss - famine_relief(p))\n" in famine
    assert "        # The player orders up to 20 unit points on the others, at most 11 each" in famine
    assert "        order_losses(p, victims, caps, relief, famine_others_total, false, loss_spec())" in famine


def test_the_rulebook_passage_is_cited(famine):
    assert "rulebook: 22.2.5 — Civilization rules of play, The Avalon Hill Game Company, 1981" in famine
    relief = explain(load_target("avalon-hill-1981"), "famine_relief")  # numbers leading its comment
    assert "rulebook: 22.2.5.1 — Civilization rules of play" in relief
    assert "    # 22.2.5.1: a Pottery holder loses 4 unit points less" in relief


def test_what_it_uses_with_values(famine):
    uses = famine.split("uses:\n", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"^  param famine_loss = 9 +at rulesets/avalon-hill-1981/calamities\.civ:\d+$", uses, re.M)
    assert re.search(r"^  procedure `famine_relief` +at rulesets/avalon-hill-1981/calamities\.civ:\d+$", uses, re.M)


def test_house_rules_and_editions_not_in_play_that_change_it(famine):
    elsewhere = famine.split("changed by options, house rules and editions not in play:\n", 1)[1]
    assert "  house rule `gentle-calamities` (play with --house-rule gentle-calamities):" in elsewhere
    assert re.search(r"param `famine_loss` at rulesets/variants/gentle-calamities\.civ:\d+: 9 → 5", elsewhere)
    assert "  edition `gibsons-uk` (play with --edition gibsons-uk):" in elsewhere
    assert re.search(r"calamity `Famine` at rulesets/gibsons-uk/data/cards\.civ:\d+: stack: 3 → 4\n"
                     r" +reason: Gibsons ¶52", elsewhere)


def test_an_overlay_in_play_is_written_into_the_rule_and_its_chain():
    out = explain(load_target("gibsons-uk"), "Famine")
    assert re.search(r"^      stack: 4   # stack modified at rulesets/gibsons-uk/data/cards\.civ:\d+, was 3$", out, re.M)
    assert re.search(r"^  modified  at rulesets/gibsons-uk/data/cards\.civ:\d+: stack: 3 → 4$", out, re.M)
    assert "edition `gibsons-uk`" not in out  # the edition it is


def test_a_replaced_procedure_shows_the_new_text_and_the_diff():
    out = explain(load_target("gibsons-uk"), "flood_spec")
    assert 'where area(board, a).city_site == "white"]' in out.split("shaped by:")[0]
    assert re.search(r'^      -  spec\["city_areas"\] = .*!= "black"\]$', out, re.M)
    assert re.search(r'^      \+  spec\["city_areas"\] = .*== "white"\]$', out, re.M)


def test_options_not_selected_and_selected(tmp_path):
    plain = explain(load_target("avalon-hill-1981"), "victory")
    assert "option `short_9` \"Shorter game: finish at the second marker arrows (30)\" (play with --option short_9)" \
        in plain
    cfg = write(tmp_path / "short.yaml", "edition: avalon-hill-1981\noptions: [short_9]\n")
    chosen = explain(load_target(str(cfg)), "victory")
    assert re.search(r"^      winner: player\.ast >= short_game_finish   # winner modified at .*options\.civ:\d+, "
                     r"was player\.ast >= finish_space$", chosen, re.M)
    assert "option `short_9`" not in chosen
    assert "winner: player.ast >= finish_space → player.ast >= short_game_finish" in chosen


def test_a_house_rule_param_and_table_rows(tmp_path):
    write(tmp_path / "house.civ", 'extends "roll-through-the-ages"\n# harsher disasters\n'
          'modify param solo_rounds { value: 8 }\nmodify table disaster_by_skulls { 2: "drought"  9: "none" }\n')
    cfg = write(tmp_path / "game.yaml", "edition: roll-through-the-ages\nhouse_rules: [house.civ]\n")
    out = explain(load_target(str(cfg)), "param solo_rounds")
    assert re.search(r"^    param solo_rounds = 8   # modified at .*house\.civ:3, was 10$", out, re.M)
    assert re.search(r"^  modified  at .*house\.civ:3: 10 → 8\n      reason: harsher disasters$", out, re.M)
    table = explain(load_target(str(cfg)), "disaster_by_skulls").split("shaped by:")[0]
    assert re.search(r'^      2: "drought".*# row 2 modified at .*house\.civ:4, was "Drought"$', table, re.M)
    assert re.search(r'^      9: "none"   # added at .*house\.civ:4$', table, re.M)


def test_colour_on_a_terminal_is_the_same_text():
    rs = load_target("avalon-hill-1981")
    plain, coloured = explain(rs, "Famine"), explain(rs, "Famine", color=True)
    assert "\x1b[" in coloured
    assert [line.rstrip() for line in ANSI.sub("", coloured).splitlines()] == plain.splitlines()


def test_explain_from_the_command_line_is_plain_when_piped(capsys):
    code, out = run(capsys, "explain", "avalon-hill-1981", "Famine")
    assert code == 0 and "\x1b[" not in out
    assert out.startswith("calamity `Famine` in avalon-hill-1981, as it runs:\nrulebook: 22.2.5")


def test_a_misspelt_rule_is_a_diagnostic_with_a_suggestion(capsys):
    code, out = run(capsys, "explain", "avalon-hill-1981", "famine")
    assert code == 2
    assert "error[EXP001]: no rule `famine` in `avalon-hill-1981`" in out and "did you mean `Famine`?" in out
    with pytest.raises(CivError):
        explain(load_target("avalon-hill-1981"), "no_such_rule")


def test_every_rule_of_a_shipped_edition_explains():
    rs = load_target("roll-through-the-ages")
    for kind, name in list(rs.decls):
        query = f"{kind} {name}" if name else kind
        out = explain(rs, query)
        assert "shaped by:" in out, query


def test_explain_at_a_terminal_is_coloured_and_no_color_turns_it_off():
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    for extra, coloured in (({}, True), ({"NO_COLOR": "1"}, False)):
        child = pexpect.spawn(sys.executable, ["-m", "civdsl", "explain", "avalon-hill-1981", "Famine"],
                              env={**env, **extra}, encoding="utf-8", timeout=120, dimensions=(50, 140))
        child.expect(pexpect.EOF)
        out = child.before
        assert "calamity Famine {" in ANSI.sub("", out)
        assert ("\x1b[" in out) is coloured, extra
