"""`civdsl stats` and `civdsl compare` on real results files: what they print agrees with the stored
rows, the report is one self-contained HTML file, and the same config compared with itself shows no
difference while an option that changes the game does."""
from __future__ import annotations

import json
import re

import duckdb
import pytest
from cli_run import run, write

RTTA = "edition: roll-through-the-ages\nplayers: 2\n"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results file of 120 two-player RTTA games (simulated once for the module)."""
    from civdsl.interfaces.cli import main
    folder = tmp_path_factory.mktemp("lab")
    db = folder / "r.duckdb"
    write(folder / "rtta.yaml", RTTA)
    assert main(["simulate", str(folder / "rtta.yaml"), "--games", "120", "--out", str(db), "-q"]) == 0
    return db


def test_stats_agrees_with_the_stored_rows(results, capsys):
    code, out = run(capsys, "stats", results, "--format", "json")
    assert code == 0
    summary = json.loads(out)
    con = duckdb.connect(str(results), read_only=True)
    wins = dict(con.execute("SELECT seat, count(*) FROM players WHERE winner GROUP BY seat").fetchall())
    mean_rounds = con.execute("SELECT avg(rounds) FROM games").fetchone()[0]
    con.close()
    assert summary["counts"]["games"] == 120
    assert {r["seat"]: r["wins"] for r in summary["wins"]["by_seat"]} == wins
    assert summary["length"]["mean"] == pytest.approx(mean_rounds)
    for r in summary["wins"]["by_seat"]:
        assert r["low"] <= r["rate"] <= r["high"]
    code, text = run(capsys, "stats", results)
    assert "Win rate by seat" in text and "95% CI" in text
    code, markdown = run(capsys, "stats", results, "--format", "markdown")
    assert "| seat |" in markdown


def test_the_html_report_is_one_self_contained_file(results, tmp_path, capsys):
    report, plots = tmp_path / "report.html", tmp_path / "plots"
    code, _ = run(capsys, "stats", results, "--html", report, "--plots", plots)
    assert code == 0
    html = report.read_text(encoding="utf-8")
    assert "Win rate by seat" in html and "<script" not in html and "http://" not in html
    assert len(re.findall(r'src="data:image/png;base64,', html)) >= 2
    assert (plots / "win_rate_by_seat.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_config_compared_with_itself_differs_in_nothing(tmp_path, capsys):
    a = write(tmp_path / "a.yaml", RTTA)
    b = write(tmp_path / "b.yaml", RTTA)
    code, out = run(capsys, "compare", a, b, "--games", "40", "--out", tmp_path / "c.duckdb", "--format", "json", "-q")
    assert code == 0
    result = json.loads(out[out.index("{"):])
    assert result["paired"] is True
    assert result["metrics"] and all(m["diff"] in (0, 0.0, None) for m in result["metrics"])
    assert not any(m["significant"] for m in result["metrics"])


def test_an_option_that_shortens_the_game_shows_as_a_significant_difference(tmp_path, capsys):
    a = write(tmp_path / "solo.yaml", "edition: roll-through-the-ages\nplayers: 1\n")
    b = write(tmp_path / "solo12.yaml", "edition: roll-through-the-ages\nplayers: 1\nhouse_rules: [rtta-solitaire-12]\n")
    code, out = run(capsys, "compare", a, b, "--games", "60", "--out", tmp_path / "c.duckdb", "--format", "json")
    assert code == 0, out
    result = json.loads(out[out.index("{"):])
    length = next(m for m in result["metrics"] if "length" in m["metric"])
    assert length["diff"] == 2 and length["significant"], length  # 10 rounds, then 12
    valued = {m["group"] for m in result["metrics"] if m["metric"] == "measurement value per game"}
    assert "development" in valued  # what the measurements add up to, besides how often they were taken
    code, text = run(capsys, "compare", a, b, "--games", "60", "--out", tmp_path / "c.duckdb")
    assert "0 game(s) played" in text  # both runs were stored: nothing played again
    ids = re.findall(r"run (\w+) —", text)
    code, out = run(capsys, "compare", "--runs", ids[0][:6], ids[1], "--out", tmp_path / "c.duckdb", "--format", "json")
    stored = json.loads(out)
    assert code == 0 and stored["paired"] is True
    assert [(m["metric"], m["group"], m["diff"]) for m in stored["metrics"]] == \
        [(m["metric"], m["group"], m["diff"]) for m in result["metrics"]]  # the same comparison, read back
    code, out = run(capsys, "compare", a, b)
    assert code == 2 and "LAB013" in out


def test_configs_of_different_editions_are_not_compared_unless_asked(tmp_path, capsys):
    a = write(tmp_path / "a.yaml", RTTA)
    b = write(tmp_path / "b.yaml", "edition: warp-spawn-solitaire\nmax_rounds: 5\n")
    code, out = run(capsys, "compare", a, b, "--games", "4", "--out", tmp_path / "c.duckdb")
    assert code == 2 and "LAB012" in out and "--allow-mixed" in out
    code, out = run(capsys, "compare", a, b, "--games", "4", "--out", tmp_path / "c.duckdb", "--allow-mixed")
    assert code == 0, out


def test_stats_asks_which_run_when_a_file_holds_several(results, tmp_path, capsys):
    db = tmp_path / "two.duckdb"
    assert run(capsys, "simulate", "--edition", "roll-through-the-ages", "--players", "1", "--games", "3",
               "--out", db)[0] == 0
    assert run(capsys, "simulate", "--edition", "roll-through-the-ages", "--players", "2", "--games", "3",
               "--out", db)[0] == 0
    code, out = run(capsys, "stats", db)
    assert code == 2 and "LAB011" in out and "several runs" in out
    run_id = re.search(r"pick one with --run: (\w+)", out).group(1)
    code, out = run(capsys, "stats", db, "--run", run_id[:6], "--format", "json")
    assert code == 0 and json.loads(out)["run"]["run_id"] == run_id
    one = write(tmp_path / "one.yaml", "edition: roll-through-the-ages\nplayers: 1\n")
    code, out = run(capsys, "stats", db, "--config", one, "--format", "json")
    assert code == 0 and json.loads(out)["counts"]["player_counts"] == [{"players": 1, "games": 3}]
    code, out = run(capsys, "stats", tmp_path / "missing.duckdb")
    assert code == 2 and "no results file" in out
