"""The playing routes: the home page, starting a game (form or uploaded config), the host's page with
the seat links, and each seat's page and JSON API (its view, the board, its log, its decision).

A seat's responses are built from `present.seat_scene` and `present.seat_events` for that seat only;
the other seats appear by name and whether they are a person or an agent, never by what they hold."""
from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ...language.diagnostics import CivError, render_text
from .errors import WebError
from .games import Games, Seat
from .live import STARTING
from .newgame import SEAT_KINDS, catalogue, spec_from_form, spec_from_upload
from .present import board_svg, seat_events, seat_scene, standings
from .store import FAILED, FINISHED

MAX_UPLOAD_FIELD = 70 * 1024  # bytes read of an uploaded config (the reader refuses more than its own cap)
MAX_PICKS = 1_000  # items one answer to a subset decision may tick


def games_of(request: Request) -> Games:
    return request.app.state.games


def render(request: Request, name: str, context: dict, status: int = 200) -> Response:
    return request.app.state.templates.TemplateResponse(request, name, context, status_code=status)


# ---- home and new games -------------------------------------------------------------------------------------

def index(request: Request) -> Response:
    store = games_of(request).store
    recent = store.games(30)
    for g in recent:
        g["status"] = games_of(request).status(g["id"])
    return render(request, "index.html", {"editions": catalogue().values(), "games": recent})


def new_form(request: Request) -> Response:
    info = catalogue().get(request.path_params["edition"])
    if info is None:
        raise WebError(404, f"no edition {request.path_params['edition'][:60]!r}",
                       "pick one on the home page: " + ", ".join(catalogue()))
    usual = 3 if 3 in info.players else min(info.players, key=lambda n: abs(n - 3))
    return render(request, "new.html", {"info": info, "kinds": SEAT_KINDS, "most": max(info.players), "usual": usual})


async def create(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=200)
    spec = await run_in_threadpool(spec_from_form, form)
    host = await run_in_threadpool(games_of(request).create, spec)
    return RedirectResponse(f"/host/{host}", status_code=303)


async def create_upload(request: Request) -> Response:
    form = await request.form(max_files=1, max_fields=10)
    upload = form.get("config")
    if upload is None or isinstance(upload, str):
        raise WebError(400, "no config file in the upload", "choose a YAML game config to upload")
    data = await upload.read(MAX_UPLOAD_FIELD)
    spec = await run_in_threadpool(spec_from_upload, data, str(form.get("human_seats", "")))
    host = await run_in_threadpool(games_of(request).create, spec)
    return RedirectResponse(f"/host/{host}", status_code=303)


def host(request: Request) -> Response:
    games = games_of(request)
    row = games.hosted(request.path_params["token"])
    seats = games.store.seats(row["id"])
    return render(request, "host.html", {"game": row, "seats": seats, "status": games.status(row["id"]),
                                         "base": str(request.base_url).rstrip("/")})


# ---- a seat -------------------------------------------------------------------------------------------------

def seat_state(seat: Seat, start: int | None = None) -> dict:
    """Everything a seat's page or API response holds, as that seat may see it."""
    live = seat.live
    state = {"game": seat.row["id"], "title": seat.row["title"], "seat": seat.name, "index": seat.index,
             "version": live.version if live else -1, "status": live.status if live else seat.row["status"],
             "decision": None, "waiting_for": None, "scene": None, "events": [], "round": None,
             "result": None, "error": None, "problem": None}
    if live is None:
        state["result"] = seat.row["result"]
        state["error"] = seat.row["error"]
        return state
    with live.paused() as game:
        state["status"], state["version"] = live.status, live.version
        state["result"], state["error"] = live.result, live.error
        if game is None:
            return state
        pending = live.pending
        if pending is not None and pending.seat == seat.index:
            state["decision"] = {"n": pending.n, "tag": pending.tag, "question": pending.question,
                                 "labels": list(pending.labels),  # (a subset decision: its items)
                                 "subset": pending.subset.describe_size() if pending.subset is not None else None}
        elif pending is not None:
            kind = live.spec.seats[pending.seat]
            state["waiting_for"] = f"P{pending.seat + 1}" + (" (a person)" if kind == "human" else "")
        try:
            state["scene"] = seat_scene(game, seat.index)
        except CivError as exc:  # a view's rule failed: the page still lets the seat play
            state["problem"] = render_text(exc.diagnostics)
        state["events"] = seat_events(game, seat.index, start)
        state["round"] = game.state.round
    return state


