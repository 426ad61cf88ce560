"""The Starlette application: routes, templates, static files, the cap on request bodies, security
headers, and bad input rendered as a readable page (or JSON under /api/). On start it rebuilds every
game stored as in progress; on stop it lets the game threads go (their answers are stored)."""
from __future__ import annotations

import contextlib
import traceback
from importlib import resources

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from . import pages, replay
from .errors import WebError
from .games import Games
from .store import Store

MAX_BODY = replay.MAX_LOG_UPLOAD + 64 * 1024  # no request may send more (the largest is a log upload)
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a seat's link is its key: never sent to another site
    "Cache-Control": "no-store",
}


def _folder(name: str) -> str:
    return str(resources.files(__package__).joinpath(name))


def make_app(data_dir: str, resume: bool = True) -> Starlette:
    """The app serving the games stored in `data_dir` (created if missing)."""
    store = Store(data_dir)
    games = Games(store)
    env = Environment(loader=FileSystemLoader(_folder("templates")), autoescape=select_autoescape(default=True))
    templates = Jinja2Templates(env=env)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if resume:
            games.resume_all()
        yield
        games.stop_all()
        store.close()

    routes = [
        Route("/", pages.index),
        Route("/new/{edition}", pages.new_form),
        Route("/games", pages.create, methods=["POST"]),
        Route("/games/upload", pages.create_upload, methods=["POST"]),
        Route("/host/{token}", pages.host),
        Route("/seat/{token}", pages.seat_page),
        Route("/seat/{token}/status", pages.seat_status),
        Route("/seat/{token}/answer", pages.answer, methods=["POST"]),
        Route("/api/seat/{token}", pages.api_seat),
        Route("/api/seat/{token}/answer", pages.api_answer, methods=["POST"]),
        Route("/replay/upload", replay.upload, methods=["POST"]),
        Route("/replay/log/{id}", replay.view_log),
        Route("/replay/game/{id}", replay.view_game),
        Route("/replay/game/{id}/log.jsonl", replay.download),
        Mount("/static", StaticFiles(directory=_folder("static")), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={WebError: _web_error, HTTPException: _http_error, Exception: _bug})
    app.state.store, app.state.games, app.state.templates = store, games, templates
    app.state.logs = replay.Logs(store)
    return _Guard(app)


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path.endswith("/status")


def _error_page(request: Request, err: WebError) -> Response:
    if _wants_json(request):
        return JSONResponse(err.to_json(), status_code=err.status)
    return request.app.state.templates.TemplateResponse(request, "error.html", {"err": err}, status_code=err.status)


async def _web_error(request: Request, exc: WebError) -> Response:
    return _error_page(request, exc)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    words = {404: "there is no page here", 405: "this page does not take that kind of request"}
    return _error_page(request, WebError(exc.status_code, words.get(exc.status_code, str(exc.detail))))


async def _bug(request: Request, exc: Exception) -> Response:
    """A bug: a short page (the traceback goes to the server's output), never the game's insides."""
    traceback.print_exception(exc)
    return _error_page(request, WebError(500, f"internal error: {type(exc).__name__}",
                                         "this is a bug in civdsl; please report it with what you did"))


class _Guard:
    """ASGI wrapper: refuses a request body larger than `MAX_BODY` (declared or sent) with 413, and adds
    the security headers to every response."""

    def __init__(self, app: Starlette):
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            return await _too_large(send)
        seen = 0

        async def bounded_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise WebError(413, "the request is too large")
            return message

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = message | {"headers": headers}
            await send(message)

        await self.app(scope, bounded_receive, with_headers)


async def _too_large(send) -> None:
    body = f"the request is larger than {MAX_BODY >> 20} MiB".encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")] +
                           [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]})
    await send({"type": "http.response.body", "body": body})
