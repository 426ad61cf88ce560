"""Rule coverage (`civdsl test --coverage`, `civdsl check --simulate N --coverage`): what the reports say
never ran, the Cobertura and lcov files, that recording changes no game and no plain rule, and the floor
the shipped rulesets' coverage by their own scenarios is held to."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import run, write

from civdsl.api import load_program
from civdsl.compiler.units import COVERAGE
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.interfaces.cli import main
from civdsl.tools.coverage import recorder
from civdsl.tools.coverage.editions import against_floor, figures
from civdsl.tools.coverage.results import measure

ROOT = Path(__file__).resolve().parent.parent
FLOOR = ROOT / "tests" / "data" / "coverage-floor.json"

GAME = """game "Coverage" { edition: "cov" players: 1 }

player counter n in 0.. = 0
player counter out in 0.. = 0

phase tally "Tally" {
  if player.n > 3 {
    player.out = 1
  } else {
    player.out = 2
  }
  let k = if player.n > 10 then 1 else 0
  for i in 1..player.n {
    player.out += k
  }
}

sequence { phases: tally }
victory { winner: player.out > 100 }
"""
IF_LINE, ELSE_BODY_LINE, IFEXPR_LINE, LOOP_LINE, VICTORY_LINE = 7, 10, 12, 13, 19


def scenario(n: int, out: int, run_: str = "{phase: tally, player: P1}") -> str:
    return (f'scenario: "n is {n}"\nsource: test\nedition: ..\nstate:\n  P1: {{n: {n}}}\nrun: {run_}\n'
            f"expect:\n  P1: {{out: {out}}}\n")


@pytest.fixture
def edition(tmp_path, monkeypatch):
    """A one-file edition with a scenario that takes the `if` of line 7 (never its `else`) and the `else`
    value of line 12's `if … then … else`; the working folder is the temporary one."""
    folder = tmp_path / "rulesets" / "cov"
    write(folder / "game.civ", GAME)
    write(folder / "scenarios" / "five.yaml", scenario(5, 1))
    monkeypatch.chdir(tmp_path)
    return folder


def test_a_branch_that_never_ran_is_named(edition, capsys):
    code, out = run(capsys, "test", "--coverage", edition / "scenarios")
    assert code == 0, out
    assert "1 passed, 0 failed" in out
    row = next(line for line in out.splitlines() if line.startswith("rulesets/cov/game.civ"))
    # rules, missed, lines, missed, arms of branches, partial branches, cover: (7 + 4) / (9 + 6)
    assert row.split()[1:8] == ["4", "1", "9", "2", "6", "2", "73%"]
    assert row.endswith(f"{IF_LINE}->else, {ELSE_BODY_LINE}, {IFEXPR_LINE}->then, {VICTORY_LINE}")
    assert f"line {IF_LINE}: the `else` never ran" in out
    assert f"line {IFEXPR_LINE}: the `then` value of `if … then … else` was never chosen" in out
    assert "victory winner never ran" in out  # a phase run alone checks no victory


def test_every_branch_run_is_full_coverage(edition, capsys):
    write(edition / "scenarios" / "zero.yaml", scenario(0, 2, "{rounds: 1}"))  # the else; the loop never turns
    write(edition / "scenarios" / "eleven.yaml", scenario(11, 12))  # the `then` value
    code, out = run(capsys, "test", "--coverage", edition / "scenarios")
    assert code == 0, out
    row = next(line for line in out.splitlines() if line.startswith("rulesets/cov/game.civ"))
    assert row.split()[1:] == ["4", "0", "9", "0", "6", "0", "100%"]
    assert "never ran" not in out


