"""Rules written as Python functions: procedures, things' blocks, phase steps, the set-up, and
expressions outside statements — each checked and written in one pass over its syntax tree.

Rule locals are Python locals (`v_NAME`) and control flow is Python's own. Each statement counts
against the step budget, and one that may log or call anything first records its span (provenance for
the log). The operands of a statement are evaluated in the order the interpreter has always used (see
`s_ZoneOp`). Expressions are in `expressions.py`; reuse of written rules in `units.py`.
"""
from __future__ import annotations

import re

from ..engine.builtins import REGISTRY
from ..language import ast as A
from ..language.diagnostics import Span
from .expressions import Expressions
from .module import FunctionCode, ModuleBuilder
from .naming import flag, hexed, is_int, local, procedure_function
from .scope import PLAYER, RECORD, Scope, function_scope
from .units import COVERAGE, Unit, UnitWriting

MAX_LOOP_NESTING = 15  # Python allows 20 nested blocks per function; the function itself uses some
# Calls that neither log nor read the running statement's span; any other call in a statement's own
# code (a builtin, a procedure, a decision, a change of state) makes the statement record its span.
_PURE_CALL = re.compile(r"\b(?:type|len|list|range|_each|_loop_items|_range|_numbers|_repeat_count|_in|_add|_sub|"
                        r"_mul|_div|_get_attr|_get_index|_ZoneRef|_field_value|_loop_overflow|_over_budget|_IllegalAction|_EndOfGame)\(")
_CALL = re.compile(r"[\w.]\(")


