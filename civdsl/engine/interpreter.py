"""Run a compiled `Program`: set up the state, play rounds of phases in their orders, ask agents for
decisions, check victory, and record every change with the rule (file:line) that made it.

The interpreter knows no game. It knows phases and steps, orders of play, counters, zones, dice and
decisions; what they mean comes from the ruleset. `Game` is assembled from parts, each in its own
module: state changes and transactions (`changes.py`), decisions (`decisions.py`), set-up
(`setup.py`) and forking (`fork.py`); this module holds the rounds.

Where the game is inside a round is kept in a `Cursor`, so that a game forked in the middle of a
step (while a player decides) continues from there: the fork re-runs the step from its start with
the answers already given.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..language.diagnostics import Span
from .budget import GAME_BUDGET, STEP_BUDGET, over_budget
from .builtins import fmt
from .changes import StateChanges
from .decisions import Deciding, Decision
from .fork import Forking
from .program import Program
from .rng import GameRandom
from .runtime import EndOfGame
from .setup import Initializing
from .state import GameState, Player, to_jsonable
from .values import RuleError
from .visibility import visibility_of

__all__ = ["Ctx", "Cursor", "Decision", "Game", "GameResult"]

DEFAULT_STEP_BUDGET = STEP_BUDGET
HARD_ROUND_CAP = 10_000


class Ctx:
    """The running context handed to every compiled function."""

    __slots__ = ("game", "state", "locals", "span", "steps", "depth", "budget", "memo")
    # `steps`: work units drawn since the running step began; `budget`: how many it may draw (the step's
    # budget, or what is left of the game's if that is less: see `Game.fresh_budget`)

    def __init__(self, game: "Game", budget: int):
        self.game = game
        self.state = game.state
        self.locals: dict[str, Any] = {}
        self.span: Span | None = None
        self.steps = 0
        self.depth = 0
        self.budget = budget
        self.memo: dict | None = None  # procedure results, kept while an agent scores one decision


class Cursor:
    """Where the game is inside the round being played: the turn order and turn, the phase, the
    phase's participants and the one playing, the step."""

    __slots__ = ("turns", "turn", "phase", "participants", "participant", "step")

    def __init__(self):
        self.turns: list = []
        self.turn = self.phase = self.participant = self.step = 0
        self.participants: list = []

    def copy(self, players: dict) -> "Cursor":
        """The same place in a copy of the game (`players` maps the original players to the copies)."""
        twin = Cursor()
        twin.turns = [players.get(id(p), p) for p in self.turns]
        twin.participants = [players.get(id(p), p) for p in self.participants]
        twin.turn, twin.phase, twin.participant, twin.step = self.turn, self.phase, self.participant, self.step
        return twin


@dataclass
class GameResult:
    """How the game ended and the final standings."""

    reason: str
    rounds: int
    winners: list[str]
    ranking: list[dict] = field(default_factory=list)
    labels: dict = field(default_factory=dict)  # what `victory { label: }` calls each player (not logged)
    why: dict = field(default_factory=dict)  # each winner's `victory { why: }`, and the rule it cites (not logged)

    def to_json(self) -> dict:
        return {"reason": self.reason, "rounds": self.rounds, "winners": self.winners, "ranking": self.ranking}


