"""The decision catalogue (`civdsl explain --decisions EDITION`): every decision tag an edition's rules
can ask, where it is asked (`file:line` of each `chooses`, and in which rule), who answers it, what its
options are and how they read (the ruleset's `decision "tag" { question: label: }`), and whether the
heuristic agent scores it. Options count with everything they bring: their own declarations and the
files they import (a version of the game held in an option). Scenario authors script decisions by these
tags and labels; the edition pages of the docs embed the catalogue (kept current by a test).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass

from ..language import ast as A
from ..language.diagnostics import CivError, Span
from ..language.limits import deep
from ..language.loader import Ruleset, resolve_inside
from ..language.parse_cache import parse_file
from .ruleview import source_of


@dataclass
class Site:
    """One `who chooses "tag" from options` in the rules."""
    where: str      # file:line
    within: str     # the rule holding it: `procedure build`, `phase trade, step offer`, `calamity "Example".resolve`
    who: str        # the chooser, as written
    options: str    # the options, as written
    option: str = ""  # the option that holds it (`option trading`), when only an option asks it


@dataclass
class Entry:
    tag: str
    sites: list[Site] = field(default_factory=list)
    question: str | None = None
    label: str | None = None
    words_at: str | None = None
    heuristic_at: str | None = None


def _one_line(span: Span | None) -> str:
    return " ".join(source_of(span).split()) if span is not None else ""


def _within(decl: A.Decl) -> str:
    if isinstance(decl, (A.Replace,)):
        return _within(decl.item)
    if isinstance(decl, A.Procedure):
        return f"procedure {decl.name}"
    if isinstance(decl, A.Phase):
        return f"phase {decl.name}"
    if isinstance(decl, A.Entity):
        return f'{decl.kind} "{decl.name}"'
    if isinstance(decl, A.Setup):
        return "setup"
    return type(decl).__name__.lower()


def option_items(rs: Ruleset, opt: A.Option) -> list[A.Decl]:
    """An option's declarations: its own, and those of the files it imports (and they import) that the
    ruleset without the option does not load — an option may hold a whole version of the game."""
    items = [i for i in opt.items if not isinstance(i, A.Import)]
    seen = set(rs.files)
    todo = [(i, opt.span.file) for i in opt.items if isinstance(i, A.Import)]
    while todo:
        imp, importer = todo.pop(0)
        try:
            path = str(resolve_inside(importer, imp.path, rs.root_of(importer), imp.span, "import"))
            if path in seen:
                continue
            seen.add(path)
            rf = parse_file(path)
        except (CivError, OSError):
            continue  # (the option's own check reports it)
        items += [i for i in rf.items if not isinstance(i, A.Import)]
        todo += [(i, path) for i in rf.items if isinstance(i, A.Import)]
    return items


def _is_choice(node) -> bool:
    """A `who chooses "tag" from options` (or another form of choosing: any expression node with a
    chooser, a tag and options)."""
    return isinstance(node, A.Expr) and all(hasattr(node, f) for f in ("who", "tag", "options"))


@deep
def decision_catalogue(rs: Ruleset) -> list[Entry]:
    """Every decision tag of the ruleset (with its options' declarations, marked), sorted by tag."""
    entries: dict[str, Entry] = {}

    def visit(node, within: str, option: str) -> None:
        if _is_choice(node):
            entry = entries.setdefault(node.tag, Entry(node.tag))
            entry.sites.append(Site(f"{rs.display(node.span.file)}:{node.span.line}", within,
                                    _one_line(node.who.span), _one_line(node.options.span), option))
        if isinstance(node, A.Step):
            within = f"{within}, step {node.name}"
        elif isinstance(node, A.Block):
            within = f"{within}.{node.name}"
        if isinstance(node, (list, tuple)):
            for x in node:
                visit(x, within, option)
        elif is_dataclass(node) and not isinstance(node, Span):
            for f in fields(node):
                if f.name != "span":
                    visit(getattr(node, f.name), within, option)

    for decl in rs.decls.values():
        visit(decl, _within(decl), "")
    optional = {name: option_items(rs, opt) for name, opt in rs.options.items()}
    for name, items in optional.items():
        for item in items:
            visit(item, _within(item), f"option {name}")
    words = rs.of(A.DecisionText) + [i for items in optional.values() for i in items if isinstance(i, A.DecisionText)]
    for d in words:
        if d.name in entries and entries[d.name].words_at is None:
            e = entries[d.name]
            e.words_at = f"{rs.display(d.span.file)}:{d.span.line}"
            for f in d.fields:
                if f.name == "question":
                    e.question = _one_line(f.value.span)
                elif f.name == "label":
                    e.label = _one_line(f.value.span)
    for d in rs.of(A.Heuristic) + [i for items in optional.values() for i in items if isinstance(i, A.Heuristic)]:
        if d.name in entries and entries[d.name].heuristic_at is None:
            entries[d.name].heuristic_at = f"{rs.display(d.span.file)}:{d.span.line}"
    for e in entries.values():
        e.sites.sort(key=lambda s: (s.option, s.where))
    return [entries[t] for t in sorted(entries, key=str.lower)]


MAX_CELL = 160  # characters of an expression shown


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CELL else text[:MAX_CELL - 1].rstrip() + "…"


def render_catalogue(entries: list[Entry], edition: str, markdown: bool = False) -> str:
    """The catalogue as text (the command) or Markdown (the docs pages)."""
    n_sites = sum(len(e.sites) for e in entries)
    if markdown:
        out = [f"{len(entries)} decision tags, asked at {n_sites} places in the rules of `{edition}` (with its "
               "options). A scenario scripts a decision by one of its options' values or labels; a decision "
               "with a single option is answered automatically and takes no scripted answer (`civdsl test "
               "--trace` shows which were asked).", ""]
        for e in entries:
            parts = [f"question `{_clip(e.question)}`"] if e.question else []
            parts.append(f"labels `{_clip(e.label)}`" if e.label else "labels: each option as the log writes it")
            parts.append(f"heuristic at `{e.heuristic_at}`" if e.heuristic_at else "no heuristic (random)")
            out.append(f"- **`{e.tag}`**: " + "; ".join(parts))
            for s in e.sites:
                out.append(f"    - asked at `{s.where}` in {s.within}" + (f" ({s.option})" if s.option else "") +
                           f": `{_clip(s.who)}` chooses from `{_clip(s.options)}`")
        return "\n".join(out) + "\n"
    out = [f"{edition}: {len(entries)} decision tag(s), asked at {n_sites} place(s)"]
    for e in entries:
        out += ["", f"\"{e.tag}\""]
        if e.question:
            out.append(f"  question: {_clip(e.question)}")
        out.append(f"  labels:   {_clip(e.label)}" if e.label else "  labels:   each option as the log writes it")
        for s in e.sites:
            out.append(f"  asked at {s.where} in {s.within}" + (f" ({s.option})" if s.option else "") +
                       f": {_clip(s.who)} chooses from {_clip(s.options)}")
        out.append(f"  heuristic at {e.heuristic_at}" if e.heuristic_at else "  heuristic: none (random)")
    return "\n".join(out) + "\n"
