"""The types of expressions and statements, and the type errors among them.

One `Inference` walks the effective rules of a compiled ruleset. What a rule's value is depends on other
rules (a procedure's parameters on its callers, a variable on every assignment to it, a zone's items on
what is added to it), so the walk is repeated — each round joining what it learns into `Facts` — until
nothing changes (a worklist: a rule is walked again when a fact it read changed; what still changes after
`MAX_WALKS_PER_DECL` walks a declaration is UNKNOWN), and a last walk reports.
Locals are typed per function, flow-insensitively (like the language's function-level scope). An
expression found wrong is NEVER (it has no value: it fails), so that it does not make what it flows
into unknown, which would hide the finding in the next round.

Reported (see docs/diagnostics.md): TYP010 no such field or key, TYP011 an operator or statement given
values it cannot take, TYP012 a built-in or procedure given an argument of the wrong type, TYP013 the
branches of an `if` expression that do not agree, TYP016 a value of another type than declared,
TYP018 a value called like a block, ARG001 a thing's block called with the wrong number of arguments.

The walk is split by what it walks: `decls` (declarations), `statements`, `expressions`, `fields` (reads
of fields and keys), `calls`, `shared` (what shared values are); `facts` holds what the rounds learn.
"""
from __future__ import annotations

from collections import deque

from ...language import ast as A
from ...language.diagnostics import Diagnostic, Span
from ...language.names import suggest
from . import types as T
from .calls import CallWalk
from .decls import DeclWalk
from .expressions import ExprWalk
from .facts import Facts
from .fields import FieldWalk
from .shared import SharedValues
from .statements import StmtWalk

_NONE: frozenset = frozenset()
MAX_WALKS_PER_DECL = 12  # walks of the worklist, per declaration, before what still changes is given up on


