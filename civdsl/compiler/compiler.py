"""Compile the effective rules (`Ruleset`) into a `Program` of Python closures.

Walking the AST at run time is slow; instead each expression and statement becomes a closure once,
at load. Name resolution happens here too, so unknown names, wrong arity and misuse of declarations
are reported as diagnostics before any game starts (the checker collects them). The closures know
nothing of any game: they read and write the generic state through the running `Game`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine.builtins import REGISTRY, fmt, type_name
from ..engine.mapdata import load_map
from ..engine.state import Player, ZoneRef
from ..engine.values import (
    Builtin,
    Callable_,
    Die,
    EntityObj,
    IllegalAction,
    LazyField,
    RuleError,
    TableValue,
    field_value,
)
from ..language import ast as A
from ..language.diagnostics import CivError, Diagnostic, Span
from ..language.loader import Ruleset, resolve_inside
from ..language.names import suggest

MAX_CALL_DEPTH = 64
MAX_LOOP = 100_000
PLAYER_BUILTIN_FIELDS = ("seat", "name", "index")
KIND_TYPES = {"int", "number", "text", "bool", "any", "block", "list", "record"}


class Ret:
    """What a `return` statement hands back up through the blocks to its procedure."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


# Statement closures return None to go on, or a signal: a `Ret`, BREAK or CONTINUE. Signals travel up
# through blocks as return values (much cheaper than exceptions) until a loop or a call consumes them.
BREAK = object()
CONTINUE = object()


class EndOfGame(Exception):
    """Raised by `end game`."""


@dataclass
class CompiledPhase:
    name: str
    title: str
    order: A.Order | None
    order_keys: list[Callable]
    when: Callable | None
    steps: list[tuple[str, str, Callable, Span]]
    span: Span


@dataclass
class Program:
    """Everything a game needs, compiled: declarations, closures, and where each came from."""

    ruleset: Ruleset
    params: list[tuple[str, Callable, Span]] = field(default_factory=list)
    counters: dict[tuple[str, str], tuple[Callable | None, Callable | None, Callable, Span]] = field(default_factory=dict)
    vars: dict[tuple[str, str], tuple[Callable, Span]] = field(default_factory=dict)
    zones: dict[tuple[str, str], str] = field(default_factory=dict)
    dice: dict[str, Die] = field(default_factory=dict)
    tables: dict[str, TableValue] = field(default_factory=dict)
    maps: dict[str, Any] = field(default_factory=dict)
    kinds: dict[str, A.Kind] = field(default_factory=dict)
    entities: dict[str, EntityObj] = field(default_factory=dict)
    by_kind: dict[str, list[str]] = field(default_factory=dict)
    procedures: dict[str, Callable_] = field(default_factory=dict)
    phases: dict[str, CompiledPhase] = field(default_factory=dict)
    sequence: A.Sequence | None = None
    turn_keys: list[Callable] = field(default_factory=list)
    setup: Callable | None = None
    victory: dict[str, tuple[Any, Span]] = field(default_factory=dict)
    heuristics: dict[str, Callable] = field(default_factory=dict)
    invariants: list[tuple[str, Callable, Span]] = field(default_factory=list)
    bounds: dict[tuple[str, str], tuple[int | None, int | None]] = field(default_factory=dict)
    die_spans: dict[str, Span] = field(default_factory=dict)
    literal_inits: dict[tuple[str, str], Any] = field(default_factory=dict)  # counters starting at a literal
    # Dice faces, table rows, things' fields and counter bounds may use parameters, which may use the
    # number of players: they are evaluated once per number of players (`constants_for`), from the
    # compiled expressions kept here.
    constants_for: int | None = None
    die_sources: dict[str, Callable] = field(default_factory=dict)
    table_sources: dict[str, list] = field(default_factory=dict)
    lazy_fields: list = field(default_factory=list)

    @property
    def player_counter_names(self):
        return {n for (s, n) in self.counters if s == "player"}


class Scope:
    """Local names of one procedure or block (function-level, like Python)."""

    def __init__(self, names=()):
        self.names = set(names)


_PY_TYPES = {"'int'": "a number", "'float'": "a number", "'str'": "a text", "'list'": "a list",
             "'dict'": "a record", "'NoneType'": "none", "'bool'": "a boolean", "'Player'": "a player",
             "'ZoneRef'": "a zone", "'tuple'": "a list"}


_PY_ERRORS = (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError, AttributeError, OverflowError,
              RecursionError)


def _over_budget(c, span: Span) -> RuleError:
    return RuleError("RUN010", f"step budget of {c.budget} statements exceeded", span,
                     "a rule loops too long; check loop conditions")


def _rule_error(exc: Exception, c, span: Span, local_names) -> RuleError:
    """A Python error inside a statement as the rule's diagnostic (RUN002 for a local read too early)."""
    if isinstance(exc, KeyError):
        key = exc.args[0] if exc.args else None
        if isinstance(key, str) and key in local_names and key not in c.locals:
            return RuleError("RUN002", f"`{key}` is used before it is given a value", span)
    return RuleError("RUN001", _py_error(exc), span)


_STATEMENT = """
def run(c):
    c.span = span
    c.steps += 1
    if c.steps > c.budget:
        raise _over_budget(c, span)
    try:
{body}
    except _PY_ERRORS as exc:
        raise _rule_error(exc, c, span, local_names) from None
{after}
"""
_IF_BODY = """\
if cond1(c):
    return body1(c)
for cond, body in rest:
    if cond(c):
        return body(c)"""
_IF_AFTER = """\
if orelse is not None:
    return orelse(c)
return None"""
_ASSIGN_LOCAL = "c.locals[n] = value(c) if op == '=' else _combine(op, c.locals[n], value(c))"
_ASSIGN_FIELD = """\
target = obj(c)
if type(target) is not Player:
    raise TypeError(f"cannot set `{name}` on {type_name(target)}")
c.game.set_player(target, name, op, value(c))"""
_STATEMENT_CODE: dict[tuple[str, str], Any] = {}


