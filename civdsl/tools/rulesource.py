"""A rule as written, for `civdsl explain`: its source with its comments, the rulebook passage it cites,
what it uses, the files that shaped it and how, and what else would change it.

The source shown is the declaration's own text, laid out by the formatter (comments kept). When an
overlay (an option, a house rule, a later edition) changed fields of the rule with `modify`, the
changed fields are written into that text with a comment saying where from and what they were, so the
rule reads as it runs. "What else would change it" lists the options of the edition not selected, the
shipped house rules and the shipped editions built on it that replace, modify or remove the rule or a
parameter, table or procedure it uses — each with what it changes.

Comparing two versions of a rule (`old → new`, unified diffs) is `ruleview`'s; it is passed in as
`details`, so that this module does not import `ruleview` back.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path

from ..language import ast as A
from ..language.diagnostics import CivError, Span, display_path
from ..language.editions import list_editions, list_variants
from ..language.formatter import format_text, shape
from ..language.loader import Ruleset, load_ruleset, modify
from ..language.parse_cache import parse_file

Details = Callable[[A.Decl, A.Decl, tuple[str, str]], list[str]]
USED_KINDS = ("param", "table", "procedure")  # what a rule uses that an overlay may change
REASON_WIDTH = 100                           # characters of an overlay's reason (the comment above it) shown
_HEADING = re.compile(r"^\s*#\s*-{3,}\s*(?P<title>.*?)\s*-*\s*$")
_REF = r"[¶§]?\s*\d+(?:\.\d+)*[a-z]?(?:\s*[-–]\s*\d+(?:\.\d+)*[a-z]?)?"  # 22.2.5, ¶52.3, 25.1-29.5
_LEADING_RULES = re.compile(rf"^(?P<refs>{_REF}(?:\s*,\s*{_REF})*)\s*:")


# ---- reading source text ------------------------------------------------------------------------------
class Sources:
    """The text of rule files, from the ruleset when it has read them, else from disk (once each)."""

    def __init__(self, rs: Ruleset):
        self.texts = dict(rs.sources)

    def text(self, file: str) -> str:
        if file not in self.texts:
            try:
                self.texts[file] = Path(file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                self.texts[file] = ""
        return self.texts[file]

    def lines(self, file: str) -> list[str]:
        return self.text(file).split("\n")

    def offset(self, file: str, line: int, col: int) -> int:
        lines = self.lines(file)
        return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1

    def covered(self, span: Span) -> str:
        """The exact text a span covers."""
        text = self.text(span.file)
        start = self.offset(span.file, span.line, span.col)
        end = self.offset(span.file, span.end_line or span.line, span.end_col) if span.end_col else len(text)
        return text[start:end]

    def one_line(self, node) -> str:
        span = getattr(node, "span", None)
        return " ".join(self.covered(span).split()) if span is not None else str(node)

    def comment_above(self, span: Span) -> list[str]:
        """The `#` lines directly above a declaration, up to a blank line or a section heading."""
        lines = self.lines(span.file)
        out: list[str] = []
        i = span.line - 2
        while i >= 0 and lines[i].lstrip().startswith("#") and not _HEADING.match(lines[i]):
            out.insert(0, lines[i].strip())
            i -= 1
        return out

    def heading_above(self, span: Span) -> str:
        """The title of the nearest section heading (`# ---- 4.2 Example ----`) above a declaration."""
        lines = self.lines(span.file)
        for i in range(span.line - 2, -1, -1):
            m = _HEADING.match(lines[i])
            if m:
                return m.group("title")
        return ""


def _same_place(a: Span | None, b: Span | None) -> bool:
    return a is not None and b is not None and (a.file, a.line, a.col) == (b.file, b.line, b.col)


def item_at(span: Span):
    """The declaration written at `span` (inside options too), as parsed; None when it cannot be read."""
    try:
        items = list(parse_file(span.file).items)
    except CivError:
        return None
    while items:
        item = items.pop(0)
        if _same_place(getattr(item, "span", None), span):
            return item
        if isinstance(item, A.Option):
            items.extend(item.items)
    return None


def _unwrapped(item):
    return item.item if isinstance(item, A.Replace) else item


# ---- the rule as it runs --------------------------------------------------------------------------------
def _members(decl) -> dict:
    """The parts a `modify` may change: fields by name, or table rows by key."""
    if isinstance(decl, A.Table):
        return {(r.lo, r.hi): r for r in decl.rows}
    return {f.name: f for f in getattr(decl, "fields", []) if isinstance(f, A.Field)}


def _member_text(src: Sources, member) -> str:
    if isinstance(member, A.TableRow):
        key = str(member.lo) if member.lo == member.hi else f"{member.lo}..{member.hi}"
        key = f'"{key}"' if isinstance(member.lo, str) else key
        return f"{key}: {src.covered(member.value.span)}"
    return f"{member.name}: {src.covered(member.value.span)}"


def _label_of(member) -> str:
    if isinstance(member, A.TableRow):
        return "row " + (str(member.lo) if member.lo == member.hi else f"{member.lo}..{member.hi}")
    return member.name


def _where(span: Span) -> str:
    return f"{display_path(span.file)}:{span.line}"


def written_source(src: Sources, rs: Ruleset, key: tuple[str, str], decl) -> tuple[str, Span]:
    """The rule's text as written where it was last defined or replaced, with the comment above it and the
    fields later overlays modified written in (each with a comment), laid out by the formatter; and the
    span of that definition."""
    base, base_span = None, decl.span
    for span, what in reversed(rs.history.get(key, [])):
        if what in ("defined", "replaced"):
            base, base_span = _unwrapped(item_at(span)), span
            break
    if base is None or type(base) is not type(decl):
        return format_text("\n".join(src.comment_above(decl.span) + [src.covered(decl.span)])), decl.span
    base_span = base.span
    text = src.covered(base_span)
    start = src.offset(base_span.file, base_span.line, base_span.col)
    edits: list[tuple[int, int, str]] = []     # (from, to, new text), offsets into `text`
    notes: dict[int, list[tuple[str, str, str]]] = {}  # end-of-line offset → (what, where, was) on that line

    def local(span: Span, end: bool = False) -> int:
        line, col = (span.end_line or span.line, span.end_col) if end else (span.line, span.col)
        return src.offset(span.file, line, col) - start

    def note_at(pos: int, what: str, where: Span, was) -> None:
        eol = text.find("\n", pos)
        notes.setdefault(len(text) if eol < 0 else eol, []).append((what, _where(where), src.one_line(was)))

    if isinstance(base, A.Param):
        if not _same_place(base.value.span, decl.value.span):
            edits.append((local(base.value.span), local(base.value.span, True), src.covered(decl.value.span)))
            note_at(local(base.value.span, True), "", decl.value.span, base.value)
    else:
        old, added = _members(base), []
        for name, member in _members(decl).items():
            before = old.get(name)
            if before is None:
                added.append(member)
            elif not _same_place(before.span, member.span):
                edits.append((local(before.span), local(before.span, True), _member_text(src, member)))
                note_at(local(before.span, True), _label_of(member), member.span, before.value)
        close = text.rfind("}")
        if added and close >= 0:
            lines = [f"{_member_text(src, m)}   # added at {_where(m.span)}" for m in added]
            edits.append((close, close, "\n".join(lines) + "\n"))
    for pos, what in notes.items():
        while any(a < pos < b for a, b, _ in edits):  # a note inside a replaced value goes after it
            pos = next(b for a, b, _ in edits if a < pos < b)
            eol = text.find("\n", pos)
            pos = len(text) if eol < 0 else eol
        edits.append((pos, pos, "   # " + _notes(what)))
    for a, b, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:a] + new + text[b:]
    return format_text("\n".join(src.comment_above(base_span) + [text])), base_span


def _notes(changes: list[tuple[str, str, str]]) -> str:
    """`stack modified at F:54, was 3`; several changes from one place: `modified at F:14, was row 2: 55, ...`."""
    by_place: dict[str, list[tuple[str, str]]] = {}
    for what, where, was in changes:
        by_place.setdefault(where, []).append((what, was))
    out = []
    for where, items in by_place.items():
        if len(items) == 1:
            out.append(f"{(items[0][0] + ' ').lstrip()}modified at {where}, was {items[0][1]}")
        else:
            out.append(f"modified at {where}, was " + ", ".join(f"{what}: {was}" for what, was in items))
    return "; ".join(out)


# ---- the rulebook ------------------------------------------------------------------------------------------
def _literal_texts(node) -> list[str]:
    if isinstance(node, A.Literal) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, A.ListLit):
        return [t for x in node.items for t in _literal_texts(x)]
    return []


def citation(src: Sources, rs: Ruleset, decl, span: Span) -> str:
    """The rulebook passage a rule cites — its `rules:` field, the rule numbers its comment starts with, or
    the numbered section heading above it — and the rulebook, when the edition the rule's file belongs to
    names its sources (`game { sources: [..] }`)."""
    cited = ""
    for f in getattr(decl, "fields", []):
        if isinstance(f, A.Field) and f.name == "rules":
            cited = " ".join(_literal_texts(f.value))
    comment = src.comment_above(span)
    if not cited and comment:
        m = _LEADING_RULES.match(comment[0].lstrip("#").strip())
        cited = m.group("refs") if m else ""
    if not cited:
        heading = src.heading_above(span)
        cited = heading if any(c.isdigit() or c == "¶" for c in heading) else ""
    if not cited:
        return ""
    books = []
    for game_span, _ in rs.history.get(("game", ""), []):
        game = _unwrapped(item_at(game_span))
        if isinstance(game, A.GameDecl) and Path(span.file).resolve().is_relative_to(Path(game_span.file).resolve().parent):
            books = [t for f in game.fields if f.name == "sources" for t in _literal_texts(f.value)]
    return f"{cited} — {_clipped('; '.join(books), REASON_WIDTH)}" if books else cited


# ---- what it uses ------------------------------------------------------------------------------------------
def _names(node, out: set[str]) -> set[str]:
    if isinstance(node, A.Name):
        out.add(node.id)
    elif isinstance(node, (list, tuple)):
        for x in node:
            _names(x, out)
    elif is_dataclass(node) and not isinstance(node, Span):
        for f in fields(node):
            if f.name != "span":
                _names(getattr(node, f.name), out)
    return out


def used_rules(rs: Ruleset, key: tuple[str, str], decl) -> list[tuple[str, str]]:
    """The parameters, tables and procedures a rule names, in that order."""
    names = _names(decl, set())
    return [(kind, n) for kind in USED_KINDS for n in sorted(names) if (kind, n) in rs.decls and (kind, n) != key]


# ---- what else would change it -------------------------------------------------------------------------------
@dataclass
class Elsewhere:
    """An option, house rule or edition not in play that changes the rule or what it uses."""
    who: str                 # "option `short`", "house rule `gentler`", "edition `my-edition`"
    how: str                 # how to play with it
    changes: list[tuple[tuple[str, str], Span, list[str], str]] = field(default_factory=list)  # key, where, details, why


def _clipped(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def _reason(src: Sources, span: Span) -> str:
    """The comment above an overlay's declaration, up to its `Reading:` (the why of the change)."""
    lines = [x.lstrip("#").strip() for x in src.comment_above(span)]
    reading = next((i for i, x in enumerate(lines) if x.startswith("Reading:")), len(lines))
    return _clipped(" ".join(x for x in lines[:reading] if x), REASON_WIDTH)


