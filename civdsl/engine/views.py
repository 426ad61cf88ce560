"""What a seat is shown: the ruleset's `view`s, evaluated as that seat's player sees the game.

A view is evaluated inside the seat's masked state (`engine.visibility`: other players' hidden zones
read as lists of `none`, their hidden counters as 0), so a view cannot show what its player may not
see, however it is written. Evaluating views never changes the game: no dice, no log, its own work
budget, and whatever a rule did on the way is undone. The result is plain JSON (see
docs/language.md, "Views"): every surface that shows a game — the terminal, pictures, the web app —
draws from it. A ruleset without views gets a plain one from its declarations.
"""
from __future__ import annotations

from typing import Any

from ..language.diagnostics import CivError, Span
from .budget import STEP_BUDGET, OutOfWork, TooLarge
from .builtins import fmt
from .runtime import PY_ERRORS, py_error, rule_error
from .state import Player
from .values import RuleError

PALETTE = ("#c0392b", "#2471a3", "#d4ac0d", "#1e8449", "#7d3c98", "#ca6f1e", "#17a589", "#566573")
"""Player colours by seat where a view gives none (distinct on screen and in print)."""
VIEW_BUDGET = STEP_BUDGET  # units of work one seat's views may draw


class _Discard(CivError):
    """Raised after the views are evaluated, so that the transaction undoes whatever they did."""

    def __init__(self):
        super().__init__([])


def seat_view(game, seat: int | None, reveal: bool = False) -> dict:
    """The views of the game for the player in `seat` (0-based; None: a spectator, who sees only what
    every player may see; `reveal`: everything, for a finished game's replay)."""
    viewer = game.state.players[seat] if seat is not None else None
    return look(game, viewer, reveal, lambda: _evaluate(game, viewer, reveal))


def decision_words(decision) -> tuple[str | None, list[str]]:
    """A decision's question and its options in words: the ruleset's `decision "tag"` where it gives
    them, else none and each option as the log writes it."""
    game, p = decision.game, decision.player
    words = game.program.decision_texts.get(decision.tag, {})
    if not words:
        return None, [fmt(o) for o in decision.options]

    def evaluate():
        question = words.get("question")
        text = fmt(_run(game, *question, {"player": p})) if question else None
        label = words.get("label")
        labels = [fmt(_run(game, *label, {"player": p, "option": o})) if label else fmt(o)
                  for o in decision.options]
        return text, labels
    return look(game, p, False, evaluate)


def headline_text(game, name: str, record: dict) -> str | None:
    """The story's line for a measurement (`headline "name" = "..."`), told as everyone may hear it
    (narration is public), changing nothing; `m` is the record, `player` its `player` field. None when
    the headline's `when` condition does not hold."""
    parts, span, when = game.program.headlines[name]
    local = {"m": record, "player": record.get("player")}

    def text():
        if when is not None and not _run(game, when, span, local):
            return None
        return "".join(p if isinstance(p, str) else fmt(_run(game, p, span, local)) for p in parts)
    return look(game, None, True, text)


def look(game, viewer: Player | None, reveal: bool, fn):
    """`fn()` evaluated as `viewer` sees the game (`reveal`: unmasked), changing nothing: no dice, no
    log, a budget of its own, and whatever a rule does on the way undone."""
    out: list = []
    c = game.c
    saved = (c.locals, c.span, c.steps, c.budget, c.depth, c.memo, game.logging, game.no_random, game._deciding)

    def evaluate(ctx):
        blanked = None if reveal else game._blank(viewer)
        try:
            out.append(fn())
        finally:
            if blanked is not None:
                game._unblank(blanked)
        raise _Discard()

    c.steps, c.budget, c.depth, c.memo = 0, VIEW_BUDGET, 0, None
    game.logging, game.no_random = False, "a view"
    try:
        game.transaction(evaluate)
    except _Discard:
        pass
    finally:
        (c.locals, c.span, c.steps, c.budget, c.depth, c.memo, game.logging, game.no_random,
         game._deciding) = saved
    return out[0]