class Game(StateChanges, Deciding, Initializing, Forking):
    """One game of a program with a number of players, a seed and one agent per player."""

    def __init__(self, program: Program, num_players: int, seed: int, agents: list, *,
                 logging: bool = True, echo: Callable[[str], None] | None = None,
                 max_rounds: int | None = None, budget: int = DEFAULT_STEP_BUDGET,
                 game_budget: int = GAME_BUDGET, check_invariants: bool = False,
                 on_round: Callable[[int, list[dict]], None] | None = None):
        program.build()
        self.program = program
        self.rs = program.ruleset
        self.state = GameState([Player(i, f"P{i + 1}") for i in range(num_players)], rng=GameRandom(seed))
        self.agents = agents
        for p, a in zip(self.state.players, agents):
            p.agent = getattr(a, "name", "")
        self.logging = logging
        self.echo = echo
        self.events: list[dict] = []
        self.max_rounds = max_rounds
        self.check_invariants = check_invariants
        self.step_budget, self.game_budget = budget, game_budget
        self.work = 0  # units drawn by the steps before the running one (see `engine.budget`)
        self.c = Ctx(self, min(budget, game_budget))
        self._display: dict[str, str] = {}
        self._pending_finish = False
        self.started = False
        self.journal: list | None = None  # undo records of the running step (see `transaction`)
        self._open: list[tuple[list, int, int]] = []  # open transactions: (journal, events and measures before it)
        self.measures: list[dict] = []  # what the rules measured (`measure(...)`), for statistics
        self._rng_saved = False
        self._zones_saved: set[int] = set()  # zones (ids of their lists) journaled in the running transaction
        self.no_random = ""  # while a heuristic or a summary is evaluated: what it is ("a heuristic")
        self.story = False  # measurements carry their `headline` lines (for people; see `engine.views`)
        self.sight = visibility_of(program)  # what each seat may see
        self.on_round = on_round  # called with (round, rows) after each round's summary
        self.cursor = Cursor()
        self._in_round = False      # between `play_round`'s start and end
        self._resume = False        # a fork continues the round at its cursor, re-running the step
        self._replay: list = []     # ... with these answers (last first)
        self._step_choices: list = []  # answers given in the running step
        self._deciding: Decision | None = None  # the question an agent is answering right now
        self._blanked = 0           # inside `scoring_view`
        self._interactions = 0      # decisions asked and lines narrated so far
        self._bounds = program.player_bounds  # a player counter's (lowest, highest) by name
        seq = program.sequence
        self._phase_names = [n for n, _ in seq.phases] if seq else []
        self._check_at = self._victory("check", "turn" if seq and seq.turns else "round")
        self._finish_at = self._victory("finish", "immediately")

    # -- playing ------------------------------------------------------------------------------------
    def start(self, run_setup: bool = True) -> None:
        """Create the state and run the ruleset's `setup` block (once)."""
        self.init()
        prog, st, c = self.program, self.state, self.c
        if run_setup and prog.setup is not None:
            st.phase = "setup"
            c.locals = {}
            self.fresh_budget()
            prog.setup(c)
        self.started = True

    def run(self) -> GameResult:
        """Set up (unless already started) and play to the end; the result is also the last log event."""
        if not self.started:
            self.start()
        cap = self.round_cap()
        reason = "round cap"
        try:
            while self._resume or self.state.round < cap:
                if self.play_round():
                    reason = "victory"
                    break
        except EndOfGame:
            reason = "ended by rule"
        return self.finish(reason)

    def round_cap(self) -> int:
        cap = self.max_rounds
        if cap is None:
            cap_fn = self._victory("max_rounds")
            cap = self.guarded(cap_fn, self.program.victory["max_rounds"][1]) if cap_fn else HARD_ROUND_CAP
        return min(int(cap), HARD_ROUND_CAP)

    def play_round(self) -> bool:
        """Play the next round (a fork taken mid-round: the rest of its round); True when the game ends
        with it."""
        if not self._resume:
            self.state.round += 1
            self.c.span = self.program.sequence.span
            if self.logging:
                self.emit("round", n=self.state.round)
            self.cursor = Cursor()
        self._in_round = True  # (until the round's summary is made: a fork is refused until then)
        try:
            try:
                ended = self._play_round()
            except EndOfGame:
                self.round_summary()
                raise
            self.round_summary()
        finally:
            self._in_round = False
        return ended

    def _play_round(self) -> bool:
        seq, st, cur = self.program.sequence, self.state, self.cursor
        names = self._phase_names
        if seq.turns is not None:
            if not self._resume:
                cur.turns = self._order(seq.turns, self.program.turn_keys)
                cur.turn = 0
            while cur.turn < len(cur.turns):
                p = cur.turns[cur.turn]
                st.current = p
                if not self._resume:
                    self.c.span = seq.span
                    if self.logging:
                        self.emit("turn", player=p.name)
                    cur.phase = 0
                at_phase = self._check_at == "phase"
                while cur.phase < len(names):
                    self.run_phase(names[cur.phase], p)
                    if at_phase and self._check_victory("phase"):
                        return True
                    cur.phase += 1
                if st.skips:
                    st.skips = {s for s in st.skips if s[0] != p.index}
                if self._check_victory("turn"):
                    return True
                cur.turn += 1
        else:
            if not self._resume:
                cur.phase = 0
            while cur.phase < len(names):
                self.run_phase(names[cur.phase], None)
                if self._check_victory("phase"):
                    return True
                cur.phase += 1
            st.skips.clear()
        return self._check_victory("round") or self._pending_finish

    def run_phase(self, name: str, only: Player | None) -> None:
        """Play one phase: for each participant in the phase's order, each step as a transaction."""
        ph = self.program.phases[name]
        st, c, cur = self.state, self.c, self.cursor
        if not self._resume:
            st.phase = name
            c.span = ph.span
            once = ph.order is not None and ph.order.mode == "once" and only is None
            cur.participants = [None] if once else ([only] if only else self._order(ph.order, ph.order_keys))
            cur.participant = 0
            if self.logging:
                self.emit("phase", phase=name,
                          order=[p.name for p in cur.participants if p] if only is None else None)
        participants, steps, when = cur.participants, ph.steps, ph.when
        while cur.participant < len(participants):
            p = participants[cur.participant]
            if not self._resume:  # (a fork re-running a step has already entered)
                if p is not None and st.skips and (p.index, name) in st.skips:
                    cur.participant += 1
                    continue
                st.current = p
                c.locals = {"player": p}
                if when is not None and not self.guarded(when, ph.span, p):
                    cur.participant += 1
                    continue
                cur.step = 0
            local = {"player": p}  # what every step reads (`player`); steps write no locals here
            while cur.step < len(steps):
                step_name, _title, fn, span = steps[cur.step]
                st.step = step_name
                c.locals = local
                c.span = span
                self.fresh_budget()
                if self._step_choices:
                    self._step_choices = []
                self._resume = False
                self.transaction(fn)
                cur.step += 1
            cur.participant += 1
        if self.check_invariants:
            self.verify_invariants()

    def fresh_budget(self) -> None:
        """A step begins: what the last one drew goes to the game's account, and the new one may draw
        the step's budget, or what is left of the game's if that is less (RUN013 when nothing is)."""
        c = self.c
        self.work += c.steps
        c.steps = 0
        left = self.game_budget - self.work
        c.budget = self.step_budget if left > self.step_budget else left
        if left <= 0:
            raise over_budget(c, c.span)

    def _order(self, order, keys: list[Callable]) -> list[Player]:
        players = self.state.players
        if order is None or order.mode in ("seat", "simultaneous", "turn", "once"):
            return players  # (the cursor keeps it; nothing changes the list of players)
        try:
            ranked = sorted(players, key=lambda p: tuple([self.guarded(k, order.span, p) for k in keys]))
        except TypeError as exc:  # keys of different types cannot be compared
            raise RuleError("RUN001", f"order keys cannot be compared: {exc}", order.span) from None
        return list(reversed(ranked)) if order.mode == "inverse" else ranked

    def verify_invariants(self) -> None:
        for name, fn, span in self.program.invariants:
            if not self.guarded(fn, span):
                raise RuleError("INV001", f"invariant \"{name}\" broken after phase `{self.state.phase}` "
                                f"of round {self.state.round}", span)

    # -- victory ----------------------------------------------------------------------------------------
    def _victory(self, name, default=None):
        v = self.program.victory.get(name)
        return v[0] if v else default

    def _victory_span(self, name) -> Span | None:
        v = self.program.victory.get(name)
        return v[1] if v else None

    def _check_victory(self, moment: str) -> bool:
        """True when the game ends now."""
        if self._check_at != moment:
            return False
        winner_fn, over_fn = self._victory("winner"), self._victory("game_over")
        triggered = False
        if over_fn is not None:
            triggered = bool(self.guarded(over_fn, self._victory_span("game_over")))
        if not triggered and winner_fn is not None:
            span = self._victory_span("winner")
            triggered = any(self.guarded(winner_fn, span, p) for p in self.state.players)
        if not triggered:
            return False
        if self._finish_at == "round" and moment != "round":
            self._pending_finish = True
            return False
        return True

    def result(self, reason: str) -> GameResult:
        winner_fn = self._victory("winner")
        rank_fns = self._victory("rank", [])
        score_fn = self._victory("score")
        breakdown = self._victory("breakdown", [])
        label_fn = self._victory("label")
        why_fn = self._victory("why")
        rows, labels = [], {}
        for p in self.state.players:
            def ev(fn, field):
                return to_jsonable(self.guarded(fn, self._victory_span(field), p))
            wins = bool(ev(winner_fn, "winner")) if winner_fn is not None and reason != "round cap" else False
            keys = [ev(k, "rank") for k in rank_fns]
            row = {"player": p.name, "seat": p.seat, "winner_condition": wins, "keys": keys}
            if label_fn is not None:
                labels[p.name] = ev(label_fn, "label")
            if score_fn is not None:
                row["score"] = ev(score_fn, "score")
            if breakdown:
                row["breakdown"] = {k: ev(f, "breakdown") for k, f in breakdown}
            rows.append(row)
        try:
            rows.sort(key=lambda r: ([r["winner_condition"]] + r["keys"]), reverse=True)
        except TypeError as exc:
            raise RuleError("RUN001", f"rank keys cannot be compared: {exc}", self._victory_span("rank")) from None
        winners: list[str] = []
        if reason != "round cap" and rows:
            top = rows[0]
            winners = [r["player"] for r in rows
                       if r["winner_condition"] == top["winner_condition"] and r["keys"] == top["keys"]]
        for i, r in enumerate(rows, 1):
            r["place"] = i
        why = {}
        if why_fn is not None:
            for p in self.state.players:
                if p.name in winners:
                    why[p.name] = fmt(self.guarded(why_fn, self._victory_span("why"), p))
        return GameResult(reason, self.state.round, winners, rows, labels, why)

    def round_summary(self) -> list[dict] | None:
        """Evaluate the victory field `summary` for every player (at the end of each round, also the
        last): log one `summary` event and call `on_round(round, rows)`. Rows are
        `{"player": "P1", ...}` with the record's fields (JSON values), or `"value"` for a non-record.
        None when the ruleset has no summary (`on_round` is then called with no rows)."""
        fn = self._victory("summary")
        if fn is None:
            if self.on_round is not None:
                self.on_round(self.state.round, [])
            return None
        span = self._victory_span("summary")
        saved = self.no_random
        self.no_random = "a round summary"
        try:
            rows = []
            for p in self.state.players:
                value = to_jsonable(self.guarded(fn, span, p))
                row = {"player": p.name}
                if isinstance(value, dict):
                    row.update((k, v) for k, v in value.items() if k != "player")
                else:
                    row["value"] = value
                rows.append(row)
        finally:
            self.no_random = saved
        self.c.span = span
        self.emit("summary", players=rows)
        if self.on_round is not None:
            self.on_round(self.state.round, rows)
        return rows

    def finish(self, reason: str) -> GameResult:
        self.state.current = None
        res = self.result(reason)
        self.c.span = None
        self.emit("end", **res.to_json())
        return res
