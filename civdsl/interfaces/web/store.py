"""The server's games in one embedded SQLite file (`DIR/games.sqlite3`): what is needed to rebuild every game
(its spec and seed, the seat tokens, every answer a person gave, in order), and the log of each finished game.

Same spec + seed + answers = the same game (the project's determinism), so a game in progress is never
stored as a state: after a restart it is replayed from its answers. An answer is committed before the
game sees it, so no answer a person was told was taken can be lost by stopping the server.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

DB_NAME = "games.sqlite3"
MARKER = "civdsl-web"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY, created REAL NOT NULL, title TEXT NOT NULL, spec TEXT NOT NULL, host TEXT NOT NULL,
  status TEXT NOT NULL, result TEXT, error TEXT, log TEXT);
CREATE TABLE IF NOT EXISTS seats (
  game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, token TEXT UNIQUE,
  PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS answers (
  game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, choice INTEGER NOT NULL, tag TEXT, at REAL,
  PRIMARY KEY (game_id, n));
CREATE TABLE IF NOT EXISTS logs (id TEXT PRIMARY KEY, created REAL NOT NULL, name TEXT, text TEXT NOT NULL);
"""

RUNNING, FINISHED, FAILED = "running", "finished", "failed"


class StoreError(Exception):
    """The data folder cannot be used (not ours, not writable); the message says why."""


class Store:
    """One database, shared by the request threads and the game threads (one connection, one lock)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.lock = threading.Lock()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.path = self.folder / DB_NAME
            self.db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives the process being killed
            self._check_or_create()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot use the data folder `{folder}`: {exc}") from None

    def _check_or_create(self) -> None:
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and "meta" not in tables:
            raise StoreError(f"`{self.path}` is not a civdsl web database; give another --data folder")
        self.db.executescript(SCHEMA)
        marker = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        if not marker:
            self.db.executemany("INSERT INTO meta VALUES (?, ?)", [("marker", MARKER), ("version", str(SCHEMA_VERSION))])
        elif marker.get("marker") != MARKER or marker.get("version") != str(SCHEMA_VERSION):
            raise StoreError(f"`{self.path}` is not a civdsl web database of version {SCHEMA_VERSION}")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def _rows(self, sql: str, args: tuple = ()) -> list[dict]:
        with self.lock:
            cur = self.db.execute(sql, args)
            names = [d[0] for d in cur.description]
            return [dict(zip(names, row)) for row in cur.fetchall()]

    def _write(self, sql: str, args: tuple = ()) -> None:
        with self.lock:
            self.db.execute(sql, args)

    # -- games -----------------------------------------------------------------------------------------
    def add_game(self, game_id: str, title: str, spec: dict, host: str, seats: list[tuple[int, str, str | None]]) -> None:
        """A new game with its seats (seat index, kind, token or None for an agent), in one transaction."""
        with self.lock:
            self.db.execute("BEGIN")
            try:
                self.db.execute("INSERT INTO games (id, created, title, spec, host, status) VALUES (?, ?, ?, ?, ?, ?)",
                                (game_id, time.time(), title, json.dumps(spec), host, RUNNING))
                self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                                    [(game_id, seat, kind, token) for seat, kind, token in seats])
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def game(self, game_id: str) -> dict | None:
        rows = self._rows("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        row["spec"] = json.loads(row["spec"])
        row["result"] = json.loads(row["result"]) if row["result"] else None
        return row

    def game_by_host(self, host: str) -> dict | None:
        rows = self._rows("SELECT id FROM games WHERE host = ?", (host,))
        return self.game(rows[0]["id"]) if rows else None

    def games(self, limit: int = 50) -> list[dict]:
        """The latest games, newest first, without their logs."""
        return self._rows("SELECT id, created, title, status, result IS NOT NULL AS has_result, log IS NOT NULL "
                          "AS has_log FROM games ORDER BY created DESC LIMIT ?", (limit,))

    def running(self) -> list[str]:
        return [r["id"] for r in self._rows("SELECT id FROM games WHERE status = ? ORDER BY created", (RUNNING,))]

    def set_spec(self, game_id: str, spec: dict) -> None:
        self._write("UPDATE games SET spec = ? WHERE id = ?", (json.dumps(spec), game_id))

    def finish(self, game_id: str, status: str, result: dict | None, log: str | None, error: str | None) -> None:
        self._write("UPDATE games SET status = ?, result = ?, log = ?, error = ? WHERE id = ?",
                    (status, json.dumps(result) if result is not None else None, log, error, game_id))

    def game_log(self, game_id: str) -> str | None:
        rows = self._rows("SELECT log FROM games WHERE id = ?", (game_id,))
        return rows[0]["log"] if rows else None

    # -- seats -----------------------------------------------------------------------------------------
    def seats(self, game_id: str) -> list[dict]:
        return self._rows("SELECT seat, kind, token FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))

    def seat_of(self, token: str) -> tuple[str, int] | None:
        rows = self._rows("SELECT game_id, seat FROM seats WHERE token = ?", (token,))
        return (rows[0]["game_id"], rows[0]["seat"]) if rows else None

    # -- answers ---------------------------------------------------------------------------------------
    def answers(self, game_id: str) -> list[dict]:
        return self._rows("SELECT n, seat, choice FROM answers WHERE game_id = ? ORDER BY n", (game_id,))

    def add_answer(self, game_id: str, n: int, seat: int, choice: int, tag: str) -> bool:
        """Store the answer to decision `n`; False when it was answered already (the first answer stays)."""
        try:
            self._write("INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?)", (game_id, n, seat, choice, tag, time.time()))
        except sqlite3.IntegrityError:
            return False
        return True

    # -- uploaded logs ---------------------------------------------------------------------------------
    def add_log(self, log_id: str, name: str, text: str) -> None:
        self._write("INSERT INTO logs VALUES (?, ?, ?, ?)", (log_id, time.time(), name, text))

    def log(self, log_id: str) -> str | None:
        rows = self._rows("SELECT text FROM logs WHERE id = ?", (log_id,))
        return rows[0]["text"] if rows else None
