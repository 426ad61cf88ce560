"""A game in progress on the server: it runs in its own thread, agents move there, and a person's seat is a
`WebAgent` whose `choose` publishes the decision and waits for an answer from a browser.

One lock (the condition's) guards the game: the game thread holds it while the rules run and lets go only
while it waits for a person, so a request sees the game (views, scene, log) only when it is paused at a
decision or over, never half-way through a step. An answer is checked (the open decision, the right seat,
an option that exists) and stored before the game thread is woken with it; after a restart the stored
answers are given back in order, and the same spec and seed replay the same game up to where it was.
"""
from __future__ import annotations

import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from typing import Any

from ...api import load_program, new_game
from ...engine.agents import make_agents, option_labels, with_presets
from ...language.diagnostics import CivError, render_text
from ...tools.gamelog import log_lines
from .errors import WebError
from .newgame import Spec
from .store import FAILED, FINISHED, Store

BUILD_LOCK = threading.Lock()  # compiling rules is done one game at a time
BUSY_SECONDS = 10.0  # how long a request waits for agents to move before it is told the game is busy

STARTING, WAITING, MOVING = "starting", "waiting", "moving"


class Diverged(Exception):
    """The stored answers do not fit the game being rebuilt (the rule files changed under it)."""


class Stopped(BaseException):
    """The server stops: the game thread leaves (a BaseException, so no rule error handler takes it)."""


@dataclass
class Pending:
    """The decision a person is asked now: its number in the game, whose it is and how it reads."""

    n: int
    seat: int
    tag: str
    question: str
    labels: list[str]  # the options in words; for a subset decision, its items
    subset: Any = None  # a subset decision's `Subsets` (answered by ticking items), else None


class WebAgent:
    """A person's seat: asks through the live game, which waits for the browser's answer."""

    name = "human"

    def __init__(self, live: "LiveGame", seat: int):
        self.live = live
        self.seat = seat

    def fork(self):
        return self

    def choose(self, decision) -> int:
        return self.live.ask(self.seat, decision)


