"""The pytest plugin (`civdsl.tools.scenarios.pytest_plugin`): scenario files collected as test items, run by
the scenario runner, with pytest's selection, stopping, JUnit XML and pytest-xdist; failures show the
runner's own differences. Each test runs pytest inside pytest (`pytester`) on scenarios of a tiny edition
written into its folder (`tiny/`; its scenarios under `tiny/scenarios/` name it as `..`)."""
from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

import pytest

from civdsl.tools.scenarios import is_scenario_file
from civdsl.tools.scenarios.pytest_plugin import looks_like_scenario

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = "civdsl.tools.scenarios.pytest_plugin"


def _entry_point_installed() -> bool:
    return any(ep.value == PLUGIN for ep in metadata.entry_points(group="pytest11"))


# An install made before the entry point was declared does not load the plugin by itself: load it by name
# then (loading it both ways would collect every file twice).
LOAD = [] if _entry_point_installed() else ["-p", PLUGIN]

TINY = """game "Tiny" { edition: "tiny" players: 1..2 }
player counter food = 0
phase harvest { player.food += 3 }
sequence { phases: harvest }
victory { winner: player.food >= 9  max_rounds: 3 }
"""

HARVEST = """scenario: harvest {name}
source: a test
edition: ..
state:
  P1: {{food: 9}}
run: {{phase: harvest, player: P1}}
expect:
  P1: {{food: {food}}}
"""


def _project(pytester, **files):
    """The tiny edition and the files given (paths relative to the test's folder)."""
    files = {"tiny/game.civ": TINY, **files}
    for name, text in files.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run(pytester, *args):
    # (this module imported the plugin before the inner run loads it: pytest warns it cannot rewrite it)
    return pytester.runpytest(*LOAD, "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestAssertRewriteWarning",
                              *args)


def test_pyproject_declares_the_entry_point():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["entry-points"]["pytest11"] == {"civdsl": PLUGIN}
    assert any(dep.startswith("pytest-xdist") for dep in data["project"]["optional-dependencies"]["test"])


def test_only_scenario_files_are_collected(pytester):
    _project(pytester, **{
        "tiny/scenarios/right.yaml": HARVEST.format(name="right", food=12),
        "tiny/scenarios/wrong.yml": HARVEST.format(name="wrong", food=13),
        "game.yaml": "edition: tiny/game.civ\nplayers: 2\n",                           # a game config
        ".github/workflows/ci.yml": "jobs:\n  test:\n    scenario: x\n    edition: y\n",  # nested keys only
        "notes.yaml": "scenario: not a civdsl one\nsteps: [a, b]\n",                  # no edition
        "data.json": '{"scenario": "x", "edition": "y"}',
    })
    result = _run(pytester, "--collect-only", "-q")
    result.stdout.fnmatch_lines(["tiny/scenarios/right.yaml::harvest right", "tiny/scenarios/wrong.yml::harvest wrong"])
    assert "game.yaml" not in result.stdout.str() and "notes.yaml" not in result.stdout.str()
    assert "2 tests collected" in result.stdout.str()


def test_a_failing_scenario_shows_its_differences_and_the_rule(pytester):
    _project(pytester, **{"tiny/scenarios/right.yaml": HARVEST.format(name="right", food=12),
                          "tiny/scenarios/wrong.yaml": HARVEST.format(name="wrong", food=13)})
    result = _run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*_ scenario: harvest wrong _*",
        "P1.food: expected 13, got 12 * (last changed at *game.civ:3)",
        "source: a test",
        "*short test summary*",
        "FAILED tiny/scenarios/wrong.yaml::harvest wrong - P1.food: expected 13*",
    ])
    assert "Traceback" not in result.stdout.str() and "runner.py" not in result.stdout.str()


def test_k_selects_scenarios_by_title(pytester):
    _project(pytester, **{"tiny/scenarios/right.yaml": HARVEST.format(name="right", food=12),
                          "tiny/scenarios/wrong.yaml": HARVEST.format(name="wrong", food=13)})
    result = _run(pytester, "-k", "right")
    result.assert_outcomes(passed=1, deselected=1)


