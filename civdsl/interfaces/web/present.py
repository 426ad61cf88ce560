"""What a page shows, made from the library's answers: the scene of a seat (its view and the board as
SVG, from `tools.scene` and `interfaces.render`), and the events of a log as lines with their rule.

Everything a seat's page gets passes through `seat_scene` and `seat_events`, which ask the library for
that seat's masked view and log; nothing here reads the game's state directly."""
from __future__ import annotations

from markupsafe import Markup

from ...engine.builtins import fmt
from ...engine.visibility import visibility_of

EVENTS_SHOWN = 80  # the latest events on a seat's page


def seat_scene(game, seat: int | None, reveal: bool = False) -> dict:
    """The scene as `seat` (None: a spectator) may see it."""
    from ...tools.scene import scene_of
    return scene_of(game, seat=seat, reveal=reveal)


def board_svg(scene: dict) -> Markup:
    """The picture of a scene (the board, or the sheets of a game without one), inline SVG."""
    from ..render import render_svg
    return Markup(render_svg(scene))


def seat_events(game, seat: int | None, start: int | None = None) -> list[dict]:
    """The latest events (from index `start`, else the last `EVENTS_SHOWN`) as `seat` may read them
    (None: what every seat may read), as page lines."""
    events = game.events
    begin = max(0, len(events) - EVENTS_SHOWN) if start is None else max(0, min(start, len(events)))
    names = [p.name for p in game.state.players]
    viewer = names[seat] if seat is not None else ""
    sight = visibility_of(game.program)
    return [line(begin + i, sight.seat_event(ev, viewer, names)) for i, ev in enumerate(events[begin:])]


def masked_log(events: list[dict], players: int, seat: int | None, program) -> list[dict]:
    """A log's events (header left out) as `seat` may read them; None: as a spectator."""
    names = [f"P{i + 1}" for i in range(players)]
    viewer = names[seat] if seat is not None else ""
    return visibility_of(program).seat_events(events, viewer, names)


def line(index: int, ev: dict) -> dict:
    return {"i": index, "round": ev.get("round"), "type": ev.get("type"), "text": event_text(ev),
            "rule": ev.get("rule") or ""}


def _v(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(_v(v) for v in value) if value else "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_v(v)}" for k, v in value.items())
    return fmt(value)


def event_text(ev: dict) -> str:
    """One event in words. A field the seat may not see arrives as none and reads as "(hidden)"."""
    kind = ev.get("type")
    hidden = "(hidden)"
    if kind == "round":
        return f"Round {ev.get('n')}"
    if kind == "phase":
        order = ev.get("order") or []
        return f"Phase {ev.get('phase')}" + (f" — order {', '.join(order)}" if order else "")
    if kind == "turn":
        return f"{ev.get('player')}'s turn"
    if kind == "skip":
        return f"{ev.get('player')} skips {ev.get('phase')}"
    if kind == "log":
        return str(ev.get("text"))
    if kind == "decision":
        if ev.get("choice") is None and ev.get("options", 0) > 1:
            return f"{ev.get('player')} decided \"{ev.get('tag')}\" {hidden}"
        return f"{ev.get('player')} chose {_v(ev.get('value'))} for \"{ev.get('tag')}\""
    if kind == "set":
        if ev.get("value") is None and ev.get("was") is None:
            return f"{ev.get('target')} changed {hidden}"
        return f"{ev.get('target')} = {_v(ev.get('value'))} (was {_v(ev.get('was'))})"
    if kind in ("add", "remove"):
        item = hidden if ev.get("item") is None else _v(ev.get("item"))
        return f"{item} {'added to' if kind == 'add' else 'removed from'} {ev.get('zone')}"
    if kind == "move":
        item = hidden if ev.get("item") is None else _v(ev.get("item"))
        return f"{item} moved from {ev.get('source')} to {ev.get('to')}"
    if kind == "shuffle":
        return f"{ev.get('zone')} shuffled"
    if kind in ("place", "take"):
        owner = ev.get("owner")
        what = f"{ev.get('n')} {ev.get('kind')}" + (f" of {owner}" if owner else "")
        return f"{what} {'placed in' if kind == 'place' else 'taken from'} {ev.get('area')}"
    if kind == "roll":
        return f"rolled {ev.get('die')}: {_v(ev.get('faces'))}" + (f" (table {ev['table']})" if ev.get("table") else "")
    if kind == "random":
        return f"picked {_v(ev.get('picked'))} at random among {ev.get('among')}"
    if kind == "summary":
        return "Round summary: " + "; ".join(_v(row) for row in ev.get("players") or [])
    if kind == "end":
        winners = ev.get("winners") or []
        return f"Game over after {ev.get('rounds')} round(s): {ev.get('reason')}" + (
            f" — winner {', '.join(winners)}" if winners else " — no winner")
    rest = {k: v for k, v in ev.items() if k not in ("type", "round", "rule")}
    return f"{kind}: {_v(rest)}"


def standings(result: dict | None) -> list[dict]:
    """The final ranking as rows of named cells (place, player, score, then the breakdown's columns)."""
    rows = []
    for row in (result or {}).get("ranking", []):
        cells = {"place": row.get("place"), "player": row.get("player")}
        if "score" in row:
            cells["score"] = fmt(row["score"])
        for k, v in (row.get("breakdown") or {}).items():
            cells[str(k)] = _v(v)
        rows.append(cells)
    return rows
