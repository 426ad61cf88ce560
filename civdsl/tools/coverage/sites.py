"""What of a rule file can run: its rules, the lines holding a statement, and the arms of its branches,
read from the file's syntax tree.

The compiler writes every rule to record, when it runs, the key of each site (`units.site_key`, made
from the site's span); this module lists the same keys from the file alone, so that a report covers
every rule of the file — those inside options no game selected and those an overlay replaced too.

- A **rule** is what the compiler writes as one function: a procedure, a phase's step, the set-up, a
  thing's block, or the expressions of one declaration (a parameter, a counter's bounds and start, a
  die, a table, a thing's field, a victory field, a heuristic, an invariant, a phase's order...). It
  ran when any of its functions ran.
- A **line** holds a statement, or the start of a declaration's expression. It ran when a statement
  or expression starting there ran.
- A **branch** has arms: each condition of an `if`/`elif` chain, and its `else` (written or not: the
  case where no condition holds); a loop's body and its end (the loop ran out, rather than being left
  by `break` or `return`), as coverage.py counts a loop; the two values of `if … then … else`.

What only people see (`view`, `decision` and `headline` declarations) is left out: no game runs it, and
scenarios never render it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...compiler.units import site_key
from ...language import ast as A
from ...language.diagnostics import CivError
from ...language.parse_cache import parse_file

PRESENTATION = {"view", "decision", "headline", "game"}  # `modify` kinds that are not compiled into rules


@dataclass
class Rule:
    """One rule: `name` as a reader finds it in the file (`procedure harvest`, `card "Name" effect`),
    its line, and the keys any of which shows it ran."""
    name: str
    line: int
    keys: list[str]


@dataclass
class Arm:
    """One arm of a branch: its key, a short label for the Missing column (`42->else`) and what it means
    when it never ran, in words."""
    key: str
    label: str
    words: str


@dataclass
class Branch:
    line: int
    arms: list[Arm]


@dataclass
class FileSites:
    """The coverable sites of one rule file."""
    path: str
    rules: list[Rule] = field(default_factory=list)
    lines: dict[int, list[str]] = field(default_factory=dict)  # line -> keys of what starts there
    branches: list[Branch] = field(default_factory=list)


def file_sites(path: str) -> FileSites | None:
    """The sites of the rule file at `path` (as the loader names it); None if it does not parse."""
    try:
        rf = parse_file(path)
    except CivError:
        return None
    walker = _Walker(FileSites(path))
    for item in rf.items:
        walker.decl(item)
    return walker.out


def rule_files(files) -> list[str]:
    """The rule files a report covers: `files` (those of the rulesets compiled) and the files their
    options import, which join a game only when the option is selected."""
    out: list[str] = []
    todo = [str(f) for f in files]
    while todo:
        f = todo.pop()
        if f in out or not f.endswith(".civ") or not Path(f).is_file():
            continue
        out.append(f)
        try:
            items = parse_file(f).items
        except CivError:
            continue
        for item in items:
            if isinstance(item, A.Option):
                todo.extend(str((Path(f).parent / i.path).resolve()) for i in item.items if isinstance(i, A.Import))
    return sorted(out)


class _Walker:
    def __init__(self, out: FileSites):
        self.out = out
        self.within = ""  # the key of the statement or expression being walked

    # -- declarations -------------------------------------------------------------------------------------
    def decl(self, d: A.Decl) -> None:
        if isinstance(d, A.Option):
            for item in d.items:
                self.decl(item)
        elif isinstance(d, A.Replace):
            self.decl(d.item)
        elif isinstance(d, A.Modify):
            self._modify(d)
        elif isinstance(d, A.Param):
            self.expressions(f"param {d.name}", d.span, [d.value])
        elif isinstance(d, A.Counter):
            self.expressions(f"{d.scope} counter {d.name}", d.span, [d.lo, d.hi, d.init])
        elif isinstance(d, A.Var):
            self.expressions(f"{d.scope} var {d.name}", d.span, [d.init])
        elif isinstance(d, A.Die):
            self.expressions(f"die {d.name}", d.span, [d.faces])
        elif isinstance(d, A.Table):
            self.expressions(f"table {d.name}", d.span, [r.value for r in d.rows])
        elif isinstance(d, A.Track):
            fields = {f.name: f.value for f in d.fields}
            # (the compiler writes the track's bounds, and its start when not given, at the declaration)
            self.expressions(f"track {d.name}", d.span, [fields.get("spaces"), fields.get("start")], [d.span])
        elif isinstance(d, A.Kind):
            for f in d.fields:
                if f.default is not None:
                    self.expressions(f"kind {d.name} {f.name} (default)", f.span, [f.default])
        elif isinstance(d, A.Entity):
            for f in d.fields:
                self.expressions(f'{d.kind} "{d.name}" {f.name}', f.span, [f.value])
            for b in d.blocks:
                self.body(f'{d.kind} "{d.name}" {b.name}', b.span, b.body)
        elif isinstance(d, A.Procedure):
            self.body(f"procedure {d.name}", d.span, d.body)
        elif isinstance(d, A.Phase):
            if d.when is not None:
                self.expressions(f"phase {d.name} when", d.when.span, [d.when])
            if d.order is not None and d.order.keys:
                self.expressions(f"phase {d.name} order", d.order.span, d.order.keys)
            for s in d.steps:
                self.body(f"phase {d.name} step {s.name}", s.span, s.body)
        elif isinstance(d, A.Sequence):
            if d.turns is not None and d.turns.keys:
                self.expressions("sequence turns", d.turns.span, d.turns.keys)
        elif isinstance(d, A.Setup):
            self.body("setup", d.span, d.body)
        elif isinstance(d, A.Victory):
            for f in d.fields:
                self.expressions(f"victory {f.name}", f.span, victory_expressions(f))
        elif isinstance(d, A.Heuristic):
            self.expressions(f'heuristic "{d.name}"', d.span, [d.expr])
        elif isinstance(d, A.Invariant):
            self.expressions(f'invariant "{d.name}"', d.span, [d.expr])
        # imports, extends, overrides, removals, zones, maps, the game block: nothing runs;
        # views, decision words and headlines: only people see them (see the module docstring)

    def _modify(self, d: A.Modify) -> None:
        if d.kind in PRESENTATION:
            return
        for f in d.fields:
            if isinstance(f, A.TableRow):
                self.expressions(f"table {d.name} row {f.lo if f.lo == f.hi else f'{f.lo}..{f.hi}'}", f.span,
                                 [f.value])
            elif d.kind == "victory":
                self.expressions(f"victory {f.name}", f.span, victory_expressions(f))
            elif d.kind == "param":
                self.expressions(f"param {d.name}", f.span, [f.value])
            else:
                self.expressions(f'{d.kind} "{d.name}" {f.name}', f.span, [f.value])

    # -- rules --------------------------------------------------------------------------------------------
    def expressions(self, name: str, span, exprs: list, extra=()) -> None:
        """A rule made of expressions, each a function of its own (`extra`: spans of expressions the
        compiler makes up for the declaration)."""
        exprs = [e for e in exprs if e is not None]
        keys = [site_key("x", e.span) for e in exprs] + [site_key("x", s) for s in extra]
        if not keys:
            return
        self.out.rules.append(Rule(name, span.line, keys))
        for e in exprs:
            self.within = site_key("x", e.span)
            self._line(e.span.line, self.within)
            self.expr(e)
        for s in extra:
            self._line(s.line, site_key("x", s))

    def body(self, name: str, span, body: list[A.Stmt]) -> None:
        self.out.rules.append(Rule(name, span.line, [site_key("r", span)]))
        self.stmts(body)

    def _line(self, line: int, key: str) -> None:
        self.out.lines.setdefault(line, []).append(key)

    # -- statements and expressions -----------------------------------------------------------------------
    def stmts(self, body: list[A.Stmt]) -> None:
        for s in body:
            self.within = site_key("s", s.span)
            self._line(s.span.line, self.within)
            if isinstance(s, A.If):
                self._if(s)
            elif isinstance(s, (A.For, A.Repeat, A.While)):
                word = {"For": "for", "Repeat": "repeat", "While": "while"}[type(s).__name__]
                self.expr(s.iterable if isinstance(s, A.For) else s.count if isinstance(s, A.Repeat) else s.cond)
                self.out.branches.append(Branch(s.span.line, [
                    Arm(site_key("b", s.span, 0), "body", f"the `{word}` loop's body never ran"),
                    Arm(site_key("b", s.span, 1), "end", f"the `{word}` loop never ran to its end (it was "
                        "always left by `break` or `return`)")]))
                self.stmts(s.body)
            else:
                for name in s.__slots__:
                    self.expr(getattr(s, name))

    def _if(self, s: A.If) -> None:
        arms = []
        for i, (cond, body) in enumerate(s.branches):
            self.within = site_key("s", s.span)
            self.expr(cond)
            if i == 0:
                arms.append(Arm(site_key("b", s.span, i), "if", "the `if` condition was never true"))
            else:
                where = "" if cond.span.line == s.span.line else f" on line {cond.span.line}"
                arms.append(Arm(site_key("b", s.span, i), f"elif@{cond.span.line}", f"the `elif`{where} never ran"))
            self.stmts(body)
        last = site_key("b", s.span, len(s.branches))
        if s.orelse:
            arms.append(Arm(last, "else", "the `else` never ran"))
            self.stmts(s.orelse)
        elif len(s.branches) == 1:
            arms.append(Arm(last, "else", "the `if` condition was never false (there is no `else`)"))
        else:
            arms.append(Arm(last, "else", "the conditions were never all false (there is no `else`)"))
        self.out.branches.append(Branch(s.span.line, arms))

    def expr(self, e) -> None:
        """Every `if … then … else` inside `e` (an expression, a list of them, a log's parts...)."""
        if isinstance(e, (list, tuple)):
            for item in e:
                self.expr(item)
            return
        if not isinstance(e, A.Expr):
            return
        if isinstance(e, A.IfExpr):
            if e.span.line not in self.out.lines:  # (a line inside a statement: it ran when the statement did)
                self._line(e.span.line, self.within)
            self.out.branches.append(Branch(e.span.line, [
                Arm(site_key("b", e.span, 0), "then", "the `then` value of `if … then … else` was never chosen"),
                Arm(site_key("b", e.span, 1), "else", "the `else` value of `if … then … else` was never chosen")]))
        for name in e.__slots__:
            self.expr(getattr(e, name))


def victory_expressions(f: A.Field) -> list:
    """The expressions the compiler writes for one field of `victory` (see `Compiler._victory`)."""
    if f.name in ("check", "finish"):
        return []
    if f.name == "breakdown":
        return list(f.value.values) if isinstance(f.value, A.RecordLit) else []
    if f.name == "rank" and isinstance(f.value, A.ListLit):
        return list(f.value.items)
    return [f.value]