def _statement(body: str, span: Span, local_names, after: str = "", **names) -> Callable:
    """A statement as one function: `body` (fixed source from this module, never rule text) inside the
    bookkeeping every statement does: its span for provenance, the step budget, and Python errors turned
    into the rule's diagnostics. Only names bound here are visible to the body."""
    code = _STATEMENT_CODE.get((body, after))
    if code is None:
        pad = lambda text, n: "\n".join(" " * n + line for line in text.splitlines())  # noqa: E731
        source = _STATEMENT.format(body=pad(body, 8), after=pad(after, 4))
        code = _STATEMENT_CODE[(body, after)] = compile(source, "<civdsl statement>", "exec")
    ns = {"span": span, "local_names": local_names, "_over_budget": _over_budget, "_PY_ERRORS": _PY_ERRORS,
          "_rule_error": _rule_error, **names}
    exec(code, ns)  # noqa: S102 - defines `run` from the fixed template above
    return ns["run"]


def _py_error(exc: Exception) -> str:
    if isinstance(exc, TypeError):
        text = str(exc)
        text = text.replace("unsupported operand type(s) for", "cannot apply")
        text = re.sub(r"'[A-Za-z_]+'", lambda m: _PY_TYPES.get(m.group(0), m.group(0)), text)
        return text.replace("instances of", "")
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        return f"no entry {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "position out of range"
    if isinstance(exc, RecursionError):
        return "rules nest too deeply"
    return str(exc) or type(exc).__name__


