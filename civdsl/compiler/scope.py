"""What the emitter knows about a function's locals: their names, which it reads, and — where the
rules make it certain — what they hold.

A rule reads `p.food` the same way whether `p` is a player, a record or a thing's name, so generated
code tests the value's type before reading. Where the type is certain the test is left out: `player`
in a phase's step (the phase gives each participant in turn) or in a victory field, and a local that
only ever holds record literals. A parameter that the body never assigns keeps its value for the whole
call, so its type is tested once, when the function starts (`flags`).
"""
from __future__ import annotations

from ..language import ast as A

PLAYER = "player"
RECORD = "record"


class Scope:
    """Local names of one procedure, step or expression (function-level, like Python)."""

    def __init__(self, names=(), kinds: dict[str, str] | None = None, fixed=()):
        self.names = set(names)
        self.read: set[str] = set()           # names the code written so far reads
        self.kinds: dict[str, str] = dict(kinds or {})  # local -> PLAYER or RECORD, where certain
        self.fixed: set[str] = set(fixed)     # locals bound once, on entry (their type can be tested once)
        self.flags: set[str] = set()          # fixed locals whose type test the code written so far uses

    def hide(self, name: str) -> tuple:
        """A comprehension's variable hides a local of the same name: forget what is known of it."""
        saved = (self.kinds.pop(name, None), name in self.fixed)
        self.fixed.discard(name)
        return saved

    def unhide(self, name: str, saved: tuple) -> None:
        kind, fixed = saved
        if kind is not None:
            self.kinds[name] = kind
        if fixed:
            self.fixed.add(name)


def function_scope(params: list[str], body: list[A.Stmt], players=()) -> Scope:
    """The scope of a function with these parameters and body; `players`: parameters certain to hold a
    player."""
    assigned = assignments(body)
    kinds = {name: RECORD for name in record_locals(assigned, params)}
    for name in players:
        if name not in assigned:
            kinds[name] = PLAYER
    return Scope(params, kinds, [p for p in params if p not in assigned and p not in kinds])


def assignments(stmts: list[A.Stmt], out: dict | None = None) -> dict[str, list]:
    """Every local the statements give a value, with the values (None: a loop's variable, or an
    augmented assignment)."""
    out = {} if out is None else out
    for s in stmts:
        if isinstance(s, A.Let):
            out.setdefault(s.name, []).append(s.value)
        elif isinstance(s, A.Assign) and isinstance(s.target, A.Name):
            out.setdefault(s.target.id, []).append(s.value if s.op == "=" else None)
        elif isinstance(s, A.For):
            out.setdefault(s.var, []).append(None)
            assignments(s.body, out)
        elif isinstance(s, (A.Repeat, A.While)):
            assignments(s.body, out)
        elif isinstance(s, A.If):
            for _cond, body in s.branches:
                assignments(body, out)
            assignments(s.orelse, out)
    return out


def record_locals(assigned: dict[str, list], params) -> set[str]:
    """Locals that only ever hold records: every value given them is a record literal or another such
    local."""
    found = {name for name, values in assigned.items() if name not in params and values}
    changed = True
    while changed:
        changed = False
        for name in list(found):
            if not all(isinstance(v, A.RecordLit) or (isinstance(v, A.Name) and v.id in found)
                       for v in assigned[name]):
                found.discard(name)
                changed = True
    return found
