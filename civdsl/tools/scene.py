"""Scenes: everything a picture of a game at one moment needs, as JSON — the seat's views, the maps
with their geometry and the pieces on them. The renderer, the terminal and the web app draw from
scenes; `scenes_at` makes them from a game log by replaying it to the moments asked for.

A scene holds only what its seat may see (the views are evaluated in the seat's masked state; pieces
on a map are public), unless `reveal` asks for everything (a finished game's replay).
"""
from __future__ import annotations

from ..api import new_game
from ..engine.agents import ScriptedAgent
from ..engine.budget import GAME_BUDGET
from ..engine.state import NEUTRAL, owner_name
from ..engine.views import seat_view
from ..language.diagnostics import Span, error
from .gamelog import logged_answers, logged_game


class _Reached(BaseException):
    """The replay reached the last moment asked for: stop it (not an error, so no rule catches it)."""


def scene_of(game, seat: int | None = None, reveal: bool = False, event: int | None = None) -> dict:
    """The game as it is now, for the player in `seat` (0-based; None: a spectator)."""
    state = game.state
    players = state.players
    maps = {}
    for name, graph in state.maps.items():
        pieces = [[area, None if owner == NEUTRAL else owner_name(players, owner), kind, n]
                  for (area, owner, kind), n in state.pieces.items() if area in graph.areas]
        borders = sorted([a, b, t] for a, near in graph.borders.items() for b, t in near.items() if a < b)
        maps[name] = {"areas": graph.areas, "borders": borders,
                      "geometry": getattr(graph, "geometry", None), "pieces": pieces}
    title = game.rs.game.title if game.rs.game else game.rs.edition()
    return {"title": title, "edition": game.rs.edition(), "round": state.round, "event": event,
            "view": seat_view(game, seat, reveal), "maps": maps}


def log_index(path: str, edition: str | None = None) -> dict:
    """How many events a log has and where each round begins: `{"events": n, "rounds": {r: first}}`."""
    events, _cfg, _program = logged_game(path, edition)
    rounds: dict[int, int] = {}
    for k, ev in enumerate(events[1:]):
        rounds.setdefault(ev.get("round", 0), k)
    return {"events": len(events) - 1, "rounds": rounds}


def scene_at(path: str, *, event: int | None = None, round: int | None = None, seat: str | int | None = None,
             reveal: bool = False, edition: str | None = None, game_budget: int = GAME_BUDGET) -> dict:
    """The scene after event `event` (0-based, among the events after the header) or at the end of
    round `round` (neither: at the end of the game), replayed from the log at `path`."""
    if event is not None and round is not None:
        raise error("SCE001", "give an event or a round, not both", None)
    events, _cfg, _program = logged_game(path, edition)
    body = events[1:]
    if round is not None:
        at = [k for k, ev in enumerate(body) if ev.get("round") == round]
        if not at:
            known = sorted({ev.get("round") for ev in body if isinstance(ev.get("round"), int)})
            raise error("SCE002", f"the game has no round {round}", Span(str(path), 1, 1),
                        f"its rounds are {known[0]} to {known[-1]}" if known else "the log has no events")
        event = at[-1]
    elif event is None:
        event = len(body) - 1
    return scenes_at(path, [event], seat=seat, reveal=reveal, edition=edition, game_budget=game_budget)[event]


def scenes_at(path: str, moments: list[int], *, seat: str | int | None = None, reveal: bool = False,
              edition: str | None = None, game_budget: int = GAME_BUDGET) -> dict[int, dict]:
    """Scenes after each of the events `moments` (indexes among the events after the header), in one
    replay of the log that stops at the last of them."""
    events, cfg, program = logged_game(path, edition)
    body = events[1:]
    seat_index = _seat_index(seat, cfg.players, path)
    wanted = sorted(set(moments))
    for k in wanted:
        if not (isinstance(k, int) and 0 <= k < len(body)):
            raise error("SCE003", f"the log has no event {k}", Span(str(path), 1, 1),
                        f"its events are numbered 0 to {len(body) - 1}" if body else "the log has no events")
    if not wanted:
        return {}
    answers = logged_answers(events, path)
    agents = [ScriptedAgent(answers.get(f"P{i + 1}", [])) for i in range(cfg.players)]
    for a, name in zip(agents, cfg.agents):
        a.name = name
    game = new_game(cfg, program, agents=agents, game_budget=game_budget)
    scenes: dict[int, dict] = {}
    emit = game.emit

    def emit_and_look(event_type, /, **fields):
        emit(event_type, **fields)
        k = len(game.events) - 1
        if k in wanted_set:
            if game.events[k].get("type") != body[k].get("type") or game.events[k].get("rule") != body[k].get("rule"):
                raise error("SCE004", f"event {k} of the log does not replay: the log was changed or is not "
                            "from these rules", Span(str(path), k + 2, 1), "check it with `civdsl replay`")
            scenes[k] = scene_of(game, seat_index, reveal, k)
            if k == wanted[-1]:
                raise _Reached()

    wanted_set = set(wanted)
    game.emit = emit_and_look
    try:
        game.run()
    except _Reached:
        pass
    missing = [k for k in wanted if k not in scenes]
    if missing:
        raise error("SCE004", f"the replay ended before event {missing[0]}", Span(str(path), 1, 1),
                    "check the log with `civdsl replay`")
    return scenes


def _seat_index(seat: str | int | None, players: int, path: str) -> int | None:
    """A seat given as `P2` or 1 (0-based) as its index; None stays None."""
    if seat is None:
        return None
    names = [f"P{i + 1}" for i in range(players)]
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    if seat in names:
        return names.index(seat)
    raise error("LOG009", f"the game has no seat `{seat}`", Span(str(path), 1, 1), f"the seats are {', '.join(names)}")