class Compiler:
    """Turns declarations into closures and diagnostics."""

    def __init__(self, rs: Ruleset, prog: Program | None = None):
        """`prog`: compile more expressions into an already compiled program (a scenario's `call`)."""
        self.rs = rs
        self.diags: list[Diagnostic] = []
        self.prog = prog or Program(rs)
        self.globals: dict[str, str] = {}
        self.player_fields: dict[str, str] = {}
        self.used: set[str] = set()          # global names and player fields the rules read or write
        self.strings: set[str] = set()       # text literals: names used dynamically (`player[name]`)
        self.choose_tags: set[str] = set()
        self.loops = 0  # loops enclosing the statement being compiled (for break/continue)
        self._depth = 0  # nesting of expression compilation: only whole expressions become generated code
        from .codegen import ExprCodegen
        self.codegen = ExprCodegen(self)

    # -- diagnostics -----------------------------------------------------------------------------
    def err(self, code: str, msg: str, span: Span | None, hint: str | None = None, related=None):
        self.diags.append(Diagnostic(code, msg, span, "error", hint, list(related or [])))

    def warn(self, code: str, msg: str, span: Span | None, hint: str | None = None):
        self.diags.append(Diagnostic(code, msg, span, "warning", hint))

    # -- entry -----------------------------------------------------------------------------------
    def compile(self) -> Program:
        rs, prog = self.rs, self.prog
        self._declare_globals()
        # values that expressions embed as constants exist before any expression is compiled, so a
        # parameter may use a table, a die or a procedure declared after it
        for d in rs.of(A.Die):
            prog.dice[d.name] = Die(d.name, [])
            prog.die_spans[d.name] = d.span
        for d in rs.of(A.Table):
            die = prog.dice.get(d.die) if d.die else None
            if d.die:
                self.used.add(d.die)
            if d.die and die is None:
                self.err("UNK001", f"unknown die `{d.die}`", d.span, self._did_you_mean(d.die, prog.dice))
            prog.tables[d.name] = TableValue(d.name, die, [])
        for d in rs.of(A.Procedure):
            prog.procedures[d.name] = Callable_(d.name, d.params, None, d.span)
        for d in rs.of(A.Param):
            prog.params.append((d.name, self.expr(d.value, Scope()), d.span))
        for d in rs.of(A.Counter):
            lo = self.expr(d.lo, Scope()) if d.lo is not None else None
            hi = self.expr(d.hi, Scope()) if d.hi is not None else None
            prog.counters[(d.scope, d.name)] = (lo, hi, self.expr(d.init, Scope(["player"])), d.span)
            if isinstance(d.init, A.Literal):
                prog.literal_inits[(d.scope, d.name)] = d.init.value
        for d in rs.of(A.Var):
            prog.vars[(d.scope, d.name)] = (self.expr(d.init, Scope(["player"])), d.span)
        for d in rs.of(A.Zone):
            prog.zones[(d.scope, d.name)] = d.visibility
        for d in rs.of(A.Track):
            self._track(d)
        for d in rs.of(A.MapDecl):
            try:
                prog.maps[d.name] = load_map(resolve_inside(d.span.file, d.path, rs.root_of(d.span.file), d.span, "map"), d.span)
            except CivError as exc:
                self.diags.extend(exc.diagnostics)
        for d in rs.of(A.Kind):
            self._kind(d)
        for d in rs.of(A.Entity):
            self._entity_shell(d)
        # bodies, now that every name is known
        self._constant_values()
        for d in rs.of(A.Procedure):
            prog.procedures[d.name].body = self.block(d.body, Scope(d.params))
        for d in rs.of(A.Entity):
            self._entity_body(d)
        for d in rs.of(A.Phase):
            self._phase(d)
        seqs = rs.of(A.Sequence)
        if not seqs:
            self.err("SEQ001", "the ruleset has no `sequence` block", Span(self.rs.entry, 1, 1),
                     "declare the round: `sequence { phases: a, b, c }`")
        else:
            self._sequence(seqs[0])
        setups = rs.of(A.Setup)
        if setups:
            prog.setup = self.block(setups[0].body, Scope())
        for d in rs.of(A.Victory):
            self._victory(d)
        for d in rs.of(A.Heuristic):
            prog.heuristics[d.name] = self.expr(d.expr, Scope(["player", "option"]))
        for d in rs.of(A.Invariant):
            prog.invariants.append((d.name, self.expr(d.expr, Scope()), d.span))
        self._game_block()
        self._lint()
        return prog

    def _lint(self):
        """Warnings for declarations no rule uses (suppress with `# civdsl: ignore[CODE]`)."""
        used = self.used | self.strings
        rs = self.rs
        for cls, what in ((A.Param, "parameter"), (A.Die, "die"), (A.Table, "table"), (A.Procedure, "procedure"),
                          (A.Counter, "counter"), (A.Var, "variable"), (A.Zone, "zone")):
            for d in rs.of(cls):
                if d.name in used:
                    continue
                changed = [note for _, note in rs.history.get(d.key(), []) if note in ("replaced", "modified")]
                if cls is A.Param and changed:
                    self.warn("LNT006", f"parameter `{d.name}` is {changed[-1]} but no rule reads it", d.span,
                              "the override has no effect; check the name")
                else:
                    self.warn("LNT001", f"{what} `{d.name}` is never used", d.span,
                              "remove it, or use it in a rule")
        for d in rs.of(A.Heuristic):
            if d.name not in self.choose_tags:
                self.warn("LNT002", f"heuristic for \"{d.name}\", but no rule asks a decision with that tag", d.span,
                          self._did_you_mean(d.name, self.choose_tags) and
                          f"did you mean \"{suggest(d.name, self.choose_tags)}\"?")
        for kind, names in self.prog.by_kind.items():
            if kind in self.strings:
                continue  # enumerated with entities("kind")
            for name in names:
                if name not in self.strings:
                    ent = self.prog.entities[name]
                    self.warn("LNT003", f"{kind} \"{name}\" is never named by any rule, so no rule can use or grant it",
                              ent.span, f"name it somewhere, or enumerate the kind with entities(\"{kind}\")")

    def _declare_globals(self):
        rs = self.rs
        table = [(A.Param, "param"), (A.Die, "die"), (A.Table, "table"), (A.MapDecl, "map"),
                 (A.Procedure, "procedure")]
        for cls, kind in table:
            for d in rs.of(cls):
                self._global(d.name, kind, d.span)
        for d in rs.of(A.Counter) + rs.of(A.Var) + rs.of(A.Zone):
            kind = type(d).__name__.lower()
            if d.scope == "global":
                self._global(d.name, kind, d.span)
            else:
                if d.name in self.player_fields:
                    self.err("DUP002", f"player field `{d.name}` is declared twice", d.span)
                self.player_fields[d.name] = kind
        for d in rs.of(A.Track):
            self.player_fields[d.name] = "counter"
            self._global(d.name, "track", d.span)

    def _global(self, name: str, kind: str, span: Span):
        if name in self.globals:
            self.err("DUP002", f"`{name}` is declared twice (as {self.globals[name]} and {kind})", span,
                     "every global name must be unique")
            return
        if name in REGISTRY or name in ("players", "player", "round", "num_players", "this", "option"):
            self.err("DUP003", f"`{name}` is a built-in name and cannot be redeclared", span)
            return
        self.globals[name] = kind

    def _did_you_mean(self, name, candidates) -> str | None:
        guess = suggest(name, candidates)
        return f"did you mean `{guess}`?" if guess else None

    # -- data declarations -------------------------------------------------------------------------
    def _track(self, d: A.Track):
        fields = {f.name: f for f in d.fields}
        spaces = fields.get("spaces")
        if spaces is None:
            self.err("TRK001", f"track `{d.name}` has no `spaces`", d.span, "add `spaces: [...]`")
            return
        self.prog.params.append((d.name, self.expr(spaces.value, Scope()), d.span))
        start = fields.get("start")
        init = self.expr(start.value, Scope()) if start else (lambda c: 0)
        hi_fn = self.expr(A.BinOp("-", A.Call(A.Name("len", d.span), [A.Name(d.name, d.span)], d.span),
                                  A.Literal(1, d.span), d.span), Scope())
        self.prog.counters[("player", d.name)] = (lambda c: 0, hi_fn, init, d.span)

    def _kind(self, d: A.Kind):
        if d.name in self.prog.kinds:
            self.err("DUP002", f"kind `{d.name}` declared twice", d.span)
        for f in d.fields:
            base = f.type[0]
            if base not in KIND_TYPES and base != "ref":
                self.err("TYP001", f"unknown field type `{base}`", f.span,
                         "types: int, number, text, bool, any, block, record, list of T, ref KIND")
        self.prog.kinds[d.name] = d
        self.prog.by_kind.setdefault(d.name, [])

    def _entity_shell(self, d: A.Entity):
        prog = self.prog
        kind = prog.kinds.get(d.kind)
        if kind is None:
            self.err("UNK002", f"unknown kind `{d.kind}` for `{d.name}`", d.span,
                     self._did_you_mean(d.kind, prog.kinds) or f"declare it: `kind {d.kind} {{ ... }}`")
            return
        if d.name in prog.entities:
            prev = prog.entities[d.name]
            self.err("DUP001", f"`{d.name}` is declared twice (as {prev.kind} and {d.kind})", d.span,
                     "names of things must be unique across kinds", [(prev.span, "first declared here")])
            return
        prog.entities[d.name] = EntityObj(d.kind, d.name, {}, d.span)
        prog.by_kind[d.kind].append(d.name)

    def _entity_body(self, d: A.Entity):
        prog = self.prog
        ent = prog.entities.get(d.name)
        kind = prog.kinds.get(d.kind)
        if ent is None or kind is None or ent.span is not d.span:
            return
        schema = {f.name: f for f in kind.fields}
        given = {f.name: f for f in d.fields}
        blocks = {b.name: b for b in d.blocks}
        for name in list(given) + list(blocks):
            if name not in schema:
                self.err("FLD001", f"{d.kind} `{d.name}` has no field `{name}`",
                         (given.get(name) or blocks[name]).span,
                         self._did_you_mean(name, schema) or f"fields of {d.kind}: {', '.join(schema) or 'none'}")
        for name, kf in schema.items():
            is_block = kf.type[0] == "block"
            if name in blocks:
                if not is_block:
                    self.err("TYP002", f"field `{name}` of {d.kind} is a value, not a block", blocks[name].span,
                             f"write `{name}: value`")
                    continue
                b = blocks[name]
                ent.fields[name] = Callable_(f"{d.name}.{name}", b.params, self.block(b.body, Scope(b.params + ["this"])),
                                             b.span, this=d.name)
            elif name in given:
                if is_block:
                    self.err("TYP002", f"field `{name}` of {d.kind} is a block", given[name].span,
                             f"write `{name}(...) {{ ... }}`")
                    continue
                ent.fields[name] = LazyField(self._const(given[name].value), kf, given[name].span, ent, name)
                prog.lazy_fields.append(ent.fields[name])
            elif kf.default is not None:
                ent.fields[name] = LazyField(self._const(kf.default), kf, kf.span, ent, name)
                prog.lazy_fields.append(ent.fields[name])
            elif is_block:
                ent.fields[name] = None
            else:
                self.err("FLD002", f"{d.kind} `{d.name}` lacks the field `{name}`", d.span,
                         f"add `{name}: ...` (the kind declares no default)")

    def _const(self, e: A.Expr) -> Callable:
        return self.expr(e, Scope())

    def _constant_values(self):
        """Dice faces and table rows are evaluated once params are known (in `Game.init`)."""
        prog = self.prog
        for d in self.rs.of(A.Die):
            prog.die_sources[d.name] = self.expr(d.faces, Scope())
        for d in self.rs.of(A.Table):
            prog.table_sources[d.name] = [(r.lo, r.hi, self.expr(r.value, Scope())) for r in d.rows]

    # -- turn structure ----------------------------------------------------------------------------
    def _phase(self, d: A.Phase):
        scope_names = ["player"]
        keys = [self.expr(k, Scope(scope_names)) for k in (d.order.keys if d.order else [])]
        when = self.expr(d.when, Scope(scope_names)) if d.when is not None else None
        steps = []
        seen: dict[str, Span] = {}
        for s in d.steps:
            if s.name in seen:
                self.err("DUP002", f"step `{s.name}` appears twice in phase `{d.name}`", s.span,
                         related=[(seen[s.name], "first here")])
            seen[s.name] = s.span
            steps.append((s.name, s.title or s.name, self.block(s.body, Scope(scope_names)), s.span))
        self.prog.phases[d.name] = CompiledPhase(d.name, d.title or d.name, d.order, keys, when, steps, d.span)

    def _sequence(self, d: A.Sequence):
        self.prog.sequence = d
        if d.turns is not None:
            self.prog.turn_keys = [self.expr(k, Scope(["player"])) for k in d.turns.keys]
        listed = set()
        for name, span in d.phases:
            listed.add(name)
            if name not in self.prog.phases:
                self.err("UNK003", f"unknown phase `{name}` in the sequence", span,
                         self._did_you_mean(name, self.prog.phases))
        for name, ph in self.prog.phases.items():
            if name not in listed:
                self.warn("SEQ002", f"phase `{name}` is never played: it is not in the sequence", ph.span,
                          "add it to `sequence { phases: ... }` or remove it")

    def _victory(self, d: A.Victory):
        known = {"check": "name", "finish": "name", "winner": "player", "game_over": "global",
                 "rank": "player", "max_rounds": "global", "score": "player", "breakdown": "player",
                 "summary": "player"}
        for f in d.fields:
            mode = known.get(f.name)
            if mode is None:
                self.err("VIC001", f"unknown victory field `{f.name}`", f.span,
                         self._did_you_mean(f.name, known) or f"fields: {', '.join(known)}")
            elif mode == "name":
                v = f.value
                allowed = {"check": ("turn", "phase", "round"), "finish": ("immediately", "round")}[f.name]
                if not isinstance(v, A.Name) or v.id not in allowed:
                    self.err("VIC002", f"`{f.name}` is one of: {', '.join(allowed)}", f.span)
                else:
                    self.prog.victory[f.name] = (v.id, f.span)
            elif f.name in ("rank", "breakdown"):
                items = f.value.items if isinstance(f.value, A.ListLit) else None
                if f.name == "breakdown":
                    if not isinstance(f.value, A.RecordLit):
                        self.err("VIC003", "`breakdown` is a record of per-player expressions", f.span)
                        continue
                    fns = [(k, self.expr(v, Scope(["player"]))) for k, v in zip(f.value.keys, f.value.values)]
                    self.prog.victory[f.name] = (fns, f.span)
                    continue
                if items is None:
                    items = [f.value]
                self.prog.victory[f.name] = ([self.expr(i, Scope(["player"])) for i in items], f.span)
            else:
                self.prog.victory[f.name] = (self.expr(f.value, Scope(["player"] if mode == "player" else [])), f.span)

    def _game_block(self):
        g = self.rs.game
        if g is None:
            self.err("GAM001", "the ruleset has no `game` block", Span(self.rs.entry, 1, 1),
                     'add `game "Title" { edition: "name" players: 1..4 }`')
            return
        known = {"edition", "players", "sources", "version", "description", "notes"}
        for f in g.fields:
            if f.name not in known:
                self.warn("GAM002", f"unknown game field `{f.name}`", f.span,
                          self._did_you_mean(f.name, known) or f"fields: {', '.join(sorted(known))}")

    # -- statements ------------------------------------------------------------------------------------
    def block(self, stmts: list[A.Stmt], scope: Scope) -> Callable:
        fns = [self.stmt(s, scope) for s in stmts]
        if len(fns) == 1:
            return fns[0]

        def run(c, fns=tuple(fns)):
            for f in fns:
                signal = f(c)
                if signal is not None:
                    return signal
            return None
        return run

    def loop_body(self, stmts: list[A.Stmt], scope: Scope) -> Callable:
        self.loops += 1
        try:
            return self.block(stmts, scope)
        finally:
            self.loops -= 1

    def stmt(self, s: A.Stmt, scope: Scope) -> Callable:
        fast = self._fast_stmt(s, scope)
        if fast is not None:
            return fast
        fn = getattr(self, "s_" + type(s).__name__)(s, scope)
        return _statement("return fn(c)", s.span, scope.names, fn=fn)

    def _fast_stmt(self, s: A.Stmt, scope: Scope) -> Callable | None:
        """The most frequent statements (`let`, calls, assignments, `if`, `return`) as one closure each,
        the statement's own work written into the common bookkeeping."""
        span, names = s.span, scope.names
        if isinstance(s, A.If):
            branches = tuple((self.expr(cond, scope), self.block(body, scope)) for cond, body in s.branches)
            orelse = self.block(s.orelse, scope) if s.orelse else None
            return _statement(_IF_BODY, span, names, _IF_AFTER, cond1=branches[0][0], body1=branches[0][1],
                              rest=branches[1:], orelse=orelse)
        if isinstance(s, A.Return):
            return _statement("return Ret(value(c))", span, names, value=self.expr(s.value, scope), Ret=Ret)
        if isinstance(s, A.ExprStmt):
            return _statement("value(c)", span, names, value=self.expr(s.expr, scope))
        if isinstance(s, A.Let):
            if s.name in self.globals or s.name in REGISTRY:
                return None  # the general path reports it
            value = self.expr(s.value, scope)
            scope.names.add(s.name)
            return _statement("c.locals[name] = value(c)", span, names, value=value, name=s.name)
        if isinstance(s, A.Assign):
            return self._fast_assign(s, scope)
        return None

    def _fast_assign(self, s: A.Assign, scope: Scope) -> Callable | None:
        """Assignments to a local or to a player's declared counter or variable."""
        t, op, span, names = s.target, s.op, s.span, scope.names
        local = isinstance(t, A.Name) and t.id in scope.names
        field = isinstance(t, A.Attr) and self.player_fields.get(t.name) in ("counter", "var")
        if not (local or field):
            return None  # the general path handles (and reports) the rest
        value = self.expr(s.value, scope)
        if local:
            return _statement(_ASSIGN_LOCAL, span, names, value=value, n=t.id, op=op, _combine=_combine)
        self.used.add(t.name)
        return _statement(_ASSIGN_FIELD, span, names, value=value, obj=self.expr(t.obj, scope), name=t.name,
                          op=op, Player=Player, type_name=type_name)

    def s_Let(self, s: A.Let, scope: Scope):
        if s.name in self.globals or s.name in REGISTRY:
            self.err("NAM001", f"`let {s.name}` would hide the {self.globals.get(s.name, 'built-in')} `{s.name}`",
                     s.span, "choose another local name")
        value = self.expr(s.value, scope)
        scope.names.add(s.name)
        name = s.name

        def run(c):
            c.locals[name] = value(c)
        return run

    def s_Assign(self, s: A.Assign, scope: Scope):
        value = self.expr(s.value, scope)
        op = s.op
        t = s.target
        if isinstance(t, A.Name):
            n = t.id
            if n in scope.names:
                def run(c):
                    c.locals[n] = _combine(op, c.locals[n], value(c)) if op != "=" else value(c)
                return run
            kind = self.globals.get(n)
            self.used.add(n)
            if kind in ("counter", "var", "param"):
                def run(c):
                    c.game.set_global(n, op, value(c))
                return run
            guess = None if kind else self._did_you_mean(
                n, [g for g, k in self.globals.items() if k in ("counter", "var", "param")] + list(scope.names))
            self.err("NAM002", f"cannot assign to `{n}`" + (f": it is a {kind}" if kind else ": unknown name"),
                     t.span, guess or "declare it with `let` (a local) or `global var`/`global counter` (game state)")
            return lambda c: None
        obj = self.expr(t.obj, scope)
        if isinstance(t, A.Index):
            key = self.expr(t.key, scope)

            def run_index(c):
                target = obj(c)
                name = key(c)
                if isinstance(target, dict):  # a record: logged and undone on failure like any change
                    c.game.set_record(target, name, op, value(c))
                    return
                if not isinstance(target, Player):
                    raise TypeError(f"only a player's counters or a record's keys can be set by name, "
                                    f"not {type_name(target)}'s")
                if not isinstance(name, str):
                    raise TypeError(f"a counter name must be a text, got {type_name(name)}")
                c.game.set_player(target, name, op, value(c))
            return run_index
        field_name = t.name
        self.used.add(field_name)
        if field_name not in self.player_fields:
            self.err("NAM003", f"no player counter or variable `{field_name}`", t.span,
                     self._did_you_mean(field_name, self.player_fields) or
                     "declare it: `player counter NAME = 0` or `player var NAME = none`")
        elif self.player_fields[field_name] == "zone":
            self.err("NAM004", f"`{field_name}` is a zone and cannot be assigned", t.span,
                     "use `add`, `remove` or `move` to change a zone")

        def run(c):
            target = obj(c)
            if not isinstance(target, Player):
                raise TypeError(f"cannot set `{field_name}` on {type_name(target)}")
            c.game.set_player(target, field_name, op, value(c))
        return run

    def s_For(self, s: A.For, scope: Scope):
        it = self.expr(s.iterable, scope)
        scope.names.add(s.var)
        body = self.loop_body(s.body, scope)
        var = s.var

        def run(c):
            for x in _iterable(it(c)):
                c.locals[var] = x
                signal = body(c)
                if signal is not None and signal is not CONTINUE:
                    return None if signal is BREAK else signal
            return None
        return run

    def s_Repeat(self, s: A.Repeat, scope: Scope):
        count = self.expr(s.count, scope)
        body = self.loop_body(s.body, scope)

        def run(c):
            n = count(c)
            if not isinstance(n, int) or n > MAX_LOOP:
                raise ValueError(f"repeat count must be a whole number up to {MAX_LOOP}, got {fmt(n)}")
            for _ in range(n):
                signal = body(c)
                if signal is not None and signal is not CONTINUE:
                    return None if signal is BREAK else signal
            return None
        return run

    def s_While(self, s: A.While, scope: Scope):
        cond = self.expr(s.cond, scope)
        body = self.loop_body(s.body, scope)
        span = s.span

        def run(c):
            n = 0
            while cond(c):
                n += 1
                if n > MAX_LOOP:
                    raise RuleError("RUN011", f"loop ran more than {MAX_LOOP} times", span,
                                    "make sure the loop's condition becomes false")
                signal = body(c)
                if signal is not None and signal is not CONTINUE:
                    return None if signal is BREAK else signal
            return None
        return run

    def s_Break(self, s, scope):
        if not self.loops:
            self.err("SYN012", "`break` outside a loop", s.span, "`break` leaves the innermost for/repeat/while")
        return lambda c: BREAK

    def s_Continue(self, s, scope):
        if not self.loops:
            self.err("SYN012", "`continue` outside a loop", s.span,
                     "`continue` goes on with the innermost for/repeat/while")
        return lambda c: CONTINUE

    def s_Log(self, s: A.Log, scope: Scope):
        parts = [p if isinstance(p, str) else self.expr(p, scope) for p in s.parts]

        def run(c):
            if c.game.logging or c.game.echo:
                c.game.narrate("".join(p if isinstance(p, str) else fmt(p(c)) for p in parts))
        return run

    def s_ZoneOp(self, s: A.ZoneOp, scope: Scope):
        item = self.expr(s.item, scope) if s.item is not None else None
        src = self.expr(s.source, scope) if s.source is not None else None
        dst = self.expr(s.dest, scope) if s.dest is not None else None
        op = s.op

        def zone(v, role):
            if not isinstance(v, ZoneRef):
                raise TypeError(f"the {role} of `{op}` must be a zone, got {type_name(v)}")
            return v

        def run(c):
            g = c.game
            if op == "add":
                g.zone_add(zone(dst(c), "destination"), item(c))
            elif op == "remove":
                g.zone_remove(zone(src(c), "source"), item(c))
            elif op == "move":
                x = item(c)
                g.zone_move(zone(src(c), "source"), zone(dst(c), "destination"), x)
            else:
                g.zone_shuffle(zone(src(c), "zone"))
        return run

    def s_Skip(self, s: A.Skip, scope: Scope):
        phase = s.phase
        if phase not in {d.name for d in self.rs.of(A.Phase)}:
            self.err("UNK003", f"unknown phase `{phase}`", s.span,
                     self._did_you_mean(phase, [d.name for d in self.rs.of(A.Phase)]))

        def run(c):
            c.game.skip(phase)
        return run

    def s_Fail(self, s: A.Fail, scope: Scope):
        msg, span = s.message, s.span

        def run(c):
            raise IllegalAction("RUN030", msg, span)
        return run

    def s_EndGame(self, s, scope):
        def run(c):
            raise EndOfGame()
        return run

    # -- expressions ------------------------------------------------------------------------------------
    def expr(self, e: A.Expr, scope: Scope) -> Callable:
        """A function of the context for an expression: checked as closures, run as generated code."""
        before = len(self.diags)
        self._depth += 1
        try:
            fn = getattr(self, "e_" + type(e).__name__)(e, scope)
        finally:
            self._depth -= 1
        if self._depth == 0 and len(self.diags) == before:
            return self.codegen.build(e, scope, fn)
        return fn

    def closure(self, e: A.Expr, scope: Scope) -> Callable:
        """The closure of a subexpression the code generator embeds (already checked: no diagnostics)."""
        before = len(self.diags)
        self._depth += 1
        try:
            return getattr(self, "e_" + type(e).__name__)(e, scope)
        finally:
            self._depth -= 1
            del self.diags[before:]

    def e_Literal(self, e: A.Literal, scope):
        v = e.value
        if isinstance(v, str):
            self.strings.add(v)
        return lambda c: v

    def e_Name(self, e: A.Name, scope: Scope):
        n = e.id
        if n in scope.names:
            span = e.span

            def local(c):
                try:
                    return c.locals[n]
                except KeyError:
                    raise RuleError("RUN002", f"`{n}` is used before it is given a value", span) from None
            return local
        kind = self.globals.get(n)
        prog = self.prog
        if kind:
            self.used.add(n)
        if kind == "counter":
            return lambda c: c.game.state.counters[n]
        if kind in ("var", "param", "track"):
            return lambda c: c.game.state.vars[n]
        if kind == "zone":
            return lambda c: ZoneRef(None, n, c.game.state.zones[n])
        if kind == "die":
            return lambda c: prog.dice[n]
        if kind == "table":
            return lambda c: prog.tables[n]
        if kind == "procedure":
            return lambda c: prog.procedures[n]
        if kind == "map":
            return lambda c: n
        if n == "players":
            return lambda c: list(c.game.state.players)
        if n == "num_players":
            return lambda c: len(c.game.state.players)
        if n == "round":
            return lambda c: c.game.state.round
        if n in REGISTRY:
            b = REGISTRY[n]
            return lambda c: b
        candidates = list(self.globals) + list(scope.names) + list(REGISTRY) + ["players", "round", "num_players"]
        if n in ("player", "option", "this"):
            hint = f"`{n}` is only bound inside " + {"player": "phases, victory fields and heuristics",
                                                     "option": "heuristics", "this": "an entity's blocks"}[n]
        else:
            hint = self._did_you_mean(n, candidates)
        self.err("UNK001", f"unknown name `{n}`", e.span, hint)
        return lambda c: None

    def e_ListLit(self, e: A.ListLit, scope):
        items = [self.expr(i, scope) for i in e.items]
        return lambda c: [f(c) for f in items]

    def e_RecordLit(self, e: A.RecordLit, scope):
        pairs = [(k, self.expr(v, scope)) for k, v in zip(e.keys, e.values)]
        return lambda c: {k: f(c) for k, f in pairs}

    def e_Comprehension(self, e: A.Comprehension, scope: Scope):
        it = self.expr(e.iterable, scope)
        had = e.var in scope.names
        scope.names.add(e.var)
        body = self.expr(e.expr, scope)
        cond = self.expr(e.cond, scope) if e.cond is not None else None
        if not had:
            scope.names.discard(e.var)
        var = e.var

        def run(c):
            out = []
            saved = c.locals.get(var, _UNSET)
            for x in _iterable(it(c)):
                c.locals[var] = x
                if cond is None or cond(c):
                    out.append(body(c))
            if saved is _UNSET:
                c.locals.pop(var, None)
            else:
                c.locals[var] = saved
            return out
        return run

    def e_Attr(self, e: A.Attr, scope: Scope):
        obj = self.expr(e.obj, scope)
        name = e.name
        self.used.add(name)
        prog = self.prog
        kind = self.player_fields.get(name)
        if kind == "counter":
            def counter(c):
                o = obj(c)
                if type(o) is Player:
                    return o.counters[name]
                return get_attr(prog, o, name)
            return counter
        if kind == "zone":
            def zone(c):
                o = obj(c)
                if type(o) is Player:
                    return ZoneRef(o, name, o.zones[name])
                return get_attr(prog, o, name)
            return zone
        return lambda c: get_attr(prog, obj(c), name)

    def e_Index(self, e: A.Index, scope):
        obj = self.expr(e.obj, scope)
        key = self.expr(e.key, scope)
        prog = self.prog
        return lambda c: get_index(obj(c), key(c), prog)

    def e_Call(self, e: A.Call, scope: Scope):
        args = [self.expr(a, scope) for a in e.args]
        span = e.span
        if isinstance(e.func, A.Name) and e.func.id not in scope.names:
            n = e.func.id
            if n in REGISTRY:
                b = REGISTRY[n]
                lo, hi = b.arity
                if not lo <= len(args) <= hi:
                    want = str(lo) if lo == hi else f"{lo} to {hi}"
                    self.err("ARG001", f"`{n}` takes {want} argument{'s' if hi != 1 else ''}, got {len(args)}", span)
                return _builtin_call(b.fn, args)
            if self.globals.get(n) == "procedure":
                self.used.add(n)
                proc = self.prog.procedures[n]
                decl = next(d for d in self.rs.of(A.Procedure) if d.name == n)
                if len(decl.params) != len(args):
                    self.err("ARG001", f"procedure `{n}` takes {len(decl.params)} arguments, got {len(args)}", span,
                             related=[(decl.span, "declared here")])
                return lambda c: call_callable(c, proc, [a(c) for a in args], span)
        func = self.expr(e.func, scope)

        def call_value(c):
            f = func(c)
            if isinstance(f, Callable_):
                return call_callable(c, f, [a(c) for a in args], span)
            if isinstance(f, Builtin):
                return f.fn(c, *[a(c) for a in args])
            if f is None and isinstance(e.func, A.Attr):
                return None  # an entity's optional block that this entity does not define
            raise TypeError(f"{type_name(f)} cannot be called")
        return call_value

    def e_BinOp(self, e: A.BinOp, scope):
        left, right, op = self.expr(e.left, scope), self.expr(e.right, scope), e.op
        if op == "+":
            return lambda c: _add(left(c), right(c))
        if op == "-":
            return lambda c: left(c) - right(c)
        if op == "*":
            return lambda c: left(c) * right(c)
        if op == "/":
            return lambda c: _div(left(c), right(c))
        if op == "//":
            return lambda c: left(c) // right(c)
        if op == "%":
            return lambda c: left(c) % right(c)
        if op == "..":
            return lambda c: _range(left(c), right(c))
        raise AssertionError(op)

    def e_Compare(self, e: A.Compare, scope):
        operands = [self.expr(o, scope) for o in e.operands]
        ops = [_COMPARE[o] for o in e.ops]
        if len(ops) == 1:
            a, b, f = operands[0], operands[1], ops[0]
            return lambda c: f(a(c), b(c))

        def chain(c):
            left = operands[0](c)
            for f, right_fn in zip(ops, operands[1:]):
                right = right_fn(c)
                if not f(left, right):
                    return False
                left = right
            return True
        return chain

    def e_BoolOp(self, e: A.BoolOp, scope):
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op == "and":
            return lambda c: left(c) and right(c)
        return lambda c: left(c) or right(c)

    def e_Not(self, e: A.Not, scope):
        x = self.expr(e.operand, scope)
        return lambda c: not x(c)

    def e_Neg(self, e: A.Neg, scope):
        x = self.expr(e.operand, scope)
        return lambda c: -x(c)

    def e_IfExpr(self, e: A.IfExpr, scope):
        cond, a, b = self.expr(e.cond, scope), self.expr(e.then, scope), self.expr(e.orelse, scope)
        return lambda c: a(c) if cond(c) else b(c)

    def e_Choose(self, e: A.Choose, scope):
        who, options, tag, span = self.expr(e.who, scope), self.expr(e.options, scope), e.tag, e.span
        self.choose_tags.add(tag)

        def run(c):
            p = who(c)
            if not isinstance(p, Player):
                raise TypeError(f"only a player can choose, not {type_name(p)}")
            return c.game.decide(p, tag, list(_iterable(options(c))), span)
        return run