def _evaluate(game, viewer: Player | None, reveal: bool) -> dict:
    views = [v for prog_view in game.program.views for v in _one_view(game, prog_view, viewer)] \
        if game.program.views else _plain_views(game, viewer, reveal)
    people = []
    for p in game.state.players:
        own = next((v for v in views if v["player"] == p.name), None)
        people.append({"name": p.name, "label": own["label"] if own else None,
                       "colour": (own or {}).get("colour") or PALETTE[p.index % len(PALETTE)]})
    for v in views:
        v.pop("colour", None)
    _name_track_marks(views, people)
    return {"round": game.state.round, "seat": viewer.name if viewer else None, "players": people, "views": views}


def _one_view(game, view, viewer: Player | None) -> list[dict]:
    """A view declaration's views: one per player (the viewer's first) or one."""
    if view.of is None:
        return [_render(game, view, viewer, None)]
    players = game.state.players
    order = ([viewer] if viewer else []) + [p for p in players if p is not viewer]
    return [_render(game, view, viewer, p) for p in order]


def _render(game, view, viewer: Player | None, owner: Player | None) -> dict:
    local = {"player": viewer}
    if owner is not None:
        local[view.of] = owner
    fields = {name: _run(game, fn, span, local) for name, (fn, span) in view.fields.items()}
    panels = [_panel(kind, title, _run(game, fn, span, local), span) for kind, title, fn, span in view.panels]
    label = fields.get("label")
    return {"name": view.name, "title": view.title or view.name, "player": owner.name if owner else None,
            "label": None if label is None else fmt(label), "colour": _colour(fields.get("colour")),
            "panels": panels}


def _run(game, fn, span: Span, local: dict) -> Any:
    c = game.c
    c.span, c.locals = span, dict(local)
    try:
        return fn(c)
    except PY_ERRORS as exc:
        if isinstance(exc, (OutOfWork, TooLarge, MemoryError)):
            raise rule_error(exc, span) from None
        raise RuleError("RUN001", f"a view failed: {py_error(exc)}", span,
                        "a view sees what its player sees: other players' hidden items read as none") from None


# -- panels: a rule's value into the JSON shape the surfaces draw ------------------------------------------------
def _scalar(x: Any) -> Any:
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return int(x) if x.is_integer() else round(x, 4)
    return fmt(x)


def _panel(kind: str, title: str, value: Any, span: Span) -> dict:
    shape = _SHAPES[kind]
    try:
        return {"kind": kind, "title": title} | shape(value)
    except (TypeError, ValueError, AttributeError) as exc:
        raise RuleError("RUN040", f"{kind} panel \"{title}\": {exc}", span, _PANEL_HINTS[kind]) from None


def _record(value: Any, what: str) -> dict:
    if not isinstance(value, dict):
        raise TypeError(f"expected {what}, got {fmt(value)}")
    return value


def _pairs(value: Any, what: str) -> list[list]:
    """A record, or a list of `[label, value]` pairs (labels worked out by the rule), as pairs."""
    if isinstance(value, dict):
        return [[str(k), v] for k, v in value.items()]
    if isinstance(value, list) and all(isinstance(i, list) and len(i) == 2 for i in value):
        return [[fmt(k), v] for k, v in value]
    raise TypeError(f"expected {what} (a record or a list of [label, value] pairs), got {fmt(value)}")


def _items(value: Any) -> list:
    items = getattr(value, "items", value)  # a zone reads as its items
    if not isinstance(items, list):
        raise TypeError(f"expected a list, got {fmt(value)}")
    return items


def _counters(value):
    return {"items": [[k, _scalar(v)] for k, v in _pairs(value, "counters")]}


def _list(value):
    items = _items(value)
    return {"items": [fmt(i) for i in items if i is not None], "hidden": sum(i is None for i in items)}


def _dice(value):
    """Faces: a list, or counts by face (`{food: 2, skull: 1}` shows food, food, skull)."""
    if isinstance(value, (dict, list)) and not _is_faces(value):
        return {"items": [face for face, n in _pairs(value, "dice") for _ in range(_count(n))]}
    return {"items": [_scalar(i) for i in _items(value)]}


def _is_faces(value) -> bool:
    return isinstance(value, list) and not all(isinstance(i, list) and len(i) == 2 for i in value) or value == []


def _count(n) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1000:
        raise ValueError(f"a count of dice must be a whole number from 0 to 1000, got {fmt(n)}")
    return n


