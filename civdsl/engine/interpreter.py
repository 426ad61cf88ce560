"""Run a compiled `Program`: set up the state, play rounds of phases in their orders, ask agents for
decisions, check victory, and record every change with the rule (file:line) that made it.

The interpreter knows no game. It knows phases and steps, orders of play, counters, zones, dice and
decisions; what they mean comes from the ruleset.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from ..language.diagnostics import CivError, Span
from .builtins import fmt, type_name
from .program import Program
from .rng import REBASE_WORDS, GameRandom
from .runtime import EndOfGame, combine, py_error
from .state import GameState, Player, ZoneRef, to_jsonable
from .values import EVALUATE, FORCE, EntityObj, LazyField, RuleError

DEFAULT_STEP_BUDGET = 2_000_000
HARD_ROUND_CAP = 10_000


class Ctx:
    """The running context handed to every compiled closure."""

    __slots__ = ("game", "state", "locals", "span", "steps", "depth", "budget", "memo")

    def __init__(self, game: "Game", budget: int):
        self.game = game
        self.state = game.state
        self.locals: dict[str, Any] = {}
        self.span: Span | None = None
        self.steps = 0
        self.depth = 0
        self.budget = budget
        self.memo: dict | None = None  # procedure results, kept while an agent scores one decision


@dataclass(slots=True)
class Decision:
    """A question to one player's agent: the legal options were computed by the rule."""

    game: "Game"
    player: Player
    tag: str
    options: list
    span: Span

    @property
    def labels(self) -> list[str]:
        return [fmt(o) for o in self.options]

    def observation(self) -> dict:
        return self.game.observation(self.player)


@dataclass
class GameResult:
    """How the game ended and the final standings."""

    reason: str
    rounds: int
    winners: list[str]
    ranking: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"reason": self.reason, "rounds": self.rounds, "winners": self.winners, "ranking": self.ranking}


