"""The Gibsons (UK) edition, an overlay on Avalon Hill 1981: its scenarios pin each difference (they
pass under Gibsons rules and fail under the 1981 rules), its docs page lists exactly the differences
`civdsl diff avalon-hill-1981 gibsons-uk` finds, and its games play to the end with every invariant.

After a deliberate change to the edition, refresh the errata sheet on the docs page with
`CIVDSL_UPDATE_GOLDEN=1 python -m pytest tests/test_gibsons.py`.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from docblock import check_block

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError
from civdsl.tools.ruleview import diff, load_target, render_diff
from civdsl.tools.scenario import find_scenarios, load_scenario, run_scenario

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "rulesets" / "gibsons-uk" / "scenarios"
PAGE = REPO / "docs" / "editions" / "gibsons-uk.md"
START, END = "<!-- civdsl diff avalon-hill-1981 gibsons-uk: start -->", "<!-- civdsl diff: end -->"

DIFFERENCES = [p for p in find_scenarios([str(SCENARIOS)]) if not p.name.startswith("same-")]


def test_every_difference_has_scenarios():
    assert len(DIFFERENCES) >= 20


@pytest.mark.parametrize("path", DIFFERENCES, ids=lambda p: p.stem)
def test_scenario_passes_under_gibsons_and_fails_under_avalon_hill(path):
    sc = load_scenario(str(path))
    assert sc.data["edition"] == "gibsons-uk"
    outcome = run_scenario(sc)
    assert outcome.passed, outcome.problems
    try:
        under_ah = run_scenario(sc, "avalon-hill-1981")
    except CivError:  # it names a phase or answer the 1981 rules do not have: a difference too
        return
    assert not under_ah.passed, "the scenario passes under Avalon Hill 1981 rules too: it pins no difference"


def errata_sheet() -> str:
    """`civdsl diff avalon-hill-1981 gibsons-uk --format markdown`, its headings one level down."""
    a, b = load_target("avalon-hill-1981"), load_target("gibsons-uk")
    text = render_diff(a, b, diff(a, b), "markdown", ("avalon-hill-1981", "gibsons-uk"))
    return re.sub(r"^(#+) ", r"#\1 ", text, flags=re.M)


def test_docs_page_shows_the_errata_sheet_as_civdsl_diff_prints_it():
    check_block(PAGE, START, END, errata_sheet(), "run CIVDSL_UPDATE_GOLDEN=1 pytest tests/test_gibsons.py")


def test_difference_table_names_exactly_the_rules_civdsl_diff_finds():
    page = PAGE.read_text(encoding="utf-8").split(START)[0]
    table = [line for line in page.splitlines() if line.startswith("| ") and line.count("|") >= 6]
    named = set()
    for row in table[1:]:
        cell = row.split("|")[4]
        named.update(re.findall(r"`((?:[a-z_]+ )?[^`]+)`", cell))
    a, b = load_target("avalon-hill-1981"), load_target("gibsons-uk")
    found = {f"{c.key[0]} {c.key[1]}".strip() for c in diff(a, b)}
    assert named == found, (f"on the page, not in the diff: {sorted(named - found)}; "
                            f"in the diff, not on the page: {sorted(found - named)}")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_heuristic_games_play_with_every_invariant(players):
    program = load_program("gibsons-uk")
    game = Game(program, players, players * 7, make_agents(["heuristic"], players, players * 7),
                logging=False, max_rounds=25, check_invariants=True)
    result = game.run()
    assert result.rounds >= 1
    tokens = program.ruleset.decls[("param", "tokens_in_set")]
    assert tokens.value.value == 56


def test_the_example_config_switches_edition_with_one_line(tmp_path):
    from civdsl.api import check_config, new_game
    from civdsl.language.config import load_config
    example = REPO / "examples" / "gibsons-5p.yaml"
    text = example.read_text(encoding="utf-8")
    assert "edition: gibsons-uk\n" in text
    switched = tmp_path / "ah-5p.yaml"
    switched.write_text(text.replace("edition: gibsons-uk\n", "edition: avalon-hill-1981\n"), encoding="utf-8")
    editions = []
    for path in (example, switched):
        cfg = load_config(str(path))
        assert check_config(cfg) == []
        cfg.max_rounds = 3
        game = new_game(cfg, logging=False)
        assert game.run().rounds == 3
        editions.append(game.rs.edition())
    assert editions == ["gibsons-uk", "avalon-hill-1981"]
