"""Rules written once per process: each procedure, step, block and expression is a `Unit` — its
functions, the constants they name and what it looked up about the rest of the rules — reused whenever
the same rule is compiled again and every lookup still gives the same answer (an edition's options and
house rules, a scenario folder, a re-check after an edit)."""
from __future__ import annotations

import re

from ..engine.builtins import REGISTRY
from ..language.diagnostics import Span
from .module import FunctionCode
from .naming import const_name


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


class CoverageHook:
    """Whether rules are written to record what of them runs (`civdsl test --coverage`; see
    `civdsl.tools.coverage`). While `on`, each rule, statement and branch arm written adds its site's key
    (`site_key`) to `hits` when it runs: a set add, which touches neither the game nor its dice. Off, the
    rules are written exactly as they would be without coverage. `files`: the rule files of every ruleset
    compiled while on (the files a report covers)."""

    def __init__(self):
        self.on = False
        self.hits: set[str] = set()
        self.files: set[str] = set()


COVERAGE = CoverageHook()
_KEYS: dict[str, str] = {}  # one object per site key, so that a key is one constant in every program


def site_key(what: str, span: Span, arm: int | None = None) -> str:
    """The key a site of a rule file records when it runs: `r` a rule's function started, `s` a statement,
    `x` an expression outside statements, `b` an arm of a branch (`arm`: which)."""
    key = f"{span.file}:{span.line}:{span.col}:{what}" + ("" if arm is None else f":{arm}")
    return _KEYS.setdefault(key, key)


class UnitWriting:
    """Writing functions once per rule (a mixin of `Emitter`): what a rule looks up about the others is
    recorded, and the rule is written again only when an answer changes."""

    def _written(self, key: tuple, node, name: str, write) -> str:
        if self.cov:  # instrumented and plain rules never mix
            key += ("coverage",)
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
        name = const_name(kind, what)
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

    # -- coverage (see `CoverageHook`) ---------------------------------------------------------------------
    def record(self, what: str, span: Span, arm: int | None = None) -> str:
        """Python text that records the site as run (only while coverage is on)."""
        return f"{self.const('value', COVERAGE.hits)}.add({self.const('value', site_key(what, span, arm))})"

    def unrecorded(self, text: str) -> str:
        """`text` without its recording calls: what a statement's own code calls, recording aside."""
        if not self.cov:
            return text
        return re.sub(re.escape(self.const("value", COVERAGE.hits)) + r"\.add\(_k\d+\)", "", text)

    def temp(self) -> str:
        self._temps += 1
        return f"_t{self._temps}"