class Game:
    """One game of a program with a number of players, a seed and one agent per player."""

    def __init__(self, program: Program, num_players: int, seed: int, agents: list, *,
                 logging: bool = True, echo: Callable[[str], None] | None = None,
                 max_rounds: int | None = None, budget: int = DEFAULT_STEP_BUDGET,
                 check_invariants: bool = False,
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
        self.c = Ctx(self, budget)
        self._display: dict[str, str] = {}
        self._pending_finish = False
        self.started = False
        self.journal: list | None = None  # undo records of the running step (see `transaction`)
        self._rng_saved = False
        self.no_random = ""  # while a heuristic or a summary is evaluated: what it is ("a heuristic")
        self.visibility = program.zones
        self.on_round = on_round  # called with (round, rows) after each round's summary
        # What a player's heuristic may not read (see `scoring_view`): zone names, fixed per program.
        self._mask_global = [n for (scope, n), vis in self.visibility.items() if scope == "global" and vis != "all"]
        self._mask_own = [n for (scope, n), vis in self.visibility.items() if scope == "player" and vis == "hidden"]
        self._mask_other = [n for (scope, n), vis in self.visibility.items()
                            if scope == "player" and vis in ("hidden", "owner")]
        self._heuristic_spans: dict[str, Span] | None = None

    # -- provenance and the log -----------------------------------------------------------------------
    def where(self, span: Span | None) -> str | None:
        if span is None:
            return None
        name = self._display.get(span.file)
        if name is None:
            name = self._display[span.file] = self.rs.display(span.file)
        return f"{name}:{span.line}"

    def emit(self, event_type: str, /, **fields) -> None:
        if not self.logging:
            return
        ev = {"type": event_type, "round": self.state.round}
        ev.update(fields)
        ev["rule"] = self.where(self.c.span)
        self.events.append(ev)

    def narrate(self, text: str) -> None:
        self.emit("log", text=text)
        if self.echo:
            self.echo(text)

    # -- state changes (every one is logged with its rule) --------------------------------------------------
    def _bounded(self, key, name: str, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"counter `{name}` holds whole numbers, not {type_name(value)}")
        if isinstance(value, float):
            if not value.is_integer():
                raise TypeError(f"counter `{name}` holds whole numbers, got {value}")
            value = int(value)
        lo, hi = self.program.bounds.get(key, (None, None))
        if lo is not None and value < lo:
            value = lo
        if hi is not None and value > hi:
            value = hi
        return value

    def set_global(self, name: str, op: str, value) -> None:
        st = self.state
        if ("global", name) in self.program.counters:
            store = st.counters
            old = store[name]
            new = self._bounded(("global", name), name, _apply(op, old, value))
        else:
            store = st.vars
            old = store.get(name)
            new = _apply(op, old, value)
        store[name] = new
        if self.journal is not None:
            self.journal.append((store, name, old))
        if self.logging and new != old:
            self.emit("set", target=name, value=to_jsonable(new), was=to_jsonable(old))

    def set_player(self, p: Player, name: str, op: str, value) -> None:
        store = p.counters
        if name in store:
            old = store[name]
            new = value if op == "=" else combine(op, old, value)
            if type(new) is int:  # the common case, clamped inline
                lo, hi = self.program.bounds.get(("player", name), _NO_BOUNDS)
                if lo is not None and new < lo:
                    new = lo
                elif hi is not None and new > hi:
                    new = hi
            else:
                new = self._bounded(("player", name), name, new)
        elif name in p.vars:
            store = p.vars
            old = store[name]
            new = _apply(op, old, value)
        else:
            raise KeyError(f"player has no counter or variable `{name}`")
        store[name] = new
        if self.journal is not None:
            self.journal.append((store, name, old))
        if self.logging and new != old:
            self.emit("set", target=f"{p.name}.{name}", value=to_jsonable(new), was=to_jsonable(old))

    def set_record(self, record: dict, key, op: str, value) -> None:
        old = record.get(key)
        if key not in record and op != "=":
            raise KeyError(key)
        new = _apply(op, old, value)
        record[key] = new
        if self.journal is not None:
            self.journal.append((record, key, old))
        if self.logging and new != old:
            self.emit("set", target=f"[{key}]", value=to_jsonable(new), was=to_jsonable(old))

    def zone_add(self, z: ZoneRef, item) -> None:
        self._save_zone(z)
        z.items.append(item)
        if self.logging:
            self.emit("add", zone=z.label(), item=to_jsonable(item))

    def zone_remove(self, z: ZoneRef, item) -> None:
        self._save_zone(z)
        try:
            z.items.remove(item)
        except ValueError:
            raise ValueError(f"{fmt(item)} is not in {z.label()}") from None
        if self.logging:
            self.emit("remove", zone=z.label(), item=to_jsonable(item))

    def zone_move(self, src: ZoneRef, dst: ZoneRef, item) -> None:
        self._save_zone(src)
        self._save_zone(dst)
        try:
            src.items.remove(item)
        except ValueError:
            raise ValueError(f"{fmt(item)} is not in {src.label()}") from None
        dst.items.append(item)
        if self.logging:
            self.emit("move", item=to_jsonable(item), source=src.label(), to=dst.label())

    def zone_shuffle(self, z: ZoneRef) -> None:
        self._save_zone(z)
        self.rng().shuffle(z.items)
        if self.logging:
            self.emit("shuffle", zone=z.label())

    def _save_zone(self, z: ZoneRef) -> None:
        if self.journal is not None:
            self.journal.append((z.items, None, list(z.items)))

    def save_pieces(self, key) -> None:
        """Called before a map piece count changes, so a failed step can be undone."""
        if self.journal is not None:
            self.journal.append((self.state.pieces, key, self.state.pieces.get(key, 0)))

    def rng(self):
        """The game's random stream; the first use in a step saves its state so a failure can rewind it."""
        if self.no_random:
            raise RuleError("RUN023", f"{self.no_random} may not use randomness (it would change the game's dice)",
                            self.c.span, "compute it from the state only")
        if self.journal is not None and not self._rng_saved:
            self.journal.append((_RNG, None, self.state.rng.bookmark()))
            self._rng_saved = True
        return self.state.rng

    def _rollback(self, journal: list, events: int) -> None:
        """Undo a failed step: values, zones, pieces, skips, the random stream and its log events."""
        for store, key, old in reversed(journal):
            if store is _RNG:
                self.state.rng.rewind(old)
            elif key is None:
                store[:] = old
            elif key is _SKIPS:
                self.state.skips = old
            else:
                store[key] = old
        del self.events[events:]

    def transaction(self, fn: Callable):
        """Run `fn(ctx)` all or nothing: if a rule fails, the state is as before the call."""
        outer, outer_saved = self.journal, self._rng_saved
        if outer is None and self.state.rng.words > REBASE_WORDS:
            self.state.rng.rebase()
        self.journal, self._rng_saved, events = [], False, len(self.events)
        failed = False
        try:
            return fn(self.c)
        except CivError:
            failed = True
            self._rollback(self.journal, events)
            raise
        finally:
            if outer is not None and not failed:
                outer.extend(self.journal)
            self._rng_saved = outer_saved or (self._rng_saved and not failed)
            self.journal = outer

    def skip(self, phase: str) -> None:
        p = self.state.current
        if p is None:
            raise ValueError("`skip` needs a current player")
        if self.journal is not None:
            self.journal.append((None, _SKIPS, set(self.state.skips)))
        self.state.skips.add((p.index, phase))
        self.emit("skip", player=p.name, phase=phase)

    # -- decisions ------------------------------------------------------------------------------------
    def decide(self, p: Player, tag: str, options: list, span: Span):
        if not options:
            raise RuleError("RUN021", f"{p.name} must choose \"{tag}\" but the rule offers no options", span,
                            "the rule should offer at least one option (for example a `none` choice)")
        if len(options) == 1:
            choice = 0
        else:
            saved = (self.c.locals, self.c.span)
            choice = self.agents[p.index].choose(Decision(self, p, tag, options, span))
            self.c.locals, self.c.span = saved
            if not isinstance(choice, int) or not 0 <= choice < len(options):
                raise RuleError("RUN022", f"agent of {p.name} gave an invalid choice {choice!r} for \"{tag}\"", span)
        if self.logging:
            self.emit("decision", player=p.name, tag=tag, options=len(options), choice=choice,
                      value=to_jsonable(options[choice]))
        return options[choice]

    def score_option(self, p: Player, tag: str, option) -> Any:
        """The ruleset's heuristic score of one option for `p`, or None when the tag has no heuristic.

        This reads the state as it is: call it inside `scoring_view(p)` (as `score_options` does) so
        the heuristic sees only what `p` may see."""
        fn = self.program.heuristics.get(tag)
        if fn is None:
            return None
        c = self.c
        saved = (c.locals, c.span, self.logging, self.no_random)
        c.locals = {"player": p, "option": option}
        c.span = self._heuristic_span(tag) or c.span
        self.logging = False
        self.no_random = "a heuristic"
        try:
            return fn(c)
        except _PY_ERRORS as exc:
            message = py_error(exc)
            hint = None
            if "none" in message and self._masks_something():
                hint = ("a heuristic sees only what its player sees: the items of other players' `owner` "
                        "zones and of every `hidden` zone read as none")
            raise RuleError("RUN001", f"heuristic \"{tag}\" failed for option {fmt(option)}: {message}",
                            self._heuristic_span(tag) or saved[1], hint) from None
        finally:
            c.locals, c.span, self.logging, self.no_random = saved

    def score_options(self, p: Player, tag: str, options: list) -> list | None:
        """Every option's heuristic score for `p`, in `p`'s view of the game (`scoring_view`); None
        when the ruleset has no heuristic for `tag`. The state is left exactly as it was."""
        if tag not in self.program.heuristics:
            return None
        with self.scoring_view(p):
            self.c.memo = {}  # the state cannot change while options are scored: procedures are pure
            try:
                return [self.score_option(p, tag, o) for o in options]
            finally:
                self.c.memo = None

    @contextmanager
    def scoring_view(self, viewer: Player):
        """While inside, the rules see the game as `viewer` does: the items of other players' `owner`
        zones, of every player's `hidden` zones and of non-public global zones read as `none` (the
        lists keep their length, as an observation shows sizes only). `viewer`'s own `owner` zones
        are untouched. The zones' lists are blanked in place (so every view of a zone agrees) and
        refilled on the way out, also when a rule fails; nothing is journaled or logged."""
        st = self.state
        saved: list[tuple[list, list]] = []
        try:
            for name in self._mask_global:
                items = st.zones.get(name)
                if items:
                    saved.append((items, items[:]))
                    items[:] = [None] * len(items)
            for p in st.players:
                for name in (self._mask_own if p is viewer else self._mask_other):
                    items = p.zones.get(name)
                    if items:
                        saved.append((items, items[:]))
                        items[:] = [None] * len(items)
            yield
        finally:
            for items, original in reversed(saved):
                items[:] = original

    def _masks_something(self) -> bool:
        return bool(self._mask_global or self._mask_own or (self._mask_other and len(self.state.players) > 1))

    def _heuristic_span(self, tag: str) -> Span | None:
        if self._heuristic_spans is None:
            from ..language import ast as A
            self._heuristic_spans = {d.name: d.span for d in self.rs.of(A.Heuristic)}
        return self._heuristic_spans.get(tag)

    def observation(self, p: Player) -> dict:
        return self.state.observation(p, self.visibility)

    # -- set-up ---------------------------------------------------------------------------------------
    def init(self) -> None:
        """Evaluate parameters, dice, tables and things, then create every counter, variable and zone."""
        FORCE.append(self._force_field)
        EVALUATE.append(lambda fn: self.guarded(fn, None))
        try:
            self._init_constants()
        finally:
            FORCE.pop()
            EVALUATE.pop()
        self._init_state()

    def _force_field(self, lf: LazyField):
        if lf.forcing:
            raise RuleError("RUN003", f"field `{lf.name}` of {lf.owner.kind} \"{lf.owner.name}\" depends on itself",
                            lf.span)
        lf.forcing = True
        saved = (self.c.locals, self.c.span)
        try:
            value = check_field(self.program, lf.owner, lf.kind_field, self.guarded(lf.fn, lf.span), lf.span)
        finally:
            lf.forcing = False
            self.c.locals, self.c.span = saved
        lf.owner.fields[lf.name] = (value,)
        return value

    def _init_constants(self) -> None:
        prog, st = self.program, self.state
        fresh = prog.constants_for != len(st.players)
        if fresh:  # back to the compiled expressions; a parameter may read a table row or a field early
            prog.constants_for = None  # until every constant below is evaluated
            for name, die in prog.dice.items():
                die.faces = prog.die_sources[name]
            for name, t in prog.tables.items():
                t.rows = list(prog.table_sources[name])
            for lf in prog.lazy_fields:
                lf.owner.fields[lf.name] = lf
        for name, fn, span in prog.params:
            st.vars[name] = self.guarded(fn, span)
        if not fresh:
            return  # dice, tables, fields and bounds already evaluated for this many players
        for die in prog.dice.values():
            faces = self.guarded(die.faces, None)
            if not isinstance(faces, list) or not faces:
                raise RuleError("DIE001", f"die `{die.name}` needs a non-empty list of faces",
                                prog.die_spans.get(die.name))
            die.faces = faces
        for t in prog.tables.values():
            t.rows = [(lo, hi, self.guarded(v, None) if callable(v) else v) for lo, hi, v in t.rows]
        for lf in prog.lazy_fields:
            if lf.owner.fields.get(lf.name) is lf:
                self._force_field(lf)
        prog.bounds.clear()
        for (scope, name), (lo, hi, init, span) in prog.counters.items():
            bounds = (self.guarded(lo, span) if lo else None, self.guarded(hi, span) if hi else None)
            prog.bounds[(scope, name)] = bounds
        prog.constants_for = len(st.players)

    def _init_state(self) -> None:
        prog, st = self.program, self.state
        literal = prog.literal_inits
        for (scope, name), (lo, hi, init, span) in prog.counters.items():
            key = (scope, name)
            if key in literal:  # evaluated and bounded once for all players
                value = self._bounded(key, name, literal[key])
                for owner in (st.players if scope == "player" else [None]):
                    (owner.counters if owner else st.counters)[name] = value
                continue
            for owner in (st.players if scope == "player" else [None]):
                value = self._bounded(key, name, self.guarded(init, span, owner))
                (owner.counters if owner else st.counters)[name] = value
        for (scope, name), (init, span) in prog.vars.items():
            for owner in (st.players if scope == "player" else [None]):
                (owner.vars if owner else st.vars)[name] = self.guarded(init, span, owner)
        for (scope, name) in prog.zones:
            for owner in (st.players if scope == "player" else [None]):
                (owner.zones if owner else st.zones)[name] = []
        st.maps = dict(prog.maps)

    # -- playing ------------------------------------------------------------------------------------
    def guarded(self, fn: Callable, span: Span | None, player: Player | None = None, **local):
        """Evaluate an expression that is not inside a statement (conditions, order keys, victory
        fields, invariants), turning a Python error into a diagnostic at `span`."""
        c = self.c
        c.span = span
        c.locals = {"player": player, **local} if player is not None else dict(local)
        try:
            return fn(c)
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError,
                OverflowError, RecursionError) as exc:
            raise RuleError("RUN001", py_error(exc), span) from None

    def _order(self, order, keys: list[Callable]) -> list[Player]:
        players = list(self.state.players)
        if order is None or order.mode in ("seat", "simultaneous", "turn", "once"):
            return players
        try:
            ranked = sorted(players, key=lambda p: tuple(self.guarded(k, order.span, p) for k in keys))
        except TypeError as exc:  # keys of different types cannot be compared
            raise RuleError("RUN001", f"order keys cannot be compared: {exc}", order.span) from None
        return list(reversed(ranked)) if order.mode == "inverse" else ranked

    def run_phase(self, name: str, only: Player | None) -> None:
        ph = self.program.phases[name]
        st, c = self.state, self.c
        st.phase = name
        c.span = ph.span
        once = ph.order is not None and ph.order.mode == "once" and only is None
        participants: list = [None] if once else ([only] if only else self._order(ph.order, ph.order_keys))
        self.emit("phase", phase=name, order=[p.name for p in participants if p] if only is None else None)
        for p in participants:
            if p is not None and (p.index, name) in st.skips:
                continue
            st.current = p
            c.locals = {"player": p}
            if ph.when is not None and not self.guarded(ph.when, ph.span, p):
                continue
            for step_name, _title, fn, span in ph.steps:
                st.step = step_name
                c.locals = {"player": p}
                c.steps = 0
                c.span = span
                self.transaction(fn)
        if self.check_invariants:
            self.verify_invariants()

    def verify_invariants(self) -> None:
        for name, fn, span in self.program.invariants:
            if not self.guarded(fn, span):
                raise RuleError("INV001", f"invariant \"{name}\" broken after phase `{self.state.phase}` "
                                f"of round {self.state.round}", span)

    def _victory(self, name, default=None):
        v = self.program.victory.get(name)
        return v[0] if v else default

    def _victory_span(self, name) -> Span | None:
        v = self.program.victory.get(name)
        return v[1] if v else None

    def _check_victory(self, moment: str) -> bool:
        """True when the game ends now."""
        if self._victory("check", "turn" if self.program.sequence and self.program.sequence.turns else "round") != moment:
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
        if self._victory("finish", "immediately") == "round" and moment != "round":
            self._pending_finish = True
            return False
        return True

    def result(self, reason: str) -> GameResult:
        winner_fn = self._victory("winner")
        rank_fns = self._victory("rank", [])
        score_fn = self._victory("score")
        breakdown = self._victory("breakdown", [])
        rows = []
        for p in self.state.players:
            def ev(fn, field):
                return to_jsonable(self.guarded(fn, self._victory_span(field), p))
            wins = bool(ev(winner_fn, "winner")) if winner_fn is not None and reason != "round cap" else False
            keys = [ev(k, "rank") for k in rank_fns]
            row = {"player": p.name, "seat": p.seat, "winner_condition": wins, "keys": keys}
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
        return GameResult(reason, self.state.round, winners, rows)

    def start(self, run_setup: bool = True) -> None:
        """Create the state and run the ruleset's `setup` block (once)."""
        self.init()
        prog, st, c = self.program, self.state, self.c
        if run_setup and prog.setup is not None:
            st.phase = "setup"
            c.locals, c.steps = {}, 0
            prog.setup(c)
        self.started = True

    def round_cap(self) -> int:
        cap = self.max_rounds
        if cap is None:
            cap_fn = self._victory("max_rounds")
            cap = self.guarded(cap_fn, self.program.victory["max_rounds"][1]) if cap_fn else HARD_ROUND_CAP
        return min(int(cap), HARD_ROUND_CAP)

    def play_round(self) -> bool:
        """Play the next round; True when the game ends with it."""
        self.state.round += 1
        self.c.span = self.program.sequence.span
        self.emit("round", n=self.state.round)
        try:
            ended = self._play_round()
        except EndOfGame:
            self.round_summary()
            raise
        self.round_summary()
        return ended

    def round_summary(self) -> list[dict] | None:
        """Evaluate the victory field `summary` for every player (at the end of each round, also the
        last): log one `summary` event and call `on_round(round, rows)`. Rows are
        `{"player": "P1", ...}` with the record's fields (JSON values), or `"value"` for a non-record.
        None when the ruleset has no summary."""
        fn = self._victory("summary")
        if fn is None:
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

    def run(self) -> GameResult:
        """Set up (unless already started) and play to the end; the result is also the last log event."""
        if not self.started:
            self.start()
        cap = self.round_cap()
        reason = "round cap"
        try:
            while self.state.round < cap:
                if self.play_round():
                    reason = "victory"
                    break
        except EndOfGame:
            reason = "ended by rule"
        return self.finish(reason)

    def _play_round(self) -> bool:
        seq, st = self.program.sequence, self.state
        names = [n for n, _ in seq.phases]
        if seq.turns is not None:
            for p in self._order(seq.turns, self.program.turn_keys):
                st.current = p
                self.c.span = seq.span
                self.emit("turn", player=p.name)
                for name in names:
                    self.run_phase(name, p)
                    if self._check_victory("phase"):
                        return True
                st.skips = {s for s in st.skips if s[0] != p.index}
                if self._check_victory("turn"):
                    return True
        else:
            for name in names:
                self.run_phase(name, None)
                if self._check_victory("phase"):
                    return True
            st.skips.clear()
        if self._check_victory("round") or self._pending_finish:
            return True
        return False