_UNSET = object()


def _builtin_call(fn, args: list[Callable]) -> Callable:
    """A call of a builtin, specialised by argument count (the hottest path of most rulesets)."""
    if len(args) == 0:
        return lambda c: fn(c)
    if len(args) == 1:
        a0 = args[0]
        return lambda c: fn(c, a0(c))
    if len(args) == 2:
        a0, a1 = args
        return lambda c: fn(c, a0(c), a1(c))
    if len(args) == 3:
        a0, a1, a2 = args
        return lambda c: fn(c, a0(c), a1(c), a2(c))
    return lambda c: fn(c, *[a(c) for a in args])


def _range(lo, hi) -> list:
    """`lo..hi`: both ends included, at most MAX_LOOP items."""
    if hi - lo > MAX_LOOP:
        raise ValueError(f"range {lo}..{hi} is too long")
    return list(range(lo, hi + 1))


def _iterable(v):
    if isinstance(v, (list, tuple, ZoneRef)):
        return list(v)
    if isinstance(v, dict):
        return list(v.keys())
    raise TypeError(f"cannot loop over {type_name(v)}")


def _add(a, b):
    ta, tb = type(a), type(b)
    if ta is tb and (ta is int or ta is str or ta is list):
        return a + b
    if isinstance(a, ZoneRef):
        a = list(a.items)
    if isinstance(b, ZoneRef):
        b = list(b.items)
    if isinstance(a, str) != isinstance(b, str):
        return fmt(a) + fmt(b)
    return a + b


