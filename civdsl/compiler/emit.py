"""Statements and expressions of the rule language, checked and written as Python source.

One pass over the syntax tree does both jobs: it resolves every name (reporting unknown names, wrong
arity and misuse of declarations as diagnostics) and writes the Python text of the function the rule
becomes. Rule locals are Python locals (`v_NAME`), control flow is Python's own, and each statement
first records its span (provenance for the log) and counts against the step budget.

Evaluation order is the language's: left to right, short-circuit `and`/`or`, the operands of a
statement in the order the interpreter has always used (see `s_ZoneOp`).
"""
from __future__ import annotations

import re

from ..engine.builtins import REGISTRY
from ..engine.runtime import LOCAL_PREFIX
from ..language import ast as A
from ..language.diagnostics import Span
from .module import FunctionCode, ModuleBuilder
from .scope import PLAYER, RECORD, Scope, function_scope

OUTLINE_DEPTH = 30   # deeper subexpressions become functions of their own (Python's parser nests ~200 deep)
MAX_LOOP_NESTING = 15  # Python allows 20 nested blocks per function; the function itself uses some
_SIMPLE_LITERALS = (int, str, bool, type(None))
# Calls that neither log nor read the running statement's span; any other call in a statement's own
# code (a builtin, a procedure, a decision, a change of state) makes the statement record its span.
_PURE_CALL = re.compile(r"\b(?:type|len|list|range|_iterable|_range|_numbers|_repeat_count|_in|_add|_div|_get_attr|"
                        r"_get_index|_ZoneRef|_field_value|_loop_overflow|_over_budget|_IllegalAction|_EndOfGame)\(")
_CALL = re.compile(r"[\w.]\(")
_COMPARE_OPS = {"==", "!=", "<", ">", "<=", ">="}
BUILTIN_GLOBALS = ("players", "player", "round", "num_players", "this", "option")


def _is_int(e: A.Expr) -> bool:
    return isinstance(e, A.Literal) and type(e.value) is int


_CONST_PREFIX = {"callable": "_c_", "die": "_d_", "table": "_tb_", "builtin": "_B_", "builtin_fn": "_b_"}


def procedure_function(name: str) -> str:
    """The namespace name of a procedure's generated function."""
    return "_p_" + name


def flag(name: str) -> str:
    """The local holding whether the local `name` is a player."""
    return "_P" + LOCAL_PREFIX + name


def local(name: str) -> str:
    return LOCAL_PREFIX + name


class Unit:
    """What writing one function left: its functions (with outlined parts), the constants they name,
    and what it looked up about the rest of the rules (`deps`: each global name's kind, each player
    field's, each procedure called, each phase skipped, each thing's field read). Kept per process and
    reused when the same rule is compiled again and every lookup still gives the same answer (an
    edition's options and house rules, a scenario folder, a re-check after an edit). A rule whose
    writing found a problem is not kept: its diagnostics are always fresh."""

    __slots__ = ("node", "name", "functions", "consts", "deps", "used", "strings", "tags")

    def __init__(self, node, name: str):
        self.node, self.name = node, name
        self.functions: list[FunctionCode] = []
        self.consts: list[tuple[str, str, object]] = []
        self.deps: dict[tuple[str, object], object] = {}
        self.used: set[str] = set()
        self.strings: set[str] = set()
        self.tags: set[str] = set()


UNITS: dict[tuple, list[Unit]] = {}
MAX_UNITS = 50_000  # forgotten all at once beyond this (a long session editing rules)


def _hex(text: str) -> str:
    return text.encode("utf-8").hex()