def test_cobertura_and_lcov_agree_with_the_table(edition, capsys, tmp_path):
    xml_path, lcov_path = tmp_path / "out" / "coverage.xml", tmp_path / "out" / "coverage.info"
    xml_path.parent.mkdir()
    code, out = run(capsys, "test", "-q", "--coverage-xml", xml_path, "--coverage-lcov", lcov_path,
                    edition / "scenarios")
    assert code == 0, out
    assert "Rule file" not in out  # the table only with --coverage
    assert f"rule coverage written to {xml_path} (Cobertura XML)" in out

    root = ET.parse(xml_path).getroot()
    assert root.tag == "coverage"
    assert (root.get("lines-valid"), root.get("lines-covered")) == ("9", "7")
    assert (root.get("branches-valid"), root.get("branches-covered")) == ("6", "4")
    assert float(root.get("line-rate")) == pytest.approx(7 / 9, abs=1e-4)
    assert float(root.get("branch-rate")) == pytest.approx(4 / 6, abs=1e-4)
    assert root.find("sources/source").text == str(tmp_path)
    [cls] = root.findall("packages/package/classes/class")
    assert cls.get("filename") == "rulesets/cov/game.civ"
    assert root.find("packages/package").get("name") == "rulesets.cov"
    lines = {int(x.get("number")): x for x in cls.findall("lines/line")}
    assert len(lines) == 9 and sum(x.get("hits") == "1" for x in lines.values()) == 7
    assert lines[ELSE_BODY_LINE].get("hits") == "0"
    assert lines[IF_LINE].get("condition-coverage") == "50% (1/2)"
    assert lines[IF_LINE].get("missing-branches") == "else"
    assert lines[IFEXPR_LINE].get("condition-coverage") == "50% (1/2)"
    assert lines[LOOP_LINE].get("condition-coverage") == "100% (2/2)"  # the loop: its body and its end
    assert "branch" not in lines[VICTORY_LINE].attrib and lines[VICTORY_LINE].get("hits") == "0"
    methods = {m.get("name"): m.get("line-rate") for m in cls.findall("methods/method")}
    assert methods == {"player counter n": "1", "player counter out": "1", "phase tally step tally": "1",
                       "victory winner": "0"}

    records = lcov_path.read_text(encoding="utf-8").split("end_of_record\n")
    assert records[-1] == ""
    [record] = records[:-1]
    fields = [line.split(":", 1) for line in record.splitlines()]
    count = {k: sum(1 for key, _ in fields if key == k) for k in ("DA", "BRDA", "FN", "FNDA")}
    value = dict(f for f in fields if f[0] in ("SF", "LF", "LH", "BRF", "BRH", "FNF", "FNH"))
    assert value["SF"] == "rulesets/cov/game.civ"
    assert (count["DA"], value["LF"], value["LH"]) == (9, "9", "7")
    assert (count["BRDA"], value["BRF"], value["BRH"]) == (6, "6", "4")
    assert count["FN"] == count["FNDA"] == int(value["FNF"]) == 4 and value["FNH"] == "3"
    assert [line for line in record.splitlines() if line.startswith("BRDA:")] == [
        f"BRDA:{IF_LINE},0,0,1", f"BRDA:{IF_LINE},0,1,0", f"BRDA:{IFEXPR_LINE},1,0,0", f"BRDA:{IFEXPR_LINE},1,1,1",
        f"BRDA:{LOOP_LINE},2,0,1", f"BRDA:{LOOP_LINE},2,1,1"]
    assert f"DA:{ELSE_BODY_LINE},0" in record.splitlines() and "FNDA:0,victory winner" in record.splitlines()


def test_a_missing_output_folder_is_a_clear_usage_error(edition, capsys):
    code, out = run(capsys, "test", "--coverage-xml", "no-such-folder/coverage.xml", edition / "scenarios")
    assert code == 2
    assert "--coverage-xml: the folder `no-such-folder` does not exist" in out
    assert "Traceback" not in out and "PASSED" not in out  # said before anything ran
    code, out = run(capsys, "test", "--coverage-lcov", ".", edition / "scenarios")
    assert code == 2 and "is a folder" in out and "Traceback" not in out
    assert not COVERAGE.on