def test_x_stops_at_the_first_failure(pytester):
    _project(pytester, **{f"tiny/scenarios/w{i}.yaml": HARVEST.format(name=f"wrong {i}", food=13 + i)
                          for i in range(3)})
    result = _run(pytester, "-x")
    result.assert_outcomes(failed=1)
    assert result.ret == 1


def test_junit_xml_names_the_scenario_its_file_and_line(pytester):
    _project(pytester, **{"tiny/scenarios/wrong.yaml": "# a comment first\n\n" + HARVEST.format(name="wrong", food=13)})
    xml = pytester.path / "out.xml"
    result = _run(pytester, f"--junitxml={xml}", "-o", "junit_family=xunit1")
    assert result.ret == 1
    case = ET.parse(xml).getroot().find(".//testcase")
    assert case.get("name") == "harvest wrong"
    assert case.get("file") == "tiny/scenarios/wrong.yaml"
    assert case.get("line") == "2"          # 0-based, as pytest writes it: the `scenario:` key on line 3
    assert "P1.food: expected 13, got 12" in case.find("failure").text


def test_a_scenario_that_does_not_load_is_one_failing_item_with_its_diagnostic(pytester):
    _project(pytester, **{"tiny/scenarios/broken.yaml": "scenario: typo\nedition: ..\nrun: {phase: harvest}\n"
                                                       "expect:\n  P1: {food: 1}\nexpcet: {}\n",
                          "tiny/scenarios/bad-yaml.yaml": "scenario: tabs\nedition: ..\nrun:\n\t- phase: harvest\n"})
    result = _run(pytester, "-v")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert "broken.yaml::typo FAILED" in out and "bad-yaml.yaml::tabs FAILED" in out
    assert "tiny/scenarios/broken.yaml:6:1: error[SCN002]: expcet: unknown key" in out
    assert "tiny/scenarios/bad-yaml.yaml:4:1: error[SCN001]: invalid YAML" in out
    assert "Traceback" not in out


def test_a_scenario_naming_a_missing_phase_fails_with_the_diagnostic(pytester):
    _project(pytester, **{"tiny/scenarios/s.yaml": HARVEST.format(name="x", food=12).replace("phase: harvest",
                                                                                             "phase: harvset")})
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    assert "tiny/scenarios/s.yaml:6:7: error[SCN009]: unknown phase `harvset`" in result.stdout.str()
    assert "help: did you mean `harvest`?" in result.stdout.str()


def test_edition_option_runs_under_another_edition(pytester):
    _project(pytester, **{"tiny/scenarios/s.yaml": HARVEST.format(name="x", food=12),
                          "tiny2/game.civ": TINY.replace('"tiny"', '"tiny2"').replace("+= 3", "+= 4")})
    _run(pytester).assert_outcomes(passed=1)
    result = _run(pytester, "--civdsl-edition", str(pytester.path / "tiny2" / "game.civ"))
    result.assert_outcomes(failed=1)
    assert "P1.food: expected 12, got 13" in result.stdout.str()


def test_xdist_runs_scenarios_in_two_workers(pytester):
    pytest.importorskip("xdist")
    _project(pytester, **{f"tiny/scenarios/s{i}.yaml": HARVEST.format(name=f"n{i}", food=12 if i % 3 else 99)
                          for i in range(6)})
    result = pytester.runpytest_subprocess(*LOAD, "-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=4, failed=2)
    result.stdout.fnmatch_lines(["*2 workers*", "*P1.food: expected 99, got 12*"])


def test_the_rule_finds_every_shipped_scenario_and_nothing_else():
    """Every YAML file under rulesets/ and examples/ is collected exactly when `civdsl test` runs it."""
    yamls = [p for top in ("rulesets", "examples") for p in (ROOT / top).rglob("*.y*ml")]
    assert yamls
    assert [p for p in yamls if looks_like_scenario(p) != is_scenario_file(p)] == []
    assert sum(map(looks_like_scenario, yamls)) > 400
