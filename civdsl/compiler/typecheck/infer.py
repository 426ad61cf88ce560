"""The types of expressions and statements, and the type errors among them.

One `Inference` walks the effective rules of a compiled ruleset. What a rule's value is depends on other
rules (a procedure's parameters on its callers, a variable on every assignment to it, a zone's items on
what is added to it), so the walk is repeated — each walk joining what it learns into `Facts` — until
nothing changes: a worklist, in which a rule is walked again only when a fact it read changed after it
read it (each read is stamped with the facts' log's length), and a procedure is first walked inside the
walk of its first caller, so that the caller reads what it gives. What still changes after
`MAX_WALKS_PER_DECL` walks a declaration is UNKNOWN. Every walk reports; a declaration's last walk stands.
The findings do not depend on the order of the walks (tested: the declarations in reverse order give the
same findings).
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
from .facts import Facts, Locals
from .fields import FieldWalk
from .shared import SharedValues
from .statements import StmtWalk

_LATE = (A.Heuristic, A.DecisionText, A.View, A.Headline, A.Invariant)
MAX_LAYERS = 3          # readers of a kept check over those of the checks it started from
MAX_NESTED = 8          # procedures walked inside their first caller's walk, one inside another
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
        self.outside = Locals()                          # the locals of expressions outside statements
        self.by_decl: dict[int, list[Diagnostic]] = {}   # findings per declaration (id), for `adopt`
        self._owned: set | None = None                   # after `adopt`: the locals copied from the base
        self.readers: dict[tuple, set[int]] = {}         # (fact table, key) -> declarations that read it
        self._base_readers: tuple[dict, ...] = ()       # after `adopt`: the base check's, layer by layer
        self._reads: dict | None = None                  # while walking: (fact table, key) -> when first read
        self._again = False
        self._work: _Work | None = None                 # while walking: the worklist
        self._pcache: dict[str, tuple] = {}
        self.literals: dict[int, T.Ty] = {}            # id(literal) -> its type (`e_Literal`)
        self._decl = 0

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
        after it read it (`readers`), or its own locals did. Each walk reports: a declaration's last walk,
        after which nothing it read changed, stands."""
        env, facts = self.env, self.facts
        by_id = {id(d): d for d in env.all_decls}
        todo = [d for d in env.all_decls if (only is None or id(d) in only) and hasattr(self, "d_" + type(d).__name__)]
        # Procedures wait for their callers (first walked when first called, inside the caller's walk, so
        # that the caller reads what they give); each reads what it is given. Those no rule calls are
        # walked at the end. What only reads what the rules decide (heuristics, words, views, invariants)
        # waits until the rules have been walked once: walked earlier, it would be walked again for each
        # fact it reads.
        late = deque(d for d in todo if isinstance(d, _LATE))
        first = [d for d in todo if not isinstance(d, (A.Procedure, *_LATE))]
        for d in todo:
            if isinstance(d, A.Procedure):
                self.readers.setdefault(("proc_args", d.name), set()).add(id(d))
                self.readers.setdefault(("escaped", d.name), set()).add(id(d))
        queue, queued = deque(first), {id(d) for d in first}
        walked, done = {id(d) for d in todo}, set()
        self._work = _Work(by_id, queue, queued, walked, done, MAX_WALKS_PER_DECL * len(todo) + 100)
        self.report = True
        gave_up = False
        while queue or len(done) < len(walked):
            if not queue and late:
                queue.extend(late)
                queued.update(id(d) for d in late)
                late.clear()
            if not queue:  # (procedures no rule calls, and what they reach)
                queue.extend(by_id[i] for i in walked - done if i in by_id)
                queued.update(walked - done)
            if self._work.budget <= 0:  # (what still changes is given up on: UNKNOWN, which settles at once)
                facts.give_up(facts.log[-4 * len(todo) - 100:])
                for L in self._locals.values():
                    for k in L.types:
                        if k not in L.fixed:
                            L.types[k] = T.UNKNOWN
                gave_up = True
                break
            d = queue.popleft()
            if id(d) in queued:  # (else walked since it was queued, inside a caller's walk)
                queued.discard(id(d))
                self._walk(d)
        self._work = None
        if gave_up:  # (then every walked declaration once more, reporting with what is left known)
            for d in env.all_decls:
                if id(d) in walked:
                    self._decl = id(d)
                    self._forget(id(d))
                    getattr(self, "d_" + type(d).__name__)(d)
        self.report = False
        return self.diags

    def _walk(self, d) -> None:
        """One walk of a declaration, and the declarations to walk again after it: those that read what
        it changed (before it changed), and itself if it read what it changed afterwards."""
        work, facts = self._work, self.facts
        me = id(d)
        work.budget -= 1
        work.done.add(me)
        work.walking.add(me)
        outer = (self._reads, self._again, self._decl)
        mark = len(facts.log)
        self._reads, self._again, self._decl = {}, False, me
        self._forget(me)
        try:
            getattr(self, "d_" + type(d).__name__)(d)
        finally:
            work.walking.discard(me)
            reads, stale = self._reads, self._again
            self._reads, self._again, self._decl = outer
        for key in reads:
            self.readers.setdefault(key, set()).add(me)
        log, ended = facts.log, work.ended
        end = ended[me] = len(log)
        again = set()
        for i in range(mark, end):
            key = log[i]
            for readers in (self.readers, *self._base_readers):
                for r in readers.get(key, ()):  # (not one whose last walk came after the change, or is going on)
                    if ended.get(r, -1) <= i and r not in work.walking:
                        again.add(r)
            if not stale and reads.get(key, i + 1) <= i:
                stale = True  # (it read what it changed afterwards)
        if stale:
            again.add(me)
        for r in again:
            if r not in work.queued and r in work.by_id:
                work.queue.append(work.by_id[r])
                work.queued.add(r)
                work.walked.add(r)

    def walk_callee(self, d: A.Procedure) -> None:
        """A procedure called before it was ever walked: walked now, inside its caller's walk, so that the
        caller reads what it gives (not nothing, and then again)."""
        work = self._work
        if work is not None and id(d) in work.walked and id(d) not in work.done \
                and len(work.walking) < MAX_NESTED and work.budget > 0:
            self._walk(d)

    def kept(self) -> None:
        """Kept for other checks to start from (`adopt`): its readers become a layer over its base's, and
        it lets go of what they do not read — the ruleset, its program and the findings list — which
        would otherwise stay alive with it (and be looked over by every later garbage collection)."""
        layers = ({k: tuple(v) for k, v in self.readers.items()}, *self._base_readers)  # (tuples of numbers:
        #                                                             the collector stops looking at them)
        if len(layers) > MAX_LAYERS:
            merged: dict = {}
            for layer in reversed(layers):
                for k, v in layer.items():
                    merged[k] = merged.get(k, ()) + v
            layers = (merged,)
        self.readers, self._base_readers = {}, layers
        self.env = self.env.names()
        self.facts.log = []
        self.diags, self._seen, self._pcache, self.literals = [], set(), {}, {}

    def read(self, name: str, key=None) -> None:
        """The declaration being walked depends on `facts.<name>[key]` (as of now: the facts' log's length)."""
        reads = self._reads
        if reads is not None:
            k = (name, key)
            if k not in reads:
                reads[k] = len(self.facts.log)

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
        self._base_readers = base._base_readers


class _Work:
    """The worklist of one `run`."""

    def __init__(self, by_id, queue, queued, walked, done, budget):
        self.by_id, self.queue, self.queued, self.walked, self.done = by_id, queue, queued, walked, done
        self.budget = budget          # walks left before what still changes is given up on
        self.walking: set[int] = set()  # declarations whose walk is going on (one inside another's)
        self.ended: dict[int, int] = {}  # declaration -> the facts' log's length when its last walk ended
