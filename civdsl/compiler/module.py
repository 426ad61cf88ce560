"""Generated Python functions of one compile unit, each compiled the first time it is called.

The emitter (`emit.py`) writes each procedure, step, block and expression of a ruleset as a Python
function. Generated text contains only: names this module makes up (`_p3`, `v_food`...), literals
written with `repr`, and names bound in the module's private namespace (runtime helpers, spans,
constants). Nothing a rule file contains becomes Python text unescaped: rule names become locals only
after `LOCAL_PREFIX` (the grammar allows only ASCII identifiers). The namespace's builtins are a short
list, so generated code could not reach `open` or `__import__` even by mistake.

A function is compiled on its first call: checking a ruleset, or playing one option of it, never
pays for the rules it does not run. Each function keeps a table from its lines to the rule
statements they came from, so a Python error is reported at the rule statement it happened in
(`runtime.error_at`).
"""
from __future__ import annotations

from typing import Callable

from ..engine import runtime as R
from ..language.diagnostics import CivError, Diagnostic, Span

INDENT = "    "


class FunctionCode:
    """One generated function: its header and lines, each with the span errors on it are reported at."""

    def __init__(self, name: str, params: list[str], span: Span | None):
        self.name = name
        self.params = params
        self.span = span
        self.lines: list[tuple[int, str, Span | None]] = []

    @property
    def spans_name(self) -> str:
        """The namespace name of this function's line -> span table."""
        return "_L" + self.name

    def add(self, depth: int, text: str, span: Span | None) -> None:
        self.lines.append((depth, text, span))

    def text(self) -> tuple[str, dict[int, Span | None]]:
        """The function's source, and the span of each of its lines (numbered from 1)."""
        out = [f"def {self.name}({', '.join(self.params)}):"]
        spans: dict[int, Span | None] = {1: self.span}
        for depth, text, span in self.lines:
            out.append(INDENT * (depth + 1) + text)
            spans[len(out)] = span
        return "\n".join(out) + "\n", spans


class ModuleBuilder:
    """The namespace and functions of one compile unit (a ruleset, or one more expression for it)."""

    def __init__(self, namespace: dict | None = None):
        self.ns: dict[str, object] = namespace if namespace is not None else dict(RUNTIME_NAMES)
        self.functions: list[FunctionCode] = []   # written, not yet installed
        self.pending: dict[str, FunctionCode] = {}  # installed as stubs, not yet compiled
        self.setters: dict[str, list[Callable]] = {}

    def function(self, name: str, params: list[str], span: Span | None) -> FunctionCode:
        fn = FunctionCode(name, params, span)
        self.functions.append(fn)
        return fn

    def bind(self, name: str, setter: Callable) -> None:
        """Give the function to `setter` (a slot of the `Program`), and again once it is compiled (one
        function may fill several slots: a kind's default field value is one expression)."""
        self.setters.setdefault(name, []).append(setter)

    def source(self) -> str:
        """All functions' text, for reading (each is compiled from its own text)."""
        return "\n".join(fn.text()[0] for fn in self.functions + list(self.pending.values()))

    def build(self, eager: bool = False) -> None:
        """Install the functions written so far: each a stub that compiles it on its first call
        (`eager`: compile them all now)."""
        names = list(dict.fromkeys(fn.name for fn in self.functions))
        for fn in self.functions:
            self.pending[fn.name] = fn
        for name in names:
            self.ns[name] = stub = self._stub(name)
            for setter in self.setters.get(name, ()):
                setter(stub)
        self.functions = []
        if eager:
            for name in names:
                self.compile(name)

    def _stub(self, name: str) -> Callable:
        def first_call(*args):
            return self.compile(name)(*args)
        return first_call

    def compile(self, name: str) -> Callable:
        """Compile one function into the namespace, put it in its slot, and return it."""
        fn = self.pending.pop(name, None)
        if fn is None:
            return self.ns[name]
        text, spans = fn.text()
        self.ns[fn.spans_name] = spans
        try:
            code = compile(text, f"<civdsl rules {name}>", "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            span = spans.get(line) if line else fn.span
            raise CivError(Diagnostic("SYN009", "this rule is too deeply nested to compile", span, "error",
                                      "split it with `let` or a procedure")) from None
        exec(code, self.ns)  # noqa: S102 - generated from the syntax tree only, see the module docstring
        real = self.ns[name]
        for setter in self.setters.pop(name, ()):
            setter(real)
        return real


def _runtime_names() -> dict[str, object]:
    from ..engine.budget import INLINE_INT, INLINE_LOW, NESTED, over_budget
    from ..engine.builtins import area_attr, area_get, fmt, roll_one
    from ..engine.state import Player, ZoneRef
    from ..engine.values import IllegalAction, RuleError, field_value
    return {
        "__builtins__": {"type": type, "len": len, "list": list, "tuple": tuple, "range": range, "int": int, "str": str,
                         "dict": dict, "None": None, "True": True, "False": False, "TypeError": TypeError},
        "_Player": Player, "_ZoneRef": ZoneRef, "_fmt": fmt, "_IllegalAction": IllegalAction,
        "_RuleError": RuleError, "_EndOfGame": R.EndOfGame, "_PY_ERRORS": R.PY_ERRORS, "_UNSET": R.UNSET,
        "_error_at": R.error_at, "_over_budget": over_budget, "_loop_overflow": R.loop_overflow,
        "_too_deep": R.too_deep, "_MAX_DEPTH": R.MAX_CALL_DEPTH, "_MAX_LOOP": R.MAX_LOOP,
        "_range": R.range_, "_numbers": R.numbers, "_each": R.each, "_loop_items": R.loop_items,
        "_repeat_count": R.repeat_count, "_add": R.add, "_sub": R.sub, "_mul": R.mul,
        "_BIG": INLINE_INT, "_NBIG": INLINE_LOW, "_NESTED": NESTED, "_compare": R.compare,
        "_div": R.div, "_pow": R.pow_, "_in": R.in_, "_get_attr": R.get_attr, "_get_index": R.get_index,
        "_record_get": R.record_get, "_call_value": R.call_value,
        "_fresh": R.fresh, "_choose": R.choose, "_choose_subset": R.choose_subset, "_set_field": R.set_field,
        "_set_index": R.set_index,
        "_as_zone": R.as_zone, "_field_value": field_value, "_roll_one": roll_one,
        "_area_attr": area_attr, "_area_get": area_get,
    }


RUNTIME_NAMES = _runtime_names()
