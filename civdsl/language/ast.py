"""Typed syntax tree of rule files.

Lark trees never leave the parser: it builds these frozen-ish dataclasses, each carrying the `Span`
of the source it came from, and every later stage (loader, checker, compiler) works on them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Span


# ---- expressions ------------------------------------------------------------------------------------
@dataclass(slots=True)
class Expr:
    """Base of expressions."""


@dataclass(slots=True)
class Literal(Expr):
    """A number, string, boolean or `none`."""
    value: Any
    span: Span


@dataclass(slots=True)
class Name(Expr):
    """A reference to a local, parameter, counter, zone, die, table, procedure or builtin."""
    id: str
    span: Span


@dataclass(slots=True)
class ListLit(Expr):
    """`[a, b, c]`."""
    items: list[Expr]
    span: Span


@dataclass(slots=True)
class RecordLit(Expr):
    """`{key: value, ...}`."""
    keys: list[str]
    values: list[Expr]
    span: Span


@dataclass(slots=True)
class Comprehension(Expr):
    """`[expr for x in xs where cond]`: the language's filtering and mapping query."""
    expr: Expr
    var: str
    iterable: Expr
    cond: Expr | None
    span: Span


@dataclass(slots=True)
class Attr(Expr):
    """`obj.name`: a player's counter/zone, an entity's field, a record's key."""
    obj: Expr
    name: str
    span: Span


@dataclass(slots=True)
class Index(Expr):
    """`obj[key]`: list position (1-based), record key or table row."""
    obj: Expr
    key: Expr
    span: Span


@dataclass(slots=True)
class Call(Expr):
    """`f(args)`: builtin, procedure, or an entity's block."""
    func: Expr
    args: list[Expr]
    span: Span


@dataclass(slots=True)
class BinOp(Expr):
    """Arithmetic: + - * / // % ** and the range operator `..`."""
    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(slots=True)
class Compare(Expr):
    """A chain of comparisons `a < b <= c`, including `in` and `not in`."""
    ops: list[str]
    operands: list[Expr]
    span: Span


@dataclass(slots=True)
class BoolOp(Expr):
    """`a and b`, `a or b` (short-circuit)."""
    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(slots=True)
class Not(Expr):
    """`not x`."""
    operand: Expr
    span: Span


@dataclass(slots=True)
class Neg(Expr):
    """`-x`."""
    operand: Expr
    span: Span


@dataclass(slots=True)
class IfExpr(Expr):
    """`if c then a else b`."""
    cond: Expr
    then: Expr
    orelse: Expr
    span: Span


@dataclass(slots=True)
class Choose(Expr):
    """`who chooses "tag" from options`: a decision asked of the player's agent."""
    who: Expr
    tag: str
    options: Expr
    span: Span


@dataclass(slots=True)
class ChooseSubset(Expr):
    """`who chooses subset "tag" [lo..hi] of items`: the player's agent picks some of the items (how
    many: `lo`..`hi`; `lo` None is 0, `hi` None is all of them; `exact`: `[n]`, exactly `lo`)."""
    who: Expr
    tag: str
    lo: Expr | None
    hi: Expr | None
    exact: bool
    items: Expr
    span: Span


# ---- statements -------------------------------------------------------------------------------------
@dataclass(slots=True)
class Stmt:
    """Base of statements."""


@dataclass(slots=True)
class Let(Stmt):
    """`let x = expr` binds a local name."""
    name: str
    value: Expr
    span: Span


@dataclass(slots=True)
class Assign(Stmt):
    """`target = expr`, `target += expr`, `target -= expr` on a counter or variable."""
    target: Expr
    op: str
    value: Expr
    span: Span


@dataclass(slots=True)
class If(Stmt):
    """`if c {..} elif c {..} else {..}`."""
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt]
    span: Span


@dataclass(slots=True)
class For(Stmt):
    """`for x in xs {..}` over an ordered collection."""
    var: str
    iterable: Expr
    body: list[Stmt]
    span: Span


@dataclass(slots=True)
class Repeat(Stmt):
    """`repeat n times {..}`: a loop bounded by its count."""
    count: Expr
    body: list[Stmt]
    span: Span


@dataclass(slots=True)
class While(Stmt):
    """`while c {..}`: bounded by the interpreter's loop and step budgets."""
    cond: Expr
    body: list[Stmt]
    span: Span


@dataclass(slots=True)
class Return(Stmt):
    """`return expr` from a procedure or block."""
    value: Expr
    span: Span


@dataclass(slots=True)
class Break(Stmt):
    """`break`."""
    span: Span


@dataclass(slots=True)
class Continue(Stmt):
    """`continue`."""
    span: Span


@dataclass(slots=True)
class Log(Stmt):
    """`log "text {expr}"`: a narrated line in the game log."""
    parts: list[str | Expr]
    span: Span


