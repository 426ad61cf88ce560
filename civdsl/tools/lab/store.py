"""Results in an embedded DuckDB file: several runs and configs in one database, a game stored whole or
not at all, so an interrupted `simulate` resumes with the seeds it has not stored (docs/lab.md has the
schema).

A run is the games of one config under one version of its rules (`runner.config_hash`); its rows
carry the run's id. A database that is not a civdsl results file is refused, never changed.
"""
from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from ...language.diagnostics import error

SCHEMA_VERSION = 1
MARKER = "civdsl-lab"

SCHEMA = """
CREATE TABLE IF NOT EXISTS lab_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, config_path TEXT, edition TEXT, ruleset_hash TEXT, players INTEGER,
  spec TEXT, civdsl_version TEXT, created TEXT);
CREATE TABLE IF NOT EXISTS games (
  run_id TEXT, seed BIGINT, ruleset_hash TEXT, players INTEGER, rounds INTEGER, end_reason TEXT,
  winners TEXT, wall_time DOUBLE, error_code TEXT, error_message TEXT, error_rule TEXT,
  PRIMARY KEY (run_id, seed));
CREATE TABLE IF NOT EXISTS players (
  run_id TEXT, seed BIGINT, seat INTEGER, player TEXT, label TEXT, agent TEXT, place INTEGER,
  score DOUBLE, winner BOOLEAN, breakdown TEXT);
CREATE TABLE IF NOT EXISTS measures (
  run_id TEXT, seed BIGINT, seq INTEGER, round INTEGER, name TEXT, player TEXT, value DOUBLE, fields TEXT);
"""

GAME_COLUMNS = ("seed", "ruleset_hash", "players", "rounds", "end_reason", "winners", "wall_time", "error_code",
                "error_message", "error_rule")
PLAYER_COLUMNS = ("seat", "player", "label", "agent", "place", "score", "winner", "breakdown")
MEASURE_COLUMNS = ("seq", "round", "name", "player", "value", "fields")
_JSON = {"winners", "breakdown", "fields"}
TABLES = ("games", "players", "measures")


class Store:
    """One results database, open for a run's writes and reads."""

    def __init__(self, path: str):
        import duckdb
        self.path = path
        p = Path(path)
        if p.exists() and (p.is_dir() or not _looks_like_duckdb(p)):
            raise error("LAB010", f"`{path}` is not a DuckDB results file", None,
                        "name a new file (results.duckdb) or one `civdsl simulate` wrote")
        try:
            self.db = duckdb.connect(str(p))
        except (duckdb.Error, OSError) as exc:
            raise error("LAB010", f"cannot open results file `{path}`: {_first_line(exc)}", None,
                        "name a writable file in an existing folder") from None
        self._check_or_create()
        self.columns = {t: _columns(self.db, t) for t in TABLES}

    def _check_or_create(self) -> None:
        tables = {r[0] for r in self.db.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        if tables and "lab_meta" not in tables:
            self.db.close()
            raise error("LAB010", f"`{self.path}` is a DuckDB file, but not civdsl results (tables: "
                        f"{', '.join(sorted(tables)[:5])})", None, "name another file; this one is left as it is")
        self.db.execute(SCHEMA)
        marker = dict(self.db.execute("SELECT key, value FROM lab_meta").fetchall())
        if not marker:
            self.db.execute("INSERT INTO lab_meta VALUES ('format', ?), ('schema', ?)", [MARKER, str(SCHEMA_VERSION)])
        elif marker.get("format") != MARKER or marker.get("schema") != str(SCHEMA_VERSION):
            self.db.close()
            raise error("LAB010", f"`{self.path}` holds results of another format ({marker})", None,
                        "write to a new file")

    def close(self) -> None:
        self.db.close()

    # -- writing ------------------------------------------------------------------------------------------
    def add_run(self, run_id: str, config_path: str | None, edition: str, ruleset_hash: str, players: int,
                spec: dict, version: str) -> None:
        self.db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        [run_id, config_path, edition, ruleset_hash, players, json.dumps(spec, sort_keys=True),
                         version, datetime.now(timezone.utc).isoformat(timespec="seconds")])

    def stored_seeds(self, run_id: str) -> set[int]:
        return {r[0] for r in self.db.execute("SELECT seed FROM games WHERE run_id = ?", [run_id]).fetchall()}

    def add_games(self, run_id: str, games: list[dict]) -> None:
        """Store finished games (`encode`d), all of them or none (one transaction)."""
        if not games:
            return
        self.db.execute("BEGIN TRANSACTION")
        try:
            for table in TABLES:
                _insert(self.db, table, run_id, [line for g in games for line in g["lines"][table]],
                        self.columns[table])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    # -- reading ------------------------------------------------------------------------------------------
    def runs(self) -> list[dict]:
        cur = self.db.execute("SELECT r.*, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id) AS games "
                              "FROM runs r ORDER BY created, run_id")
        return [_row(cur.description, r) for r in cur.fetchall()]

    def load(self, run_id: str) -> tuple[list[dict], list[dict], list[dict]]:
        """The rows of one run (see `lab`): games, players, measures, each with run_id and config_hash."""
        edition = self.db.execute("SELECT edition FROM runs WHERE run_id = ?", [run_id]).fetchone()
        out = []
        for table in ("games", "players", "measures"):
            order = {"games": "seed", "players": "seed, seat", "measures": "seed, seq"}[table]
            cur = self.db.execute(f"SELECT * FROM {table} WHERE run_id = ? ORDER BY {order}", [run_id])
            rows = [_row(cur.description, r) for r in cur.fetchall()]
            for r in rows:
                r["config_hash"] = run_id
                if table == "games":
                    r["edition"] = edition[0] if edition else None
            out.append(rows)
        return out[0], out[1], out[2]


