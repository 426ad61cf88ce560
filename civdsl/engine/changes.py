"""Every change a rule makes to the game state: logged with the rule (file:line) that made it, and
journaled so that a step that fails is undone as a whole — values, zones, pieces, skipped phases,
the random stream and the log.

`StateChanges` is the part of `Game` that compiled rules write through.
"""
from __future__ import annotations

from typing import Callable

from ..language.diagnostics import CivError, Span
from .budget import INLINE_INT, INLINE_LOW, MAX_SIZE, check_int, check_size
from .builtins import fmt, type_name
from .rng import REBASE_WORDS
from .runtime import combine
from .state import Player, ZoneRef, to_jsonable
from .values import RuleError
from .views import headline_text

_NO_BOUNDS = (None, None)
_MISSING = object()
RNG_MARK = object()    # journal marker: the random stream's bookmark
SKIPS_MARK = object()  # journal marker: the set of skipped phases


class StateChanges:
    """Logged, journaled writes to the state (a mixin of `Game`)."""

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

    def measure(self, name: str, fields: dict, record: dict | None = None) -> None:
        """Record a measurement a rule takes (`measure(...)`): kept apart from the log, for statistics
        over many games; undone with a failing step, never taken while a heuristic or summary looks.
        While the game tells its story (`story`), a measurement with a `headline` carries its line
        (`record`: the rule's own values, players and things as they are)."""
        if self.no_random:
            return
        entry = {"round": self.state.round, "name": name, "fields": fields, "rule": self.where(self.c.span)}
        if self.story and record is not None and name in self.program.headlines:
            line = headline_text(self, name, record)
            if line is not None:
                entry["headline"] = line
        self.measures.append(entry)

    def narrate(self, text: str) -> None:
        self._interactions += 1  # (with decisions asked: what a pure evaluation never does, see `setup`)
        self.emit("log", text=text)
        if self.echo:
            self.echo(text)

    # -- values -------------------------------------------------------------------------------------------
    def _bounded(self, key, name: str, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"counter `{name}` holds whole numbers, not {type_name(value)}")
        if isinstance(value, float):
            if not value.is_integer():
                raise TypeError(f"counter `{name}` holds whole numbers, got {value}")
            value = int(value)
        lo, hi = self.program.bounds.get(key, _NO_BOUNDS)
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
            new = self._bounded(("global", name), name, _apply(self.c, op, old, value))
        else:
            store = st.vars
            old = store.get(name)
            new = _apply(self.c, op, old, value)
        store[name] = new
        if self.journal is not None:
            self.journal.append((store, name, old))
        if self.logging and new != old:
            self.emit("set", target=name, value=to_jsonable(new, self.c), was=to_jsonable(old, self.c))

    def set_player(self, p: Player, name: str, op: str, value) -> None:
        store = p.counters
        old = store.get(name, _MISSING)
        if old is not _MISSING:
            if op == "=":
                new = value
            elif type(value) is int:  # (the runtime's `combine` bounds the numbers it makes; this does too)
                new = old + value if op == "+=" else old - value
                if not INLINE_LOW < new < INLINE_INT:
                    check_int(new)
            else:
                new = combine(self.c, op, old, value)
            if type(new) is int:  # the common case, clamped inline
                lo, hi = self._bounds.get(name, _NO_BOUNDS)
                if lo is not None and new < lo:
                    new = lo
                elif hi is not None and new > hi:
                    new = hi
            else:
                new = self._bounded(("player", name), name, new)
        elif name in p.vars:
            store = p.vars
            old = store[name]
            new = _apply(self.c, op, old, value)
        else:
            raise KeyError(f"player has no counter or variable `{name}`")
        store[name] = new
        if self.journal is not None:
            self.journal.append((store, name, old))
        if self.logging and new != old:
            self.emit("set", target=f"{p.name}.{name}", value=to_jsonable(new, self.c), was=to_jsonable(old, self.c))

    def set_record(self, record: dict, key, op: str, value) -> None:
        old = record.get(key, _MISSING)
        if old is _MISSING:
            if op != "=":
                raise KeyError(key)
            old = None
        if op == "=":
            new = value
        elif type(old) is int and type(value) is int:
            new = old + value if op == "+=" else old - value
            if not INLINE_LOW < new < INLINE_INT:
                check_int(new)
        else:
            new = combine(self.c, op, old, value)
        record[key] = new
        if self.journal is not None:
            self.journal.append((record, key, old))
        if self.logging and new != old:
            self.emit("set", target=f"[{key}]", value=to_jsonable(new, self.c), was=to_jsonable(old, self.c))

    # -- zones, pieces, skipped phases ----------------------------------------------------------------------
    def zone_add(self, z: ZoneRef, item) -> None:
        if len(z.items) >= MAX_SIZE:
            check_size(len(z.items) + 1, "a zone")
        self._save_zone(z)
        z.items.append(item)
        if self.logging:
            self.emit("add", zone=z.label(), item=to_jsonable(item, self.c))

    def zone_remove(self, z: ZoneRef, item) -> None:
        self._save_zone(z)
        try:
            z.items.remove(item)
        except ValueError:
            raise ValueError(f"{fmt(item)} is not in {z.label()}") from None
        if self.logging:
            self.emit("remove", zone=z.label(), item=to_jsonable(item, self.c))

    def zone_move(self, src: ZoneRef, dst: ZoneRef, item) -> None:
        self._save_zone(src)
        self._save_zone(dst)
        try:
            src.items.remove(item)
        except ValueError:
            raise ValueError(f"{fmt(item)} is not in {src.label()}") from None
        dst.items.append(item)
        if self.logging:
            self.emit("move", item=to_jsonable(item, self.c), source=src.label(), to=dst.label())

    def zone_shuffle(self, z: ZoneRef) -> None:
        self._save_zone(z)
        self.rng().shuffle(z.items)
        if self.logging:
            self.emit("shuffle", zone=z.label())

    def _save_zone(self, z: ZoneRef) -> None:
        """Keep a zone's items for undo, once per transaction: the first copy is the one undo needs (a
        copy per change would make a step that fills a zone cost the square of its size)."""
        if self.journal is not None and id(z.items) not in self._zones_saved:
            self._zones_saved.add(id(z.items))
            self.journal.append((z.items, None, list(z.items)))

    def save_pieces(self, key) -> None:
        """Called before a map piece count changes, so a failed step can be undone."""
        if self.journal is not None:
            self.journal.append((self.state.pieces, key, self.state.pieces.get(key, 0)))

    def skip(self, phase: str) -> None:
        p = self.state.current
        if p is None:
            raise ValueError("`skip` needs a current player")
        if self.journal is not None:
            self.journal.append((None, SKIPS_MARK, set(self.state.skips)))
        self.state.skips.add((p.index, phase))
        self.emit("skip", player=p.name, phase=phase)

    # -- randomness ---------------------------------------------------------------------------------------------
    def rng(self):
        """The game's random stream; the first use in a step bookmarks it so a failure can rewind it."""
        if self.no_random:
            raise RuleError("RUN023", f"{self.no_random} may not use randomness (it would change the game's dice)",
                            self.c.span, "compute it from the state only")
        if self.journal is not None and not self._rng_saved:
            self.journal.append((RNG_MARK, None, self.state.rng.bookmark()))
            self._rng_saved = True
        return self.state.rng

    # -- transactions ---------------------------------------------------------------------------------------------
    def transaction(self, fn: Callable):
        """Run `fn(ctx)` all or nothing: if a rule fails, the state is as before the call."""
        outer, outer_saved, outer_zones = self.journal, self._rng_saved, self._zones_saved
        if outer is None and self.state.rng.words > REBASE_WORDS:
            self.state.rng.rebase()
        journal = self.journal = []
        self._rng_saved = False
        self._zones_saved = set()
        self._open.append((journal, len(self.events), len(self.measures)))
        failed = False
        try:
            return fn(self.c)
        except CivError:
            failed = True
            # A die fixed in advance (a scenario's `dice:`) stays rolled: the step that rolled it failed,
            # but the die was used (a fork taken mid-step puts them back: it re-runs the step, `fork.py`).
            dice = self.state.forced_dice
            undo(self.state, [entry for entry in journal if entry[0] is not dice])
            del self.events[self._open[-1][1]:]
            del self.measures[self._open[-1][2]:]
            raise
        finally:
            self._open.pop()
            if outer is not None and not failed:
                outer.extend(journal)
                outer_zones |= self._zones_saved
            self._rng_saved = outer_saved or (self._rng_saved and not failed)
            self._zones_saved = outer_zones
            self.journal = outer


def undo(state, journal: list) -> None:
    """Undo a journal's changes on `state`: values, zones, pieces, skips and the random stream."""
    for store, key, old in reversed(journal):
        if store is RNG_MARK:
            state.rng.rewind(old)
        elif key is None:
            store[:] = old
        elif key is SKIPS_MARK:
            state.skips = old
        else:
            store[key] = old


def _apply(c, op: str, old, value):
    return value if op == "=" else combine(c, op, old, value)