@dataclass(slots=True)
class ZoneOp(Stmt):
    """`add x to z`, `remove x from z`, `move x from a to b`, `shuffle z`."""
    op: str
    item: Expr | None
    source: Expr | None
    dest: Expr | None
    span: Span


@dataclass(slots=True)
class Skip(Stmt):
    """`skip phase_name`: the current player skips that phase for the rest of this round."""
    phase: str
    span: Span


@dataclass(slots=True)
class Fail(Stmt):
    """`fail "message {expr}"`: the attempted action is illegal; the message is filled in like a log's
    (`parts`: literal text and expressions)."""
    message: str
    span: Span
    parts: list = field(default_factory=list)


@dataclass(slots=True)
class EndGame(Stmt):
    """`end game`: stop now; the victory block ranks the players."""
    span: Span


@dataclass(slots=True)
class ExprStmt(Stmt):
    """A call made for its effect."""
    expr: Expr
    span: Span


# ---- declarations -----------------------------------------------------------------------------------
@dataclass(slots=True)
class Decl:
    """Base of top-level declarations; `key()` names what an overlay may replace."""

    def key(self) -> tuple[str, str]:
        return (type(self).__name__.lower(), getattr(self, "name", ""))


@dataclass(slots=True)
class Field:
    """`name: expr` inside a braced declaration."""
    name: str
    value: Expr
    span: Span


@dataclass(slots=True)
class GameDecl(Decl):
    """`game "Title" { edition: .., players: .., sources: [..] }`."""
    title: str
    fields: list[Field]
    span: Span

    def key(self):
        return ("game", "")


@dataclass(slots=True)
class Import(Decl):
    """`import "file.civ"`: definitions of another file join this one."""
    path: str
    span: Span

    def key(self):
        return ("import", self.path)


@dataclass(slots=True)
class Extends(Decl):
    """`extends "file.civ"`: this file is an overlay on that ruleset."""
    path: str
    span: Span

    def key(self):
        return ("extends", self.path)


@dataclass(slots=True)
class Overrides(Decl):
    """`overrides "other"`: where this overlay and another change the same rule, this one wins."""
    target: str
    span: Span

    def key(self):
        return ("overrides", self.target)


@dataclass(slots=True)
class Param(Decl):
    """`param name = expr`: a named number/table that cards and house rules may change; an optional
    declared type and range (`param loss: int in 0.. = 4`) that overlays must keep."""
    name: str
    value: Expr
    span: Span
    type: tuple | None = None
    lo: Expr | None = None
    hi: Expr | None = None


@dataclass(slots=True)
class Counter(Decl):
    """`player counter food in 0..15 = 3`: an integer with bounds, per player or global; like a zone,
    `visible to owner` or `hidden` keeps it from other players' eyes (see `engine/visibility.py`)."""
    scope: str
    name: str
    lo: Expr | None
    hi: Expr | None
    init: Expr
    span: Span
    visibility: str = "all"


@dataclass(slots=True)
class Var(Decl):
    """`player var culture = none`: a value of any type, per player or global (visibility as for a
    counter)."""
    scope: str
    name: str
    init: Expr
    span: Span
    visibility: str = "all"
    type: tuple | None = None   # `player var leader: player = none`: declared where inference cannot decide


@dataclass(slots=True)
class Zone(Decl):
    """`player zone hand visible to owner`: an ordered collection of things."""
    scope: str
    name: str
    visibility: str
    span: Span


@dataclass(slots=True)
class Die(Decl):
    """`die d6 = 1..6`: a die with its faces."""
    name: str
    faces: Expr
    span: Span


@dataclass(slots=True)
class TableRow:
    """One row of a table: a key (int, int range or string) and its value."""
    lo: int | str
    hi: int | str
    value: Expr
    span: Span


@dataclass(slots=True)
class Table(Decl):
    """`table disasters die d20 { 1: .., 18..20: .. }`: a lookup table, optionally rolled."""
    name: str
    die: str | None
    rows: list[TableRow]
    span: Span


@dataclass(slots=True)
class Track(Decl):
    """`track ast { spaces: [..] }`: per-player positions along a list of spaces."""
    name: str
    fields: list[Field]
    span: Span


@dataclass(slots=True)
class MapDecl(Decl):
    """`map board from "board.json"`: areas and typed borders from a data file."""
    name: str
    path: str
    span: Span

    def key(self):
        return ("map", self.name)


@dataclass(slots=True)
class KindField:
    """A field of a kind: name, type (e.g. `int`, `list of ref advance`), optional range (`cost: int in
    0..`) and default."""
    name: str
    type: tuple
    default: Expr | None
    span: Span
    lo: Expr | None = None
    hi: Expr | None = None


@dataclass(slots=True)
class Kind(Decl):
    """`kind advance "Advances" { cost: int  effect: block }`: the schema of a family of things; the
    optional title is the heading its things are grouped under (`civdsl diff`)."""
    name: str
    fields: list[KindField]
    span: Span
    title: str | None = None