def _change(src: Sources, rs: Ruleset, item, key, details: Details, whole: bool):
    """What an overlay's declaration does to the rule `key` as it stands in `rs`: (where, details, why)."""
    before = rs.decls[key]
    if isinstance(item, A.Remove):
        lines = ["removes it"]
    else:
        try:
            after = modify(before, item) if isinstance(item, A.Modify) else _unwrapped(item)
        except CivError:
            return None
        if shape(after) == shape(before):
            return None
        lines = details(before, after, key)
        if not whole and any(x.startswith("@@") for x in lines):  # a procedure it calls: say so, no diff
            lines = ["replaces it"]
    return item.span, lines, _reason(src, item.span)


def _overlay_changes(src, rs, items, keys, details) -> list:
    out = []
    for item in items:
        if isinstance(item, (A.Replace, A.Modify, A.Remove)) and item.key() in keys:
            found = _change(src, rs, item, item.key(), details, item.key() == keys[0])
            if found:
                out.append((item.key(), *found))
    return out


def _chain(rs: Ruleset) -> set[str]:
    """The editions whose rules the ruleset holds (its own and those it extends)."""
    return {name for name, entry in list_editions().items() if str(entry.resolve()) in rs.files}


def _extends(path: Path) -> list[str]:
    try:
        items = parse_file(str(path)).items
    except CivError:
        return []
    return [i.path for i in items if isinstance(i, A.Extends)]


