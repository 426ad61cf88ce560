"""Names in rule files, for the language server: what a name at a position is (hover), where it is
defined (across `import`, `extends` and overlays: the `replace` of a house rule jumps to what it
replaces), where it is used, what may be typed at a position (completion), and a file's outline.

Everything here reads the editor's text of the file, its last good syntax tree, and the loaded rules
of the editions that include it (`analysis.Analyzer`); nothing is evaluated and no file is read that
the loader did not read. Positions are 1-based (line, column in characters) like `Span`; the server
converts them to the protocol's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path

from ...engine.builtins import REGISTRY
from ...language import ast as A
from ...language.diagnostics import Span
from ...language.loader import Ruleset
from ...language.parser import lark_parser
from ...tools.catalogue import decision_catalogue
from ...tools.ruleview import source_of
from .analysis import Analyzer, resolved

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KINDS_OF_DECL = {"param": "parameter", "counter": "counter", "var": "variable", "zone": "zone", "die": "die",
                 "table": "table", "track": "track", "mapdecl": "map", "kind": "kind of thing",
                 "phase": "phase", "procedure": "procedure", "heuristic": "heuristic", "invariant": "invariant",
                 "decision": "decision words", "view": "view", "option": "option"}
MAX_REFERENCES = 2000
TAG_CONTEXTS = ("chooses", "subset", "decision", "heuristic")   # the word before a decision's tag


def keywords() -> list[str]:
    """The language's keywords: the word terminals of the grammar."""
    out = set()
    for t in lark_parser().terminals:
        pattern = t.pattern
        if pattern.type == "str" and WORD.fullmatch(pattern.value):
            out.add(pattern.value)
    return sorted(out)


@dataclass
class Target:
    """What a position names: a word or a text, and how it reads there."""
    text: str
    span: Span          # of the word (or the text, quotes excluded)
    quoted: bool        # inside "..."
    after_dot: bool     # `x.word`
    context: str = ""   # the keyword before a text: chooses, decision, heuristic, import, extends, ...


