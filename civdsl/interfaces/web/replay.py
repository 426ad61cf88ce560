"""The replay viewer: a finished game's log or an uploaded one, stepped through by event or by round, with
the board and the views at each step (`tools.scene.scenes_at`) and every event beside the rule
(`file:line`) that caused it.

An uploaded log is a stranger's file: bounded in size, read by `tools.gamelog.read_log` (JSON objects,
a civdsl header), and it must name a shipped edition and shipped house rules by name. Logs are kept in
the database and written out as files under `DIR/logs/` for the library's replay to read.
"""
from __future__ import annotations

import os
import secrets
import threading
from collections import OrderedDict
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ...engine.visibility import visibility_of
from ...language.diagnostics import CivError
from ...tools.gamelog import logged_game, read_log
from ...tools.scene import scenes_at
from .errors import WebError, diagnostic_line, from_civ
from .newgame import catalogue
from .present import board_svg, line
from .store import FINISHED, Store

MAX_LOG_UPLOAD = 20 * 1024 * 1024  # bytes of an uploaded log
WINDOW = 12  # events listed before and after the current one
AHEAD = 6  # scenes made ahead in one replay (stepping forward is then free)
CACHED_SCENES = 256


class Logs:
    """Log files for the viewer, and the scenes already replayed (replaying is the slow part)."""

    def __init__(self, store: Store):
        self.store = store
        self.folder = store.folder / "logs"
        self.scenes: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def path(self, kind: str, log_id: str) -> Path:
        """The file of a stored game's log (`game`) or an uploaded one (`log`), written on first use."""
        text = self.store.game_log(log_id) if kind == "game" else self.store.log(log_id)
        if kind == "game" and text is not None and self.store.game(log_id)["status"] != FINISHED:
            text = None
        if not text:
            raise WebError(404, "no such log", "a game's log can be replayed once the game is over")
        path = self.folder / f"{kind}-{log_id}.jsonl"
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        return path

    def upload(self, data: bytes, name: str) -> str:
        """Check an uploaded log and keep it; its id."""
        if len(data) > MAX_LOG_UPLOAD:
            raise WebError(413, f"the log is larger than {MAX_LOG_UPLOAD >> 20} MiB")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(400, "the upload is not a game log (not UTF-8 text)",
                           "upload a log written by `civdsl play --log` or saved from this server") from None
        log_id = secrets.token_urlsafe(9)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"log-{log_id}.jsonl"
        path.write_text(text, encoding="utf-8")
        try:
            head = read_log(str(path))[0]
            _names_only(head)
            logged_game(str(path))
        except CivError as exc:
            path.unlink(missing_ok=True)
            raise from_civ(exc, "the upload is not a game log this server can replay", hide=str(path)) from None
        except WebError:
            path.unlink(missing_ok=True)
            raise
        self.store.add_log(log_id, name[:200], text)
        return log_id

    def scene(self, path: Path, k: int, seat, reveal: bool, ahead: list[int]) -> dict:
        key = (str(path), k, seat, reveal)
        with self.lock:
            if key in self.scenes:
                self.scenes.move_to_end(key)
                return self.scenes[key]
        try:
            found = scenes_at(str(path), sorted({k, *ahead}), seat=seat, reveal=reveal)
        except CivError:  # one of the moments ahead may be what fails: then this one alone
            found = scenes_at(str(path), [k], seat=seat, reveal=reveal)
        with self.lock:
            for moment, scene in found.items():
                self.scenes[(str(path), moment, seat, reveal)] = scene
            while len(self.scenes) > CACHED_SCENES:
                self.scenes.popitem(last=False)
        return found[k]


def _names_only(head: dict) -> None:
    edition = head.get("edition")
    if edition not in catalogue():
        raise WebError(400, f"the log's edition {str(edition)[:80]!r} is not a shipped edition's name",
                       "the server replays logs of the shipped editions: " + ", ".join(catalogue()))
    variants = catalogue()[edition].variants
    for h in head.get("house_rules") or []:
        if h not in variants:
            raise WebError(400, f"the log's house rule {str(h)[:80]!r} is not a shipped variant of {edition}",
                           f"variants of {edition}: {', '.join(variants) or 'none'}")


