"""What the inference learns as it walks: `Facts`, shared by every rule (they only grow, each change logged
so that the rules that read it are walked again), and `Locals`, one function's local names.

Kept apart from the walk so that every part of the walk (declarations, statements, expressions, fields,
calls) can name them without importing each other.
"""
from __future__ import annotations

from . import types as T


class Facts:
    """What the rounds learn about values that many rules share; only ever grows (joins)."""

    def __init__(self):
        self.vars: dict[tuple[str, str], T.Ty] = {}        # (scope, name) -> values assigned
        self.params: dict[str, T.Ty] = {}                  # values rules assign to params
        self.zones: dict[tuple[str, str], T.Ty] = {}       # (scope, name) -> items added
        self.any_zone = T.NEVER                            # items added to a zone the checker cannot name
        self.any_player_field = T.NEVER                    # values set by a name held in a text (`p[k] = v`)
        self.proc_args: dict[str, tuple[T.Ty, ...]] = {}
        self.arg_things: dict[tuple[str, int], T.Ty] = {}   # (procedure, argument index) -> things callers give
        self.proc_ret: dict[str, T.Ty] = {}
        self.block_args: dict[tuple[str, int], tuple[T.Ty, ...]] = {}
        self.block_ret: dict[str, T.Ty] = {}
        self.escaped: set[str] = set()                     # procedures used as values: called with anything
        self.options: dict[str, T.Ty] = {}                 # decision tag -> what `option` is in its heuristic
        self.items: dict[str, T.Ty] = {}                   # decision tag -> one item (words' `option`)
        self.measures: dict[str, T.Ty] = {}                # measurement name -> its record
        self.orig_ret: dict[str, T.Ty] = {}                # what a procedure an overlay replaced gave
        self.log: list = []                                # (table's name, key) of every change, in order

    def _name(self, table: dict) -> str:
        for name in _TABLES:
            if getattr(self, name) is table:
                return name
        return "?"

    def grow(self, table: dict, key, t: T.Ty) -> None:
        old = table.get(key, T.NEVER)
        new = T.join(old, t)
        if new is not old and new != old:
            table[key] = new
            self.log.append((self._name(table), key))

    def grow_args(self, table: dict, key, args: list[T.Ty]) -> None:
        """The types of the arguments a procedure or block is called with (tuples: a copy shares them)."""
        old = table.get(key)
        if old is None:
            table[key] = tuple(args)
            self.log.append((self._name(table), key))
            return
        new = tuple(T.join(o, a) for o, a in zip(old, args))
        if new != old:
            table[key] = new
            self.log.append((self._name(table), key))

    def copy(self) -> "Facts":
        c = Facts()
        c.vars, c.params, c.zones = dict(self.vars), dict(self.params), dict(self.zones)
        c.any_zone, c.any_player_field = self.any_zone, self.any_player_field
        c.proc_args = dict(self.proc_args)
        c.arg_things = dict(self.arg_things)
        c.block_args = dict(self.block_args)
        c.proc_ret, c.block_ret, c.escaped = dict(self.proc_ret), dict(self.block_ret), set(self.escaped)
        c.options, c.items, c.measures = dict(self.options), dict(self.items), dict(self.measures)
        return c

    def give_up(self, changes) -> None:
        """What kept changing is not known."""
        for name, key in changes:
            if name in ("any_zone", "any_player_field"):
                setattr(self, name, T.UNKNOWN)
                continue
            table = getattr(self, name, None)
            if not isinstance(table, dict) or key not in table:
                continue
            table[key] = (T.UNKNOWN,) * len(table[key]) if isinstance(table[key], tuple) else T.UNKNOWN


_TABLES = ("vars", "params", "zones", "proc_args", "arg_things", "proc_ret", "block_args", "block_ret", "options",
           "items", "measures", "orig_ret")


_NO_NAMES: frozenset = frozenset()


class Locals:
    """The locals of one function, with their types (joined over every assignment).

    `changed` says whether the walk must be repeated: a local grew after this walk had read it (a read
    saw less than the local holds). A local that grows before any read of it in the walk (a `let`, on the
    first walk) changes nothing that was read, so it does not call for another walk."""

    def __init__(self, types: dict[str, T.Ty] | None = None, fixed=(), ret: str | None = None):
        self.types = dict(types or {})
        self.fixed = set(fixed)      # parameters with a declared type (or `player`, `this`): kept as they are
        self.ret = ret               # what `return` gives: ("proc", name) / ("block", name) or None
        self.changed = False
        self.seen: set[str] = set()  # names read (or looked for) in this walk

    def copy(self) -> "Locals":
        c = Locals(self.types, self.fixed, self.ret)
        return c

    def start_walk(self) -> None:
        self.changed = False
        self.seen = set()

    def end_walk(self) -> None:
        self.seen = _NO_NAMES  # (not kept between walks)

    def has(self, name: str) -> bool:
        """Whether the name is a local (so far): a read, as `get` is."""
        self.seen.add(name)
        return name in self.types

    def get(self, name: str) -> T.Ty:
        self.seen.add(name)
        return self.types.get(name, T.NEVER)   # (a local the walk has not given a value yet)

    def give(self, name: str, t: T.Ty) -> None:
        if name in self.fixed:
            return
        old = self.types.get(name)
        new = t if old is None else T.join(old, t)
        if new is not old and new != old:
            self.types[name] = new
            if name in self.seen:
                self.changed = True
