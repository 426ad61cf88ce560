"""Looking at effective rules: `civdsl explain` (one rule and the files that shaped it) and
`civdsl diff` (rule-level differences between two editions, overlays or configs).

Both work on loaded rulesets, so an edition built as an overlay of another is compared by what it
means, not by how its files are laid out. Rules are compared by their syntax trees without positions:
moving a rule to another file is not a change; changing a number is.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path

from ..language import ast as A
from ..language.diagnostics import Span, display_path, error
from ..language.editions import find_edition, list_variants
from ..language.formatter import shape
from ..language.limits import deep
from ..language.loader import Ruleset, load_ruleset
from ..language.names import suggest
from .rulesource import explain_rule, render

GROUPS = {"param": "Parameters", "phase": "Phases", "sequence": "Turn sequence", "procedure": "Procedures",
          "table": "Tables", "track": "Tracks (A.S.T.)", "victory": "Victory", "setup": "Set-up",
          "counter": "State", "var": "State", "zone": "State", "die": "Dice", "kind": "Kinds",
          "mapdecl": "Map", "game": "Game", "heuristic": "Agent heuristics", "invariant": "Invariants"}


def load_target(target: str, options: list[str] | None = None) -> Ruleset:
    """An edition name, a folder or entry `.civ` file, or a YAML game config (edition + options + house
    rules); `options` are switched on besides (a config's own first)."""
    options = list(options or [])
    if target.endswith((".yaml", ".yml")):
        from ..language.config import load_config
        cfg = load_config(target)
        if not cfg.edition:
            raise error("CFG014", f"config `{target}` names no edition")
        return load_ruleset(find_edition(cfg.edition), options=cfg.options + options, house_rules=cfg.house_rules)
    path = Path(target)
    if path.suffix != ".civ" and not path.exists() and target in list_variants():
        path = list_variants()[target]  # a shipped house rule, by name
    if path.suffix == ".civ" and path.is_file():
        return load_ruleset(path.resolve(), root=path.resolve().parent.parent, options=options)
    return load_ruleset(find_edition(target), options=options)


def source_of(span: Span) -> str:
    """The exact source text a span covers."""
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    end_line = span.end_line or span.line
    chunk = lines[span.line - 1:end_line]
    if not chunk:
        return ""
    if len(chunk) == 1:
        return chunk[0][span.col - 1:(span.end_col - 1) if span.end_col else None]
    chunk[0] = chunk[0][span.col - 1:]
    if span.end_col:
        chunk[-1] = chunk[-1][:span.end_col - 1]
    return "\n".join(chunk)


def _label(key: tuple[str, str]) -> str:
    kind, name = key
    return f"{kind} `{name}`" if name else f"`{kind}`"


def find_rules(rs: Ruleset, query: str) -> list[tuple[str, str]]:
    """Rule keys matching `name`, `kind name` or `kind:name`."""
    kind, _, name = query.replace(":", " ", 1).partition(" ")
    if not name:
        kind, name = "", query
    name = name.strip().strip('"')
    keys = [k for k in rs.decls if k[1] == name and (not kind or k[0] == kind)]
    if name in rs.options and kind in ("", "option"):
        keys.append(("option", name))
    if not keys and not kind:
        keys = [k for k in rs.decls if k[0] == name and not k[1]]
    return keys


@deep
def explain(rs: Ruleset, query: str, color: bool = False) -> str:
    """Each rule matching `query` as written (comments kept; coloured for a terminal with `color`), the
    rulebook passage it cites, what it uses, the places that shaped it and how, and the options, house
    rules and editions not in play that would change it (see `rulesource`)."""
    keys = find_rules(rs, query)
    if not keys:
        guess = suggest(query.split()[-1], [n for _, n in rs.decls if n])
        raise error("EXP001", f"no rule `{query}` in `{rs.edition()}`", None,
                    f"did you mean `{guess}`?" if guess else "name a phase, procedure, param, or thing")
    parts: list[tuple[str, str]] = []
    for key in keys:
        parts += explain_rule(rs, key, _details) + [("text", "")]
    return render(parts, color)


@dataclass
class Change:
    """One rule-level difference: what changed, under which heading, and why (the comment above the
    overriding declaration, with its place) when the newer side says it."""
    key: tuple[str, str]
    status: str  # added | removed | changed
    details: list[str] = field(default_factory=list)
    group: str = ""
    reason: str = ""
    where: str = ""


def _text(node) -> str:
    """A value's source on one line (a record written over several lines reads as one)."""
    return " ".join(source_of(node.span).split()) if getattr(node, "span", None) else str(node)


def _entity_details(a: A.Entity, b: A.Entity) -> list[str]:
    out = _field_details(a.fields, b.fields)
    ba, bb = {x.name: x for x in a.blocks}, {x.name: x for x in b.blocks}
    for name in list(ba) + [n for n in bb if n not in ba]:
        if shape(ba.get(name)) != shape(bb.get(name)):
            out.extend(_unified(ba.get(name), bb.get(name), name))
    return out


def _field_details(a: list[A.Field], b: list[A.Field]) -> list[str]:
    return _keyed_details({f.name: f.value for f in a}, {f.name: f.value for f in b}, "", "(default)", "(default)")


def _row_key(row: A.TableRow) -> str:
    return str(row.lo) if row.lo == row.hi else f"{row.lo}..{row.hi}"


def _table_details(a: A.Table, b: A.Table) -> list[str]:
    out = _keyed_details({_row_key(r): r.value for r in a.rows}, {_row_key(r): r.value for r in b.rows},
                         "row ", "(new)", "(removed)")
    if a.die != b.die:
        out.append(f"die: {a.die or '(none)'} → {b.die or '(none)'}")
    return out


def _keyed_details(va: dict, vb: dict, prefix: str, absent_before: str, absent_after: str) -> list[str]:
    """`key: old → new` for each key whose value differs (fields of a thing, rows of a table)."""
    out = []
    for key in list(va) + [k for k in vb if k not in va]:
        if key not in vb:
            out.append(f"{prefix}{key}: {_text(va[key])} → {absent_after}")
        elif key not in va:
            out.append(f"{prefix}{key}: {absent_before} → {_text(vb[key])}")
        elif shape(va[key]) != shape(vb[key]):
            out.append(f"{prefix}{key}: {_text(va[key])} → {_text(vb[key])}")
    return out


def _unified(a, b, label: str) -> list[str]:
    old = source_of(a.span).splitlines() if a is not None else []
    new = source_of(b.span).splitlines() if b is not None else []
    return [line.rstrip("\n") for line in difflib.unified_diff(old, new, f"a/{label}", f"b/{label}", lineterm="")]


def _details(da, db, key) -> list[str]:
    if isinstance(da, A.Param) and isinstance(db, A.Param):
        return [f"{_text(da.value)} → {_text(db.value)}"]
    if isinstance(da, A.Entity) and isinstance(db, A.Entity):
        return _entity_details(da, db)
    if isinstance(da, A.Table) and isinstance(db, A.Table):
        return _table_details(da, db)
    if isinstance(da, (A.GameDecl, A.Victory, A.Track)) and isinstance(db, type(da)):
        title_a, title_b = getattr(da, "title", None), getattr(db, "title", None)
        return ([f"title: {title_a} → {title_b}"] if title_a != title_b else []) + _field_details(da.fields, db.fields)
    return _unified(da, db, key[1] or key[0])


def doc_comment(span: Span) -> str:
    """The `#` comment lines directly above a declaration, joined: the author's reason for it."""
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    out: list[str] = []
    i = span.line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        text = lines[i].lstrip()[1:].strip()
        if text[:3] in ("---", "===", "***", "~~~"):  # a section heading above: not about this rule
            break
        out.insert(0, text)
        i -= 1
    reading = next((i for i, x in enumerate(out) if x.startswith("Reading:")), len(out))
    return " ".join(x for x in out[:reading] if x)  # the readings behind the change are for the docs page


def _reason(rs: Ruleset, key: tuple[str, str]) -> tuple[str, str]:
    """Why and where the newer ruleset last shaped a rule (its last definition or override)."""
    hist = rs.history.get(key)
    if not hist:
        return "", ""
    span = hist[-1][0]
    return doc_comment(span), f"{display_path(span.file)}:{span.line}"


@deep
def diff(a: Ruleset, b: Ruleset) -> list[Change]:
    """Rule-level differences from `a` to `b`, in `b`'s order, each with its heading and reason."""
    changes = []
    for key in list(a.decls) + [k for k in b.decls if k not in a.decls]:
        da, db = a.decls.get(key), b.decls.get(key)
        if da is None:
            changes.append(Change(key, "added", _unified(None, db, key[1] or key[0])))
        elif db is None:
            changes.append(Change(key, "removed"))
        elif shape(da) != shape(db):
            changes.append(Change(key, "changed", _details(da, db, key)))
    for name in list(a.options) + [n for n in b.options if n not in a.options]:
        oa, ob = a.options.get(name), b.options.get(name)
        if oa is None or ob is None or shape(oa) != shape(ob):
            status = "added" if oa is None else "removed" if ob is None else "changed"
            changes.append(Change(("option", name), status, [f"{oa.title} → {ob.title}"]
                                  if status == "changed" and oa.title != ob.title else []))
    grouping = Grouping(b, a)
    for c in changes:
        c.group = grouping.group(c.key)
        c.reason, c.where = _reason(b, c.key)
    return sorted(changes, key=lambda c: grouping.rank(c.group))


def _names_in(node, out: set[str]) -> set[str]:
    """Every name and text a syntax tree mentions (a text may name a thing: `"Bronze" in cards`)."""
    if isinstance(node, A.Name):
        out.add(node.id)
    elif isinstance(node, A.Literal) and isinstance(node.value, str):
        out.add(node.value)
    elif isinstance(node, (list, tuple)):
        for x in node:
            _names_in(x, out)
    elif is_dataclass(node) and not isinstance(node, Span):
        for f in fields(node):
            if f.name != "span":
                _names_in(getattr(node, f.name), out)
    elif isinstance(node, str):
        out.add(node)
    return out


class Grouping:
    """The heading a rule is listed under: its phase, its kind of thing (civilization cards,
    calamities, the A.S.T. — a kind's title), or the set-up, the victory, the turn sequence.

    A procedure, parameter or table goes under the one phase (or kind, set-up, victory) whose rules
    reach it through calls and references; one reached from several is a shared rule."""

    SHARED = "Shared rules"

    def __init__(self, rs: Ruleset, other: Ruleset | None = None):
        self.decls = dict(other.decls) if other else {}
        self.decls.update(rs.decls)
        self.kinds = {d.name: d for d in self.decls.values() if isinstance(d, A.Kind)}
        seq = rs.decls.get(("sequence", "")) or (other.decls.get(("sequence", "")) if other else None)
        self.phase_order = [name for name, _ in seq.phases] if isinstance(seq, A.Sequence) else []
        by_name: dict[str, list[tuple[str, str]]] = {}
        for key in self.decls:
            if key[1]:
                by_name.setdefault(key[1], []).append(key)
        self.users: dict[tuple[str, str], set[tuple[str, str]]] = {}
        for side in ([other.decls] if other else []) + [rs.decls]:  # a removed rule's users are the old ones
            for key, d in side.items():
                for name in _names_in(d, set()):
                    for target in by_name.get(name, []):
                        if target != key:
                            self.users.setdefault(target, set()).add(key)
        self.cache: dict[tuple[str, str], str] = {}

    def root_heading(self, key: tuple[str, str]) -> str | None:
        kind, name = key
        d = self.decls.get(key)
        if kind == "phase":
            return f"Phase: {d.title or name}" if isinstance(d, A.Phase) else f"Phase: {name}"
        if isinstance(d, A.Entity):
            k = self.kinds.get(d.kind)
            return k.title if k is not None and k.title else _plural(d.kind)
        if isinstance(d, A.Kind):
            return d.title or _plural(d.name)
        return {"setup": "Set-up", "victory": "Victory", "sequence": "Turn sequence", "game": "Game",
                "heuristic": "Agent heuristics", "invariant": "Invariants", "option": "Options",
                "mapdecl": "Map", "map": "Map"}.get(kind)

    def group(self, key: tuple[str, str]) -> str:
        if key not in self.cache:
            self.cache[key] = self._group(key)
        return self.cache[key]

    def _group(self, key: tuple[str, str]) -> str:
        own = self.root_heading(key)
        if own:
            return own
        seen, todo, found = {key}, [key], set()
        while todo:
            for user in self.users.get(todo.pop(), ()):
                if user in seen:
                    continue
                seen.add(user)
                heading = self.root_heading(user)
                if heading:
                    found.add(heading)
                else:
                    todo.append(user)
        if len(found) > 1:  # a rule the heuristics also read belongs with the rules
            found.discard("Agent heuristics")
        if len(found) == 1:
            return found.pop()
        return self.SHARED if found else GROUPS.get(key[0], _plural(key[0]))

    def rank(self, heading: str) -> tuple:
        """Game, set-up, the phases in turn order, things by kind, shared rules, the rest."""
        fixed = ["Game", "Set-up", "Turn sequence"]
        if heading in fixed:
            return (0, fixed.index(heading), "")
        if heading.startswith("Phase: "):
            names = [self.root_heading(("phase", n)) for n in self.phase_order]
            return (1, names.index(heading) if heading in names else len(names), heading)
        tail = [self.SHARED, "Victory", "Options", "Agent heuristics", "Invariants"]
        if heading in tail:
            return (3, tail.index(heading), "")
        return (2, 0, heading)


def _plural(kind: str) -> str:
    word = kind[:-1] + "ies" if kind.endswith("y") else kind + ("es" if kind.endswith("s") else "s")
    return word.replace("_", " ").capitalize()


SUMMARY_REASON = 110                     # characters of a reason shown in a summary line
SUMMARY_WIDTH = 110                      # width of the wrapped lists of added and removed rules


def _clipped(text: str, limit: int = SUMMARY_REASON) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _wrapped(lead: str, names: list[str], indent: str) -> list[str]:
    """`lead` then the names, comma-separated, wrapped at SUMMARY_WIDTH."""
    lines, line = [], indent + lead
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else "")
        if len(line) + 1 + len(piece) > SUMMARY_WIDTH and line.strip() != lead.strip():
            lines.append(line)
            line = indent + "    " + piece
        else:
            line += " " + piece
    lines.append(line)
    return lines


