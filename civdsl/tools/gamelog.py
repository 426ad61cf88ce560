"""Game logs as JSON Lines, and replay.

The first line is a header (edition, ruleset hash, players, seed, agents, options, house rules); then
one event per line, each with the rule (`file:line`) that caused it; the last line is the result. The
same rules, config, seed and decisions give the same bytes. `replay` re-runs the game with the logged
decisions and compares line by line; it refuses a log made with different rules.
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..api import load_program, new_game
from ..engine.agents import ScriptedAgent
from ..engine.interpreter import Game
from ..language.config import GameConfig
from ..language.diagnostics import CivError, Span, error

FORMAT = "civdsl-log/1"
MAX_LOG_BYTES = 200_000_000


def header(game: Game, cfg: GameConfig) -> dict:
    return {
        "type": "header", "format": FORMAT, "civdsl": __version__,
        "edition": cfg.edition, "edition_name": game.rs.edition(), "edition_entry": game.rs.entry,
        "ruleset_hash": game.rs.digest(),
        "players": len(game.state.players), "seed": cfg.seed,
        "agents": [p.agent for p in game.state.players], "options": list(cfg.options),
        "house_rules": list(cfg.house_rules), "max_rounds": cfg.max_rounds,
    } | ({"choices": cfg.choices} if cfg.choices else {})


def dumps(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def log_lines(game: Game, cfg: GameConfig) -> list[str]:
    return [dumps(header(game, cfg))] + [dumps(e) for e in game.events]


def write_log(path: str, game: Game, cfg: GameConfig) -> None:
    try:
        Path(path).write_text("\n".join(log_lines(game, cfg)) + "\n", encoding="utf-8")
    except OSError as exc:
        raise error("LOG003", f"cannot write log `{path}`: {exc.strerror or exc}", None) from None


def read_log(path: str) -> list[dict]:
    p = Path(path)
    if not p.is_file():
        raise error("LOG001", f"log file `{path}` not found", None)
    if p.stat().st_size > MAX_LOG_BYTES:
        raise error("LOG001", f"log file `{path}` is too large", None)
    events = []
    for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except ValueError as exc:
            raise error("LOG004", f"line {i} is not JSON: {exc}", Span(str(path), i, 1)) from None
        if not isinstance(ev, dict):
            raise error("LOG004", f"line {i} is not a JSON object", Span(str(path), i, 1))
        events.append(ev)
    if not events or events[0].get("type") != "header" or events[0].get("format") != FORMAT:
        raise error("LOG005", f"`{path}` is not a civdsl game log (no `{FORMAT}` header)", Span(str(path), 1, 1))
    return events


def replay(path: str) -> tuple[bool, str]:
    """Re-run a logged game; (True, summary) when every line matches, else (False, first difference)."""
    events = read_log(path)
    head = events[0]
    try:
        cfg = GameConfig(edition=head["edition"], players=int(head["players"]), seed=int(head["seed"]),
                         agents=list(head["agents"]), options=list(head.get("options") or []),
                         house_rules=list(head.get("house_rules") or []), max_rounds=head.get("max_rounds"))
    except (KeyError, TypeError, ValueError):
        raise error("LOG005", "the log header is incomplete", Span(str(path), 1, 1)) from None
    try:
        program = load_program(cfg.edition, cfg.options, cfg.house_rules)
    except CivError:
        entry = head.get("edition_entry")  # the edition was named by a path relative to another folder
        if not entry or not Path(entry).is_file():
            raise
        program = load_program(entry, cfg.options, cfg.house_rules)
    if program.ruleset.digest() != head.get("ruleset_hash"):
        raise error("LOG002", f"the rules of `{cfg.edition}` changed since this log was written "
                    f"(hash {head.get('ruleset_hash')} vs {program.ruleset.digest()})", Span(str(path), 1, 1),
                    "replay with the rule files the game was played with")
    answers: dict[str, list] = {}
    for ev in events:
        if ev.get("type") == "decision" and ev.get("options", 0) > 1:
            answers.setdefault(ev["player"], []).append({"index": ev["choice"]})
    agents = [ScriptedAgent(answers.get(f"P{i + 1}", [])) for i in range(cfg.players)]
    for a, name in zip(agents, cfg.agents):
        a.name = name
    game = new_game(cfg, program, agents=agents)
    game.run()
    fresh = log_lines(game, cfg)
    original = [l for l in Path(path).read_text(encoding="utf-8").splitlines() if l.strip()]
    for i, (a, b) in enumerate(zip(original, fresh), 1):
        if a != b:
            return False, f"line {i} differs:\n  log:    {a[:300]}\n  replay: {b[:300]}"
    if len(original) != len(fresh):
        return False, f"the log has {len(original)} lines, the replay {len(fresh)}"
    return True, f"{len(original)} lines replayed identically"