def elsewhere(src: Sources, rs: Ruleset, keys: list[tuple[str, str]], details: Details) -> list[Elsewhere]:
    """Options not selected, shipped house rules not applied and shipped editions built on this one that
    change `keys[0]` (or one of the rules it uses, `keys[1:]`)."""
    out = []
    for name, opt in rs.options.items():
        if name not in rs.selected:
            found = _overlay_changes(src, rs, opt.items, keys, details)
            if found:
                out.append(Elsewhere(f"option `{name}`" + (f" \"{opt.title}\"" if opt.title else ""),
                                     f"--option {name}", found))
    chain = _chain(rs)
    for name, path in sorted(list_variants().items()):
        if str(path.resolve()) in rs.files or not set(_extends(path)) & chain:
            continue
        try:
            items = parse_file(str(path)).items
        except CivError:
            continue
        found = _overlay_changes(src, rs, items, keys, details)
        if found:
            out.append(Elsewhere(f"house rule `{name}`", f"--house-rule {name}", found))
    editions = list_editions()
    for name, entry in sorted(editions.items()):
        bases = sorted(set(_extends(entry)) & chain)
        if name in chain or not bases:
            continue
        try:  # compared with the edition it is built on, as shipped (no options, no house rules)
            base, other = load_ruleset(editions[bases[0]]), load_ruleset(entry)
        except CivError:
            continue
        found = []
        for key in keys:
            mine, theirs = base.decls.get(key), other.decls.get(key)
            if mine is None or shape(mine) == shape(theirs) or not other.history.get(key):
                continue
            where = other.history[key][-1][0]
            lines = details(mine, theirs, key) if theirs is not None else ["removes it"]
            if key != keys[0] and any(x.startswith("@@") for x in lines):
                lines = ["replaces it"]
            found.append((key, where, lines, _reason(src, where)))
        if found:
            out.append(Elsewhere(f"edition `{name}`", f"--edition {name}", found))
    return out


