"""`civdsl simulate`: game i is the same game on every backend, results land in a real DuckDB file,
an interrupted or crashed run resumes without losing or repeating a game, failed games are recorded
and reported, and bad input is refused clearly."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import duckdb
import pytest
from cli_run import run, write
from one_file import one_file_edition

from civdsl.language.config import GameConfig
from civdsl.tools.lab import runner
from civdsl.tools.lab.simulation import simulate
from civdsl.tools.lab.store import Store

RTTA = ["--edition", "roll-through-the-ages", "--players", "2"]
GAME_COLUMNS = "seed, ruleset_hash, players, rounds, end_reason, winners, error_code"


def rows(db: Path, sql: str) -> list:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def everything(db: Path) -> list:
    """Every stored row but the wall times, in a fixed order."""
    return (rows(db, f"SELECT {GAME_COLUMNS} FROM games ORDER BY seed")
            + rows(db, "SELECT seed, seat, player, label, agent, place, score, winner, breakdown FROM players "
                       "ORDER BY seed, seat")
            + rows(db, "SELECT seed, seq, round, name, player, value, fields FROM measures ORDER BY seed, seq"))


def test_a_game_is_the_same_game_with_one_process_two_or_ray(tmp_path, capsys):
    dbs = {}
    for name, extra in (("one", ["--jobs", "1"]), ("two", ["--jobs", "2"]), ("ray", ["--jobs", "2", "--backend", "ray"])):
        dbs[name] = tmp_path / f"{name}.duckdb"
        code, out = run(capsys, "simulate", *RTTA, "--games", "60", "--seed", "5", "--out", dbs[name])
        assert code == 0, out
        assert "60 game(s) played" in out
    assert rows(dbs["one"], "SELECT count(*), min(seed), max(seed) FROM games") == [(60, 5, 64)]
    assert rows(dbs["one"], "SELECT count(*) FROM players") == [(120,)]
    assert everything(dbs["one"]) == everything(dbs["two"]) == everything(dbs["ray"])


def test_the_rows_are_those_of_the_game_played_alone(tmp_path, capsys):
    from civdsl.api import new_game
    db = tmp_path / "r.duckdb"
    assert run(capsys, "simulate", *RTTA, "--games", "3", "--seed", "11", "--out", db)[0] == 0
    result = new_game(GameConfig(edition="roll-through-the-ages", players=2, seed=12), logging=False).run()
    stored = rows(db, "SELECT rounds, end_reason, winners FROM games WHERE seed = 12")
    assert stored == [(result.rounds, result.reason, json_text(result.winners))]
    places = rows(db, "SELECT player, place, score FROM players WHERE seed = 12 ORDER BY place")
    assert places == [(r["player"], r["place"], float(r["score"])) for r in result.ranking]


def json_text(value) -> str:
    import json
    return json.dumps(value, sort_keys=True)


def test_a_second_run_plays_only_the_missing_seeds(tmp_path, capsys):
    db = tmp_path / "r.duckdb"
    assert run(capsys, "simulate", *RTTA, "--games", "20", "--out", db, "--jobs", "2")[0] == 0
    code, out = run(capsys, "simulate", *RTTA, "--games", "50", "--out", db, "--jobs", "2")
    assert code == 0 and "30 game(s) played" in out and "20 already stored" in out
    assert rows(db, "SELECT count(*), count(DISTINCT seed) FROM games") == [(50, 50)]
    assert rows(db, "SELECT count(*) FROM players") == [(100,)]


def test_an_interrupted_run_keeps_its_games_and_resumes(tmp_path, monkeypatch):
    db = str(tmp_path / "r.duckdb")
    cfg = GameConfig(edition="roll-through-the-ages", players=2, seed=0)
    monkeypatch.setattr("civdsl.tools.lab.simulation.FLUSH_SECONDS", 0.0)

    def ctrl_c(done, total):
        if done == 15:
            raise KeyboardInterrupt
    store = Store(db)
    first = simulate(cfg, None, 40, store, jobs=1, progress=ctrl_c)
    store.close()
    assert first.interrupted and first.played == 15
    assert rows(Path(db), "SELECT count(*) FROM games") == [(15,)]
    store = Store(db)
    second = simulate(cfg, None, 40, store, jobs=2)
    store.close()
    assert second.already == 15 and second.played == 25 and not second.interrupted
    reference = tmp_path / "ref.duckdb"
    store = Store(str(reference))
    simulate(cfg, None, 40, store, jobs=1)
    store.close()
    assert everything(Path(db)) == everything(reference)  # no game lost, none twice


def test_a_worker_that_dies_is_replaced_and_its_games_played_again(tmp_path, monkeypatch):
    if sys.platform == "win32":
        pytest.skip("needs fork")  # the patched function reaches the workers by fork
    marker = tmp_path / "died-once"
    played = runner.play_one

    def dying(spec, seed):
        if seed == 3 and not marker.exists():
            marker.write_text("x")
            os._exit(9)  # as if killed
        if seed == 7:
            os._exit(9)  # every time
        return played(spec, seed)
    monkeypatch.setattr(runner, "play_one", dying)
    spec = runner.RunSpec("roll-through-the-ages", 2)
    out = {r["game"]["seed"]: r for r in runner.run_local(spec, list(range(12)), jobs=2)}
    assert sorted(out) == list(range(12))
    assert marker.exists() and out[3]["game"]["error_code"] is None  # died once: played again
    assert out[7]["game"]["error_code"] == runner.WORKER_DIED
    assert all(out[s]["game"]["error_code"] is None for s in out if s != 7)


FAILING = """game "F" { edition: "f" players: 1 }
global counter n = 0
die d6 = 1..6
phase main {
  n += 1
  if roll(d6) == 6 { n = 1 // 0 }
}
sequence { phases: main }
victory { max_rounds: 3 score: n }
"""


def test_failed_games_are_recorded_reported_and_do_not_stop_the_run(tmp_path, capsys):
    entry = one_file_edition(tmp_path, FAILING)
    db = tmp_path / "r.duckdb"
    code, out = run(capsys, "simulate", "--edition", entry, "--games", "30", "--out", db, "--jobs", "2")
    failed = rows(db, "SELECT seed, error_code, error_message, error_rule FROM games WHERE error_code IS NOT NULL "
                      "ORDER BY seed")
    assert code == 1 and rows(db, "SELECT count(*) FROM games") == [(30,)]
    assert 0 < len(failed) < 30
    seed, code_, message, where = failed[0]
    assert code_ == "RUN001" and "division by zero" in message and where.endswith("game.civ:6")
    assert f"{len(failed)} game(s) failed" in out
    assert f"seed {seed}: RUN001" in out and f"replay: civdsl play --edition {entry} --seed {seed}" in out


def test_bad_input_is_refused_clearly(tmp_path, capsys):
    with pytest.raises(SystemExit) as usage:
        run(capsys, "simulate", *RTTA, "--games", "0")
    assert usage.value.code == 2 and "--games: expected at least 1" in capsys.readouterr().err
    code, out = run(capsys, "simulate", tmp_path / "nope.yaml", "--games", "3")
    assert code == 2 and "CFG" in out and "Traceback" not in out
    code, out = run(capsys, "simulate", "--edition", "no-such-edition", "--games", "3", "--out", tmp_path / "r.duckdb")
    assert code == 2 and "no-such-edition" in out and not (tmp_path / "r.duckdb").exists()
    notes = write(tmp_path / "notes.txt", "my notes\n")
    code, out = run(capsys, "simulate", *RTTA, "--games", "3", "--out", notes)
    assert code == 2 and "LAB010" in out and notes.read_text() == "my notes\n"
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE accounts (id INTEGER)")
    con.close()
    code, out = run(capsys, "simulate", *RTTA, "--games", "3", "--out", other)
    assert code == 2 and "not civdsl results" in out
    assert rows(other, "SELECT table_name FROM information_schema.tables") == [("accounts",)]


def test_without_ray_the_hint_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    code, out = run(capsys, "simulate", *RTTA, "--games", "3", "--backend", "ray", "--out", tmp_path / "r.duckdb")
    assert code == 2 and "LAB002" in out and "pip install 'civdsl[ray]'" in out
