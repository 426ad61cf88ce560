"""What must hold after a step: comparing a scenario's `expect` with the game.

Values per owner (with structural forms for zones and counters), pieces on areas and totals over
areas, the log (events in order, events that must never happen, rules that fired), decisions that came
up or did not and the options they offered, whether the game is over, the victory's score and
breakdown, and — in format 2 — any other key as an expression of the rule language evaluated after the
step (`score(P1): 12`, `round: 3`). A difference names the rule that last changed the value; when the
expected and the actual value print the same, their types are shown.
"""
from __future__ import annotations

import json
import re
from typing import Any

from ...compiler.compiler import compile_expression
from ...engine.builtins import fmt
from ...engine.interpreter import Game
from ...engine.state import owner_name, to_jsonable
from ...engine.views import look
from ...language.diagnostics import CivError, error
from ...language.names import suggest
from ...language.parser import parse_expr
from .build import area, holder, owner, piece_count
from .files import Scenario

OWNER = re.compile(r"^(P[1-9][0-9]?|global)$")
RESERVED = ("pieces", "totals", "log", "never", "fired", "error", "result", "winners", "reason", "asked",
            "not_asked", "offered", "game_over", "score", "breakdown")
ZONE_FORMS = {"size", "includes", "excludes"}
COUNTER_FORMS = {"at_least", "at_most"}


class Report:
    """Where a step's findings go: the outcome's problems, each prefixed with the step in format 2, and
    the key path of the part of the file they are about (`at`: the step's `expect`)."""

    def __init__(self, out, prefix: str = "", at: tuple = ("expect",)):
        self.out, self.prefix, self.at = out, prefix, at

    def problem(self, text: str, rule: str | None = None) -> None:
        self.out.add(self.prefix + text, self.at, rule)


class Context:
    """What a step left behind: the game, its events since the step began, the decisions it asked,
    the value of a `call`, and the result when the game ended."""

    def __init__(self, game: Game, sc: Scenario, start: int, asked: list, value: Any, result: Any):
        self.game, self.sc, self.start, self.asked, self.value, self.result = game, sc, start, asked, value, result

    @property
    def events(self) -> list[dict]:
        return self.game.events[self.start:]


def check(ctx: Context, expect: dict, at: tuple, rep: Report) -> None:
    """Compare every entry of `expect` (found at key path `at`) with the game."""
    game, sc = ctx.game, ctx.sc
    strict = sc.format == 2
    for key, values in expect.items():
        if key == "pieces":
            _pieces(game, sc, values, at, rep)
        elif key == "totals":
            _totals(game, sc, values, at, rep)
        elif OWNER.match(key):
            _holdings(game, sc, key, values, at, rep, strict)
        elif key not in RESERVED:
            _expression(ctx, key, values, at, rep)
    if "result" in expect:
        _same(rep, "result", expect["result"], to_jsonable(ctx.value), strict, sc.format)
    if "winners" in expect or "reason" in expect:
        res = ctx.result
        if res is None:
            rep.problem("`winners`/`reason` need `run: {game: true}`" if sc.format == 1 else
                        "`winners`/`reason`: the game has not ended")
        else:
            if "winners" in expect and res.winners != expect["winners"]:
                rep.problem(f"winners: expected {expect['winners']}, got {res.winners}")
            if "reason" in expect and res.reason != expect["reason"]:
                rep.problem(f"reason: expected {expect['reason']!r}, got {res.reason!r}")
    events = ctx.events
    pos = 0
    for i, want in enumerate(expect.get("log", [])):
        while pos < len(events) and not _matches(events[pos], want):
            pos += 1
        if pos == len(events):
            rep.problem(f"log[{i}]: no event {json.dumps(want)} (in order) in the log")
            break
        pos += 1
    for i, want in enumerate(expect.get("never", [])):
        hit = next((e for e in events if _matches(e, want)), None)
        if hit is not None:
            rule = hit.get("rule")
            rep.problem(f"never[{i}]: an event {json.dumps(want)} happened: {_event_text(hit)}"
                        + (f"   (at {rule})" if rule else ""), rule)
    fired = {e.get("rule") for e in events}
    for rule in expect.get("fired", []):
        if not any(f and (f == rule or f.endswith("/" + rule)) for f in fired):
            rep.problem(f"fired: no event was caused by {rule}")
    _decisions(ctx, expect, at, rep)
    if "game_over" in expect:
        over = game_over(ctx)
        if over != expect["game_over"]:
            rep.problem("game_over: expected the game to be over, but it is not" if expect["game_over"] else
                        f"game_over: expected the game not to be over, but it is ({over_reason(ctx)})")
    if "score" in expect or "breakdown" in expect:
        _standings(ctx, expect, rep)