def target_at(text: str, path: str, line: int, col: int) -> Target | None:
    """The word or the quoted text at a 1-based position of `text`."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    s = lines[line - 1]
    i = col - 1
    quote = _quoted_at(s, i)
    if quote is not None:
        a, b = quote
        before = s[:a - 1].rstrip()
        m = re.search(r"([A-Za-z_]+)\s*$", before)
        return Target(s[a:b], Span(path, line, a + 1, line, b + 1), True, False, m.group(1) if m else "")
    for m in WORD.finditer(s):
        if m.start() <= i <= m.end() and (i < m.end() or i == m.end()):
            if "#" in s[:m.start()] and _comment_start(s) is not None and _comment_start(s) < m.start():
                return None
            after_dot = s[:m.start()].rstrip().endswith(".")
            return Target(m.group(0), Span(path, line, m.start() + 1, line, m.end() + 1), False, after_dot)
    return None


def _comment_start(s: str) -> int | None:
    inside = False
    for k, ch in enumerate(s):
        if ch == '"' and (k == 0 or s[k - 1] != "\\"):
            inside = not inside
        elif ch == "#" and not inside:
            return k
    return None


def _quoted_at(s: str, i: int) -> tuple[int, int] | None:
    """(start, end) of the text between the quotes around column index `i`, if any."""
    k, start = 0, None
    end_code = _comment_start(s)
    while k < len(s) and (end_code is None or k < end_code or start is not None):
        ch = s[k]
        if ch == "\\" and start is not None:
            k += 2
            continue
        if ch == '"':
            if start is None:
                start = k + 1
            else:
                if start <= i <= k:
                    return start, k
                start = None
        k += 1
    return None


# ---- definitions -----------------------------------------------------------------------------------

def _decl_kind(d: A.Decl) -> str:
    return d.key()[0]


def _entity_names(rs: Ruleset) -> dict[str, tuple]:
    return {d.name: k for k, d in rs.decls.items() if isinstance(d, A.Entity)}


def definitions(analyzer: Analyzer, path: str, t: Target) -> list[Span]:
    """Where the name at the target is defined."""
    _TEXTS[:] = [analyzer]
    tree = analyzer.tree(path)
    rulesets = analyzer.rulesets_for(path)
    if t.quoted:
        if t.context in ("import", "extends"):
            return _file_target(rulesets, path, t)
        if t.context in TAG_CONTEXTS:
            return _decision_places(rulesets, t.text, prefer_words=t.context in ("chooses", "subset"))
        for rs in rulesets:
            key = _entity_names(rs).get(t.text)
            if key is not None:
                return [_name_span(rs.decls[key].span, t.text)]
        return []
    if not t.after_dot:
        local = _local_binding(tree, t) if tree is not None else None
        if local is not None:
            return [local]
    overlay = _overlay_at(tree, t) if tree is not None else None
    out: list[Span] = []
    for rs in rulesets:
        if overlay is not None:  # `replace`/`modify`/`remove`: what it changes, as it was before
            hist = rs.history.get(overlay, [])
            mine = [i for i, (span, _) in enumerate(hist) if resolved(span.file) == resolved(path)
                    and span.line == overlay_line(tree, t)]
            if mine and mine[0] > 0:
                return [hist[mine[0] - 1][0]]
        for key in _keys_named(rs, t.text, t.after_dot):
            decl = rs.decls.get(key) or rs.options.get(key[1])
            if decl is not None:
                out.append(_name_span(decl.span, t.text))
        entity = _entity_names(rs).get(t.text)
        if not out and entity is not None and not t.after_dot:
            out.append(_name_span(rs.decls[entity].span, t.text))
        out.extend(_field_spans(rs, t.text) if t.after_dot or not out else [])
        if out:
            return _unique(out)
    if tree is not None:  # the file on its own
        for item in tree.items:
            if getattr(item, "name", None) == t.text:
                out.append(_name_span(item.span, t.text))
    return _unique(out)


def overlay_line(tree: A.RuleFile | None, t: Target) -> int:
    return t.span.line


def _overlay_at(tree: A.RuleFile, t: Target) -> tuple | None:
    """The rule key when the target is the name in a `replace`, `modify` or `remove` declaration."""
    for item in tree.items:
        if isinstance(item, (A.Replace, A.Modify, A.Remove)) and item.span.line == t.span.line:
            key = item.key()
            if key[1] == t.text:
                return key
    return None


def _keys_named(rs: Ruleset, name: str, after_dot: bool) -> list[tuple]:
    keys = [k for k in rs.decls if k[1] == name and not isinstance(rs.decls[k], A.Entity)]
    if name in rs.options:
        keys.append(("option", name))
    if after_dot:
        keys = [k for k in keys if k[0] in ("counter", "var", "zone")]
    return keys


def _field_spans(rs: Ruleset, name: str) -> list[Span]:
    out = []
    for d in rs.of(A.Kind):
        for f in d.fields:
            if f.name == name:
                out.append(f.span)
    return out


_TEXTS: list = []  # the analyzer whose texts `_line` reads (set by each entry point)


def _line(file: str, line: int) -> str:
    """A line of a file as the editor holds it (else as loaded)."""
    text = _TEXTS[-1].text(file) if _TEXTS else None
    if text is None:
        return source_of(Span(file, line, 1, line, 0))
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _name_span(span: Span, name: str) -> Span:
    """The name inside a declaration's span (its first mention on the first line), else the span."""
    text = _line(span.file, span.line)
    for m in re.finditer(r'(?<![A-Za-z0-9_])' + re.escape(name) + r'(?![A-Za-z0-9_])', text):
        if m.start() >= span.col - 1:
            return Span(span.file, span.line, m.start() + 1, span.line, m.end() + 1)
    return Span(span.file, span.line, span.col, span.line, span.col)


def _unique(spans: list[Span]) -> list[Span]:
    seen, out = set(), []
    for s in spans:
        k = (resolved(s.file), s.line, s.col)
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


def _file_target(rulesets: list[Ruleset], path: str, t: Target) -> list[Span]:
    """`import "x.civ"` and `extends "x.civ"` or `extends "edition"`: the file, as the loader found it."""
    wanted = resolved(Path(path).parent / t.text) if t.text.endswith(".civ") else None
    for rs in rulesets:
        for f in rs.files:
            if (wanted and resolved(f) == wanted) or (not wanted and Path(f).name == "game.civ"
                                                      and Path(f).parent.name == t.text):
                return [Span(f, 1, 1, 1, 1)]
    return []


def _decision_places(rulesets: list[Ruleset], tag: str, prefer_words: bool) -> list[Span]:
    for rs in rulesets:
        words = [d.span for d in rs.of(A.DecisionText) if d.name == tag]
        sites = _choose_spans(rs, tag)
        if words or sites:
            return (words or sites) if prefer_words else (sites or words)
    return []