@dataclass(slots=True)
class Block:
    """A named code block inside an entity, with parameters: `effect(p) {..}`."""
    name: str
    params: list[str]
    body: list[Stmt]
    span: Span
    param_types: list = field(default_factory=list)   # per parameter: a declared type, or None


@dataclass(slots=True)
class Entity(Decl):
    """`card "Example" { .. }`: one thing of a declared kind (a card, calamity, wonder...)."""
    kind: str
    name: str
    fields: list[Field]
    blocks: list[Block]
    span: Span

    def key(self):
        return (self.kind, self.name)


@dataclass(slots=True)
class Step:
    """A named step of a phase."""
    name: str
    title: str | None
    body: list[Stmt]
    span: Span


@dataclass(slots=True)
class Order:
    """How players take part in a phase: seat, once, simultaneous, or sorted by keys."""
    mode: str  # seat | once | simultaneous | by | inverse | turn
    keys: list[Expr]
    span: Span


@dataclass(slots=True)
class Phase(Decl):
    """`phase harvest "Harvest" { order: .. when: .. step .. }`."""
    name: str
    title: str | None
    order: Order | None
    when: Expr | None
    steps: list[Step]
    span: Span


@dataclass(slots=True)
class Sequence(Decl):
    """`sequence { turns: seat  phases: a, b }`: the round's phases, optionally as player turns."""
    turns: Order | None
    phases: list[tuple[str, Span]]
    span: Span

    def key(self):
        return ("sequence", "")


@dataclass(slots=True)
class Procedure(Decl):
    """`procedure name(a, b) {..}`: a reusable rule."""
    name: str
    params: list[str]
    body: list[Stmt]
    span: Span
    param_types: list = field(default_factory=list)   # per parameter: a declared type, or None


@dataclass(slots=True)
class Setup(Decl):
    """`setup {..}`: runs once before the first round."""
    body: list[Stmt]
    span: Span

    def key(self):
        return ("setup", "")


@dataclass(slots=True)
class Victory(Decl):
    """`victory { check: .. winner: .. rank: .. max_rounds: .. }`."""
    fields: list[Field]
    span: Span

    def key(self):
        return ("victory", "")


@dataclass(slots=True)
class Heuristic(Decl):
    """`heuristic "tag" = expr`: the greedy agent's score of `option` for `player`."""
    name: str
    expr: Expr
    span: Span


@dataclass(slots=True)
class DecisionText(Decl):
    """`decision "tag" { question: .. label: .. }`: a decision in words, for people (never for agents)."""
    name: str
    fields: list[Field]
    span: Span

    def key(self):
        return ("decision", self.name)


@dataclass(slots=True)
class Headline(Decl):
    """`headline "measure" when cond = "text {m.field}"`: how a measurement reads in the story of a game
    (`when`: only the measurements that meet the condition make the news)."""
    name: str
    when: Expr | None
    parts: list[str | Expr]
    span: Span


@dataclass(slots=True)
class ViewItem:
    """One line of a view: a panel (`counters "Goods": {..}`: `kind`, `title`) or a field (`label: ..`,
    `title` None)."""
    kind: str
    title: str | None
    expr: Expr
    span: Span


@dataclass(slots=True)
class View(Decl):
    """`view name "title" of p { panels }`: what a player sees, one view per player (`of p`) or one
    for the whole table."""
    name: str
    title: str | None
    of: str | None
    items: list[ViewItem]
    span: Span

    def key(self):
        return ("view", self.name)


@dataclass(slots=True)
class Invariant(Decl):
    """`invariant "name" = expr`: must hold after every phase in checked runs."""
    name: str
    expr: Expr
    span: Span


@dataclass(slots=True)
class Option(Decl):
    """`option name "title" { items }`: declarations applied when a config selects the option."""
    name: str
    title: str | None
    items: list[Decl]
    span: Span

    def key(self):
        return ("option", self.name)


@dataclass(slots=True)
class Replace(Decl):
    """`replace <declaration>`: an overlay swaps a named rule for a new one."""
    item: Decl
    span: Span

    def key(self):
        return self.item.key()


@dataclass(slots=True)
class Modify(Decl):
    """`modify kind "name" { field: value }`: an overlay changes fields of a named rule; for a table,
    `modify table name { key: value }` changes or adds rows (`fields` then holds `TableRow`s)."""
    kind: str
    name: str
    fields: list  # Field, or TableRow for a table
    span: Span

    def key(self):
        return (self.kind, self.name)


@dataclass(slots=True)
class Remove(Decl):
    """`remove kind "name"`: an overlay deletes a named rule."""
    kind: str
    name: str
    span: Span

    def key(self):
        return (self.kind, self.name)


@dataclass(slots=True)
class RuleFile:
    """One parsed `.civ` file."""
    path: str
    items: list[Decl] = field(default_factory=list)