class Inference(DeclWalk, StmtWalk, SharedValues, ExprWalk, FieldWalk, CallWalk):
    """The walk (see the module's docstring)."""

    def __init__(self, env):
        self.env = env
        self.facts = Facts()
        self.report = False
        self.diags: list[Diagnostic] = []
        self._seen: set[tuple] = set()
        self._busy: set = set()
        self._locals: dict = {}
        self.only: set[int] | None = None
        self.by_decl: dict[int, list[Diagnostic]] = {}   # findings per declaration (id), for `adopt`
        self._owned: set | None = None                   # after `adopt`: the locals copied from the base
        self.readers: dict[tuple, set[int]] = {}         # (fact table, key) -> declarations that read it
        self._base_readers: dict[tuple, set[int]] = {}   # after `adopt`: the base check's (not copied)
        self._reads: set | None = None
        self._again = False
        self._pcache: dict[str, tuple] = {}
        self._decl = 0
        self._dispatch: dict[type, object] = {}

    # ---- diagnostics ----------------------------------------------------------------------------------
    def err(self, code: str, msg: str, span: Span | None, hint: str | None = None, related=None,
            severity: str = "error") -> None:
        if not self.report or span is None:
            return
        key = (code, msg, span.file, span.line, span.col)
        if key in self._seen:
            return
        self._seen.add(key)
        d = Diagnostic(code, msg, span, severity, hint, list(related or []))
        self.diags.append(d)
        self.by_decl.setdefault(self._decl, []).append(d)

    def suggest(self, name: str, candidates) -> str | None:
        """A "did you mean", worked out only when it is reported."""
        return suggest(name, candidates) if self.report else None

    # ---- the rounds -------------------------------------------------------------------------------------
    def run(self, only: set[int] | None = None) -> list[Diagnostic]:
        """Walk the rules (`only`: the ids of the declarations to walk; None: all) until what they say of
        each other settles — a worklist: a declaration is walked again when something it read changed
        (`readers`) or its own locals did — then once more each walked one, reporting."""
        env, facts = self.env, self.facts
        by_id = {id(d): d for d in env.all_decls}
        todo = [d for d in env.all_decls if (only is None or id(d) in only) and hasattr(self, "d_" + type(d).__name__)]
        # Procedures wait for their callers (first walked once called, top-down: fewer walks); each reads
        # what it is given. Those no rule calls are walked once, reporting, at the end.
        first = [d for d in todo if not isinstance(d, A.Procedure)]
        for d in todo:
            if isinstance(d, A.Procedure):
                self.readers.setdefault(("proc_args", d.name), set()).add(id(d))
                self.readers.setdefault(("escaped", d.name), set()).add(id(d))
        queue, queued = deque(first), {id(d) for d in first}
        walked = {id(d) for d in todo}
        budget = MAX_WALKS_PER_DECL * len(todo) + 100
        self.report = True  # (each walk reports: a declaration's last walk, after which nothing it read
        #                      changed, stands)
        gave_up = False
        done: set[int] = set()
        while queue or len(done) < len(walked):
            if not queue:  # (procedures no rule calls, and what they reach: walked too, before any report)
                queue.extend(by_id[i] for i in walked - done if i in by_id)
                queued.update(walked - done)
            if budget == 0:  # (what still changes is given up on: UNKNOWN, which settles at once)
                facts.give_up(facts.log[-4 * len(todo) - 100:])
                for L in self._locals.values():
                    for k in L.types:
                        if k not in L.fixed:
                            L.types[k] = T.UNKNOWN
                gave_up = True
                break
            budget -= 1
            d = queue.popleft()
            queued.discard(id(d))
            done.add(id(d))
            mark = len(facts.log)
            self._reads, self._again = set(), False
            self._decl = id(d)
            self._forget(id(d))
            getattr(self, "d_" + type(d).__name__)(d)
            for key in self._reads:
                self.readers.setdefault(key, set()).add(id(d))
            again = {id(d)} if self._again else set()
            for key in facts.log[mark:]:
                again |= self.readers.get(key, _NONE)
                again |= self._base_readers.get(key, _NONE)
            for r in again:
                if r not in queued and r in by_id:
                    queue.append(by_id[r])
                    queued.add(r)
                    walked.add(r)
        self._reads = None
        if gave_up:  # (then every walked declaration once more, reporting with what is left known)
            for d in env.all_decls:
                if id(d) in walked:
                    self._decl = id(d)
                    self._forget(id(d))
                    getattr(self, "d_" + type(d).__name__)(d)
        self.report = False
        return self.diags

    def all_readers(self) -> dict:
        """This check's readers and its base's, merged (for a check that others will start from)."""
        merged = {k: set(v) for k, v in self._base_readers.items()}
        for k, v in self.readers.items():
            merged.setdefault(k, set()).update(v)
        return merged

    def read(self, name: str, key=None) -> None:
        """The declaration being walked depends on `facts.<name>[key]`."""
        if self._reads is not None:
            self._reads.add((name, key))

    def _forget(self, decl: int) -> None:
        """A declaration walked again: what was found in it before (an earlier check's) goes."""
        old = self.by_decl.pop(decl, None)
        if old:
            gone = {id(x) for x in old}
            self.diags = [x for x in self.diags if id(x) not in gone]
            for x in old:
                self._seen.discard((x.code, x.message, x.span.file, x.span.line, x.span.col))

    def adopt(self, base: "Inference", only: set[int], ids: set[int]) -> None:
        """Start from what a check of an overlapping ruleset learnt (an edition, for one of its options or
        house rules): its facts and locals, and its findings in the declarations both share. Only the
        declarations in `only` (this ruleset's own) are walked, and the procedures and blocks whose
        callers change what they are given."""
        self.facts = base.facts.copy()
        self._locals = dict(base._locals)   # (shared until walked: see `function`)
        self._owned = set()
        self.by_decl = {k: list(v) for k, v in base.by_decl.items() if k in ids and k not in only}
        self.diags = [d for v in self.by_decl.values() for d in v]
        self._seen = {(d.code, d.message, d.span.file, d.span.line, d.span.col) for d in self.diags}
        self.readers = {}                   # (this check's; the base's are read through `_base_readers`)
        self._base_readers = base.readers