# ---- routes ---------------------------------------------------------------------------------------------------

async def upload(request: Request) -> Response:
    form = await request.form(max_files=1, max_fields=5)
    file = form.get("log")
    if file is None or isinstance(file, str):
        raise WebError(400, "no log file in the upload", "choose a .jsonl game log to upload")
    data = await file.read(MAX_LOG_UPLOAD + 1)
    log_id = await run_in_threadpool(request.app.state.logs.upload, data, file.filename or "log")
    return RedirectResponse(f"/replay/log/{log_id}", status_code=303)


def view_game(request: Request) -> Response:
    return _view(request, "game", request.path_params["id"])


def view_log(request: Request) -> Response:
    return _view(request, "log", request.path_params["id"])


def download(request: Request) -> Response:
    path = request.app.state.logs.path("game", request.path_params["id"])
    return PlainTextResponse(path.read_text(encoding="utf-8"), media_type="application/x-ndjson",
                             headers={"Content-Disposition": f'attachment; filename="civdsl-{request.path_params["id"]}.jsonl"'})


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except ValueError:
        raise WebError(400, f"{name} must be a whole number, not {raw[:40]!r}") from None


def _view(request: Request, kind: str, log_id: str) -> Response:
    logs: Logs = request.app.state.logs
    path = logs.path(kind, log_id)
    try:
        events, cfg, program = logged_game(str(path))
    except CivError as exc:
        raise from_civ(exc, "this log cannot be replayed", hide=str(path)) from None
    body = events[1:]
    if not body:
        raise WebError(400, "the log has no events to replay")
    rounds: dict[int, int] = {}
    for i, ev in enumerate(body):
        rounds.setdefault(ev.get("round", 0), i)
    names = [f"P{i + 1}" for i in range(cfg.players)]
    who = request.query_params.get("seat", "all")
    if who not in names + ["all", "public"]:
        raise WebError(400, f"no seat {who[:20]!r} in this game", f"seats: all, public, {', '.join(names)}")
    seat = who if who in names else None
    reveal = who == "all"
    k = _int_param(request, "event")
    r = _int_param(request, "round")
    if request.query_params.get("at") == "end":
        k = len(body) - 1
    if k is None:
        k = rounds.get(r, 0) if r is not None else 0
    if not 0 <= k < len(body):
        raise WebError(400, f"the log has no event {k}", f"its events are numbered 0 to {len(body) - 1}")
    here = body[k].get("round", 0)
    starts = sorted(rounds.values())
    prev_round = max((s for s in starts if s < k), default=None)
    next_round = min((s for s in starts if s > k), default=None)
    ahead = [j for j in range(k + 1, min(len(body), k + AHEAD))] + ([next_round] if next_round is not None else [])
    problem = None
    try:
        scene = logs.scene(path, k, seat, reveal, ahead)
    except CivError as exc:  # (a view's rule failed at this moment: the events are still worth showing)
        scene, problem = {"title": events[0].get("edition"), "maps": {}, "view": {"views": [], "players": []}}, \
            "\n".join(diagnostic_line(d, str(path)) for d in exc.diagnostics)
    sight = visibility_of(program)
    lo, hi = max(0, k - WINDOW), min(len(body), k + WINDOW + 1)
    shown = body[lo:hi] if reveal else [sight.seat_event(ev, seat or "", names) for ev in body[lo:hi]]
    context = {"kind": kind, "id": log_id, "k": k, "last": len(body) - 1, "round": here, "who": who,
               "seats": ["all", "public"] + names, "prev_round": prev_round, "next_round": next_round,
               "rounds": sorted(rounds.items()), "events": [line(lo + i, ev) for i, ev in enumerate(shown)],
               "svg": board_svg(scene) if scene.get("maps") else None, "views": scene["view"]["views"], "players": scene["view"]["players"],
               "title": scene["title"], "header": events[0], "problem": problem}
    return request.app.state.templates.TemplateResponse(request, "replay.html", context)