def _div(a, b):
    q = a / b
    return int(q) if isinstance(q, float) and q.is_integer() else q


def _combine(op: str, old, new):
    if op == "+=":
        return _add(old, new)
    if op == "-=":
        return old - new
    return new


def _in(a, b):
    if isinstance(b, str) and not isinstance(a, str):
        return False
    return a in b


_COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "in": _in, "not in": lambda a, b: not _in(a, b),
}


def get_attr(prog: Program, o, name: str):
    """`o.name` for any runtime value (the general path; players' declared fields have a faster one)."""
    t = type(o)
    if t is dict:
        return o[name]
    if t is str:
        ent = prog.entities.get(o)
        if ent is not None:
            v = ent.fields.get(name, _UNSET)
            if type(v) is tuple:
                return v[0]
            if v is not _UNSET:
                return field_value(v)
    if isinstance(o, Player):
        if name in o.counters:
            return o.counters[name]
        if name in o.vars:
            return o.vars[name]
        if name in o.zones:
            return ZoneRef(o, name, o.zones[name])
        if name in PLAYER_BUILTIN_FIELDS:
            return getattr(o, name)
        raise KeyError(f"player has no counter, variable or zone `{name}`")
    if isinstance(o, str):
        ent = prog.entities.get(o)
        if ent is None:
            raise ValueError(f"\"{o}\" is not a declared thing, so it has no `{name}`")
        return entity_field(ent, name)
    if isinstance(o, EntityObj):
        return entity_field(o, name)
    if isinstance(o, dict):
        if name not in o:
            raise KeyError(name)
        return o[name]
    if isinstance(o, Die) and name == "faces":
        return list(o.faces)
    if isinstance(o, ZoneRef) and name == "owner":
        return o.owner
    if o is None:
        raise TypeError(f"none has no `{name}`")
    raise TypeError(f"{type_name(o)} has no `{name}`")