# ---- values ------------------------------------------------------------------------------------------

def type_words(v: Any) -> str:
    """A value's type in the rule language's words: none, text, number, decimal, true/false, list, record."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "number"
    if isinstance(v, float):
        return "decimal"
    if isinstance(v, str):
        return "text"
    if isinstance(v, list):
        if not v:
            return "empty list"
        return "list of " + ", ".join(type_words(x) for x in v[:6]) + (", …" if len(v) > 6 else "")
    if isinstance(v, dict):
        return "record"
    return type(v).__name__


def differ(want: Any, got: Any, strict: bool) -> bool:
    """Whether two JSON values differ; `strict` (format 2) also tells true from 1 and 1 from 1.0."""
    if not strict:
        return want != got
    if type(want) is not type(got) and not (want is None or got is None):
        if not (isinstance(want, (int, float)) and isinstance(got, (int, float))
                and not isinstance(want, bool) and not isinstance(got, bool) and want == got):
            return True
    if isinstance(want, list) and isinstance(got, list):
        return len(want) != len(got) or any(differ(a, b, True) for a, b in zip(want, got))
    if isinstance(want, dict) and isinstance(got, dict):
        return set(want) != set(got) or any(differ(want[k], got[k], True) for k in want)
    return want != got


def shown(want: Any, got: Any, fmt_no: int = 2) -> tuple[str, str, str]:
    """The expected and the actual value as printed; with their types when they print the same, and a
    hint when a format 1 file wrote none as YAML text."""
    a, b = fmt(want), fmt(got)
    if a != b:
        return a, b, ""
    hint = ""
    if fmt_no == 1 and "text" in type_words(want) and "none" in type_words(got):
        hint = " — a YAML `none` is the text \"none\" in format 1: write null, or use `format: 2`"
    return f"{a} ({type_words(want)})", f"{b} ({type_words(got)})", hint


def _same(rep: Report, what: str, want: Any, got: Any, strict: bool, fmt_no: int, rule: str | None = None,
          where: str = "") -> bool:
    if not differ(want, got, strict):
        return True
    a, b, hint = shown(want, got, fmt_no)
    rep.problem(f"{what}: expected {a}, got {b}{where}{hint}", rule)
    return False


def _last_change(game: Game, target: str) -> str | None:
    for ev in reversed(game.events):
        if ev.get("type") == "set" and ev.get("target") == target:
            return ev.get("rule")
        if ev.get("type") in ("add", "remove") and ev.get("zone") == target:
            return ev.get("rule")
        if ev.get("type") == "move" and target in (ev.get("source"), ev.get("to")):
            return ev.get("rule")
    return None


def _holdings(game: Game, sc: Scenario, key: str, expected: dict, at: tuple, rep: Report, strict: bool) -> None:
    who = owner(game, sc, key, *at, key)
    counters, vars_, zones = holder(game, who)
    prefix = f"{who.name}." if who else ""
    for name, want in expected.items():
        if name in counters:
            got, kind = counters[name], "counter"
        elif name in zones:
            got, kind = to_jsonable(zones[name]), "zone"
        elif name in vars_:
            got, kind = to_jsonable(vars_[name]), "var"
        else:
            guess = suggest(name, list(counters) + list(vars_) + list(zones))
            raise error("SCN006", f"{key} has no counter, variable or zone `{name}`", sc.span(*at, key, name),
                        f"did you mean `{guess}`?" if guess else None)
        rule = _last_change(game, prefix + name)
        where = f"   (last changed at {rule})" if rule else "   (unchanged by the run)"
        label = prefix + name
        if isinstance(want, dict) and want and kind == "zone" and set(want) <= ZONE_FORMS:
            _zone_forms(rep, label, want, got, where, rule)
        elif isinstance(want, dict) and want and kind == "counter" and set(want) <= COUNTER_FORMS:
            low, high = want.get("at_least"), want.get("at_most")
            if low is not None and got < low:
                rep.problem(f"{label}: expected at least {low}, got {got}{where}", rule)
            if high is not None and got > high:
                rep.problem(f"{label}: expected at most {high}, got {got}{where}", rule)
        else:
            _same(rep, label, want, got, strict, sc.format, rule, where)


def _zone_forms(rep: Report, label: str, want: dict, got: list, where: str, rule: str | None) -> None:
    if "size" in want and len(got) != want["size"]:
        rep.problem(f"{label}: expected {want['size']} item(s), got {len(got)}: {fmt(got)}{where}", rule)
    left = list(got)
    for item in want.get("includes", []):
        if item in left:
            left.remove(item)
        else:
            rep.problem(f"{label}: expected to include {fmt(item)}" +
                        (" (once more)" if item in got else "") + f", got {fmt(got)}{where}", rule)
    for item in want.get("excludes", []):
        if item in got:
            rep.problem(f"{label}: expected not to include {fmt(item)}, got {fmt(got)}{where}", rule)


def _expression(ctx: Context, key: str, want: Any, at: tuple, rep: Report) -> None:
    """`expect` key that is an expression: its value after the step (players are P1, P2, ...)."""
    game, sc = ctx.game, ctx.sc
    span = sc.span(*at, key)
    names = [f"P{i}" for i in range(1, len(game.state.players) + 1)]
    guess = suggest(key, list(RESERVED))
    hint = (f"did you mean `{guess}`? " if guess else "") + \
        f"an expect key is a player (P1), global, one of {', '.join(RESERVED)}, or an expression"
    if any(key in m.areas for m in game.state.maps.values()):
        hint = f"`{key}` is an area of the map: write what lies there under `pieces:` (`pieces: {{{key}: ...}}`)"
        guess = key
    try:
        fn = compile_expression(game.program, parse_expr(key, span), names)
    except CivError as exc:
        first = exc.diagnostics[0]
        raise error("SCN013", f"expect `{key}`: {first.message}", span,
                    hint if first.code == "SYN007" or guess else (first.hint or hint)) from None

    def run():
        game.c.locals = dict(zip(names, game.state.players))
        return to_jsonable(fn(game.c))
    try:
        got = look(game, None, True, run)
    except CivError as exc:
        rep.problem(f"{key}: cannot be evaluated: {exc.diagnostics[0].headline()}")
        return
    _same(rep, key, want, got, True, sc.format)


# ---- pieces ------------------------------------------------------------------------------------------

def _last_piece_change(game: Game, name: str, who: str | None = None, kind: str | None = None) -> str | None:
    """The rule of the last `place`/`take` on the area (of the owner, of the kind, when given)."""
    for ev in reversed(game.events):
        if (ev.get("type") in ("place", "take") and ev.get("area") == name
                and who in (None, ev.get("owner")) and kind in (None, ev.get("kind"))):
            return ev.get("rule")
    return None


def _piece_problem(rep: Report, what: str, want: str, got: str, rule: str | None) -> None:
    where = f"   (last changed at {rule})" if rule else "   (unchanged by the run)"
    rep.problem(f"pieces {what}: expected {want}, got {got}{where}", rule)


def _pieces(game: Game, sc: Scenario, expected: dict, at: tuple, rep: Report) -> None:
    """Listed counts must match; an area or owner given as `{}` must hold no pieces at all."""
    st = game.state
    for name, owners in expected.items():
        area(game, sc, name, *at, "pieces", name)
        here = sorted((o, k, n) for (o, k), n in st.pieces.by_area.get(name, {}).items())
        if not owners:
            if here:
                got = ", ".join(f"{owner_name(st.players, o)} {k} {n}" for o, k, n in here)
                _piece_problem(rep, name, "no pieces", got, _last_piece_change(game, name))
            continue
        for key, kinds in owners.items():
            who = owner(game, sc, key, *at, "pieces", name, key)
            if not kinds:
                mine = [f"{k} {n}" for o, k, n in here if o == who.index]
                if mine:
                    _piece_problem(rep, f"{name} {who.name}", "no pieces", ", ".join(mine),
                                   _last_piece_change(game, name, who.name))
                continue
            for kind, want in kinds.items():
                want = piece_count(sc, want, *at, "pieces", name, key, kind)
                got = st.pieces.at(name, who.index, kind)
                if got != want:
                    _piece_problem(rep, f"{name} {who.name} {kind}", str(want), str(got),
                                   _last_piece_change(game, name, who.name, kind))


def _totals(game: Game, sc: Scenario, entries: list, at: tuple, rep: Report) -> None:
    """`totals: [{areas: [A, B], P1: {token: 5}}]`: pieces summed over the areas (the whole board
    without `areas`)."""
    st = game.state
    for i, entry in enumerate(entries):
        names = entry.get("areas")
        for j, name in enumerate(names or []):
            area(game, sc, name, *at, "totals", i, "areas", j)
        where_text = "on " + ", ".join(names) if names is not None else "on the board"
        for key, kinds in entry.items():
            if key == "areas":
                continue
            who = owner(game, sc, key, *at, "totals", i, key)
            for kind, want in kinds.items():
                want = piece_count(sc, want, *at, "totals", i, key, kind)
                if names is None:
                    got = st.pieces.total(who.index, kind)
                else:
                    got = sum(st.pieces.at(a, who.index, kind) for a in names)
                if got != want:
                    rep.problem(f"totals {who.name} {kind} {where_text}: expected {want}, got {got}")


# ---- the log and the decisions ------------------------------------------------------------------------

def _matches(event: dict, want: dict) -> bool:
    return all(to_jsonable(event.get(k)) == v for k, v in want.items())


def _event_text(ev: dict) -> str:
    return json.dumps({k: v for k, v in ev.items() if k != "rule"}, ensure_ascii=False)[:200]


def _wanted(entry) -> tuple[str, str | None]:
    return (entry, None) if isinstance(entry, str) else (entry["tag"], entry.get("player"))


def _decisions(ctx: Context, expect: dict, at: tuple, rep: Report) -> None:
    came = [(e.get("tag"), e.get("player")) for e in ctx.events if e.get("type") == "decision"]
    for i, entry in enumerate(expect.get("asked", [])):
        tag, who = _wanted(entry)
        if not any(t == tag and who in (None, p) for t, p in came):
            rep.problem(f"asked[{i}]: no decision \"{tag}\"" + (f" of {who}" if who else "") + " came up"
                        + _known_tags(ctx, tag))
    for i, entry in enumerate(expect.get("not_asked", [])):
        tag, who = _wanted(entry)
        n = sum(1 for t, p in came if t == tag and who in (None, p))
        if n:
            rep.problem(f"not_asked[{i}]: the decision \"{tag}\"" + (f" of {who}" if who else "") +
                        f" came up {n} time(s)")
    for i, want in enumerate(expect.get("offered", [])):
        _offered(ctx, i, want, rep)


def _known_tags(ctx: Context, tag: str) -> str:
    tags = {e.tag for e in ctx.asked}
    guess = suggest(tag, sorted(tags)) if tags else None
    return f" (did you mean \"{guess}\"?)" if guess and guess != tag else ""


def _offered(ctx: Context, i: int, want: dict, rep: Report) -> None:
    tag, who, nth = want["tag"], want.get("player"), want.get("nth", 1)
    found = [e for e in ctx.asked if e.tag == tag and who in (None, e.player)]
    what = f"offered[{i}] \"{tag}\"" + (f" of {who}" if who else "") + (f" (#{nth})" if nth != 1 else "")
    if len(found) < nth:
        rep.problem(f"{what}: " + ("no such decision came up" if not found else f"it came up {len(found)} time(s)")
                    + _known_tags(ctx, tag))
        return
    entry = found[nth - 1]
    pairs = list(zip(entry.options, entry.labels))

    def index(item) -> int | None:
        return next((k for k, (o, label) in enumerate(pairs) if o == item or fmt(o) == item or label == item), None)
    offered = " | ".join(entry.labels) or "no options"
    if "exactly" in want:
        left = list(range(len(pairs)))
        missing = []
        for item in want["exactly"]:
            k = next((k for k in left if index(item) is not None and _is(pairs[k], item)), None)
            if k is None:
                missing.append(item)
            else:
                left.remove(k)
        if missing or left:
            rep.problem(f"{what}: expected exactly {fmt(want['exactly'])}, offered {offered}")
    for item in want.get("include", []):
        if index(item) is None:
            rep.problem(f"{what}: {fmt(item)} is not offered (offered: {offered})")
    for item in want.get("exclude", []):
        if index(item) is not None:
            rep.problem(f"{what}: {fmt(item)} is offered (offered: {offered})")


def _is(pair: tuple, item) -> bool:
    option, label = pair
    return option == item or fmt(option) == item or label == item


# ---- the end of the game, scores ----------------------------------------------------------------------

def game_over(ctx: Context) -> bool:
    """Over when the game ended in a step, or when the ruleset's victory condition holds now."""
    return ctx.result is not None or bool(over_reason(ctx))