def _walk(node, visit) -> None:
    if isinstance(node, (list, tuple)):
        for x in node:
            _walk(x, visit)
    elif is_dataclass(node) and not isinstance(node, Span):
        visit(node)
        for f in fields(node):
            if f.name != "span":
                _walk(getattr(node, f.name), visit)


def _choose_spans(rs: Ruleset, tag: str) -> list[Span]:
    out: list[Span] = []

    def visit(n):
        if isinstance(n, A.Expr) and getattr(n, "tag", None) == tag and hasattr(n, "who"):
            out.append(n.span)
    _walk(list(rs.decls.values()) + [i for o in rs.options.values() for i in o.items], visit)
    return out


# ---- locals ----------------------------------------------------------------------------------------

def _enclosing(tree: A.RuleFile, line: int):
    best = None
    for item in tree.items:
        s = item.span
        if s.line <= line <= (s.end_line or s.line):
            best = item
    return best


def _local_binding(tree: A.RuleFile, t: Target) -> Span | None:
    """The nearest binding before the target of a local of that name in the enclosing declaration:
    a procedure's or a thing's block's parameters, `let`, `for`, a comprehension's variable."""
    decl = _enclosing(tree, t.span.line)
    if decl is None:
        return None
    found: list[Span] = []
    name = t.text
    if isinstance(decl, A.Procedure) and name in decl.params:
        found.append(_name_span(decl.span, name))

    def visit(n):
        if isinstance(n, A.Block) and name in n.params:
            found.append(_name_span(n.span, name))
        elif isinstance(n, A.Let) and n.name == name:
            found.append(_name_span(n.span, name))
        elif isinstance(n, A.For) and n.var == name:
            found.append(_name_span(n.span, name))
        elif isinstance(n, A.Comprehension) and n.var == name:
            found.append(_name_span(Span(n.span.file, n.span.line, n.span.col), name))
    _walk(decl, visit)
    before = [s for s in found if (s.line, s.col) <= (t.span.line, t.span.col)]
    return max(before, key=lambda s: (s.line, s.col)) if before else None


# ---- references ------------------------------------------------------------------------------------

def references(analyzer: Analyzer, path: str, t: Target) -> list[Span]:
    """Every use of the name (outside comments; inside texts too for a thing's name or a decision tag)
    in the files of the editions that include the file, or in the file alone."""
    _TEXTS[:] = [analyzer]
    rulesets = analyzer.rulesets_for(path)
    files: list[str] = []
    for rs in rulesets:
        files.extend(f for f in rs.files if f not in files)
    if resolved(path) not in files:
        files.append(resolved(path))
    out: list[Span] = []
    in_texts = t.quoted or any(t.text in _entity_names(rs) for rs in rulesets)
    in_code = not t.quoted
    if in_code and not t.after_dot:
        tree = analyzer.tree(path)
        local = _local_binding(tree, t) if tree is not None else None
        if local is not None:  # a local: its uses in the enclosing declaration
            decl = _enclosing(tree, t.span.line)
            end = decl.span.end_line or decl.span.line
            return [s for s in _occurrences(analyzer.text(path) or "", path, t.text, True, False)
                    if decl.span.line <= s.line <= end]
    for f in files:
        text = analyzer.text(f)
        if text is None:
            continue
        out.extend(_occurrences(text, f, t.text, in_code, in_texts))
        if len(out) > MAX_REFERENCES:
            break
    return out[:MAX_REFERENCES]


def _occurrences(text: str, path: str, name: str, in_code: bool, in_texts: bool) -> list[Span]:
    """The name as a word of code (`in_code`), and as a whole text `"name"` (`in_texts`)."""
    out = []
    pattern = re.compile(r'(?<![A-Za-z0-9_])' + re.escape(name) + r'(?![A-Za-z0-9_])')
    for n, line in enumerate(text.split("\n"), 1):
        if name not in line:
            continue
        code_end = _comment_start(line)
        for m in pattern.finditer(line):
            if code_end is not None and m.start() >= code_end:
                break
            quote = _quoted_at(line, m.start())
            if (quote is None and in_code) or (quote == (m.start(), m.end()) and in_texts):
                out.append(Span(path, n, m.start() + 1, n, m.end() + 1))
    return out


# ---- hover -----------------------------------------------------------------------------------------

