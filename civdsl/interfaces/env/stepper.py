"""A game played one decision at a time, from outside: what the PettingZoo and OpenSpiel adapters drive.

The engine asks its agents (`choose` is called from inside the rules), while an environment is told
each answer (`step(action)`). The two meet through forks: the agent of the seats the environment plays
(`Driver`), asked a new question, forks the game there — a fork taken while a player decides plays on
from that decision (`Game.fork`) — and stops the game it was asked in. The stopped game is the moment
of the decision (what the seats are shown is read from it); the fork is its continuation, run with the
answer when it comes, up to the next question. A step costs one fork and re-running one step of rules.

During the set-up a game cannot be forked: a decision there is continued by playing the game again
from its start with the answers given so far (the set-up asks few questions). Seats the environment
does not play are played by their agents (`heuristic`, `mcts`...) inside the game.
"""
from __future__ import annotations

from collections import deque

from ...engine.fork import fork_agent
from ...engine.interpreter import Game, GameResult
from ...language.diagnostics import CivError, error


def check_actions(waiting, max_actions: int, how: str) -> None:
    """ENV001 when the waiting decision has more options than `max_actions` (`how`: how to raise it)."""
    if waiting is not None and len(waiting.decision.options) > max_actions:
        d = waiting.decision
        raise error("ENV001", f"decision \"{d.tag}\" of {d.player.name} has {len(d.options)} options, more than "
                    f"the {max_actions} actions of the action space", None,
                    f"{how} with max_actions={len(d.options)} or more")


class Pause(BaseException):
    """A new question for the environment: the game stops here (not an error: no rule catches it)."""


class Waiting:
    """A game stopped at a decision the environment must answer."""

    def __init__(self, decision, cont: Game | None, inner: list):
        self.decision = decision       # the question (its game is the stopped game: the moment itself)
        self.cont = cont               # the fork that plays on from it (None: in the set-up)
        self.inner = inner             # the other seats' agents as they are at this moment (copies)

    @property
    def game(self) -> Game:
        return self.decision.game

    @property
    def seat(self) -> int:
        return self.decision.player.index


class Driver:
    """The agent of every seat in a game the environment drives: the environment's seats answer from
    `answers`, then stop the game at the next question, leaving `copies` continuations of it; the other
    seats ask their own agent."""

    name = "env"

    def __init__(self, inner: list, answers=(), copies: int = 1):
        self.inner = inner             # per seat: an agent, or None for a seat the environment plays
        self.answers = deque(answers)
        self.copies = copies
        self.waiting: list[Waiting] = []

    def choose(self, decision) -> int:
        agent = self.inner[decision.player.index]
        if agent is not None:
            return agent.choose(decision)
        if self.answers:
            return self.answers.popleft()
        for _ in range(self.copies):
            twin = Driver([fork_agent(a) if a is not None else None for a in self.inner])
            try:
                cont = decision.game.fork(agents=[twin] * len(self.inner), logging=False)
            except CivError:  # the set-up: continued by playing it again (see the module)
                cont = None
            self.waiting.append(Waiting(decision, cont, twin.inner))
        raise Pause()


class Stepper:
    """One game driven decision by decision. `new_game(driver)` makes a fresh game (the same seed each
    time) whose every seat's agent is `driver`; `make_inner()` gives the agents of the seats the
    environment does not play (None for its own), fresh."""

    def __init__(self, new_game, make_inner):
        self.new_game = new_game
        self.make_inner = make_inner
        self.setup_answers: list[int] = []
        self.waiting: Waiting | None = None
        self.result: GameResult | None = None
        self.final: Game | None = None  # the finished game
        self._run(*self._fresh([]))

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def game(self) -> Game:
        """The game at this moment (stopped at the decision, or finished)."""
        return self.final if self.waiting is None else self.waiting.game

    def answer(self, choice: int) -> None:
        """Answer the waiting decision and play on to the next one (or the end)."""
        w = self.waiting
        if w.cont is None:  # the set-up: play it again with one more answer
            self.setup_answers.append(choice)
            self._run(*self._fresh(self.setup_answers))
        else:
            driver = Driver(w.inner, [choice])
            w.cont.agents = [driver] * len(w.inner)
            self._run(w.cont, driver)

    def copy(self) -> "Stepper":
        """An independent stepper at the same moment: the continuation is run up to the same question
        again and forked there twice, one continuation for each."""
        twin = object.__new__(Stepper)
        twin.__dict__.update(self.__dict__)
        twin.setup_answers = list(self.setup_answers)
        w = self.waiting
        if w is not None and w.cont is not None:
            probe = Driver(w.inner, copies=2)
            w.cont.agents = [probe] * len(w.inner)
            try:
                w.cont.run()
            except Pause:
                pass
            if len(probe.waiting) != 2:
                raise RuntimeError("the continuation did not stop at the question it was forked at")
            self.waiting, twin.waiting = probe.waiting
        return twin

    # -- running --------------------------------------------------------------------------------------------
    def _fresh(self, answers: list[int]) -> tuple[Game, Driver]:
        driver = Driver(self.make_inner(), answers)
        return self.new_game(driver), driver

    def _run(self, game: Game, driver: Driver) -> None:
        try:
            result = game.run()
        except Pause:
            self.waiting = driver.waiting[0]
            return
        self.waiting, self.result, self.final = None, result, game
