"""A compiled ruleset: the declarations a game needs, and the Python functions its rules became.

The compiler fills a `Program`; the functions are Python code it generated, each compiled into the
program's private namespace the first time it is called (see `compiler.module`), so that checking a
ruleset or playing one option of it never pays for rules it does not run. Every function is called
with the running context `c` (see `interpreter.Ctx`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..language import ast as A
from ..language.diagnostics import Span
from .values import Callable_, Die, EntityObj, TableValue


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
class CompiledView:
    """A `view`: one per player (`of` names the local bound to that player) or one for the table.
    `panels` are `[kind, title, fn, span]`; `fields` the view's own fields (`label`, `colour`) by name."""
    name: str
    title: str | None
    of: str | None
    fields: dict[str, list]  # name -> [fn, span]
    panels: list[list]
    span: Span


@dataclass
class Program:
    """Everything a game needs, compiled: declarations, functions, and where each came from.

    Slots that hold functions (`params`, `counters`, `phases`...) are filled when the program is built."""

    ruleset: Any  # language.loader.Ruleset
    params: list[list] = field(default_factory=list)  # [name, fn, span]
    counters: dict[tuple[str, str], list] = field(default_factory=dict)  # [lo fn, hi fn, init fn, span]
    vars: dict[tuple[str, str], list] = field(default_factory=dict)  # [init fn, span]
    zones: dict[tuple[str, str], str] = field(default_factory=dict)  # (scope, name) -> visibility
    secrets: dict[tuple[str, str], str] = field(default_factory=dict)  # counters and vars not visible to all
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
    victory: dict[str, list] = field(default_factory=dict)  # name -> [fn, fns or a mode, span]
    heuristics: dict[str, Callable] = field(default_factory=dict)
    views: list[CompiledView] = field(default_factory=list)
    decision_texts: dict[str, dict] = field(default_factory=dict)  # tag -> field name -> [fn, span]
    headlines: dict[str, list] = field(default_factory=dict)  # measure name -> [parts (texts, fns), span, when fn]
    invariants: list[list] = field(default_factory=list)  # [name, fn, span]
    bounds: dict[tuple[str, str], tuple[int | None, int | None]] = field(default_factory=dict)
    player_bounds: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)  # by counter name
    die_spans: dict[str, Span] = field(default_factory=dict)
    literal_inits: dict[tuple[str, str], Any] = field(default_factory=dict)  # counters starting at a literal
    # Dice faces, table rows, things' fields and counter bounds may use parameters, which may use the
    # number of players: they are evaluated once per number of players (`constants_for`), from the
    # compiled expressions kept here.
    constants_for: int | None = None
    die_sources: dict[str, Callable] = field(default_factory=dict)
    table_sources: dict[str, list] = field(default_factory=dict)
    lazy_fields: list = field(default_factory=list)
    param_values: dict[int, list] = field(default_factory=dict)  # number of players -> [(name, value)]
    sight: Any = None                     # engine.visibility.Visibility, made on first use
    heuristic_spans: dict | None = None   # heuristic tag -> its declaration's span
    module: Any = None  # compiler.module.ModuleBuilder: the generated code, until built

    @property
    def player_counter_names(self):
        return {n for (s, n) in self.counters if s == "player"}

    def build(self, eager: bool = False) -> None:
        """Make the generated functions callable: each is compiled on its first call (`eager`: all now)."""
        if self.module is not None:
            self.module.build(eager)