_NO_BOUNDS = (None, None)
_PY_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError, OverflowError,
              RecursionError)
_RNG = object()    # journal marker: the random stream's bookmark
_SKIPS = object()  # journal marker: the set of skipped phases


def _apply(op: str, old, value):
    return value if op == "=" else combine(op, old, value)


def check_field(prog: Program, ent: EntityObj, kf, value, span: Span):
    """Check a thing's field value against its kind's declared type (refs must name real things)."""
    t = kf.type

    def check(t, v, where):
        base = t[0]
        if base == "any" or v is None:
            return
        if base == "int" and not (isinstance(v, int) and not isinstance(v, bool)):
            raise RuleError("TYP003", f"{where} must be a whole number, got {fmt(v)}", span)
        if base == "number" and not isinstance(v, (int, float)):
            raise RuleError("TYP003", f"{where} must be a number, got {fmt(v)}", span)
        if base == "text" and not isinstance(v, str):
            raise RuleError("TYP003", f"{where} must be a text, got {fmt(v)}", span)
        if base == "bool" and not isinstance(v, bool):
            raise RuleError("TYP003", f"{where} must be true or false, got {fmt(v)}", span)
        if base == "record" and not isinstance(v, dict):
            raise RuleError("TYP003", f"{where} must be a record, got {fmt(v)}", span)
        if base == "list":
            if not isinstance(v, list):
                raise RuleError("TYP003", f"{where} must be a list, got {fmt(v)}", span)
            if len(t) > 1:
                for item in v:
                    check(t[1], item, f"each item of {where}")
        if base == "ref":
            target = prog.entities.get(v) if isinstance(v, str) else None
            if target is None or target.kind != t[1]:
                from ..language.names import suggest
                guess = suggest(str(v), prog.by_kind.get(t[1], []))
                raise RuleError("REF001", f"{where} names {t[1]} \"{fmt(v)}\", which does not exist", span,
                                f"did you mean \"{guess}\"?" if guess else f"declare `{t[1]} \"{fmt(v)}\" {{ ... }}`")

    check(t, value, f"`{kf.name}` of {ent.kind} \"{ent.name}\"")
    return value