# ---- the page ------------------------------------------------------------------------------------------------
def label(key: tuple[str, str]) -> str:
    kind, name = key
    return f"{kind} `{name}`" if name else f"`{kind}`"


def explain_rule(rs: Ruleset, key: tuple[str, str], details: Details) -> list[tuple[str, str]]:
    """The explanation of one rule, as parts: (`text`, a line) or (`civ`, rule source)."""
    src = Sources(rs)
    decl = rs.decls[key] if key in rs.decls else rs.options[key[1]]
    parts = [("text", f"{label(key)} in {rs.edition()}, as it runs:")]
    body, span = written_source(src, rs, key, decl)
    cited = citation(src, rs, decl, span)
    if cited:
        parts.append(("text", f"rulebook: {cited}"))
    parts += [("text", ""), ("civ", body), ("text", "")]
    used = used_rules(rs, key, decl)
    if used:
        parts.append(("text", "uses:"))
        for k in used:
            d = rs.decls[k]
            what = f"param {k[1]} = {_clipped(src.one_line(d.value), 30)}" if isinstance(d, A.Param) else label(k)
            parts.append(("text", f"  {what:40} at {_where(d.span)}"))
        parts.append(("text", ""))
    parts.append(("text", "shaped by:"))
    previous = None
    for where, what in rs.history.get(key, []):
        item = _unwrapped(item_at(where))
        line = f"  {what:9} at {display_path(where.file)}:{where.line}"
        how: list[str] = []
        if previous is not None and what == "modified" and isinstance(item, A.Modify):
            try:
                after = modify(previous, item)
                how, previous = details(previous, after, key), after
            except CivError:
                pass
        elif what in ("defined", "replaced") and item is not None:
            if what == "replaced" and previous is not None and key[0] != "option":
                how = [x for x in details(previous, item, key) if not x.startswith(("---", "+++"))]
            previous = item
        parts.append(("text", line + (f": {how[0]}" if len(how) == 1 else "")))
        parts += [("text", f"      {x}") for x in how if len(how) > 1]
        why = _reason(src, where) if what != "defined" else ""
        if why:
            parts.append(("text", f"      reason: {why}"))
    if key[0] != "option":
        others = elsewhere(src, rs, [key] + used, details)
        if others:
            parts += [("text", ""), ("text", "changed by options, house rules and editions not in play:")]
        for other in others:
            parts.append(("text", f"  {other.who} (play with {other.how}):"))
            for k, where, lines, why in other.changes:
                head = f"    {label(k)} at {_where(where)}"
                parts.append(("text", head + (f": {lines[0]}" if len(lines) == 1 else "")))
                parts += [("text", f"        {x}") for x in lines if len(lines) > 1]
                if why:
                    parts.append(("text", f"        reason: {why}"))
    return parts


def render(parts: list[tuple[str, str]], color: bool = False, indent: str = "    ") -> str:
    """The parts as plain text, or coloured for a terminal (the rule source by the civdsl lexer, through
    rich)."""
    if not color:
        out = []
        for kind, text in parts:
            out.extend(indent + x if x else "" for x in text.rstrip("\n").split("\n")) if kind == "civ" \
                else out.append(text)
        return "\n".join(out).rstrip() + "\n"
    from rich.console import Console
    from rich.padding import Padding
    from rich.syntax import Syntax
    from rich.text import Text

    from ..language.highlight import CivLexer
    widest = max((len(x) for _, t in parts for x in t.split("\n")), default=80) + len(indent) + 2
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=widest, highlight=False, markup=False, emoji=False,
                      color_system="standard")
    lexer = CivLexer()
    for i, (kind, text) in enumerate(parts):
        if kind == "civ":
            code = Syntax(text.rstrip("\n"), lexer, theme="ansi_dark", background_color="default")
            console.print(Padding(code, (0, 0, 0, len(indent))))
        else:
            console.print(Text(text, style="bold" if i == 0 or text.endswith(":") and not text.startswith(" ")
                               else ""))
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip().split("\n")) + "\n"