def picture(scene: dict | None):
    """The board as SVG, for a game that has one (a game without a board shows its views as panels)."""
    return board_svg(scene) if scene and scene.get("maps") else None


def seat_page(request: Request) -> Response:
    seat = games_of(request).seat(request.path_params["token"])
    state = seat_state(seat)
    if seat.live is None and state["status"] == FINISHED:
        return RedirectResponse(f"/replay/game/{seat.row['id']}?seat={seat.name}&at=end", status_code=303)
    scene = state["scene"]
    context = {"s": state, "token": request.path_params["token"], "svg": picture(scene),
               "views": scene["view"]["views"] if scene else [], "players": scene["view"]["players"] if scene else [],
               "me": (scene["view"]["players"][seat.index] if scene else None),
               "events": list(reversed(state["events"])), "standings": standings(state["result"]),
               "over": state["status"] in (FINISHED, FAILED), "starting": state["status"] == STARTING}
    return render(request, "seat.html", context)


def seat_status(request: Request) -> Response:
    """What the page polls: no lock, nothing of the game but whether it changed."""
    seat = games_of(request).seat(request.path_params["token"])
    live = seat.live
    if live is None:
        return JSONResponse({"version": -1, "status": seat.row["status"], "yours": False})
    pending = live.pending
    return JSONResponse({"version": live.version, "status": live.status,
                         "yours": pending is not None and pending.seat == seat.index})


async def answer(request: Request) -> Response:
    form = await request.form(max_files=0, max_fields=10 + MAX_PICKS)
    picks = form.getlist("pick")[:MAX_PICKS] if form.get("subset") else None  # a subset decision: the items ticked
    await run_in_threadpool(_answer, request, form.get("n"), form.get("choice"), picks)
    return RedirectResponse(f"/seat/{request.path_params['token']}", status_code=303)


def _answer(request: Request, n, choice, picks=None) -> None:
    seat = games_of(request).seat(request.path_params["token"])
    if seat.live is None:
        raise WebError(409, "the game is over: nothing to answer", "reload the page to see the result")
    seat.live.answer(seat.index, n, choice, picks)


# ---- the JSON API -------------------------------------------------------------------------------------------

def api_seat(request: Request) -> Response:
    seat = games_of(request).seat(request.path_params["token"])
    since = request.query_params.get("since")
    try:
        start = int(since) if since is not None else None
    except ValueError:
        raise WebError(400, f"since must be an event number, not {since[:40]!r}") from None
    state = seat_state(seat, start)
    scene = state.pop("scene")
    state["view"] = scene["view"] if scene else None
    return JSONResponse(state)


async def api_answer(request: Request) -> Response:
    try:
        body = await request.json()
    except ValueError:
        raise WebError(400, "the answer is not JSON", 'send {"n": DECISION_NUMBER, "choice": OPTION_INDEX}') from None
    if not isinstance(body, dict):
        raise WebError(400, "the answer is not a JSON object", 'send {"n": DECISION_NUMBER, "choice": OPTION_INDEX}')
    picks = body.get("picks")  # a subset decision: the positions of the items chosen (or `choice`, an option)
    if picks is not None and (not isinstance(picks, list) or len(picks) > MAX_PICKS):
        raise WebError(400, "`picks` is a list of item positions", 'send {"n": DECISION_NUMBER, "picks": [0, 2]}')
    await run_in_threadpool(_answer, request, body.get("n"), body.get("choice"), picks)
    return JSONResponse({"ok": True})
