"""Game logs as JSON Lines, and replay.

The first line is a header (edition, ruleset hash, players, seed, agents, options, house rules); then
one event per line, each with the rule (`file:line`) that caused it; the last line is the result. The
same rules, config, seed and decisions give the same bytes. `replay` re-runs the game with the logged
decisions and compares line by line; it refuses a log made with different rules.

A log may come from a stranger: `replay` checks the type of every header field it uses (LOG007) and
loads only the house rules the path policy allows (LOG008: shipped variants by name, `.civ` files
inside the log's folder); a log is written only as a new file or over an older civdsl log (LOG006,
see `language/paths.py`), and header names house rules so that the replay finds them.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .. import __version__
from ..api import load_program, new_game
from ..engine.agents import ScriptedAgent
from ..engine.budget import GAME_BUDGET
from ..engine.interpreter import Game
from ..engine.program import Program
from ..engine.visibility import visibility_of
from ..language.config import CONFIG_SCHEMA, GameConfig
from ..language.diagnostics import Span, error
from ..language.paths import (
    LOG_FORMAT,
    config_home,
    edition_entry,
    edition_name,
    house_rule_file,
    house_rule_name,
    writable_log,
)
from ..language.yamlfile import INT_LIMIT

FORMAT = LOG_FORMAT
MAX_LOG_BYTES = 200_000_000


def header(game: Game, cfg: GameConfig, house_rules: list[str] | None = None, edition: str | None = None) -> dict:
    """The first line of a log; `house_rules` and `edition` as the log names them (default: as the
    config does)."""
    return {
        "type": "header", "format": FORMAT, "civdsl": __version__,
        "edition": cfg.edition if edition is None else edition, "edition_name": game.rs.edition(),
        "edition_entry": game.rs.entry,
        "ruleset_hash": game.rs.digest(),
        "players": len(game.state.players), "seed": cfg.seed,
        "agents": [p.agent for p in game.state.players], "options": list(cfg.options),
        "house_rules": list(cfg.house_rules if house_rules is None else house_rules), "max_rounds": cfg.max_rounds,
    } | ({"choices": cfg.choices} if cfg.choices else {})


def dumps(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def log_lines(game: Game, cfg: GameConfig, house_rules: list[str] | None = None) -> list[str]:
    return [dumps(header(game, cfg, house_rules))] + [dumps(e) for e in game.events]


def write_log(path: str, game: Game, cfg: GameConfig, force: bool = False) -> None:
    """Write the log: a new file or over a civdsl log (any file but a folder with `force`). The edition
    and house rules are named as a replay finds them: by name, or by a path relative to the log's folder
    when inside it (else by an absolute path, which a replay refuses unless in a rulesets root).

    The text goes to a temporary file beside the log, which then takes the log's place: a full disk
    or an interrupted write leaves an earlier log (an earlier save of the game) as it was."""
    folder = config_home(path)
    named = [house_rule_name(h, folder) for h in cfg.house_rules]
    lines = [dumps(header(game, cfg, named, edition_name(cfg.edition, folder)))] + [dumps(e) for e in game.events]
    replace_atomically(path, "\n".join(lines) + "\n", force)


def replace_atomically(path: str, text: str, force: bool) -> None:
    writable_log(path, force)
    target = Path(path)
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise error("LOG003", f"cannot write log `{path}`: {exc.strerror or exc}", None) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise error("LOG003", f"cannot write log `{path}`: {exc.strerror or exc}", None,
                    "free some space or write the log elsewhere; an earlier log at that path is unchanged") from None


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
        except RecursionError:  # (the JSON reader recurses; a stranger's line may nest without end)
            raise error("LOG004", f"line {i} nests arrays and objects too deeply to read", Span(str(path), i, 1),
                        "replay a log written by `civdsl play --log`") from None
        if not isinstance(ev, dict):
            raise error("LOG004", f"line {i} is not a JSON object", Span(str(path), i, 1))
        events.append(ev)
    if not events or events[0].get("type") != "header" or events[0].get("format") != FORMAT:
        raise error("LOG005", f"`{path}` is not a civdsl game log (no `{FORMAT}` header)", Span(str(path), 1, 1))
    return events


MAX_PLAYERS = CONFIG_SCHEMA["properties"]["players"]["maximum"]
_REQUIRED = ("edition", "players", "seed", "agents")


def _field_problem(key: str, value: Any) -> str | None:
    """What is wrong with one header field's value, or None."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def texts(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(i, str) and i for i in v)

    if key in ("edition", "ruleset_hash") and not (isinstance(value, str) and value and "\0" not in value):
        return "expected a non-empty text"
    if key == "edition_entry" and not (value is None or isinstance(value, str) and "\0" not in value):
        return "expected a text or null"
    if key == "players" and not (whole(value) and 1 <= value <= MAX_PLAYERS):
        return f"expected an integer from 1 to {MAX_PLAYERS}"
    if key == "seed" and not (whole(value) and 0 <= value < INT_LIMIT):
        return "expected an integer from 0 to 10**18 - 1"
    if key == "max_rounds" and not (value is None or whole(value) and 1 <= value < INT_LIMIT):
        return "expected a positive integer or null"
    if key in ("agents", "options", "house_rules") and not texts(value):
        return "expected a list of texts"
    if key == "choices" and not (isinstance(value, dict) and all(
            isinstance(k, str) and isinstance(v, list) and all(i is None or isinstance(i, str) or whole(i) for i in v)
            for k, v in value.items())):
        return "expected a mapping from decision tags to lists of answers"
    return None