def test_machine_readable_output_stays_clean_with_coverage(edition, capsys):
    code = main(["test", "--format", "json", "--coverage", str(edition / "scenarios")])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["passed"] == 1
    assert "rulesets/cov/game.civ" in err  # the table goes to standard error


def test_check_coverage_needs_simulated_games(edition, capsys):
    code, out = run(capsys, "check", "--coverage", edition)
    assert code == 2 and "give --simulate N too" in out


def test_check_simulate_with_coverage(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    lcov_path = tmp_path / "sim.info"
    code, out = run(capsys, "check", "--simulate", "3", "--jobs", "2", "--coverage", "--coverage-lcov", lcov_path,
                    "rulesets/warp-spawn-solitaire")
    assert code == 0, out
    assert "3/3 simulated games ended cleanly" in out
    row = next(line for line in out.splitlines() if line.startswith("rulesets/warp-spawn-solitaire/rules.civ"))
    assert int(row.split()[3]) > int(row.split()[4])  # lines, of which fewer missed: the games ran them
    assert "SF:rulesets/warp-spawn-solitaire/rules.civ" in lcov_path.read_text(encoding="utf-8")
    assert not COVERAGE.on


def _events(edition: str, players: int, seed: int) -> str:
    program = load_program(edition)
    game = Game(program, players, seed, make_agents(["random"], players, seed), logging=True)
    game.run()
    return json.dumps(game.events, default=str)


@pytest.mark.parametrize("edition,players", [("roll-through-the-ages", 1), ("warp-spawn-solitaire", 1)])
def test_coverage_changes_no_game(edition, players):
    plain = _events(edition, players, 7)
    recorder.start()
    try:
        covered = _events(edition, players, 7)
    finally:
        hits, files = recorder.stop()
    assert covered == plain
    assert len(hits) > 100 and files  # (the game did run instrumented rules)


def test_plain_rules_stay_plain_and_instrumented_ones_do_not_mix():
    before = load_program("roll-through-the-ages").module.source()
    recorder.start()
    try:
        covered = load_program("roll-through-the-ages").module.source()
    finally:
        recorder.stop()
    after = load_program("roll-through-the-ages").module.source()
    assert after == before  # byte for byte: the compiled-unit cache keeps the two apart
    hits_name = re.search(r"(_k\d+)\.add\(_k\d+\)", covered).group(1)
    assert hits_name not in before and ".add(" not in before


def test_every_recorded_site_is_a_site_of_its_file(monkeypatch):
    """The compiler and the site model agree on keys: every site a scenario run records in a shipped
    rule file (presentation aside) is one the report knows."""
    monkeypatch.chdir(ROOT)
    from civdsl.tools.coverage.sites import file_sites, rule_files
    from civdsl.tools.scenario import run_paths
    recorder.start()
    try:
        run_paths(["rulesets/roll-through-the-ages/scenarios", "rulesets/avalon-hill-1981/scenarios"])
    finally:
        hits, files = recorder.stop()
    known = set()
    for path in rule_files(files):
        sites = file_sites(path)
        assert {b.line for b in sites.branches} <= set(sites.lines), path  # (Cobertura lists branches by line)
        known.update(k for r in sites.rules for k in r.keys)
        known.update(k for keys in sites.lines.values() for k in keys)
        known.update(a.key for b in sites.branches for a in b.arms)
    unknown = sorted(h for h in hits if h.split(".civ:")[0] + ".civ" in files and h not in known
                     and not h.split(".civ:")[0].endswith("views"))
    assert not unknown
    assert measure(files, hits)


def test_shipped_rulesets_stay_above_their_coverage_floor():
    """The figures of docs/coverage.md: each shipped ruleset's rule coverage by its own scenarios may not
    drop below the floor in tests/data/coverage-floor.json (nor rise far above it unrecorded)."""
    found = figures(ROOT / "rulesets")
    floor = json.loads(FLOOR.read_text(encoding="utf-8"))
    problems = against_floor(found, floor, str(FLOOR.relative_to(ROOT)))
    assert not problems, "\n".join(problems)