def render_summary(changes: list[Change], names: tuple[str, str], md: bool = False) -> str:
    """One line per changed rule (its one-line detail and the start of its reason), and the added and
    removed rules as lists, per group: the shape of a large difference at a glance."""
    def counts(items: list[Change]) -> str:
        n = {s: sum(1 for c in items if c.status == s) for s in ("changed", "added", "removed")}
        return ", ".join(f"{v} {k}" for k, v in n.items() if v)
    out = [f"# {names[0]} → {names[1]}", "", f"{len(changes)} rule(s) differ: {counts(changes)}."] if md else [
        f"{names[0]} → {names[1]}: {len(changes)} rule(s) differ ({counts(changes)})"]
    groups: dict[str, list[Change]] = {}
    for c in changes:
        groups.setdefault(c.group, []).append(c)
    for group, items in groups.items():
        out += ["", f"## {group} ({counts(items)})", ""] if md else ["", f"{group} ({counts(items)}):"]
        for c in items:
            if c.status != "changed":
                continue
            inline = [d for d in c.details if not d.startswith(("---", "+++", "@@", " ", "+", "-"))]
            line = f"changed {_label(c.key)}" + (f": {inline[0]}" if len(inline) == 1 else "")
            if c.reason:
                line += " — " + _clipped(c.reason)
            out.append(f"- {line}" if md else f"  {line}")
        for status in ("added", "removed"):
            labels = [_label(c.key) for c in items if c.status == status]
            if labels:
                lead = f"{status} ({len(labels)}):"
                out.extend(f"- {line.strip()}" if md and i == 0 else line
                           for i, line in enumerate(_wrapped(lead, labels, "" if md else "  ")))
    return "\n".join(out).rstrip() + "\n"


