"""Judge a mutant of the shipped rule files (`mutation_corpus`): does `civdsl check` (no `--simulate`)
report it, and does it make a game fail?

A `Workspace` copies `rulesets/` and `examples/` once into a temporary folder (with its own parse cache,
and `CIVDSL_RULESETS` pointing there, so `extends "avalon-hill-1981"` finds the copy), writes one
mutant's file at a time and puts the original back afterwards.

* **check**: `checker.check_paths` of the mutant's entry, of every edition that loads the mutated file,
  and of the file itself — what `civdsl check rulesets/` says about it. A mutant is *caught* when an
  error appears that the unmutated files do not have; new warnings are counted apart. `check` raising
  instead of reporting is recorded (`check_crash`) and is not a catch.
* **games**: a few short seeded games of the mutant's entry (an edition, a variant or a house rule) with
  the option its edit sits in switched on: random and heuristic agents, the smallest and a larger player
  count, a round limit (`plan`). A mutant *makes a game fail* when a game that the unmutated rules play
  to the end stops with a `CivError` (or a Python exception, or a hang past `HANG_SECONDS`) — loading
  and compiling are part of the game.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from mutation_corpus import ROOT, SOURCES, Mutant

from civdsl.api import allowed_players
from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.language import parse_cache
from civdsl.language.diagnostics import CivError, Diagnostic
from civdsl.language.loader import load_ruleset
from civdsl.tools import checker

HANG_SECONDS = 300         # a mutant's games together; past this it "hangs" (a failure). The engine bounds all
                           # work (RUN010, RUN013), so this is only a safety net, far above a loaded CI machine
MULTI_ROUNDS = 15          # round limit of a game with several players (a heuristic AH game: 1-3 s)
QUICK_ROUNDS = 8           # ... in the CI sample
SOLO_ROUNDS = 60           # and of a solitaire game (they end by themselves, RTTA after 10 rounds)


@dataclass
class Verdict:
    """What happened to one mutant."""

    mutant: Mutant
    errors: list[str] = field(default_factory=list)     # new check errors, "CODE file:line:col message"
    check_crash: str = ""                               # `check` raised instead of reporting (a bug)
    warnings: list[str] = field(default_factory=list)   # new check warnings
    failures: list[str] = field(default_factory=list)   # one line per failing game: how it stopped
    games: int = 0
    check_seconds: float = 0.0
    game_seconds: float = 0.0

    @property
    def caught(self) -> bool:
        return bool(self.errors)

    @property
    def fails_game(self) -> bool:
        return bool(self.failures)


def plan(players: list[int], quick: bool = False) -> list[tuple[str, int, int, int]]:
    """The games played for an entry allowing `players`: (agent, players, seed, round limit). `quick`
    (the CI sample): shorter games, the heuristic one (the dearest) with the fewest players."""
    lo, hi = min(players), max(players)
    if hi == 1:
        return [("random", 1, 1, SOLO_ROUNDS), ("heuristic", 1, 2, SOLO_ROUNDS), ("random", 1, 3, SOLO_ROUNDS)]
    if quick:
        return [("random", lo, 1, QUICK_ROUNDS), ("heuristic", lo, 2, QUICK_ROUNDS), ("random", hi, 3, QUICK_ROUNDS)]
    mid = min(hi, max(lo, 4))
    return [("random", lo, 1, MULTI_ROUNDS), ("heuristic", mid, 2, MULTI_ROUNDS), ("random", hi, 3, MULTI_ROUNDS)]


class _Hang(Exception):
    pass


@contextmanager
def _deadline(seconds: int):
    """A hang becomes `_Hang` (main thread only; elsewhere no limit)."""
    def ring(signum, frame):
        raise _Hang()
    try:
        old = signal.signal(signal.SIGALRM, ring)
    except ValueError:
        yield
        return
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _line(d: Diagnostic, base: Path) -> str:
    where = ""
    if d.span is not None:
        f = d.span.file
        try:
            f = str(Path(f).resolve().relative_to(base))
        except ValueError:
            pass
        where = f"{f}:{d.span.line}:{d.span.col} "
    return f"{d.code} {where}{d.message}"


def _key(d: Diagnostic) -> tuple:
    return (d.code, d.message, d.severity, d.span.file if d.span else None)


class Workspace:
    """A private copy of the shipped rule files in which mutants are written one at a time."""

    def __init__(self, quick: bool = False, types: bool = True):
        self.quick = quick
        self.types = types  # False: `check` without its type check (the figure before it), if it has one
        self._tmp = tempfile.TemporaryDirectory(prefix="civdsl-mutants-")
        self.base = Path(self._tmp.name).resolve()
        for src in SOURCES:
            shutil.copytree(ROOT / src, self.base / src)
        self._env = {k: os.environ.get(k) for k in ("CIVDSL_RULESETS", "CIVDSL_CACHE_DIR")}
        os.environ["CIVDSL_RULESETS"] = str(self.base / "rulesets")
        os.environ["CIVDSL_CACHE_DIR"] = str(self.base / ".cache")
        parse_cache.forget()
        self.crash = ""
        self._check_base: dict[tuple, set] = {}  # paths checked → the unmutated files' diagnostics
        self._game_base: dict[tuple, bool] = {}  # (entry, options, game) → the original plays it through

    def close(self) -> None:
        for k, v in self._env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        parse_cache.forget()
        self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def applied(self, m: Mutant):
        """The mutant's text in its file while inside; the original afterwards."""
        target = self.base / m.path
        target.write_text(m.text, encoding="utf-8")
        try:
            yield
        finally:
            target.write_text(m.original, encoding="utf-8")

    # -- check ---------------------------------------------------------------------------------------
    def check_paths(self, m: Mutant) -> list[str]:
        """What is checked for a mutant: its entry, every edition (a `game.civ`) that loads the file
        (an overlay only when it is the mutant's entry: it adds the overlay's own lines, which the
        edition it extends does not load), and the file itself."""
        editions = {e for e in m.entries if Path(e).name == "game.civ"}
        return sorted(str(self.base / p) for p in editions | {m.entry, m.path})

    def _check_paths(self, paths: list[str]):
        return checker.check_paths(paths) if self.types else checker.check_paths(paths, types=False)

    def check(self, m: Mutant) -> tuple[list[str], list[str]]:
        """The errors and warnings `check` reports for the mutant that it does not report without it."""
        paths = self.check_paths(m)
        with self.applied(m):
            try:
                diags, _ = self._check_paths(paths)
            except Exception as exc:  # noqa: BLE001 — `check` itself crashed: a bug, and no diagnostic
                self.crash = f"check crashed: {type(exc).__name__}: {exc}"[:300]
                return [], []
        if diags:
            key = tuple(paths)
            if key not in self._check_base:  # the unmutated files' diagnostics, asked once per set of paths
                self._check_base[key] = {_key(d) for d in self._check_paths(paths)[0]}
            diags = [d for d in diags if _key(d) not in self._check_base[key]]
        return ([_line(d, self.base) for d in diags if d.severity == "error"],
                [_line(d, self.base) for d in diags if d.severity != "error"])

    # -- games ---------------------------------------------------------------------------------------
    def _load(self, m: Mutant):
        entry = self.base / m.entry
        rs = load_ruleset(entry, options=list(m.options), root=entry.parent.parent)
        program, diags = compile_ruleset(rs)
        errors = [d for d in diags if d.severity == "error"]
        if errors:
            raise CivError(errors)
        return program, plan(allowed_players(rs) or [1], self.quick)

    def _play(self, program, game) -> str | None:
        """None for a game played to its end or round limit, else how it stopped."""
        agent, players, seed, rounds = game
        try:
            Game(program, players, seed, make_agents([agent], players, seed), logging=False, max_rounds=rounds).run()
            return None
        except CivError as exc:
            return f"{agent} {players}p seed {seed}: " + _line(exc.diagnostics[0], self.base)
        except _Hang:
            raise
        except Exception as exc:  # noqa: BLE001 — a traceback is a failing game too (and a bug)
            return f"{agent} {players}p seed {seed}: crash {type(exc).__name__}: {exc}"[:300]

    def _original_plays(self, m: Mutant, game) -> bool:
        """The unmutated rules play `game` through (asked only when the mutant's game failed)."""
        key = (m.entry, m.options, game)
        if key not in self._game_base:
            program, _ = self._load(m)
            with _deadline(HANG_SECONDS):
                self._game_base[key] = self._play(program, game) is None
        return self._game_base[key]

    def games(self, m: Mutant) -> tuple[list[str], int]:
        """How the mutant's games failed (games the original plays through), and how many were played.
        A mutant whose rules do not load fails every game (the original always loads: `check` of the
        shipped files is clean)."""
        failed: list[tuple[tuple, str]] = []
        with self.applied(m):
            try:
                program, games = self._load(m)
            except CivError as exc:
                return ["does not load: " + _line(exc.diagnostics[0], self.base)], 0
            try:
                with _deadline(HANG_SECONDS):
                    for game in games:
                        why = self._play(program, game)
                        if why is not None:
                            failed.append((game, why))
            except _Hang:
                return [f"hang: the games took more than {HANG_SECONDS} s"], len(games)
        return [why for game, why in failed if self._original_plays(m, game)], len(games)

    def judge(self, m: Mutant) -> Verdict:
        v = Verdict(m)
        start = time.perf_counter()
        self.crash = ""
        v.errors, v.warnings = self.check(m)
        v.check_crash = self.crash
        v.check_seconds = time.perf_counter() - start
        start = time.perf_counter()
        v.failures, v.games = self.games(m)
        v.game_seconds = time.perf_counter() - start
        return v


def judge_all(corpus: list[Mutant], progress=None, quick: bool = False, types: bool = True) -> list[Verdict]:
    """Every mutant's verdict, in one workspace (`progress(i, verdict)` after each; `quick`: see `plan`;
    `types`: see `Workspace`)."""
    out = []
    with Workspace(quick, types) as ws:
        for i, m in enumerate(corpus):
            v = ws.judge(m)
            out.append(v)
            if progress:
                progress(i, v)
    return out
