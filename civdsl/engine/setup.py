"""Set-up of a game's state: parameters, dice, tables and things' fields evaluated, then every
counter, variable and zone created with its starting value.

Dice faces, table rows, things' fields and counter bounds may use parameters, which may use the
number of players: they are evaluated once per program and number of players and kept on the
program. `Initializing` is that part of `Game`.
"""
from __future__ import annotations

from typing import Callable

from ..language.diagnostics import Span
from .builtins import fmt
from .fork import copy_value
from .program import Program
from .runtime import PY_ERRORS, rule_error
from .state import Player
from .values import EVALUATE, FORCE, EntityObj, LazyField, RuleError


class Initializing:
    """Evaluating constants and creating the state (a mixin of `Game`)."""

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

    def guarded(self, fn: Callable, span: Span | None, player: Player | None = None, **local):
        """Evaluate an expression that is not inside a statement (conditions, order keys, victory
        fields, invariants), turning a Python error into a diagnostic at `span`."""
        c = self.c
        c.span = span
        c.locals = {"player": player, **local} if player is not None else local
        try:
            return fn(c)
        except PY_ERRORS as exc:
            raise rule_error(exc, span, c) from None

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
        self._init_params()
        if not fresh:
            return  # dice, tables, fields and bounds already evaluated for this many players
        for die in prog.dice.values():
            if callable(die.faces):  # (a parameter may have rolled it already)
                self._die_faces(die)
        for t in prog.tables.values():
            t.rows = [(lo, hi, self.guarded(v, None) if callable(v) else v) for lo, hi, v in t.rows]
        for lf in prog.lazy_fields:
            if lf.owner.fields.get(lf.name) is lf:
                self._force_field(lf)
        prog.bounds.clear()
        prog.player_bounds.clear()
        for (scope, name), (lo, hi, init, span) in prog.counters.items():
            bounds = (self.guarded(lo, span) if lo else None, self.guarded(hi, span) if hi else None)
            prog.bounds[(scope, name)] = bounds
            if scope == "player":
                prog.player_bounds[name] = bounds
        prog.counter_templates = None
        prog.constants_for = len(st.players)

    def _die_faces(self, die) -> list:
        """A die's faces, evaluated now (once per program and number of players)."""
        saved = (self.c.locals, self.c.span)
        try:
            faces = self.guarded(die.faces, None)
        finally:
            self.c.locals, self.c.span = saved
        if not isinstance(faces, list) or not faces:
            raise RuleError("DIE001", f"die `{die.name}` needs a non-empty list of faces",
                            self.program.die_spans.get(die.name))
        die.faces = faces
        return faces

    def _init_params(self) -> None:
        """Every parameter's value. Parameters usually depend on the number of players only: when
        evaluating them drew no dice, asked nothing, logged nothing and changed nothing, their values
        are kept on the program for the next game with as many players (records copied per game)."""
        prog, st = self.program, self.state
        kept = prog.param_values.get(len(st.players))
        if kept is not None:
            for name, value in kept:  # (records copied: a rule may change a record's keys)
                st.vars[name] = copy_value(value, {})
            return
        journal, self.journal = self.journal, []
        before = (self._interactions, st.rng.words, len(self.events))
        try:
            for name, fn, span in prog.params:
                st.vars[name] = self.guarded(fn, span)
        finally:
            pure = not self.journal and (self._interactions, st.rng.words, len(self.events)) == before
            self.journal = journal
        if pure:
            prog.param_values[len(st.players)] = [(name, st.vars[name]) for name, _fn, _span in prog.params]

    def _start(self, key: tuple[str, str], value):
        """A counter's starting value within its bounds; a value that is no whole number is the counter
        declaration's error (a diagnostic at its line, not a crash)."""
        try:
            return self._bounded(key, key[1], value)
        except TypeError as exc:
            raise rule_error(exc, self.program.counters[key][3], self.c) from None

    def _init_state(self) -> None:
        """Every counter, variable and zone with its starting value. Counters that start at a literal
        come from a template made once per program and number of players; the others are evaluated in
        declaration order, player after player, as rules expect."""
        prog, st = self.program, self.state
        templates = prog.counter_templates
        if templates is None:
            templates = prog.counter_templates = ({}, {})
            for (scope, name) in prog.counters:
                key = (scope, name)
                value = self._start(key, prog.literal_inits[key]) if key in prog.literal_inits else None
                templates[scope == "player"][name] = value
        st.counters.update(templates[0])
        for p in st.players:
            p.counters.update(templates[1])
        literal = prog.literal_inits
        for (scope, name), (lo, hi, init, span) in prog.counters.items():
            key = (scope, name)
            if key in literal:
                continue
            for owner in (st.players if scope == "player" else [None]):
                value = self._start(key, self.guarded(init, span, owner))
                (owner.counters if owner else st.counters)[name] = value
        for (scope, name), (init, span) in prog.vars.items():
            for owner in (st.players if scope == "player" else [None]):
                (owner.vars if owner else st.vars)[name] = self.guarded(init, span, owner)
        for (scope, name) in prog.zones:
            for owner in (st.players if scope == "player" else [None]):
                (owner.zones if owner else st.zones)[name] = []
        st.maps = dict(prog.maps)


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