def hover(analyzer: Analyzer, path: str, t: Target) -> str | None:
    """Markdown: what the name is, its value or fields, where overlays changed it, its comment."""
    _TEXTS[:] = [analyzer]
    rulesets = analyzer.rulesets_for(path)
    tree = analyzer.tree(path)
    if t.quoted and t.context in TAG_CONTEXTS:
        return _decision_hover(rulesets, t.text)
    if not t.quoted and not t.after_dot and tree is not None and _local_binding(tree, t) is not None:
        return f"local `{t.text}`"
    if t.quoted and t.context in ("import", "extends"):
        found = definitions(analyzer, path, t)
        return f"{t.context} `{found[0].file}`" if found else None
    for rs in rulesets:
        key = _entity_names(rs).get(t.text)
        if key is not None and (t.quoted or not _keys_named(rs, t.text, t.after_dot)):
            return _decl_hover(rs, key, rs.decls[key])
        if t.quoted:
            continue
        keys = _keys_named(rs, t.text, t.after_dot)
        if keys:
            return "\n\n---\n\n".join(_decl_hover(rs, k, rs.decls.get(k) or rs.options[k[1]]) for k in keys[:3])
        fields_found = [(d, f) for d in rs.of(A.Kind) for f in d.fields if f.name == t.text]
        if fields_found:
            return "\n\n".join(f"field `{f.name}` of kind `{d.name}`: {_type_text(f.type)}" +
                               (f" (default `{_one_line(f.default.span)}`)" if f.default is not None else "")
                               for d, f in fields_found[:4])
    if not t.quoted and t.text in REGISTRY:
        b = REGISTRY[t.text]
        return f"builtin `{t.text}`" + (f"\n\n{b.doc}" if getattr(b, "doc", "") else "")
    if tree is not None and not t.quoted:
        for item in tree.items:
            if getattr(item, "name", None) == t.text:
                return f"{KINDS_OF_DECL.get(_decl_kind(item), _decl_kind(item))} `{t.text}` (this file)"
    return None


def _one_line(span: Span | None) -> str:
    """A span's text on one line, from the editor's text of its file."""
    if span is None:
        return ""
    end = span.end_line or span.line
    if end - span.line > 20:
        return " ".join(source_of(span).split())
    rows = [_line(span.file, n) for n in range(span.line, end + 1)]
    if len(rows) == 1:
        rows[0] = rows[0][span.col - 1:(span.end_col - 1) if span.end_col else None]
    else:
        rows[0] = rows[0][span.col - 1:]
        if span.end_col:
            rows[-1] = rows[-1][:span.end_col - 1]
    return " ".join(" ".join(rows).split())


def _comment_above(span: Span) -> str:
    """The `#` lines right above a declaration (as `civdsl diff` reads an author's reason)."""
    out: list[str] = []
    n = span.line - 1
    while n >= 1:
        row = _line(span.file, n).strip()
        if not row.startswith("#") or row[1:].strip()[:3] in ("---", "===", "***", "~~~"):
            break
        out.insert(0, row[1:].strip())
        n -= 1
    return " ".join(x for x in out if x)


def _type_text(t) -> str:
    if isinstance(t, tuple):
        return " ".join(str(x) for x in t if x not in (None, ""))
    return str(t)


def _where(rs: Ruleset, span: Span) -> str:
    return f"{rs.display(span.file)}:{span.line}"


