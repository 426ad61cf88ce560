"""Looking at effective rules: `civdsl explain` (one rule and the files that shaped it) and
`civdsl diff` (rule-level differences between two editions, overlays or configs).

Both work on loaded rulesets, so an edition built as an overlay of another is compared by what it
means, not by how its files are laid out. Rules are compared by their syntax trees without positions:
moving a rule to another file is not a change; changing a number is.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path

from . import ast as A
from .diagnostics import Span, display_path, error
from .editions import find_edition
from .formatter import shape
from .loader import Ruleset, load_ruleset
from .names import suggest

GROUPS = {"param": "Parameters", "phase": "Phases", "sequence": "Turn sequence", "procedure": "Procedures",
          "table": "Tables", "track": "Tracks (A.S.T.)", "victory": "Victory", "setup": "Set-up",
          "counter": "State", "var": "State", "zone": "State", "die": "Dice", "kind": "Kinds",
          "mapdecl": "Map", "game": "Game", "heuristic": "Agent heuristics", "invariant": "Invariants"}


def load_target(target: str) -> Ruleset:
    """An edition name, a folder or entry `.civ` file, or a YAML game config (edition + options + house rules)."""
    if target.endswith((".yaml", ".yml")):
        from .config import load_config
        cfg = load_config(target)
        if not cfg.edition:
            raise error("CFG014", f"config `{target}` names no edition")
        return load_ruleset(find_edition(cfg.edition), options=cfg.options, house_rules=cfg.house_rules)
    path = Path(target)
    if path.suffix == ".civ" and path.is_file():
        return load_ruleset(path.resolve(), root=path.resolve().parent.parent)
    return load_ruleset(find_edition(target))


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
    if not keys and not kind:
        keys = [k for k in rs.decls if k[0] == name and not k[1]]
    return keys


def explain(rs: Ruleset, query: str) -> str:
    keys = find_rules(rs, query)
    if not keys:
        guess = suggest(query.split()[-1], [n for _, n in rs.decls if n])
        raise error("EXP001", f"no rule `{query}` in `{rs.edition()}`", None,
                    f"did you mean `{guess}`?" if guess else "name a phase, procedure, param, or thing")
    out = []
    for key in keys:
        decl = rs.decls[key]
        out.append(f"{_label(key)} in {rs.edition()}, as it runs:")
        out.append("")
        body = source_of(decl.span)
        if isinstance(decl, A.Entity):  # fields may come from `modify` overlays elsewhere
            body = "\n".join([f"{decl.kind} \"{decl.name}\" {{"] +
                             [f"  {f.name}: {source_of(f.value.span)}   # {display_path(f.span.file)}:{f.span.line}"
                              for f in decl.fields] +
                             [f"  {b.name}(...) {{ ... }}   # {display_path(b.span.file)}:{b.span.line}"
                              for b in decl.blocks] + ["}"])
        elif isinstance(decl, A.Param):
            body = f"param {decl.name} = {source_of(decl.value.span)}"
        out.extend("    " + line for line in body.splitlines())
        out.append("")
        out.append("shaped by:")
        for span, what in rs.history.get(key, []):
            out.append(f"  {what:9} at {display_path(span.file)}:{span.line}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


@dataclass
class Change:
    """One rule-level difference."""
    key: tuple[str, str]
    status: str  # added | removed | changed
    details: list[str] = field(default_factory=list)

    @property
    def group(self) -> str:
        kind = self.key[0]
        if kind in GROUPS:
            return GROUPS[kind]
        plural = kind[:-1] + "ies" if kind.endswith("y") else kind + ("es" if kind.endswith("s") else "s")
        return plural.replace("_", " ").capitalize()


def _text(node) -> str:
    return source_of(node.span).strip() if getattr(node, "span", None) else str(node)


def _entity_details(a: A.Entity, b: A.Entity) -> list[str]:
    out = []
    fa, fb = {f.name: f for f in a.fields}, {f.name: f for f in b.fields}
    for name in list(fa) + [n for n in fb if n not in fa]:
        if name not in fb:
            out.append(f"{name}: {_text(fa[name].value)} → (default)")
        elif name not in fa:
            out.append(f"{name}: (default) → {_text(fb[name].value)}")
        elif shape(fa[name].value) != shape(fb[name].value):
            out.append(f"{name}: {_text(fa[name].value)} → {_text(fb[name].value)}")
    ba, bb = {x.name: x for x in a.blocks}, {x.name: x for x in b.blocks}
    for name in list(ba) + [n for n in bb if n not in ba]:
        if shape(ba.get(name)) != shape(bb.get(name)):
            out.extend(_unified(ba.get(name), bb.get(name), name))
    return out


def _unified(a, b, label: str) -> list[str]:
    old = source_of(a.span).splitlines() if a is not None else []
    new = source_of(b.span).splitlines() if b is not None else []
    return [line.rstrip("\n") for line in difflib.unified_diff(old, new, f"a/{label}", f"b/{label}", lineterm="")]


def diff(a: Ruleset, b: Ruleset) -> list[Change]:
    changes = []
    for key in list(a.decls) + [k for k in b.decls if k not in a.decls]:
        da, db = a.decls.get(key), b.decls.get(key)
        if da is None:
            changes.append(Change(key, "added", _unified(None, db, key[1] or key[0])))
        elif db is None:
            changes.append(Change(key, "removed"))
        elif shape(da) != shape(db):
            if isinstance(da, A.Param) and isinstance(db, A.Param):
                details = [f"{_text(da.value)} → {_text(db.value)}"]
            elif isinstance(da, A.Entity) and isinstance(db, A.Entity):
                details = _entity_details(da, db)
            else:
                details = _unified(da, db, key[1] or key[0])
            changes.append(Change(key, "changed", details))
    for name in sorted(set(b.options) - set(a.options)):
        changes.append(Change(("option", name), "added"))
    for name in sorted(set(a.options) - set(b.options)):
        changes.append(Change(("option", name), "removed"))
    return changes


def render_diff(a: Ruleset, b: Ruleset, changes: list[Change], fmt: str = "text",
                labels: tuple[str, str] | None = None) -> str:
    name_a, name_b = labels or (a.edition(), b.edition())
    if fmt == "json":
        return json.dumps({"from": name_a, "to": name_b, "changes": [
            {"group": c.group, "kind": c.key[0], "name": c.key[1], "status": c.status, "details": c.details}
            for c in changes]}, indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    out = [f"# {name_a} → {name_b}" if md else f"{name_a} → {name_b}: {len(changes)} rule(s) differ"]
    if md:
        out.append(f"\n{len(changes)} rule(s) differ.")
    groups: dict[str, list[Change]] = {}
    for c in changes:
        groups.setdefault(c.group, []).append(c)
    for group, items in groups.items():
        out.append("")
        out.append(f"## {group}" if md else f"{group}:")
        for c in items:
            head = f"{c.status} {_label(c.key)}"
            out.append(f"- {head}" if md else f"  {head}")
            if c.details and any(d.startswith(("---", "+++", "@@")) for d in c.details):
                out.append("```diff" if md else "")
                out.extend(("" if md else "      ") + d for d in c.details)
                if md:
                    out.append("```")
            else:
                out.extend((f"    - {d}" if md else f"      {d}") for d in c.details)
    return "\n".join(line for line in out).rstrip() + "\n"