def render_diff(a: Ruleset, b: Ruleset, changes: list[Change], fmt: str = "text",
                labels: tuple[str, str] | None = None, summary: bool = False) -> str:
    name_a, name_b = labels or (a.edition(), b.edition())
    if summary and fmt != "json":
        return render_summary(changes, (name_a, name_b), fmt == "markdown")
    if fmt == "json":
        return json.dumps({"from": name_a, "to": name_b, "changes": [
            {"group": c.group, "kind": c.key[0], "name": c.key[1], "status": c.status, "details": c.details,
             "reason": c.reason, "where": c.where} for c in changes]}, indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    count = f"{len(changes)} rule(s) differ"
    out = [f"# {name_a} → {name_b}", "", count + "."] if md else [f"{name_a} → {name_b}: {count}"]
    groups: dict[str, list[Change]] = {}
    for c in changes:
        groups.setdefault(c.group, []).append(c)
    for group, items in groups.items():
        out.append("")
        out.append(f"## {group}" if md else f"{group}:")
        if md:
            out.append("")
        for c in items:
            inline = [d for d in c.details if not d.startswith(("---", "+++", "@@", " ", "+", "-"))]
            block = [d for d in c.details if d not in inline]
            head = f"{c.status} {_label(c.key)}" + (f": {inline[0]}" if len(inline) == 1 else "")
            if md:
                out.append(f"- **{c.status}** {_label(c.key)}" + (f": {inline[0]}" if len(inline) == 1 else "")
                           + (f" — {c.reason}" if c.reason else "") + (f" (`{c.where}`)" if c.where else ""))
            else:
                out.append(f"  {head}")
                if c.reason:
                    out.append(f"      why: {c.reason}")
                if c.where:
                    out.append(f"      at:  {c.where}")
            if len(inline) > 1:
                out.extend((f"    - {d}" if md else f"      {d}") for d in inline)
            if block:
                out.extend(["", "    ```diff"] + [f"    {d}" for d in block] + ["    ```", ""] if md
                           else [f"      {d}" for d in block])
    return "\n".join(out).rstrip() + "\n"