def encode(rows: dict) -> dict:
    """A game's rows (see `lab`) as the JSON Lines of its three tables, run id left out: the encoding is
    most of what storing costs, so the worker that played the game does it. The game's row stays as
    it is (the run reports failed games from it)."""
    g, seed = rows["game"], rows["game"]["seed"]
    return {"game": g, "lines": {
        "games": [json.dumps({k: _cell(k, g.get(k)) for k in GAME_COLUMNS})],
        "players": [json.dumps({"seed": seed} | {k: _cell(k, p.get(k)) for k in PLAYER_COLUMNS})
                    for p in rows["players"]],
        "measures": [json.dumps({"seed": seed} | {k: _cell(k, m.get(k)) for k in MEASURE_COLUMNS})
                     for m in rows["measures"]]}}


def _columns(db, table: str) -> str:
    """The table's columns but the run id, as `read_json` wants them: `{'seed': 'BIGINT', ...}`."""
    types = db.execute("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
                       "ORDER BY ordinal_position", [table]).fetchall()
    return "{" + ", ".join(f"'{n}': '{t}'" for n, t in types if n != "run_id") + "}"


def _insert(db, table: str, run_id: str, lines: list[str], columns: str) -> None:
    """Lines through a JSON Lines file DuckDB reads at once: binding parameters costs DuckDB ~60 µs a
    row, as much as playing the game; its JSON reader takes the whole batch in milliseconds."""
    if not lines:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        db.execute(f"INSERT INTO {table} SELECT ?, * FROM read_json('{f.name}', format = 'newline_delimited', "
                   f"columns = {columns})", [run_id])
    finally:
        os.unlink(f.name)


def _cell(key: str, value):
    return json.dumps(value, sort_keys=True) if key in _JSON else value


def _row(description, values) -> dict:
    row = {}
    for (name, *_), v in zip(description, values):
        row[name] = json.loads(v) if name in _JSON and v is not None else v
    return row


def _looks_like_duckdb(p: Path) -> bool:
    """A DuckDB file carries `DUCK` at byte 8."""
    try:
        with p.open("rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return head[8:12] == b"DUCK"


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__