def _track(value):
    rec = _record(value, "a record {length: .., at: {..}}")
    length = rec.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise ValueError("`length` must be a whole number of spaces")
    at = [[k, _scalar(v), None] for k, v in _pairs(rec.get("at", {}), "`at`")]
    marks = [[k, _scalar(v)] for k, v in _pairs(rec.get("marks", {}), "`marks`")]
    return {"length": length, "at": at, "marks": marks}


def _table(value):
    rows = _items(value)
    columns: list[str] = []
    for row in rows:
        for k in _record(row, "a list of records"):
            if str(k) not in columns:
                columns.append(str(k))
    return {"columns": columns, "rows": [[_scalar(row.get(k)) for k in columns] for row in rows]}


def _text(value):
    return {"text": fmt(value)}


def _map(value):
    rec = _record(value, "a record {map: .., layers: {..}, pieces: {..}}")
    name = rec.get("map")
    if not isinstance(name, str):
        raise TypeError("`map` must name a map")
    pairs = {k: [[a, fmt(b)] for a, b in _pairs(rec.get(k, {}), f"`{k}`")] for k in ("layers", "pieces")}
    areas = {k: [fmt(a) for a in _items(rec.get(k, []))] for k in ("shade", "highlight")}
    return {"map": name} | pairs | areas


_SHAPES = {"counters": _counters, "list": _list, "dice": _dice, "track": _track, "table": _table,
           "text": _text, "map": _map}
_PANEL_HINTS = {
    "counters": "write a record: `counters \"Goods\": {Wood: p.wood}`",
    "list": "write a list or a zone: `list \"Hand\": p.hand`",
    "dice": "write a list of faces: `dice \"Dice\": p.dice`",
    "track": "write `{length: 16, at: {P1: 3}, marks: {\"Half way\": 8}}`",
    "table": "write a list of records: `[{Card: c, Cost: c.cost} for c in p.cards]`",
    "text": "any value: it is shown as text",
    "map": "write `{map: board, layers: {volcano: \"triangle\"}, pieces: {city: \"square\"}}`",
}


def _colour(value: Any) -> str | None:
    """A colour a rule gives (`#rgb`, `#rrggbb`), or None for the palette's."""
    if isinstance(value, str) and value.startswith("#") and len(value) in (4, 7) and \
            all(ch in "0123456789abcdefABCDEF" for ch in value[1:]):
        return value.lower()
    return None


def _name_track_marks(views: list[dict], people: list[dict]) -> None:
    """A track position whose label is a player's label or name is that player's (for its colour)."""
    owner = {p["name"]: p["name"] for p in people} | {p["label"]: p["name"] for p in people if p["label"]}
    for v in views:
        for panel in v["panels"]:
            if panel["kind"] == "track":
                for entry in panel["at"]:
                    entry[2] = owner.get(entry[0])


# -- a ruleset without views: its declarations, plainly ----------------------------------------------------------
def _plain_views(game, viewer: Player | None, reveal: bool) -> list[dict]:
    """One view per player (counters and zones as the seat may see them) and one of the table."""
    state = game.state
    data = state.to_json() if reveal else game.sight.observe(state, viewer)
    order = ([viewer] if viewer else []) + [p for p in state.players if p is not viewer]
    views = [{"name": "player", "title": "Player", "player": p.name, "label": None, "colour": None,
              "panels": _plain_panels(data["players"][p.index])} for p in order]
    panels = _plain_panels(data)  # the table's own counters and zones
    panels += [{"kind": "map", "title": name, "map": name, "layers": [], "pieces": [], "shade": [], "highlight": []}
               for name in state.maps]
    if panels:
        views.append({"name": "table", "title": "Table", "player": None, "label": None, "colour": None,
                      "panels": panels})
    return views


def _plain_panels(data: dict) -> list[dict]:
    def shown(v):
        return None if isinstance(v, dict) and v.get("hidden") else _scalar(v)
    panels = []
    values = [[k, shown(v)] for part in ("counters", "vars") for k, v in data.get(part, {}).items()
              if not isinstance(v, (list, dict)) or (isinstance(v, dict) and v.get("hidden"))]
    if values:
        panels.append({"kind": "counters", "title": "Counters", "items": values})
    for name, items in data.get("zones", {}).items():
        if isinstance(items, dict):  # hidden: its size only
            panels.append({"kind": "list", "title": name, "items": [], "hidden": items.get("count", 0)})
        else:
            panels.append({"kind": "list", "title": name, "items": [fmt(i) for i in items], "hidden": 0})
    return panels