def _decl_hover(rs: Ruleset, key: tuple, decl) -> str:
    kind, name = key
    head = f"**{KINDS_OF_DECL.get(kind, kind)}** `{name}`"
    body: list[str] = []
    if isinstance(decl, A.Param):
        body.append(f"```civ\nparam {name} = {_one_line(decl.value.span)}\n```")
    elif isinstance(decl, A.Counter):
        bounds = f" in {_one_line(decl.lo.span) if decl.lo else ''}..{_one_line(decl.hi.span) if decl.hi else ''}" \
            if decl.lo is not None or decl.hi is not None else ""
        body.append(f"```civ\n{decl.scope} counter {name}{bounds} = {_one_line(decl.init.span)}\n```")
    elif isinstance(decl, A.Var):
        body.append(f"```civ\n{decl.scope} var {name} = {_one_line(decl.init.span)}\n```")
    elif isinstance(decl, A.Zone):
        body.append(f"`{decl.scope} zone`, visible to {decl.visibility}")
    elif isinstance(decl, A.Procedure):
        body.append(f"```civ\nprocedure {name}({', '.join(decl.params)})\n```")
    elif isinstance(decl, A.Phase):
        body.append((f"*{decl.title}*; " if decl.title else "") +
                    (f"steps: {', '.join(s.name for s in decl.steps)}" if decl.steps else "one step"))
    elif isinstance(decl, A.Kind):
        body.append((f"*{decl.title}*\n\n" if decl.title else "") +
                    "\n".join(f"- `{f.name}`: {_type_text(f.type)}" for f in decl.fields))
    elif isinstance(decl, A.Entity):
        head = f"**{decl.kind}** `\"{name}\"`"
        rows = [f"- `{f.name}`: `{_one_line(f.value.span)[:80]}`" for f in decl.fields if f.name != "rules"]
        rows += [f"- `{b.name}({', '.join(b.params)})` {{ … }}" for b in decl.blocks]
        cite = next((f for f in decl.fields if f.name == "rules"), None)
        if cite is not None:
            body.append(f"rules: {_one_line(cite.value.span)}")
        body.append("\n".join(rows))
    elif isinstance(decl, A.Table):
        body.append(f"{len(decl.rows)} row(s)" + (f", rolled with `{decl.die}`" if decl.die else ""))
    elif isinstance(decl, A.Die):
        body.append(f"```civ\ndie {name} = {_one_line(decl.faces.span)}\n```")
    elif isinstance(decl, A.Option):
        body.append(f"*{decl.title}*" if decl.title else "an option of the edition")
    comment = _comment_above(decl.span)
    if comment:
        body.append(comment)
    hist = rs.history.get(key, [])
    if hist:
        changes = [f"{what} at `{_where(rs, span)}`" for span, what in hist]
        if len(hist) > 1 or hist[0][1] != "defined":
            last = hist[-1]
            body.append(f"last {last[1]} at `{_where(rs, last[0])}`")
        body.append("shaped by: " + "; ".join(changes))
    return "\n\n".join([head] + [b for b in body if b])


def _decision_hover(rulesets: list[Ruleset], tag: str) -> str | None:
    for rs in rulesets:
        entry = next((e for e in decision_catalogue(rs) if e.tag == tag), None)
        if entry is None:
            continue
        lines = [f"**decision** `\"{tag}\"`"]
        if entry.question:
            lines.append(f"question: `{entry.question}`")
        lines.append(f"labels: `{entry.label}`" if entry.label else "labels: each option as the log writes it")
        for s in entry.sites[:6]:
            lines.append(f"- asked at `{s.where}` in {s.within}: `{s.who}` chooses from `{s.options}`")
        lines.append(f"heuristic at `{entry.heuristic_at}`" if entry.heuristic_at else "no heuristic (random)")
        return "\n\n".join(lines)
    return None


# ---- completion ------------------------------------------------------------------------------------

@dataclass
class Completion:
    label: str
    kind: str      # keyword | function | variable | field | constant | class | value | event | text
    detail: str = ""


def completions(analyzer: Analyzer, path: str, line: int, col: int) -> list[Completion]:
    """What may be typed at a position: after `x.`, fields; inside a text after `chooses`, `decision`
    or `heuristic`, the decision tags; inside another text, things' names; else names, builtins and
    keywords."""
    _TEXTS[:] = [analyzer]
    text = analyzer.text(path) or ""
    lines = text.split("\n")
    s = lines[line - 1][:col - 1] if 0 < line <= len(lines) else ""
    rulesets = analyzer.rulesets_for(path)
    tree = analyzer.tree(path)
    out: dict[str, Completion] = {}
    q = _quoted_at(s + '"', len(s))
    if q is not None:
        before = s[:q[0] - 1].rstrip()
        if re.search(r"\b(chooses|subset|decision|heuristic)\s*$", before):
            for rs in rulesets:
                for e in decision_catalogue(rs):
                    out.setdefault(e.tag, Completion(e.tag, "event", "decision"))
        elif re.search(r"\b(option|overrides)\s*$", before):
            for rs in rulesets:
                for name in rs.options:
                    out.setdefault(name, Completion(name, "module", "option"))
        else:
            for rs in rulesets:
                for name, key in _entity_names(rs).items():
                    out.setdefault(name, Completion(name, "value", key[0]))
        return list(out.values())
    if re.search(r"\.\s*[A-Za-z_0-9]*$", s):
        for rs in rulesets:
            for (kind, name), d in rs.decls.items():
                if kind in ("counter", "var", "zone") and getattr(d, "scope", "") == "player":
                    out.setdefault(name, Completion(name, "field", f"player {kind}"))
            for d in rs.of(A.Kind):
                for f in d.fields:
                    out.setdefault(f.name, Completion(f.name, "field", f"field of {d.name}"))
        return list(out.values())
    for rs in rulesets:
        for (kind, name), d in rs.decls.items():
            if name and not isinstance(d, A.Entity) and kind in KINDS_OF_DECL:
                out.setdefault(name, Completion(name, _completion_kind(kind), KINDS_OF_DECL[kind]))
    if tree is not None:
        for item in tree.items:
            name = getattr(item, "name", None)
            kind = _decl_kind(item)
            if isinstance(name, str) and name and kind in KINDS_OF_DECL:
                out.setdefault(name, Completion(name, _completion_kind(kind), KINDS_OF_DECL[kind]))
        decl = _enclosing(tree, line)
        if decl is not None:
            for name in _locals_of(decl):
                out.setdefault(name, Completion(name, "variable", "local"))
    for rs in rulesets:
        for name, opt in rs.options.items():
            out.setdefault(name, Completion(name, "module", "option" + (f": {opt.title}" if opt.title else "")))
    for name in REGISTRY:
        out.setdefault(name, Completion(name, "function", "builtin"))
    for word in keywords():
        out.setdefault(word, Completion(word, "keyword"))
    return list(out.values())