def entity_field(ent: EntityObj, name: str):
    if name in ent.fields:
        return field_value(ent.fields[name])
    if name == "name":
        return ent.name
    if name == "kind":
        return ent.kind
    raise KeyError(f"{ent.kind} `{ent.name}` has no field `{name}`")


def get_index(o, key, prog=None):
    t = type(o)
    if t is dict:
        return o[key]
    if t is Player and type(key) is str:
        counters = o.counters
        return counters[key] if key in counters else get_attr(prog, o, key)
    if isinstance(o, TableValue):
        return o.lookup(key)
    if isinstance(o, dict):
        return o[key]
    if isinstance(o, (list, ZoneRef)):
        items = o.items if isinstance(o, ZoneRef) else o
        if not isinstance(key, int) or key < 1:
            raise IndexError(key)
        return items[key - 1]
    raise TypeError(f"{type_name(o)} cannot be indexed")


def call_callable(c, f: Callable_, args: list, span: Span):
    if len(args) != len(f.params):
        raise TypeError(f"`{f.name}` takes {len(f.params)} arguments, got {len(args)}")
    if f.body is None:
        return None
    memo = c.memo
    if memo is not None:  # scoring a decision: the same call gives the same result
        try:
            key = (f, *args)
            hit = memo.get(key, _UNSET)
        except TypeError:  # an argument that is a list or a record: not remembered
            memo = None
        else:
            if hit is not _UNSET:
                return _fresh(hit)
    if c.depth >= MAX_CALL_DEPTH:
        raise RuleError("RUN012", f"calls nest deeper than {MAX_CALL_DEPTH} (`{f.name}`)", span,
                        "a procedure probably calls itself without end")
    saved_locals, saved_span = c.locals, c.span
    c.locals = dict(zip(f.params, args))
    if f.this is not None:
        c.locals["this"] = f.this
    c.depth += 1
    try:
        signal = f.body(c)
        value = signal.value if type(signal) is Ret else None
    finally:
        c.depth -= 1
        c.locals, c.span = saved_locals, saved_span
    if memo is not None:
        memo[key] = _fresh(value)
    return value


def _fresh(value):
    """A remembered result as a caller may use it: lists and records are copied, so that a caller that
    changes one does not change what the next caller gets."""
    t = type(value)
    if t is list:
        return list(value)
    if t is dict:
        return dict(value)
    return value


def compile_ruleset(rs: Ruleset) -> tuple[Program, list[Diagnostic]]:
    """Compile; return the program and every diagnostic found (errors and warnings)."""
    comp = Compiler(rs)
    prog = comp.compile()
    return prog, sorted(comp.diags, key=Diagnostic.sort_key)