class Emitter(UnitWriting, Expressions):
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
        self.cov = COVERAGE.on  # rules record what of them runs (see `units.CoverageHook`)
        if self.cov:
            COVERAGE.files.update(comp.rs.files)

    # -- whole functions ----------------------------------------------------------------------------------
    def procedure(self, node, name: str, params: list[str], body: list[A.Stmt], span: Span,
                  this: str | None = None) -> str:
        """A procedure (`node` its declaration) or a thing's block (`this` the thing): `fn(c, site,
        *args)`; results remembered while an agent scores a decision (`c.memo`), calls nested at most
        MAX_CALL_DEPTH deep, the caller's span restored."""
        if this is None:
            fname, key = procedure_function(name), ("callable", name)
        else:
            fname, key = f"_pb_{hexed(this)}_{name.rsplit('.', 1)[1]}", ("block", (this, name.rsplit(".", 1)[1]))
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
        if self.cov:
            fn.add(1, self.record("r", span), None)
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
            if self.cov:
                fn.add(1, self.record("r", span), None)
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
            if self.cov:
                fn.add(0, self.record("x", e.span), None)
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

    def _except(self, fn: FunctionCode, span: Span, depth: int) -> None:
        fn.add(depth, "except _PY_ERRORS as _e:", span)
        fn.add(depth + 1, f"raise _error_at(_e, {fn.spans_name}, c) from None", span)

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
        if _CALL.search(_PURE_CALL.sub("", self.unrecorded(own))):
            prologue[0] = f"c.span = {sname}; c.steps += 1"
        fn.lines[at:at] = ([(depth, self.record("s", span), None)] if self.cov else []) + \
            [(depth, text, span) for text in prologue]

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
                self.line(depth, f"{local(n)} = {self._combine(op, local(n), value, s.value)}", s.span)
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

    def _combine(self, op: str, old: str, value: str, e: A.Expr) -> str:
        if op == "=":
            return value
        if op == "+=" and isinstance(e, A.ListLit):  # `acc += [x]`
            return self.joined(old, value, len(e.items), literal_first=False)
        return self._arithmetic(op[0], old, value, b_small=is_int(e))

    def s_If(self, s: A.If, scope: Scope, depth: int):
        for i, (cond, body) in enumerate(s.branches):
            test = self.expr(cond, scope)
            self.line(depth, f"{'if' if i == 0 else 'elif'} {test}:", s.span)
            self._arm(s, i, depth + 1)
            self.block(body, scope, depth + 1)
        if s.orelse or self.cov:  # (recorded: the arm where no condition held, even with no `else`)
            self.line(depth, "else:", s.span)
            self._arm(s, len(s.branches), depth + 1)
            if s.orelse:
                self.block(s.orelse, scope, depth + 1)

    def _arm(self, s, arm: int, depth: int) -> None:
        """Coverage: record that this arm of a branch ran (see `units.CoverageHook`)."""
        if self.cov:
            self.line(depth, self.record("b", s.span, arm), None)

    def e_IfExpr(self, e: A.IfExpr, scope: Scope):
        """`if c then a else b`; with coverage on, each arm records that it was chosen."""
        if not self.cov:
            return super().e_IfExpr(e, scope)
        cond = self.expr(e.cond, scope)
        then, orelse = self.expr(e.then, scope), self.expr(e.orelse, scope)
        return (f"(({self.record('b', e.span, 0)} or {then}) if {cond} "
                f"else ({self.record('b', e.span, 1)} or {orelse}))")

    def _loop(self, s, body: list[A.Stmt], scope: Scope, depth: int) -> None:
        if self.loops == MAX_LOOP_NESTING:  # (said once, at the first loop too deep)
            self.comp.err("SYN013", f"loops nest more than {MAX_LOOP_NESTING} deep", s.span,
                          "move the inner loops into a procedure")
        self.loops += 1
        try:
            self._arm(s, 0, depth + 1)  # the body ran...
            self.block(body, scope, depth + 1)
        finally:
            self.loops -= 1
        if self.cov:  # ... and the loop ran to its end (not left by `break` or `return`)
            self.line(depth, "else:", s.span)
            self._arm(s, 1, depth + 1)

    def s_For(self, s: A.For, scope: Scope, depth: int):
        it = s.iterable
        if isinstance(it, A.BinOp) and it.op == "..":  # the numbers themselves, no list made
            source = f"_numbers(c, {self.expr(it.left, scope)}, {self.expr(it.right, scope)})"
        else:
            source = f"_loop_items(c, {self.expr(it, scope)})"
        scope.names.add(s.var)
        self.line(depth, f"for {local(s.var)} in {source}:", s.span)
        self._loop(s, s.body, scope, depth)

    def s_Repeat(self, s: A.Repeat, scope: Scope, depth: int):
        count = self.expr(s.count, scope)
        self.line(depth, f"for {self.temp()} in range(_repeat_count(c, {count})):", s.span)
        self._loop(s, s.body, scope, depth)

    def s_While(self, s: A.While, scope: Scope, depth: int):
        n, sname = self.temp(), self.span(s.span)
        cond = self.expr(s.cond, scope)
        self.line(depth, f"{n} = 0", s.span)
        self.line(depth, f"while {cond}:", s.span)
        self.line(depth + 1, f"{n} += 1; c.steps += 1", s.span)  # (a turn costs a unit even with no statement)
        self.line(depth + 1, f"if {n} > _MAX_LOOP: raise _loop_overflow({sname})", s.span)
        self.line(depth + 1, f"if c.steps > c.budget: raise _over_budget(c, {sname})", s.span)
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
        self.unfilled(s.parts, s.span, "log")
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
        parts = s.parts or [s.message]
        self.unfilled(parts, s.span, "fail")
        if all(isinstance(p, str) for p in parts):
            message = repr("".join(parts))
        else:  # filled in like a log's text
            message = "''.join((" + "".join((repr(p) if isinstance(p, str) else f"_fmt({self.expr(p, scope)})") + ", "
                                             for p in parts) + "))"
        self.line(depth, f"raise _IllegalAction('RUN030', {message}, {self.span(s.span)})", s.span)

    def unfilled(self, parts: list, span: Span, word: str) -> None:
        """LNT008 for a `{` or `}` of a `log` or `fail` text that is left as it is: only `{expression}`,
        with no braces inside, is filled in."""
        left = next((p for p in parts if isinstance(p, str) and ("{" in p or "}" in p)), None)
        if left is not None:
            self.comp.warn("LNT008", f"the `{word}` text has a brace that is not filled in: "
                           f"\"{_clip(left)}\" is shown as it is", span,
                           "only `{expression}` is filled in, with no braces inside it and none left open: "
                           "build a record or a text with `let` first, and name it between the braces")

    def s_EndGame(self, s, scope, depth):
        self.line(depth, "raise _EndOfGame()", s.span)


def _clip(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"