class Emitter:
    """Writes the functions of one compile unit for a `Compiler` (which owns names and diagnostics).

    Every name generated code uses is stable: it says what it stands for (`_p_NAME` for a procedure,
    `_s<id>` for a rule's span, `_d_NAME` for a die...), so that the text written for a rule depends
    only on the rule and its environment and can be reused by another program of the same rules."""

    def __init__(self, comp, module: ModuleBuilder):
        self.comp = comp
        self.mod = module
        self.fn: FunctionCode | None = None
        self.unit: Unit | None = None
        self.loops = 0      # loops around the statement being written (break/continue; Python's block limit)
        self.depth = 0      # nesting of the expression being written (outlining)
        self.kind = "step"  # what the current function is: procedure | step | expression
        self._temps = 0

    # -- units: a function written once per rule and environment ----------------------------------------------
    def _written(self, key: tuple, node, name: str, write) -> str:
        kept = UNITS.get(key)
        for unit in kept or ():
            if unit.node is node and all(self._looks_up(*dep) == found for dep, found in unit.deps.items()):
                self._replay(unit)
                return unit.name
        comp = self.comp
        unit = Unit(node, name)
        saved = (self.unit, self._temps, comp.used, comp.strings, comp.choose_tags)
        self.unit, self._temps = unit, 0
        comp.used, comp.strings, comp.choose_tags = unit.used, unit.strings, unit.tags
        first_fn, first_diag = len(self.mod.functions), len(comp.diags)
        try:
            write()
        finally:
            self.unit, self._temps = saved[0], saved[1]
            comp.used, comp.strings, comp.choose_tags = saved[2] | unit.used, saved[3] | unit.strings, \
                saved[4] | unit.tags
        unit.functions = self.mod.functions[first_fn:]
        if len(comp.diags) == first_diag:
            if len(UNITS) >= MAX_UNITS:
                UNITS.clear()
            kept = UNITS.setdefault(key, [])
            kept.insert(0, unit)
            del kept[4:]
        return name

    def _replay(self, unit: Unit) -> None:
        comp = self.comp
        self.mod.functions.extend(unit.functions)
        for name, kind, what in unit.consts:
            self.mod.ns[name] = self._resolve(kind, what)
        comp.used |= unit.used
        comp.strings |= unit.strings
        comp.choose_tags |= unit.tags

    # -- lookups about the rest of the rules (recorded: a unit is reused only while they hold) -------------
    def _looks_up(self, kind: str, what):
        comp = self.comp
        if kind == "global":
            return comp.globals.get(what)
        if kind == "field":
            return comp.player_fields.get(what)
        if kind == "procedure":
            return comp.procedure_decls.get(what)
        if kind == "phase":
            return what in comp.phase_names
        return comp.value_field(*what)  # value field

    def lookup(self, kind: str, what):
        found = self._looks_up(kind, what)
        if self.unit is not None:
            self.unit.deps[(kind, what)] = found
        return found

    def const(self, kind: str, what) -> str:
        """The namespace name of something generated code uses, bound in this program."""
        if kind == "span":
            name = f"_s{id(what)}"
        elif kind == "value":
            name = f"_k{id(what)}"
        elif kind == "block":
            name = f"_cb_{_hex(what[0])}_{what[1]}"
        elif kind == "fields":
            name = f"_f_{_hex(what)}"
        else:
            name = f"{_CONST_PREFIX[kind]}{what}"
        if name not in self.mod.ns:
            self.mod.ns[name] = self._resolve(kind, what)
        if self.unit is not None:
            self.unit.consts.append((name, kind, what))
        return name

    def _resolve(self, kind: str, what):
        prog = self.comp.prog
        if kind in ("span", "value"):
            return what
        if kind == "callable":
            return prog.procedures[what]
        if kind == "block":
            return prog.entities[what[0]].fields[what[1]]
        if kind == "fields":
            return prog.entities[what].fields
        if kind == "die":
            return prog.dice[what]
        if kind == "table":
            return prog.tables[what]
        if kind == "builtin":
            return REGISTRY[what]
        return REGISTRY[what].fn  # builtin_fn

    def span(self, span: Span | None) -> str:
        return self.const("span", span)

    def temp(self) -> str:
        self._temps += 1
        return f"_t{self._temps}"

    # -- whole functions ----------------------------------------------------------------------------------
    def procedure(self, node, name: str, params: list[str], body: list[A.Stmt], span: Span,
                  this: str | None = None) -> str:
        """A procedure (`node` its declaration) or a thing's block (`this` the thing): `fn(c, site,
        *args)`; results remembered while an agent scores a decision (`c.memo`), calls nested at most
        MAX_CALL_DEPTH deep, the caller's span restored."""
        if this is None:
            fname, key = procedure_function(name), ("callable", name)
        else:
            fname, key = f"_pb_{_hex(this)}_{name.rsplit('.', 1)[1]}", ("block", (this, name.rsplit(".", 1)[1]))
        return self._written(("p", id(node), fname), node, fname,
                             lambda: self._procedure(fname, key, name, params, body, span, this))

    def _procedure(self, fname, key, name, params, body, span, this) -> None:
        scope = function_scope(params, body)
        if this is not None:
            scope.names.add("this")
        fn = self.mod.function(fname, ["c", "_site"] + [local(p) for p in params], span)
        args = "".join(local(p) + ", " for p in params)
        pre = [  # while an agent scores a decision, the same call gives the same result (lists and
            "_memo = c.memo",  # records among the arguments are not remembered: a key cannot hold them)
            "_key = None",
            "if _memo is not None:",
            f"    _key = ({self.const(*key)}, {args})",
            "    try:",
            "        _r = _memo.get(_key, _UNSET)",
            "    except TypeError:",
            "        _key, _r = None, _UNSET",
            "    if _r is not _UNSET:",
            "        return dict(_r) if type(_r) is dict else _r",  # a record copied: see `runtime.fresh`
            f"if c.depth >= _MAX_DEPTH: raise _too_deep({name!r}, _site)",
            "c.depth += 1",
            "_span = c.span",
            "try:",
        ]
        for line in pre:
            fn.add(0, line, span)
        if this is not None:
            fn.add(1, f"{local('this')} = {this!r}", span)
        self._body(fn, "procedure", body, scope, 1)
        self._flags(fn, scope, len(pre) + (this is not None), 1, span)
        fn.add(1, "if _key is not None: _memo[_key] = None", span)
        self._except(fn, span, 0)
        fn.add(0, "finally:", span)
        fn.add(1, "c.depth -= 1", span)
        fn.add(1, "c.span = _span", span)

    def step(self, node, fname: str, body: list[A.Stmt], names: list[str], span: Span, players=()) -> str:
        """A phase step or the set-up (`node`): `fn(c)`, its locals (`player`) handed in through
        `c.locals`; `players`: those certain to be players."""
        def write():
            scope = function_scope(names, body, players)
            fn = self.mod.function(fname, ["c"], span)
            for n in names:
                fn.add(0, f"{local(n)} = c.locals[{n!r}]", span)
            fn.add(0, "try:", span)
            self._body(fn, "step", body, scope, 1)
            self._flags(fn, scope, len(names) + 1, 1, span)
            self._except(fn, span, 0)
        return self._written(("s", id(node), fname), node, fname, write)

    def expression(self, e: A.Expr, names: list[str], players=()) -> str:
        """An expression outside statements (parameters, conditions, order keys, victory fields,
        heuristics...): `fn(c)`, its locals read from `c.locals` (`players`: those certain to be
        players); errors are reported by the caller."""
        fname = f"_x{id(e)}_{'_'.join(names)}"

        def write():
            scope = Scope(names, {n: PLAYER for n in players}, [n for n in names if n not in players])
            saved = (self.fn, self.kind, self.depth)
            fn = self.mod.function(fname, ["c"], getattr(e, "span", None))
            self.fn, self.kind, self.depth = fn, "expression", 0
            try:
                text = self.expr(e, scope)
            finally:
                self.fn, self.kind, self.depth = saved
            for n in sorted(scope.read):
                fn.add(0, f"{local(n)} = c.locals[{n!r}]", fn.span)
            self._flags(fn, scope, len(fn.lines), 0, fn.span)
            fn.add(0, f"return {text}", fn.span)
        return self._written(("x", id(e), tuple(names), tuple(players)), e, fname, write)

    def _body(self, fn: FunctionCode, kind: str, body: list[A.Stmt], scope: Scope, depth: int) -> None:
        saved = (self.fn, self.kind, self.loops)
        self.fn, self.kind, self.loops = fn, kind, 0
        try:
            self.block(body, scope, depth)
        finally:
            self.fn, self.kind, self.loops = saved

    @staticmethod
    def _flags(fn: FunctionCode, scope: Scope, at: int, depth: int, span: Span) -> None:
        """The type tests of locals bound once, made once where the function starts (see `scope.py`)."""
        fn.lines[at:at] = [(depth, f"{flag(n)} = type({local(n)}) is _Player", span) for n in sorted(scope.flags)]

    @staticmethod
    def _area_call(e: A.Expr, scope: Scope) -> bool:
        """`area(m, a)`, the builtin, called with its two arguments."""
        return (isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.id == "area"
                and e.func.id not in scope.names and len(e.args) == 2)

    @staticmethod
    def _local_kind(e: A.Expr, scope: Scope) -> str | None:
        """PLAYER or RECORD when `e` is a local certain to hold one."""
        return scope.kinds.get(e.id) if isinstance(e, A.Name) and e.id in scope.names else None

    def _player_test(self, e: A.Expr, scope: Scope, obj: str) -> tuple[str, str, str | None]:
        """How to test that `obj` (the code of `e`) is a player: (the test, the value to read, what is
        certain: PLAYER, RECORD or None). A local of known kind needs no test; one bound once is tested
        once; anything else each time, evaluated once."""
        if isinstance(e, A.Name) and e.id in scope.names:
            kind = scope.kinds.get(e.id)
            if kind is not None:
                return ("True" if kind == PLAYER else "False"), obj, kind
            if e.id in scope.fixed:
                scope.flags.add(e.id)
                return flag(e.id), obj, None
        test, first = self._name_or_temp(obj)
        return f"type({first}) is _Player", test, None

    def _except(self, fn: FunctionCode, span: Span, depth: int) -> None:
        fn.add(depth, "except _PY_ERRORS as _e:", span)
        fn.add(depth + 1, f"raise _error_at(_e, {fn.spans_name}) from None", span)

    def _outline(self, e: A.Expr, scope: Scope) -> str:
        """A subexpression as a function of its own, called with the locals it reads: keeps generated
        expressions shallow, and lets a comprehension's source use temporaries."""
        inner = Scope(scope.names, scope.kinds)
        saved = (self.fn, self.depth)
        fn = self.mod.function(f"_o{self.temp()}{self.unit.name if self.unit else ''}", [],
                               getattr(e, "span", None))
        self.fn, self.depth = fn, 0
        try:
            text = self.expr(e, inner)
        finally:
            self.fn, self.depth = saved
        used = sorted(inner.read)
        scope.read.update(used)
        fn.params = ["c"] + [local(n) for n in used]
        fn.add(0, f"return {text}", fn.span)
        return f"{fn.name}(c{''.join(', ' + local(n) for n in used)})"

    # -- statements -----------------------------------------------------------------------------------------
    def block(self, stmts: list[A.Stmt], scope: Scope, depth: int) -> None:
        if not stmts:
            self.fn.add(depth, "pass", None)
        for s in stmts:
            self.stmt(s, scope, depth)

    def stmt(self, s: A.Stmt, scope: Scope, depth: int) -> None:
        """Every statement counts against the step budget; one that may log or call anything first
        records its span, the provenance of what it changes (a statement that only computes with
        locals and reads the state does not need to)."""
        fn, span = self.fn, s.span
        sname = self.span(span)
        at = len(fn.lines)
        getattr(self, "s_" + type(s).__name__)(s, scope, depth)
        own = " ".join(text for _, text, line_span in fn.lines[at:] if line_span is span)
        prologue = ["c.steps += 1", f"if c.steps > c.budget: raise _over_budget(c, {sname})"]
        if _CALL.search(_PURE_CALL.sub("", own)):
            prologue[0] = f"c.span = {sname}; c.steps += 1"
        fn.lines[at:at] = [(depth, text, span) for text in prologue]

    def line(self, depth: int, text: str, span: Span) -> None:
        self.fn.add(depth, text, span)

    def s_Let(self, s: A.Let, scope: Scope, depth: int):
        comp = self.comp
        if self.lookup("global", s.name) is not None or s.name in REGISTRY:
            comp.err("NAM001", f"`let {s.name}` would hide the {comp.globals.get(s.name, 'built-in')} `{s.name}`",
                     s.span, "choose another local name")
        value = self.expr(s.value, scope)
        scope.names.add(s.name)
        self.line(depth, f"{local(s.name)} = {value}", s.span)

    def s_Assign(self, s: A.Assign, scope: Scope, depth: int):
        comp, t, op = self.comp, s.target, s.op
        if isinstance(t, A.Name):
            n = t.id
            if n in scope.names:
                scope.read.add(n)
                value = self.expr(s.value, scope)
                self.line(depth, f"{local(n)} = {self._combine(op, local(n), value)}", s.span)
                return
            kind = self.lookup("global", n)
            comp.used.add(n)
            if kind in ("counter", "var", "param"):
                value = self.expr(s.value, scope)
                self.line(depth, f"c.game.set_global({n!r}, {op!r}, {value})", s.span)
                return
            guess = None if kind else comp.did_you_mean(
                n, [g for g, k in comp.globals.items() if k in ("counter", "var", "param")] + list(scope.names))
            comp.err("NAM002", f"cannot assign to `{n}`" + (f": it is a {kind}" if kind else ": unknown name"),
                     t.span, guess or "declare it with `let` (a local) or `global var`/`global counter` (game state)")
            return
        obj = self.expr(t.obj, scope)
        if isinstance(t, A.Index):
            key = self.expr(t.key, scope)
            value = self.expr(s.value, scope)
            kind = self._local_kind(t.obj, scope)
            if kind == RECORD:
                self.line(depth, f"c.game.set_record({obj}, {key}, {op!r}, {value})", s.span)
                return
            if kind == PLAYER:  # a counter or variable named by a text
                k = self.temp()
                self.line(depth, f"if type({k} := {key}) is str: c.game.set_player({obj}, {k}, {op!r}, {value})",
                          s.span)
                self.line(depth, f"else: _set_index(c, {obj}, {k}, {op!r}, {value})", s.span)
                return
            test, first = self._name_or_temp(obj)
            self.line(depth, f"if type({first}) is dict: c.game.set_record({test}, {key}, {op!r}, {value})", s.span)
            self.line(depth, f"else: _set_index(c, {test}, {key}, {op!r}, {value})", s.span)
            return
        name = t.name
        comp.used.add(name)
        if self.lookup("field", name) is None:
            comp.err("NAM003", f"no player counter or variable `{name}`", t.span,
                     comp.did_you_mean(name, comp.player_fields) or
                     "declare it: `player counter NAME = 0` or `player var NAME = none`")
        elif comp.player_fields[name] == "zone":
            comp.err("NAM004", f"`{name}` is a zone and cannot be assigned", t.span,
                     "use `add`, `remove` or `move` to change a zone")
        value = self.expr(s.value, scope)
        test, target, certain = self._player_test(t.obj, scope, obj)
        if certain == PLAYER:
            self.line(depth, f"c.game.set_player({target}, {name!r}, {op!r}, {value})", s.span)
            return
        self.line(depth, f"if {test}: c.game.set_player({target}, {name!r}, {op!r}, {value})", s.span)
        self.line(depth, f"else: _set_field(c, {target}, {name!r}, {op!r}, {value})", s.span)

    def _combine(self, op: str, old: str, value: str) -> str:
        if op == "=":
            return value
        if op == "-=":
            return f"{old} - {value}"
        return self._plus(old, value)

    def s_If(self, s: A.If, scope: Scope, depth: int):
        for i, (cond, body) in enumerate(s.branches):
            test = self.expr(cond, scope)
            self.line(depth, f"{'if' if i == 0 else 'elif'} {test}:", s.span)
            self.block(body, scope, depth + 1)
        if s.orelse:
            self.line(depth, "else:", s.span)
            self.block(s.orelse, scope, depth + 1)

    def _loop(self, s, body: list[A.Stmt], scope: Scope, depth: int) -> None:
        if self.loops == MAX_LOOP_NESTING:  # (said once, at the first loop too deep)
            self.comp.err("SYN013", f"loops nest more than {MAX_LOOP_NESTING} deep", s.span,
                          "move the inner loops into a procedure")
        self.loops += 1
        try:
            self.block(body, scope, depth + 1)
        finally:
            self.loops -= 1

    def s_For(self, s: A.For, scope: Scope, depth: int):
        it = s.iterable
        if isinstance(it, A.BinOp) and it.op == "..":  # the numbers themselves, no list made
            source = f"_numbers({self.expr(it.left, scope)}, {self.expr(it.right, scope)})"
        else:
            t = self.temp()
            source = f"({t} if type({t} := {self.expr(it, scope)}) is list else _iterable({t}))"
        scope.names.add(s.var)
        self.line(depth, f"for {local(s.var)} in {source}:", s.span)
        self._loop(s, s.body, scope, depth)

    def s_Repeat(self, s: A.Repeat, scope: Scope, depth: int):
        count = self.expr(s.count, scope)
        self.line(depth, f"for {self.temp()} in range(_repeat_count({count})):", s.span)
        self._loop(s, s.body, scope, depth)

    def s_While(self, s: A.While, scope: Scope, depth: int):
        n, sname = self.temp(), self.span(s.span)
        cond = self.expr(s.cond, scope)
        self.line(depth, f"{n} = 0", s.span)
        self.line(depth, f"while {cond}:", s.span)
        self.line(depth + 1, f"{n} += 1", s.span)
        self.line(depth + 1, f"if {n} > _MAX_LOOP: raise _loop_overflow({sname})", s.span)
        self._loop(s, s.body, scope, depth)

    def s_Break(self, s, scope, depth):
        self._jump(s, "break", "`break` leaves the innermost for/repeat/while", depth)

    def s_Continue(self, s, scope, depth):
        self._jump(s, "continue", "`continue` goes on with the innermost for/repeat/while", depth)

    def _jump(self, s, word: str, hint: str, depth: int) -> None:
        if not self.loops:
            self.comp.err("SYN012", f"`{word}` outside a loop", s.span, hint)
            self.line(depth, "return None", s.span)  # (never run: the ruleset has an error)
            return
        self.line(depth, word, s.span)

    def s_Return(self, s: A.Return, scope: Scope, depth: int):
        value = self.expr(s.value, scope)
        if self.kind != "procedure":
            self.line(depth, value, s.span)  # evaluated (it may act), then the step ends
            self.line(depth, "return None", s.span)
            return
        self.line(depth, f"_r = {value}", s.span)
        self.line(depth, "if _key is not None: _memo[_key] = _fresh(_r)", s.span)
        self.line(depth, "return _r", s.span)

    def s_ExprStmt(self, s: A.ExprStmt, scope: Scope, depth: int):
        self.line(depth, self.expr(s.expr, scope), s.span)

    def s_Log(self, s: A.Log, scope: Scope, depth: int):
        parts = "".join((repr(p) if isinstance(p, str) else f"_fmt({self.expr(p, scope)})") + ", " for p in s.parts)
        self.line(depth, f"if c.game.logging or c.game.echo: c.game.narrate(''.join(({parts})))", s.span)

    def s_ZoneOp(self, s: A.ZoneOp, scope: Scope, depth: int):
        op = s.op
        item = self.expr(s.item, scope) if s.item is not None else None
        src = self.expr(s.source, scope) if s.source is not None else None
        dst = self.expr(s.dest, scope) if s.dest is not None else None
        if op == "add":  # the destination is read first, then the item
            z = self.temp()
            self.line(depth, f"{z} = _as_zone({dst}, 'add', 'destination')", s.span)
            self.line(depth, f"c.game.zone_add({z}, {item})", s.span)
        elif op == "remove":
            self.line(depth, f"c.game.zone_remove(_as_zone({src}, 'remove', 'source'), {item})", s.span)
        elif op == "move":  # the item first, then the source and the destination
            x = self.temp()
            self.line(depth, f"{x} = {item}", s.span)
            self.line(depth, f"c.game.zone_move(_as_zone({src}, 'move', 'source'), "
                             f"_as_zone({dst}, 'move', 'destination'), {x})", s.span)
        else:
            self.line(depth, f"c.game.zone_shuffle(_as_zone({src}, {op!r}, 'zone'))", s.span)

    def s_Skip(self, s: A.Skip, scope: Scope, depth: int):
        if not self.lookup("phase", s.phase):
            self.comp.err("UNK003", f"unknown phase `{s.phase}`", s.span,
                          self.comp.did_you_mean(s.phase, self.comp.phase_names))
        self.line(depth, f"c.game.skip({s.phase!r})", s.span)

    def s_Fail(self, s: A.Fail, scope: Scope, depth: int):
        self.line(depth, f"raise _IllegalAction('RUN030', {s.message!r}, {self.span(s.span)})", s.span)

    def s_EndGame(self, s, scope, depth):
        self.line(depth, "raise _EndOfGame()", s.span)

    # -- expressions ----------------------------------------------------------------------------------------
    def expr(self, e: A.Expr, scope: Scope) -> str:
        """Python source for the expression; names are checked and diagnostics recorded on the way."""
        if self.depth >= OUTLINE_DEPTH and self.fn is not None:
            return self._outline(e, scope)
        self.depth += 1
        try:
            return getattr(self, "e_" + type(e).__name__)(e, scope)
        finally:
            self.depth -= 1

    def _name_or_temp(self, src: str) -> tuple[str, str]:
        """(what to test and read, what to evaluate first): a local is read twice; anything else once."""
        if src.startswith(LOCAL_PREFIX) and src.isidentifier():
            return src, src
        t = self.temp()
        return t, f"({t} := {src})"

    def e_Literal(self, e: A.Literal, scope):
        v = e.value
        if isinstance(v, str):
            self.comp.strings.add(v)
        if type(v) in _SIMPLE_LITERALS or (type(v) is float and v == v and v not in (float("inf"), -float("inf"))):
            return repr(v)
        return self.const("value", v)

    def e_Name(self, e: A.Name, scope: Scope):
        n, comp = e.id, self.comp
        if n in scope.names:
            scope.read.add(n)
            return local(n)
        kind = self.lookup("global", n)
        if kind:
            comp.used.add(n)
        if kind == "counter":
            return f"c.state.counters[{n!r}]"
        if kind in ("var", "param", "track"):
            return f"c.state.vars[{n!r}]"
        if kind == "zone":
            return f"_ZoneRef(None, {n!r}, c.state.zones[{n!r}])"
        if kind == "die":
            return self.const("die", n)
        if kind == "table":
            return self.const("table", n)
        if kind == "procedure":
            return self.const("callable", n)
        if kind == "map":
            return repr(n)
        if n == "players":
            return "list(c.state.players)"
        if n == "num_players":
            return "len(c.state.players)"
        if n == "round":
            return "c.state.round"
        if n in REGISTRY:
            return self.const("builtin", n)
        candidates = list(comp.globals) + list(scope.names) + list(REGISTRY) + ["players", "round", "num_players"]
        if n in ("player", "option", "this"):
            hint = f"`{n}` is only bound inside " + {"player": "phases, victory fields and heuristics",
                                                     "option": "heuristics", "this": "an entity's blocks"}[n]
        else:
            hint = comp.did_you_mean(n, candidates)
        comp.err("UNK001", f"unknown name `{n}`", e.span, hint)
        return "None"

    def e_ListLit(self, e: A.ListLit, scope):
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def e_RecordLit(self, e: A.RecordLit, scope):
        return "{" + ", ".join(f"{k!r}: {self.expr(v, scope)}" for k, v in zip(e.keys, e.values)) + "}"

    def e_Comprehension(self, e: A.Comprehension, scope: Scope):
        source = self.expr(e.iterable, scope)
        if ":=" in source:  # Python forbids assignment expressions in a comprehension's source
            source = self._outline(e.iterable, scope)
        had = e.var in scope.names
        was_read = e.var in scope.read
        hidden = scope.hide(e.var)
        scope.names.add(e.var)
        try:
            body = self.expr(e.expr, scope)
            cond = f" if {self.expr(e.cond, scope)}" if e.cond is not None else ""
        finally:
            scope.unhide(e.var, hidden)
            if not had:
                scope.names.discard(e.var)
            if not was_read:
                scope.read.discard(e.var)  # the comprehension's own variable is not read from outside
        return f"[{body} for {local(e.var)} in _iterable({source}){cond}]"

    def e_Attr(self, e: A.Attr, scope: Scope):
        comp, name = self.comp, e.name
        if self._area_call(e.obj, scope):  # `area(m, a).name`: no copy of the area's record
            m, a = (self.expr(x, scope) for x in e.obj.args)
            comp.used.add(name)
            return f"_area_attr(c, {m}, {a}, {name!r})"
        obj = self.expr(e.obj, scope)
        comp.used.add(name)
        kind = self.lookup("field", name)
        if kind in ("counter", "var", "zone"):  # a player's field, or a record's key of the same name
            test, value, certain = self._player_test(e.obj, scope, obj)
            if kind == "zone":
                read = f"_ZoneRef({value}, {name!r}, {value}.zones[{name!r}])"
            else:
                read = f"{value}.{'counters' if kind == 'counter' else 'vars'}[{name!r}]"
            if certain == PLAYER:
                return read
            if certain == RECORD:
                return f"{value}[{name!r}]"
            if kind == "zone":
                return f"({read} if {test} else _get_attr(_prog, {value}, {name!r}))"
            return (f"({read} if {test} else {value}[{name!r}] if type({value}) is dict "
                    f"else _get_attr(_prog, {value}, {name!r}))")
        if isinstance(e.obj, A.Name) and scope.kinds.get(e.obj.id) == RECORD and e.obj.id in scope.names:
            return f"{obj}[{name!r}]"

        if isinstance(e.obj, A.Literal):
            if isinstance(e.obj.value, str) and self.lookup("value field", (e.obj.value, name)):
                t = self.temp()  # the field's value once the game has evaluated it: `(value,)`
                fields = self.const("fields", e.obj.value)
                return f"({t}[0] if type({t} := {fields}[{name!r}]) is tuple else _field_value({t}))"
            return f"_get_attr(_prog, {obj}, {name!r})"
        value, first = self._name_or_temp(obj)
        return f"({value}[{name!r}] if type({first}) is dict else _get_attr(_prog, {value}, {name!r}))"

    def e_Index(self, e: A.Index, scope):
        """`x[k]`: a list's item (from 1), a record's key or a player's counter inline, anything else by
        `get_index`."""
        obj, key = self.expr(e.obj, scope), self.expr(e.key, scope)
        kind = self._local_kind(e.obj, scope)
        if kind == RECORD:
            return f"{obj}[{key}]"
        t = self.temp()
        if kind == PLAYER:  # a counter named by a text (`player[name]`)
            k = self.temp()
            return (f"({t}[{k}] if type({k} := {key}) is str and {k} in ({t} := {obj}.counters) "
                    f"else _get_index({obj}, {k}, _prog))")
        if _is_int(e.key) and e.key.value >= 1:
            return f"({t}[{e.key.value - 1}] if type({t} := {obj}) is list else _get_index({t}, {key}, _prog))"
        k = self.temp()  # both read once, the list or record first
        return (f"({t}[{k} - 1] if ((type({t} := {obj}) is list) & (type({k} := {key}) is int)) and {k} > 0 "
                f"else {t}[{k}] if type({t}) is dict else _get_index({t}, {k}, _prog))")

    def e_Call(self, e: A.Call, scope: Scope):
        comp, span = self.comp, e.span
        if isinstance(e.func, A.Name) and e.func.id not in scope.names:
            n = e.func.id
            if n in REGISTRY:
                b = REGISTRY[n]
                lo, hi = b.arity
                if not lo <= len(e.args) <= hi:
                    want = str(lo) if lo == hi else f"{lo} to {hi}"
                    comp.err("ARG001", f"`{n}` takes {want} argument{'s' if hi != 1 else ''}, got {len(e.args)}",
                             span)
                if n == "get" and len(e.args) == 3 and self._area_call(e.args[0], scope):
                    m, a, k, d = [self.expr(x, scope) for x in [*e.args[0].args, *e.args[1:]]]
                    return f"_area_get(c, {m}, {a}, {k}, {d})"
                args = [self.expr(a, scope) for a in e.args]
                if n == "get" and len(args) == 3:
                    return f"_record_get(c, {', '.join(args)})"
                if n in ("len", "count") and len(args) == 1:
                    t = self.temp()
                    return f"(len({t}) if type({t} := {args[0]}) is list else {self.const('builtin_fn', n)}(c, {t}))"
                if n == "roll" and len(args) == 1 and isinstance(e.args[0], A.Name) \
                        and e.args[0].id not in scope.names and self.lookup("global", e.args[0].id) == "die":
                    return f"_roll_one(c, {args[0]})"  # a declared die: no need to ask what was rolled
                fn = self.const("builtin_fn", n)
                return f"{fn}(c{''.join(', ' + a for a in args)})"
            if self.lookup("global", n) == "procedure":
                comp.used.add(n)
                decl = self.lookup("procedure", n)
                if len(decl.params) != len(e.args):
                    comp.err("ARG001", f"procedure `{n}` takes {len(decl.params)} arguments, got {len(e.args)}",
                             span, related=[(decl.span, "declared here")])
                args = [self.expr(a, scope) for a in e.args]
                if len(decl.params) != len(e.args):
                    return "None"
                return f"{procedure_function(n)}(c, {self.span(span)}{''.join(', ' + a for a in args)})"
        func = self.expr(e.func, scope)
        args = [self.expr(a, scope) for a in e.args]
        optional = isinstance(e.func, A.Attr)
        return f"_call_value(c, {func}, [{', '.join(args)}], {self.span(span)}, {optional})"

    def e_BinOp(self, e: A.BinOp, scope):
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op == "..":
            return f"_range({a}, {b})"
        if e.op == "+":  # whole numbers added inline; lists, texts and zones through `_add`
            return self._plus(a, b, _is_int(e.left), _is_int(e.right), isinstance(e.left, A.ListLit))
        if e.op == "/":
            return f"_div({a}, {b})"
        if e.op not in ("-", "*", "//", "%"):
            raise AssertionError(e.op)
        return f"({a} {e.op} {b})"

    def _plus(self, a: str, b: str, a_int: bool = False, b_int: bool = False, a_list: bool = False) -> str:
        if a_list:  # `[..] + x`: lists joined inline
            tb = self.temp()
            return f"({a} + {tb} if type({tb} := {b}) is list else _add({a}, {tb}))"
        if b_int:
            ta = self.temp()
            return f"({ta} + {b} if type({ta} := {a}) is int else _add({ta}, {b}))"
        if a_int:
            tb = self.temp()
            return f"({a} + {tb} if type({tb} := {b}) is int else _add({a}, {tb}))"
        ta, tb = self.temp(), self.temp()
        return (f"({ta} + {tb} if (type({ta} := {a}) is int) & (type({tb} := {b}) is int) "
                f"else _add({ta}, {tb}))")  # `&`: both sides are always evaluated, left first

    def e_Compare(self, e: A.Compare, scope):
        if len(e.ops) == 1 and e.ops[0] in ("in", "not in") and self._local_player_zone(e.operands[1], scope):
            item, zone = self.expr(e.operands[0], scope), e.operands[1]
            test, owner, certain = self._player_test(zone.obj, scope, self.expr(zone.obj, scope))
            self.comp.used.add(zone.name)
            if certain == PLAYER:
                found = f"({item} in {owner}.zones[{zone.name!r}])"
            else:
                found = (f"({item} in {owner}.zones[{zone.name!r}] if {test} "
                         f"else _in({item}, _get_attr(_prog, {owner}, {zone.name!r})))")
            return found if e.ops[0] == "in" else f"(not {found})"
        operands = [self.expr(o, scope) for o in e.operands]
        if len(e.ops) == 1:
            return self._compare(e.ops[0], operands[0], operands[1])
        parts, left = [], operands[0]
        for i, op in enumerate(e.ops):  # a < b < c: each operand read once, stopping at the first false
            right = operands[i + 1]
            if i + 1 < len(e.ops):
                t = self.temp()
                parts.append(self._compare(op, left, f"({t} := {right})"))
                left = t
            else:
                parts.append(self._compare(op, left, right))
        return "(" + " and ".join(parts) + ")"

    def _local_player_zone(self, e: A.Expr, scope: Scope) -> bool:
        """`local.zone` for a player's zone: membership in it reads the zone's items directly (the local
        is read after the item, as the language's left-to-right order wants)."""
        return (isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id in scope.names
                and self.lookup("field", e.name) == "zone")

    @staticmethod
    def _compare(op: str, a: str, b: str) -> str:
        if op == "in":
            return f"_in({a}, {b})"
        if op == "not in":
            return f"(not _in({a}, {b}))"
        if op not in _COMPARE_OPS:
            raise AssertionError(op)
        return f"({a} {op} {b})"

    def e_BoolOp(self, e: A.BoolOp, scope):
        if e.op not in ("and", "or"):
            raise AssertionError(e.op)
        return f"({self.expr(e.left, scope)} {e.op} {self.expr(e.right, scope)})"

    def e_Not(self, e: A.Not, scope):
        return f"(not {self.expr(e.operand, scope)})"

    def e_Neg(self, e: A.Neg, scope):
        return f"(-{self.expr(e.operand, scope)})"

    def e_IfExpr(self, e: A.IfExpr, scope):
        cond = self.expr(e.cond, scope)
        return f"({self.expr(e.then, scope)} if {cond} else {self.expr(e.orelse, scope)})"

    def e_Choose(self, e: A.Choose, scope):
        self.comp.choose_tags.add(e.tag)
        who, options = self.expr(e.who, scope), self.expr(e.options, scope)
        if isinstance(e.who, A.Name) and scope.kinds.get(e.who.id) == PLAYER and e.who.id in scope.names \
                and (isinstance(e.options, (A.ListLit, A.Comprehension))
                     or isinstance(e.options, A.BinOp) and e.options.op == ".."):  # a player, and a list of options
            return f"c.game.decide({who}, {e.tag!r}, {options}, {self.span(e.span)})"
        return f"_choose(c, {who}, {e.tag!r}, {options}, {self.span(e.span)})"
