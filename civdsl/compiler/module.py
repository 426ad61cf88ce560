"""Generated Python functions, gathered into one module per compile and built with one `compile()`.

The emitter (`emit.py`) writes each procedure, step, block and expression of a ruleset as a Python
function. Generated text contains only: names this module makes up (`_p3`, `v_food`...), literals
written with `repr`, and names bound in the module's private namespace (runtime helpers, spans,
constants). Nothing a rule file contains becomes Python text unescaped: rule names become locals only
after `LOCAL_PREFIX` and a check that they are identifiers.

Each generated line knows the rule (span) it came from, so a Python error is reported at the rule
statement it happened in (`runtime.error_at`).
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

    def add(self, depth: int, text: str, span: Span | None) -> None:
        self.lines.append((depth, text, span))


class ModuleBuilder:
    """The namespace and functions of one compile unit (a ruleset, or one more expression for it)."""

    def __init__(self, namespace: dict | None = None, unit: int = 0):
        self.ns: dict[str, object] = namespace if namespace is not None else dict(RUNTIME_NAMES)
        self.unit = unit
        self.spans_name = f"_SPANS{unit}"
        self.spans: dict[int, Span] = {}
        self.ns[self.spans_name] = self.spans
        self.functions: list[FunctionCode] = []
        self.binders: list[tuple[str, Callable]] = []
        self._names: dict[tuple[str, int], str] = {}
        self._counter = 0

    def fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self.unit}_{self._counter}"

    def const(self, value, prefix: str = "_k") -> str:
        """A name in the namespace for a value generated code uses (one name per object)."""
        key = (prefix, id(value))
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = self.fresh(prefix)
            self.ns[name] = value
        return name

    def span(self, span: Span | None) -> str:
        return self.const(span, "_s")

    def function(self, prefix: str, params: list[str], span: Span | None, name: str | None = None) -> FunctionCode:
        fn = FunctionCode(name or self.fresh(prefix), params, span)
        self.functions.append(fn)
        return fn

    def bind(self, name: str, setter: Callable) -> None:
        """Call `setter(function)` once the module is built (fills a slot of the `Program`)."""
        self.binders.append((name, setter))

    def source(self) -> str:
        """The module's text; also fills the line -> span table errors are reported from."""
        out: list[str] = []
        self.spans.clear()
        for fn in self.functions:
            out.append(f"def {fn.name}({', '.join(fn.params)}):")
            self.spans[len(out)] = fn.span
            for depth, text, span in fn.lines:
                out.append(INDENT * (depth + 1) + text)
                self.spans[len(out)] = span
            out.append("")
        return "\n".join(out) + "\n"

    def build(self) -> None:
        """Compile the functions written so far into the namespace and fill the program's slots."""
        if not self.functions:
            return
        text = self.source()
        try:
            code = compile(text, f"<civdsl rules {self.unit}>", "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            span = self.spans.get(line) if line else None
            raise CivError(Diagnostic("SYN009", "this rule is too deeply nested to compile", span, "error",
                                      "split it with `let` or a procedure")) from None
        exec(code, self.ns)  # noqa: S102 - generated from the syntax tree only, see the module docstring
        for name, setter in self.binders:
            setter(self.ns[name])
        self.functions.clear()
        self.binders.clear()


def _runtime_names() -> dict[str, object]:
    from ..engine.builtins import fmt
    from ..engine.state import Player, ZoneRef
    from ..engine.values import IllegalAction, RuleError, field_value
    return {
        "__builtins__": {"type": type, "len": len, "list": list, "tuple": tuple, "range": range, "int": int, "dict": dict,
                         "None": None, "True": True, "False": False},
        "_Player": Player, "_ZoneRef": ZoneRef, "_fmt": fmt, "_IllegalAction": IllegalAction,
        "_RuleError": RuleError, "_EndOfGame": R.EndOfGame, "_PY_ERRORS": R.PY_ERRORS, "_UNSET": R.UNSET,
        "_error_at": R.error_at, "_over_budget": R.over_budget, "_loop_overflow": R.loop_overflow,
        "_too_deep": R.too_deep, "_MAX_DEPTH": R.MAX_CALL_DEPTH, "_MAX_LOOP": R.MAX_LOOP,
        "_range": R.range_, "_iterable": R.iterable, "_repeat_count": R.repeat_count, "_add": R.add,
        "_div": R.div, "_combine": R.combine, "_in": R.in_, "_get_attr": R.get_attr, "_get_index": R.get_index,
        "_record_get": R.record_get, "_call_value": R.call_value, "_memo_lookup": R.memo_lookup,
        "_fresh": R.fresh, "_choose": R.choose, "_set_field": R.set_field, "_set_index": R.set_index,
        "_as_zone": R.as_zone, "_field_value": field_value,
    }


RUNTIME_NAMES = _runtime_names()
