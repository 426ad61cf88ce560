"""The server's games: starting one (ids and tokens from `secrets`), finding a seat by its token, and
rebuilding every game in progress when the server starts."""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from .errors import WebError
from .live import LiveGame
from .newgame import Spec, catalogue
from .store import Store

MAX_RUNNING = 32  # games in progress at once: each holds a thread and a game in memory
KEEP_FINISHED = 16  # finished games kept in memory for their final pages (older ones are read from the log)


def token() -> str:
    """An unguessable link part: 128 random bits."""
    return secrets.token_urlsafe(16)


class Seat:
    """A person's seat as a request finds it: the game's row, the seat index and the live game if any."""

    def __init__(self, row: dict, index: int, live: LiveGame | None):
        self.row = row
        self.index = index
        self.live = live

    @property
    def name(self) -> str:
        return f"P{self.index + 1}"


class Games:
    def __init__(self, store: Store):
        self.store = store
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        self.lock = threading.Lock()

    def create(self, spec: Spec) -> str:
        """Store a new game and start it; its host link's token."""
        with self.lock:
            running = sum(1 for g in self.live.values() if not g.over)
            if running >= MAX_RUNNING:
                raise WebError(429, f"the server already runs {running} games", "finish or leave one, then try again")
            game_id, host = secrets.token_urlsafe(9), token()
            seats = [(i, kind, token() if kind == "human" else None) for i, kind in enumerate(spec.seats)]
            info = catalogue().get(spec.edition)
            self.store.add_game(game_id, info.title if info else spec.edition, spec.to_json(), host, seats)
            self._start(game_id, spec, [])
        return host

    def _start(self, game_id: str, spec: Spec, answers: list[dict]) -> LiveGame:
        live = LiveGame(game_id, spec, self.store, answers)
        self.live[game_id] = live
        self._forget_old()
        live.start()
        return live

    def _forget_old(self) -> None:
        finished = [gid for gid, g in self.live.items() if g.over]
        for gid in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del self.live[gid]

    def resume_all(self) -> int:
        """Rebuild every game stored as in progress from its spec, seed and answers; how many."""
        ids = self.store.running()
        with self.lock:
            for game_id in ids:
                row = self.store.game(game_id)
                self._start(game_id, Spec.from_json(row["spec"]), self.store.answers(game_id))
        return len(ids)

    def stop_all(self) -> None:
        for live in list(self.live.values()):
            live.stop(timeout=2.0)

    def seat(self, tok: str) -> Seat:
        """The seat a token opens; 404 for a token no game has (mistyped, forged, or of a deleted game)."""
        found = self.store.seat_of(tok) if isinstance(tok, str) and 10 <= len(tok) <= 64 else None
        if found is None:
            raise WebError(404, "no seat has this link", "check the link you were given; each seat's link is "
                           "shown once, on the page of the game's host")
        game_id, index = found
        row = self.store.game(game_id)
        return Seat(row, index, self.live.get(game_id))

    def hosted(self, tok: str) -> dict:
        row = self.store.game_by_host(tok) if isinstance(tok, str) and 10 <= len(tok) <= 64 else None
        if row is None:
            raise WebError(404, "no game has this host link", "start a new game from the home page")
        return row

    def get(self, game_id: str) -> LiveGame | None:
        return self.live.get(game_id)

    def status(self, game_id: str) -> str:
        live = self.live.get(game_id)
        if live is not None:
            return live.status
        row = self.store.game(game_id)
        return row["status"] if row else "unknown"

