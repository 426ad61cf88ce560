"""The decision catalogue (`civdsl explain --decisions EDITION`): every tag a scenario may script, where
it is asked and how its options read — and the edition pages embed it, kept current by this test
(after a change to the rules: `CIVDSL_UPDATE_GOLDEN=1 python -m pytest tests/test_scenarios_decisions.py`)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from civdsl.tools.catalogue import decision_catalogue, render_catalogue
from civdsl.tools.ruleview import load_target
from tests.cli_run import run
from tests.docblock import check_block

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ["warp-spawn-solitaire", "roll-through-the-ages", "avalon-hill-1981", "gibsons-uk", "mega-empires-the-west"]
END = "<!-- civdsl explain --decisions: end -->"


@pytest.fixture(scope="module")
def ah():
    return decision_catalogue(load_target("avalon-hill-1981"))


def test_every_choice_of_the_rules_is_in_the_catalogue(ah):
    rs = load_target("avalon-hill-1981")
    written = set()
    for f in rs.files:
        written.update(re.findall(r'chooses (?:subset )?"([^"]+)"', Path(f).read_text(encoding="utf-8")))
    assert {e.tag for e in ah} == written


def test_an_entry_names_its_place_chooser_options_words_and_heuristic(ah):
    famine = next(e for e in ah if e.tag == "order loss")
    assert famine.question == '"How many unit points does this player lose?"'
    site = famine.sites[0]
    assert re.fullmatch(r"civ-core/losses\.civ:\d+", site.where) and site.within == "procedure order_losses"
    source = (ROOT / "rulesets" / site.where.split(":")[0]).read_text(encoding="utf-8").splitlines()
    assert 'chooses "order loss"' in source[int(site.where.split(":")[1]) - 1]
    faction = next(e for e in ah if e.tag == "civil war faction")
    assert faction.sites[0].within == 'calamity "Civil War".resolve' and faction.heuristic_at is None
    build = next(e for e in ah if e.tag == "build city")
    assert build.label == 'if option == none then "build no more cities" else option' and build.heuristic_at


def test_decisions_only_an_option_asks_are_marked_with_the_option():
    rtta = decision_catalogue(load_target("roll-through-the-ages"))
    trade = next(e for e in rtta if e.tag == "accept trade")
    assert {s.option for s in trade.sites} == {"option trading"}


def test_decisions_in_the_files_an_option_imports_are_listed_with_the_option():
    """Warp Spawn's map version is an option that imports whole files: their decisions, words and
    heuristics are in the catalogue, marked with the option; so are the words and heuristics an option
    declares itself (RTTA's Trading game)."""
    ws = {e.tag: e for e in decision_catalogue(load_target("warp-spawn-solitaire"))}
    move = ws["move to"]
    assert {s.option for s in move.sites} == {"option map"}
    assert all(s.where.startswith("warp-spawn-solitaire/map") for s in move.sites)
    assert move.question and move.heuristic_at and move.heuristic_at.startswith("warp-spawn-solitaire/map")
    assert {s.option for s in ws["lose population"].sites} == {"", "option map"}  # (asked its own way on the map)
    rtta = {e.tag: e for e in decision_catalogue(load_target("roll-through-the-ages"))}
    assert rtta["trade with"].question and rtta["trade with"].heuristic_at  # (an option's own words and heuristic)


def test_the_command_prints_it(capsys):
    code, out = run(capsys, "explain", "--decisions", "warp-spawn-solitaire")
    assert code == 0 and out.startswith("warp-spawn-solitaire: 24 decision tag(s), asked at 34 place(s)")
    assert '\n"lose population"\n' in out and "  asked at warp-spawn-solitaire/rules.civ:" in out
    code, out = run(capsys, "explain", "--decisions", "warp-spawn-solitaire", "--markdown")
    assert code == 0 and "- **`lose population`**:" in out
    code, out = run(capsys, "explain", "warp-spawn-solitaire")
    assert code == 2 and "name a rule, or give --decisions" in out


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_edition_page_embeds_the_catalogue(edition):
    rs = load_target(edition)
    fresh = render_catalogue(decision_catalogue(rs), rs.edition(), markdown=True).rstrip("\n")
    check_block(ROOT / "docs" / "editions" / f"{edition}.md", f"<!-- civdsl explain --decisions {edition}: start -->",
                END, fresh, "run CIVDSL_UPDATE_GOLDEN=1 python -m pytest tests/test_scenarios_decisions.py")