def over_reason(ctx: Context) -> str:
    if ctx.result is not None:
        return f"it ended: {ctx.result.reason}"
    game = ctx.game
    victory = game.program.victory
    over, winner = victory.get("game_over"), victory.get("winner")

    def run():
        if over is not None and game.guarded(over[0], over[1]):
            return "the victory's `game_over` holds"
        if winner is not None:
            won = [p.name for p in game.state.players if game.guarded(winner[0], winner[1], p)]
            if won:
                return f"the victory's `winner` holds for {', '.join(won)}"
        return ""
    try:
        return look(game, None, True, run)
    except CivError:
        return ""


def _standings(ctx: Context, expect: dict, rep: Report) -> None:
    game = ctx.game
    try:
        res = look(game, None, True, lambda: game.result("scenario"))
    except CivError as exc:
        rep.problem(f"score: cannot be evaluated: {exc.diagnostics[0].headline()}")
        return
    rows = {r["player"]: r for r in res.ranking}
    for key, want in (expect.get("score") or {}).items():
        row = rows.get(key)
        if row is None or "score" not in row:
            rep.problem("score: the ruleset's victory has no `score`" if row is not None else
                        f"score: no player {key}")
            continue
        _same(rep, f"score {key}", want, row["score"], True, 2)
    for key, fields in (expect.get("breakdown") or {}).items():
        row = rows.get(key)
        if row is None or "breakdown" not in row:
            rep.problem("breakdown: the ruleset's victory has no `breakdown`" if row is not None else
                        f"breakdown: no player {key}")
            continue
        for name, want in fields.items():
            if name not in row["breakdown"]:
                rep.problem(f"breakdown {key}: no part `{name}` (parts: {', '.join(row['breakdown'])})")
            else:
                _same(rep, f"breakdown {key}.{name}", want, row["breakdown"][name], True, 2)