def _checked_header(head: dict, path: str) -> dict:
    """The header, every field it uses checked for its type and range (LOG005 missing, LOG007 wrong)."""
    where = Span(str(path), 1, 1)
    missing = [k for k in _REQUIRED if k not in head]
    if missing:
        raise error("LOG005", f"the log header is incomplete: no {', '.join(f'`{k}`' for k in missing)}", where,
                    "replay a log written by `civdsl play --log`")
    for key in ("edition", "edition_entry", "ruleset_hash", "players", "seed", "agents", "options",
                "house_rules", "max_rounds", "choices"):
        if key in head:
            problem = _field_problem(key, head[key])
            if problem:
                shown = json.dumps(head[key], ensure_ascii=True)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise error("LOG007", f"header field `{key}`: {problem}, got {shown}", where,
                            "replay a log written by `civdsl play --log`; do not edit its header")
    if len(head["agents"]) != head["players"]:
        raise error("LOG007", f"header field `agents`: expected one agent per player ({head['players']}), "
                    f"got {len(head['agents'])}", where)
    return head


def logged_answers(events: list[dict], path: str) -> dict[str, list]:
    """The logged answers per player, from `decision` events (LOG007 when one is malformed)."""
    answers: dict[str, list] = {}
    for line, ev in enumerate(events, 1):
        if ev.get("type") != "decision":
            continue
        player, options, choice = ev.get("player"), ev.get("options", 0), ev.get("choice")
        if not (isinstance(player, str) and isinstance(options, int) and not isinstance(options, bool)
                and (options <= 1 or isinstance(choice, int) and not isinstance(choice, bool))):
            raise error("LOG007", f"line {line}: a decision event needs a text `player`, an integer `options` "
                        "and an integer `choice`", Span(str(path), line, 1))
        if options > 1:
            answers.setdefault(player, []).append({"index": choice})
    return answers


def _house_rules(raw: list[str], path: str) -> list[str]:
    """The log's house rules as files: shipped variants by name, `.civ` files inside the log's folder."""
    folder = config_home(path)
    out = []
    for i, name in enumerate(raw):
        hr = house_rule_file(name, folder, folder)
        if hr.path is None:
            raise error("LOG008", f"header field `house_rules[{i}]`: {hr.problem}", Span(str(path), 1, 1),
                        "a log names a house rule by a shipped variant's name or by a path to a `.civ` file inside "
                        "the log's folder: keep the log next to its house rules")
        out.append(hr.path)
    return out


def logged_game(path: str, edition: str | None = None) -> tuple[list[dict], GameConfig, Program]:
    """A log's events, the config its header gives and the program it was played with (checked).
    `edition` (the command line's choice) is where to find the header's edition, if not by the header."""
    events = read_log(path)
    head = _checked_header(events[0], path)
    cfg = GameConfig(edition=head["edition"], players=head["players"], seed=head["seed"],
                     agents=list(head["agents"]), options=list(head.get("options") or []),
                     house_rules=list(head.get("house_rules") or []), max_rounds=head.get("max_rounds"),
                     choices=dict(head.get("choices") or {}))
    house_rules = _house_rules(cfg.house_rules, path)
    folder = config_home(path)
    named = edition_entry(cfg.edition, folder, folder) if edition is None else None
    if named is not None and named.path is None:
        raise error("LOG010", f"header field `edition`: {named.problem}", Span(str(path), 1, 1),
                    "a log names its edition by name, or by a path inside the log's folder: keep the log beside "
                    "its edition, or name the edition yourself with `--edition`")
    program = load_program(edition or named.path, cfg.options, house_rules)
    if program.ruleset.digest() != head.get("ruleset_hash"):
        raise error("LOG002", f"the rules of `{cfg.edition}` changed since this log was written "
                    f"(hash {head.get('ruleset_hash')} vs {program.ruleset.digest()})", Span(str(path), 1, 1),
                    "replay with the rule files the game was played with")
    return events, cfg, program


def seat_log(path: str, seat: str, edition: str | None = None) -> list[str]:
    """The log as the player `seat` (`P2`) may read it: the lines of `civdsl view` (see
    `engine.visibility`). The header says whose view it is."""
    events, cfg, program = logged_game(path, edition)
    names = [f"P{i + 1}" for i in range(cfg.players)]
    if seat not in names:
        raise error("LOG009", f"the game has no seat `{seat}`", Span(str(path), 1, 1),
                    f"the seats are {', '.join(names)}")
    sight = visibility_of(program)
    return [dumps(events[0] | {"seat": seat})] + [dumps(e) for e in sight.seat_events(events[1:], seat, names)]


def replay(path: str, game_budget: int = GAME_BUDGET, edition: str | None = None) -> tuple[bool, str]:
    """Re-run a logged game; (True, summary) when every line matches, else (False, first difference).
    The work budget is the replayer's choice, not the log's: a log may come from a stranger."""
    events, cfg, program = logged_game(path, edition)
    answers = logged_answers(events, path)
    agents = [ScriptedAgent(answers.get(f"P{i + 1}", [])) for i in range(cfg.players)]
    for a, name in zip(agents, cfg.agents):
        a.name = name
    game = new_game(cfg, program, agents=agents, game_budget=game_budget)
    game.run()
    fresh = log_lines(game, cfg)
    played_at = {"edition_entry": events[0].get("edition_entry")}  # where the files were found when it was played
    fresh[0] = dumps(json.loads(fresh[0]) | played_at)
    original = [l for l in Path(path).read_text(encoding="utf-8", errors="replace").splitlines() if l.strip()]
    for i, (a, b) in enumerate(zip(original, fresh), 1):
        if a != b:
            return False, f"line {i} differs:\n  log:    {a[:300]}\n  replay: {b[:300]}"
    if len(original) != len(fresh):
        return False, f"the log has {len(original)} lines, the replay {len(fresh)}"
    return True, f"{len(original)} lines replayed identically"