class LiveGame:
    """One game being played, and everything a request may ask of it."""

    def __init__(self, game_id: str, spec: Spec, store: Store, stored_answers: list[dict] | None = None):
        self.id = game_id
        self.spec = spec
        self.store = store
        self.cond = threading.Condition()
        self.game = None
        self.status = STARTING
        self.pending: Pending | None = None
        self.asked = 0  # decisions put to people so far: the number of the next one
        self.version = 0  # changes whenever a page would look different (pages poll it)
        self.error: str | None = None
        self.result: dict | None = None
        self.log: str | None = None
        self._answer: int | None = None
        self._stopping = False
        self._replay = deque(stored_answers or [])
        self.thread = threading.Thread(target=self._run, name=f"civdsl-game-{game_id}", daemon=True)

    @property
    def over(self) -> bool:
        return self.status in (FINISHED, FAILED)

    def start(self) -> None:
        self.thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Wake the thread to leave; what was answered is stored, so the game resumes on the next start."""
        with self.cond:
            self._stopping = True
            self.cond.notify_all()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout)

    # -- the game thread -----------------------------------------------------------------------------------
    def _run(self) -> None:
        with self.cond:
            try:
                cfg = self.spec.config()
                with BUILD_LOCK:
                    program = load_program(cfg.edition, cfg.options, cfg.house_rules)
                    program.build(eager=True)
                self._same_rules(program.ruleset.digest())
                agents = make_agents(["random" if k == "human" else k for k in self.spec.seats], cfg.players, cfg.seed)
                agents = [WebAgent(self, i) if kind == "human" else a
                          for i, (kind, a) in enumerate(zip(self.spec.seats, agents))]
                agents = with_presets(agents, cfg.choices)
                self.game = new_game(cfg, program, agents=agents, logging=True)
                self.status = MOVING
                result = self.game.run()
                self.result = result.to_json()
                self.log = "\n".join(log_lines(self.game, cfg, self.spec.house_rules)) + "\n"
                self.store.finish(self.id, FINISHED, self.result, self.log, None)
                self.status = FINISHED
            except Stopped:
                return
            except CivError as exc:
                self._fail(render_text(exc.diagnostics))
            except Diverged as exc:
                self._fail(str(exc))
            except Exception as exc:  # a bug: the game stops, the server goes on
                traceback.print_exc()
                self._fail(f"internal error: {type(exc).__name__}: {exc} (this is a bug in civdsl; please report it)")
            finally:
                self.pending = None
                self.version += 1
                self.cond.notify_all()

    def _same_rules(self, digest: str) -> None:
        """Note the rules' hash when the game first starts; refuse to rebuild it under other rules."""
        if self.spec.ruleset_hash is None:
            self.spec.ruleset_hash = digest
            self.store.set_spec(self.id, self.spec.to_json())
        elif self.spec.ruleset_hash != digest:
            raise Diverged(f"the rules of {self.spec.edition} changed since this game was started (hash "
                           f"{self.spec.ruleset_hash}, now {digest}): it cannot be resumed")

    def _fail(self, message: str) -> None:
        self.error = message
        self.status = FAILED
        self.store.finish(self.id, FAILED, None, None, message)

    def ask(self, seat: int, decision) -> int:
        """(Game thread, lock held.) The answer of the person at `seat`: a stored one while the game is
        rebuilt after a restart, else the one a browser gives."""
        n = self.asked
        self.asked += 1
        if self._replay:
            stored = self._replay.popleft()
            if stored["n"] != n or stored["seat"] != seat or not 0 <= stored["choice"] < len(decision.options):
                raise Diverged(f"the stored answers do not fit the game at decision {n}: the rules changed "
                               "since it was played, so it cannot be resumed")
            return stored["choice"]
        # in words, as the terminal shows them (a subset decision: its items, to be ticked)
        labels = option_labels(decision) if decision.subset is None else decision.item_labels
        question = decision.question or decision.tag
        self.pending = Pending(n, seat, decision.tag, str(question), labels, decision.subset)
        self.status = WAITING
        self.version += 1
        self.cond.notify_all()
        while self._answer is None:
            if self._stopping:
                raise Stopped()
            self.cond.wait()
        choice, self._answer = self._answer, None
        self.pending = None
        self.status = MOVING
        return choice

    # -- requests ------------------------------------------------------------------------------------------
    def paused(self, timeout: float = BUSY_SECONDS) -> "_Paused":
        """`with live.paused() as game:` — the game once it waits for a person or is over (the agents'
        moves after an answer are waited for). A WebError 503 when they still move after `timeout` seconds."""
        return _Paused(self, timeout)

    def answer(self, seat: int, n, choice, picks: list | None = None) -> None:
        """A browser's answer to decision `n` for `seat`: checked, stored, then handed to the game. A subset
        decision is answered with `picks`, the positions of the items ticked (or with `choice`, the index
        of the subset among its options)."""
        n = _number(n, "decision number")
        if picks is None:
            choice = _number(choice, "choice")
        with self.paused():
            if self.over:
                raise WebError(409, "the game is over: nothing to answer", "reload the page to see the result")
            p = self.pending
            if p is None or p.n != n:
                if n < self.asked:
                    raise WebError(409, "this decision was already answered",
                                   "another tab or browser of this seat answered it first; reload the page")
                raise WebError(409, "this decision is not open", "the page is out of date; reload it")
            if p.seat != seat:
                raise WebError(403, "this decision is not yours to answer")
            if p.subset is not None:
                choice = _subset_choice(p.subset, choice, picks)
            elif picks is not None:
                raise WebError(400, "this decision asks for one option, not items ticked", "press one of the buttons")
            elif not 0 <= choice < len(p.labels):
                raise WebError(400, f"choice {choice} is not among the options (1 to {len(p.labels)})",
                               "pick one of the buttons on the page")
            if not self.store.add_answer(self.id, n, seat, choice, p.tag):
                raise WebError(409, "this decision was already answered", "reload the page")
            self._answer = choice
            self.pending = None
            self.status = MOVING
            self.version += 1
            self.cond.notify_all()


class _Paused:
    def __init__(self, live: LiveGame, timeout: float):
        self.live = live
        self.timeout = timeout

    def __enter__(self):
        """Wait for the lock, then (releasing it meanwhile) for the game to stop moving, all within `timeout`."""
        live = self.live
        deadline = time.monotonic() + self.timeout
        if not live.cond.acquire(timeout=self.timeout):
            raise WebError(503, "the agents are still moving", "try again in a moment")
        while live.status in (STARTING, MOVING):
            left = deadline - time.monotonic()
            if left <= 0:
                live.cond.release()
                raise WebError(503, "the agents are still moving", "try again in a moment")
            live.cond.wait(left)
        return live.game

    def __exit__(self, *exc) -> None:
        self.live.cond.release()


def _subset_choice(subset, choice, picks: list | None) -> int:
    """The option a subset decision's answer names: the items ticked (`picks`), or an option's index."""
    if picks is None:
        if not 0 <= choice < len(subset):
            raise WebError(400, f"choice {choice} is not among the options (0 to {len(subset) - 1})")
        return choice
    positions = [_number(x, "item") for x in picks]
    try:
        return subset.index(positions)
    except ValueError:
        raise WebError(400, f"{len(positions)} item(s) ticked: choose {subset.describe_size()}",
                       "tick the items you choose, then press the button") from None


def _number(value, what: str) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        raise WebError(400, f"the {what} must be a whole number, not {str(value)[:40]!r}") from None