def _completion_kind(kind: str) -> str:
    return {"param": "constant", "procedure": "function", "counter": "variable", "var": "variable",
            "zone": "variable", "phase": "event", "kind": "class", "table": "struct", "die": "enum",
            "option": "module"}.get(kind, "value")


def _locals_of(decl) -> list[str]:
    names: list[str] = list(getattr(decl, "params", []) or [])

    def visit(n):
        if isinstance(n, A.Let):
            names.append(n.name)
        elif isinstance(n, (A.For, A.Comprehension)):
            names.append(n.var)
        elif isinstance(n, A.Block):
            names.extend(n.params)
    _walk(decl, visit)
    return names


# ---- outline ---------------------------------------------------------------------------------------

@dataclass
class Symbol:
    name: str
    kind: str
    detail: str
    span: Span
    children: list


def outline(tree: A.RuleFile) -> list[Symbol]:
    return [s for s in (_symbol(item) for item in tree.items) if s is not None]


def _symbol(item) -> Symbol | None:
    if isinstance(item, (A.Replace,)):
        inner = _symbol(item.item)
        if inner is not None:
            inner.detail = ("replace " + inner.detail).strip()
            inner.span = item.span
        return inner
    if isinstance(item, A.Modify):
        return Symbol(item.name, "object", f"modify {item.kind}", item.span, [])
    if isinstance(item, A.Remove):
        return Symbol(item.name, "object", f"remove {item.kind}", item.span, [])
    if isinstance(item, (A.Import, A.Extends)):
        return Symbol(item.path, "file", _decl_kind(item), item.span, [])
    if isinstance(item, A.Phase):
        return Symbol(item.name, "event", "phase" + (f" — {item.title}" if item.title else ""), item.span,
                      [Symbol(s.name, "method", "step", s.span, []) for s in item.steps])
    if isinstance(item, A.Entity):
        return Symbol(item.name, "object", item.kind, item.span,
                      [Symbol(b.name, "method", "block", b.span, []) for b in item.blocks])
    if isinstance(item, A.Option):
        kids = [s for s in (_symbol(i) for i in item.items) if s is not None]
        return Symbol(item.name, "package", "option" + (f" — {item.title}" if item.title else ""), item.span, kids)
    kind = _decl_kind(item)
    name = getattr(item, "name", None) or kind
    sym_kind = {"param": "constant", "counter": "variable", "var": "variable", "zone": "array",
                "procedure": "function", "kind": "class", "table": "struct", "die": "enum", "game": "module",
                "setup": "namespace", "victory": "namespace", "sequence": "namespace", "heuristic": "operator",
                "invariant": "boolean", "decision": "string", "view": "interface", "track": "struct",
                "mapdecl": "file", "overrides": "key"}.get(kind, "object")
    detail = KINDS_OF_DECL.get(kind, kind)
    if isinstance(item, A.GameDecl):
        name, detail = item.title, "game"
    return Symbol(str(name), sym_kind, detail, item.span, [])
