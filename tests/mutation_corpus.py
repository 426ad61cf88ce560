"""A seeded corpus of single-edit mutants of the shipped rule files, to measure what `civdsl check` catches.

Each mutant is one small mistake a person makes while editing a rule file, in one of four categories:

* ``field`` — a field name misspelled (a letter dropped, doubled or two swapped): the name after a `.`
  (`p.boxes` → `p.bxes`), a key of a record literal that the rules read with `.key`, a field given in a
  thing (`cost: 45`) or declared in a kind. The misspelling is never another name of the corpus.
* ``text-for-number`` — a number the rules compute with (a `param`, a counter's or variable's first
  value, a field of a thing or a kind's default, an operand of arithmetic or of `<`, a `+=`, an argument,
  a table's value) written as a text: `4` → `"four"`.
* ``arity`` — a call to a procedure or a builtin with one argument added (a copy of the last one) or
  dropped, so that the count is one the callee does not take.
* ``ref`` — a quoted thing name (`"Pottery"`, in a `ref KIND` field, a rule, a `modify`) misspelled,
  so it names no thing (a text that is also a map area's name is left alone: it may name the area).

Edit sites come from the syntax tree (`parse_text` and its spans), not from patterns on raw text; every
mutant is checked to parse (a mutant the parser refuses is not interesting: it is skipped) and to
differ from its file by one contiguous edit. The corpus depends only on the seed and the shipped files.

    from mutation_corpus import mutants
    for m in mutants(seed=0, count=40, categories=("field", "arity")):
        print(m.where, m.category, m.description)   # m.text is the whole mutated file

`tests/mutation_harness.py` checks and plays them; `benchmarks/mutants_bench.py` reports the figures.
"""
from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from civdsl.engine.builtins import REGISTRY
from civdsl.language import ast as A
from civdsl.language.diagnostics import CivError
from civdsl.language.parse_cache import parse_file
from civdsl.language.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("rulesets", "examples")  # the shipped rule files: rulesets/**/*.civ and examples/**/*.civ
CATEGORIES = ("field", "text-for-number", "arity", "ref")
DEFAULT_COUNT = 300

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ARITH = {"+", "-", "*", "/", "//", "%", "**"}
_ORDERING = {"<", "<=", ">", ">="}
_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen twenty").split()


@dataclass(frozen=True)
class Mutant:
    """One single-edit mutant. Paths are relative to the repository root (`ROOT`)."""

    id: str                   # "<category>-<n>", unique in a corpus
    category: str             # one of CATEGORIES
    path: str                 # the mutated file, e.g. "rulesets/roll-through-the-ages/agent.civ"
    line: int                 # where the edit starts (1-based line and column)
    col: int
    description: str          # one line: what was changed, e.g. "`.boxes` → `.bxes` (a field read)"
    before: str               # the text replaced ...
    after: str                # ... and what replaces it
    text: str = dataclasses.field(repr=False)  # the whole mutated file
    entry: str = ""           # the edition entry to check and play (a game.civ, or a variant / house rule)
    entries: tuple[str, ...] = ()  # every entry that loads the file (`civdsl check` checks them all)
    options: tuple[str, ...] = ()  # the options to switch on to play the edited rule (its `option` block)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    @property
    def original(self) -> str:
        return source(self.path)


# ---- the shipped files and what loads them ----------------------------------------------------------------
def rule_files() -> list[str]:
    """Every shipped rule file, relative to ROOT, sorted."""
    return sorted(str(p.relative_to(ROOT)) for src in SOURCES for p in (ROOT / src).rglob("*.civ"))


@lru_cache(maxsize=None)
def source(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def tree(path: str) -> A.RuleFile:
    return parse_file(str(ROOT / path))


@lru_cache(maxsize=1)
def loaded_by() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """File → the (entry, options) that load it: every entry (a `game` block, or an overlay that
    `extends` an edition) without options, and with each option for the files only an option imports."""
    from civdsl.language.loader import load_ruleset
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for entry in entry_files():
        path = ROOT / entry
        try:
            rs = load_ruleset(path, root=path.parent.parent)
        except CivError:
            continue
        plain = {_rel(f) for f in rs.files}
        for f in sorted(plain):
            out.setdefault(f, []).append((entry, ()))
        for option in sorted(rs.options):
            try:
                with_option = load_ruleset(path, options=[option], root=path.parent.parent)
            except CivError:
                continue
            for f in sorted({_rel(f) for f in with_option.files} - plain):
                if all(e != entry for e, _ in out.get(f, [])):
                    out.setdefault(f, []).append((entry, (option,)))
    return out


def entry_files() -> list[str]:
    """The entries among the shipped files: files with a `game` block or an `extends`."""
    return [f for f in rule_files() if any(isinstance(i, (A.GameDecl, A.Extends)) for i in tree(f).items)]


def _rel(f: str) -> str:
    p = Path(f).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


# ---- names that exist: a misspelling must not be one of them ----------------------------------------------------
@lru_cache(maxsize=1)
def identifiers() -> frozenset[str]:
    """Every word of every shipped file (comments included: conservative) and every builtin."""
    words = set(REGISTRY)
    for f in rule_files():
        words.update(_IDENT.findall(source(f)))
    return frozenset(words)


@lru_cache(maxsize=1)
def thing_names() -> frozenset[str]:
    """Every declared thing's name, in any shipped file."""
    return frozenset(node.name for f in rule_files() for node, _p, _c in nodes(f) if isinstance(node, A.Entity))


@lru_cache(maxsize=1)
def taken_names() -> frozenset[str]:
    """What a misspelled thing name must not become: a thing's name, a kind's, or a word of the files."""
    return thing_names() | _kind_names() | identifiers()


@lru_cache(maxsize=1)
def procedure_arities() -> dict[str, frozenset[int]]:
    out: dict[str, set[int]] = {}
    for f in rule_files():
        for node, _parent, _ctx in nodes(f):
            if isinstance(node, A.Procedure):
                out.setdefault(node.name, set()).add(len(node.params))
    return {k: frozenset(v) for k, v in out.items()}


@lru_cache(maxsize=None)
def nodes(path: str) -> list[tuple]:
    """`walk` of a shipped file, kept."""
    return list(walk(tree(path)))


@lru_cache(maxsize=None)
def _attr_names(path: str) -> frozenset[str]:
    return frozenset(n.name for n, _p, _c in nodes(path) if isinstance(n, A.Attr))


@lru_cache(maxsize=None)
def _files_of(entry: str) -> frozenset[str]:
    return frozenset(f for f, users in loaded_by().items() if any(e == entry for e, _ in users))


@lru_cache(maxsize=None)
def attr_names_for(path: str) -> frozenset[str]:
    """The names read with `.name` in the files loaded together with `path` (by any of its entries)."""
    files = {path}
    for entry, _options in loaded_by().get(path, []):
        files |= _files_of(entry)
    return frozenset().union(*(_attr_names(f) for f in files if f in _all_files()))


@lru_cache(maxsize=1)
def _all_files() -> frozenset[str]:
    return frozenset(rule_files())


# ---- the syntax tree, node by node, with where each node sits ------------------------------------------------
@dataclass(frozen=True)
class Ctx:
    option: str | None = None   # inside `option NAME { ... }`
    view: bool = False          # inside a `view` (what players see; no rule reads it)
    decl: object = None         # the top-level declaration
    thing_field: tuple | None = None  # inside `field: value` of a thing (or a `modify`): (kind, field)


_SKIP_FIELDS = {(A.Log, "parts"), (A.Fail, "parts"), (A.Headline, "parts")}  # templates: spans are the text's


def walk(node, parent=None, ctx: Ctx = Ctx()):
    """(node, parent, ctx) for every node under `node` (a RuleFile, a declaration, ...), in source order."""
    stack = [(node, parent, ctx)]
    while stack:
        n, p, c = stack.pop()
        if isinstance(n, A.RuleFile):
            children = [(i, n, Ctx(decl=i)) for i in n.items]
            stack.extend(reversed(children))
            continue
        if isinstance(n, (list, tuple)):
            stack.extend(reversed([(x, p, c) for x in n]))
            continue
        if not dataclasses.is_dataclass(n):
            continue
        yield n, p, c
        if isinstance(n, A.Option):
            c = dataclasses.replace(c, option=n.name)
        elif isinstance(n, A.View):
            c = dataclasses.replace(c, view=True)
        elif isinstance(n, A.Field) and isinstance(p, (A.Entity, A.Modify)):
            c = dataclasses.replace(c, thing_field=(p.kind, n.name))
        children = []
        for f in dataclasses.fields(n):
            if (type(n), f.name) in _SKIP_FIELDS:
                continue
            v = getattr(n, f.name)
            if isinstance(v, (list, tuple)) or dataclasses.is_dataclass(v):
                children.append((v, n, c))
        stack.extend(reversed(children))


# ---- text positions --------------------------------------------------------------------------------------
class _Text:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col - 1

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def span(self, s) -> tuple[int, int]:
        return self.offset(s.line, s.col), self.offset(s.end_line, s.end_col)


@dataclass(frozen=True)
class Site:
    """A place to edit: the text at [start, end) of `path`, and how it may be changed."""

    category: str
    path: str
    start: int
    end: int
    kind: str                 # what the text is, for the description ("a field read", "a param", ...)
    data: tuple = ()          # category-specific: (name,) for misspellings, (args...) for arity


# ---- finding the sites of each category -----------------------------------------------------------------------
def sites(path: str) -> list[Site]:
    """Every edit site of every category in one file, in source order."""
    text = _Text(source(path))
    out: list[Site] = []
    things = thing_names()
    procs = procedure_arities()
    for node, parent, ctx in nodes(path):
        out.extend(_field_sites(path, text, node, parent, ctx))
        out.extend(_number_sites(path, text, node, parent, ctx))
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            out.extend(_arity_sites(path, text, node, procs))
        if isinstance(node, A.Literal) and isinstance(node.value, str) and node.value in things \
                and _names_a_thing(node.value, ctx):
            s, e = text.span(node.span)
            if text.text[s:e] == f'"{node.value}"':
                where = f"`{ctx.thing_field[1]}` of a {ctx.thing_field[0]}" if ctx.thing_field else "a rule"
                out.append(Site("ref", path, s + 1, e - 1, f"a thing named in {where}", (node.value,)))
        if isinstance(node, (A.Modify, A.Remove)) and node.name in things:
            s, e = text.span(node.span)
            at = text.text.find(f'"{node.name}"', s, e)
            if at >= 0:
                out.append(Site("ref", path, at + 1, at + 1 + len(node.name), f"the thing a `{_decl_word(node)}` names",
                                (node.name,)))
    return out


def _names_a_thing(value: str, ctx: Ctx) -> bool:
    """A text equal to a thing's name is a reference to it where a `ref` field holds it, or in a rule
    when no map area has that name too (`start_areas: ["Carthage"]` names an area, not the nation)."""
    if ctx.thing_field is not None:
        return ctx.thing_field in ref_fields()
    return value not in area_names()


@lru_cache(maxsize=1)
def ref_fields() -> frozenset[tuple[str, str]]:
    """(kind, field) of every kind field whose type holds a `ref`."""
    def has_ref(t) -> bool:
        return isinstance(t, tuple) and (t[:1] == ("ref",) or any(has_ref(x) for x in t[1:]))
    return frozenset((n.name, f.name) for path in rule_files() for n, _p, _c in nodes(path)
                     if isinstance(n, A.Kind) for f in n.fields if has_ref(f.type))


@lru_cache(maxsize=1)
def area_names() -> frozenset[str]:
    """The names of the areas of every map a shipped file declares (`map board from "x.json"`)."""
    import json
    names: set[str] = set()
    for path in rule_files():
        for n, _p, _c in nodes(path):
            if isinstance(n, A.MapDecl):
                try:
                    data = json.loads(((ROOT / path).parent / n.path).read_text(encoding="utf-8"))
                    names.update(data.get("areas", {}))
                except (OSError, ValueError, AttributeError):
                    pass
    return frozenset(names)


def _decl_word(node) -> str:
    return "modify" if isinstance(node, A.Modify) else "remove"


def _dot_before(t: str, i: int) -> bool:
    i -= 1
    while i >= 0 and t[i] in " \t\n":
        i -= 1
    return i >= 0 and t[i] == "."


def _name_at(text: _Text, start: int, name: str) -> bool:
    return text.text[start:start + len(name)] == name


def _field_sites(path: str, text: _Text, node, parent, ctx: Ctx):
    if isinstance(node, A.Attr):
        s, e = text.span(node.span)
        if text.text[e - len(node.name):e] == node.name and _dot_before(text.text, e - len(node.name)):
            yield Site("field", path, e - len(node.name), e, "a field read after `.`", (node.name,))
    elif isinstance(node, A.RecordLit) and not ctx.view:
        read = attr_names_for(path)
        for key, value in zip(node.keys, node.values):
            if key not in read:
                continue
            at = _key_before(text, text.span(value.span)[0], key)
            if at is not None:
                yield Site("field", path, at, at + len(key), "a record key the rules read", (key,))
    elif isinstance(node, A.Field) and (isinstance(parent, A.Entity)
                                        or (isinstance(parent, A.Modify) and parent.kind in _kind_names())):
        s, _ = text.span(node.span)
        if _name_at(text, s, node.name):
            yield Site("field", path, s, s + len(node.name), "a field given in a thing", (node.name,))
    elif isinstance(node, A.KindField):
        s, _ = text.span(node.span)
        if _name_at(text, s, node.name):
            yield Site("field", path, s, s + len(node.name), "a field declared in a kind", (node.name,))


@lru_cache(maxsize=1)
def _kind_names() -> frozenset[str]:
    return frozenset(n.name for f in rule_files() for n, _p, _c in nodes(f) if isinstance(n, A.Kind))


def _key_before(text: _Text, value_start: int, key: str) -> int | None:
    """The offset of `key` in `key: value` (or `"key": value`), found backwards from the value."""
    i = value_start - 1
    t = text.text
    while i >= 0 and t[i] in " \t\n":
        i -= 1
    if i < 0 or t[i] != ":":
        return None
    i -= 1
    while i >= 0 and t[i] in " \t\n":
        i -= 1
    quoted = t[i] == '"'
    end = i if quoted else i + 1
    start = end - len(key)
    if t[start:end] != key:
        return None
    if quoted and (start < 1 or t[start - 1] != '"'):
        return None
    if not quoted and start > 0 and (t[start - 1].isalnum() or t[start - 1] == "_"):
        return None
    return start


def _is_number(node) -> bool:
    return isinstance(node, A.Literal) and type(node.value) in (int, float)


def _number_sites(path: str, text: _Text, node, parent, ctx: Ctx):
    """Numbers the rules compute with, as (literal, what it is)."""
    found: list[tuple[A.Literal, str]] = []
    if isinstance(node, A.Param):
        found.append((node.value, f"the value of param `{node.name}`"))
    elif isinstance(node, A.Counter):
        found.append((node.init, f"the first value of counter `{node.name}`"))
    elif isinstance(node, A.Var):
        found.append((node.init, f"the first value of var `{node.name}`"))
    elif isinstance(node, A.KindField):
        found.append((node.default, f"the default of kind field `{node.name}`"))
    elif isinstance(node, A.Field) and isinstance(parent, (A.Entity, A.Modify)):
        what = "param" if isinstance(parent, A.Modify) and parent.kind == "param" else "field"
        found.append((node.value, f"the {what} `{node.name}` of {parent.kind} `{parent.name}`"))
    elif isinstance(node, A.TableRow):
        found.append((node.value, "a table's value"))
    elif isinstance(node, A.BinOp) and node.op in _ARITH:
        found.extend([(node.left, f"an operand of `{node.op}`"), (node.right, f"an operand of `{node.op}`")])
    elif isinstance(node, A.Compare) and set(node.ops) & _ORDERING:
        found.extend((o, f"an operand of `{' '.join(node.ops)}`") for o in node.operands)
    elif isinstance(node, A.Assign) and node.op in ("+=", "-="):
        found.append((node.value, f"the amount of a `{node.op}`"))
    elif isinstance(node, A.Call) and isinstance(node.func, A.Name):
        found.extend((a, f"an argument of `{node.func.id}`") for a in node.args)
    for lit, what in found:
        if lit is None or not _is_number(lit) or ctx.view:
            continue
        s, e = text.span(lit.span)
        if s > 0 and text.text[s - 1] == "-":  # `-3`: the minus stays out of the edit
            continue
        yield Site("text-for-number", path, s, e, what, (text.text[s:e],))


def _arity_sites(path: str, text: _Text, call: A.Call, procs: dict[str, frozenset[int]]):
    name = call.func.id
    n = len(call.args)
    if name in procs:
        allowed = procs[name]
        lo, hi = min(allowed), max(allowed)
        exact = allowed
    elif name in REGISTRY:
        lo, hi = REGISTRY[name].arity
        exact = frozenset(range(lo, hi + 1))
    else:
        return
    s, e = text.span(call.span)
    if text.text[e - 1] != ")":
        return
    ways = []
    if n >= 1 and n - 1 not in exact:
        ways.append("drop")
    if n + 1 not in exact:
        ways.append("add")
    arg_spans = tuple(text.span(a.span) for a in call.args)
    yield Site("arity", path, s, e, f"a call of `{name}` ({n} argument{'s' if n != 1 else ''})",
               (name, tuple(ways), arg_spans, lo, hi))


# ---- making a mutant from a site ----------------------------------------------------------------------------------
def misspell(word: str, rng: random.Random, taken) -> str | None:
    """`word` with one letter dropped, doubled, or two neighbouring letters swapped; never a name in
    `taken`, never `word` itself; None if every try lands on one."""
    letters = [i for i, ch in enumerate(word) if ch.isalpha()]
    ways = []
    for i in letters:
        if len(word) >= 3:
            ways.append(word[:i] + word[i + 1:])
        ways.append(word[:i] + word[i] + word[i:])
        if i + 1 < len(word) and word[i + 1].isalpha() and word[i + 1] != word[i]:
            ways.append(word[:i] + word[i + 1] + word[i] + word[i + 2:])
    ways = sorted(set(w for w in ways if w != word and w not in taken and w.strip() and w[0] not in "0123456789 "))
    return rng.choice(ways) if ways else None


def number_as_text(literal: str) -> str:
    try:
        value = int(literal)
    except ValueError:
        return f'"{literal}"'
    return f'"{_WORDS[value]}"' if 0 <= value < len(_WORDS) else f'"{literal}"'


def _edit(site: Site, rng: random.Random) -> tuple[int, int, str, str] | None:
    """(start, end, new text, description) for one site, or None when the site cannot be edited."""
    text = source(site.path)
    old = text[site.start:site.end]
    if site.category == "field":
        new = misspell(site.data[0], rng, identifiers())
        return None if new is None else (site.start, site.end, new, f"`{old}` → `{new}`: {site.kind}")
    if site.category == "ref":
        new = misspell(site.data[0], rng, taken_names())
        return None if new is None else (site.start, site.end, new, f'"{old}" → "{new}": {site.kind}')
    if site.category == "text-for-number":
        new = number_as_text(old)
        return site.start, site.end, new, f"`{old}` → `{new}`: {site.kind}"
    name, ways, arg_spans, lo, hi = site.data
    if not ways:
        return None
    way = rng.choice(ways)
    takes = f"{lo}" if lo == hi else f"{lo} to {hi}"
    if way == "drop":
        last_s, last_e = arg_spans[-1]
        start = arg_spans[-2][1] if len(arg_spans) > 1 else text.index("(", site.start) + 1
        removed = text[start:last_e]
        return start, last_e, "", f"`{name}(...)` loses its last argument `{removed.lstrip(', ').strip()}` " \
                                  f"({len(arg_spans) - 1} given, takes {takes})"
    if arg_spans:
        last_s, last_e = arg_spans[-1]
        extra = text[last_s:last_e]
        if "\n" in extra or len(extra) > 60:
            return None
        return last_e, last_e, f", {extra}", f"`{name}(...)` gets an extra argument `{extra}` " \
                                             f"({len(arg_spans) + 1} given, takes {takes})"
    close = site.end - 1
    return close, close, "none", f"`{name}()` gets an argument `none` (1 given, takes {takes})"


def _make(site: Site, rng: random.Random, number: int) -> Mutant | None:
    edit = _edit(site, rng)
    if edit is None:
        return None
    start, end, new, description = edit
    text = source(site.path)
    mutated = text[:start] + new + text[end:]
    if mutated == text:
        return None
    try:
        parse_text(mutated, site.path)
    except CivError:
        return None  # the parser catches it: not interesting here
    line, col = _Text(text).position(start)
    users = loaded_by().get(site.path, [])
    if not users:
        return None  # a file no entry loads: nothing to check or play
    option = _option_at(site.path, start)
    entry, options = _primary(site.path, users, rng)
    if option:
        options = (option,)
    return Mutant(f"{site.category}-{number:04d}", site.category, site.path, line, col, description,
                  text[start:end], new, mutated, entry, tuple(e for e, _ in users), options)


def _option_at(path: str, offset: int) -> str | None:
    text = _Text(source(path))
    for item in tree(path).items:
        item = item.item if isinstance(item, A.Replace) else item  # `replace option X { ... }` too
        if isinstance(item, A.Option):
            s, e = text.span(item.span)
            if s <= offset < e:
                return item.name
    return None


def _primary(path: str, users: list[tuple[str, tuple[str, ...]]], rng: random.Random) -> tuple[str, tuple]:
    """The entry to play for a file: the file itself if it is an entry, else its own folder's edition,
    else (a shared library file) one of the editions that load it, chosen by the seed."""
    for entry, options in users:
        if entry == path:
            return entry, options
    folder = str(Path(path).parent)
    for entry, options in users:
        if folder == str(Path(entry).parent) or folder.startswith(str(Path(entry).parent) + "/"):
            return entry, options
    editions = [u for u in users if Path(u[0]).name == "game.civ" and u[0].startswith("rulesets/")] or users
    return editions[rng.randrange(len(editions))]


@lru_cache(maxsize=1)
def all_sites() -> dict[str, list[Site]]:
    """Category → every site of that category in the shipped files, in a fixed order."""
    out: dict[str, list[Site]] = {c: [] for c in CATEGORIES}
    for f in rule_files():
        for s in sites(f):
            out[s.category].append(s)
    return out


def mutants(seed: int = 0, count: int | None = None, categories=CATEGORIES) -> list[Mutant]:
    """`count` mutants (default `DEFAULT_COUNT`), shared as evenly as possible among `categories`
    (fewer where a category has too few sites), each at a different site; the same list for the same
    seed, count and categories. Ordered by category, in the order given."""
    categories = tuple(categories)
    unknown = set(categories) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"unknown categories: {sorted(unknown)}; choose from {CATEGORIES}")
    count = DEFAULT_COUNT if count is None else count
    quota = {c: count // len(categories) + (1 if i < count % len(categories) else 0) for i, c in enumerate(categories)}
    out: list[Mutant] = []
    for category in categories:
        rng = random.Random(f"civdsl-mutants:{seed}:{category}")
        pool = list(all_sites()[category])
        rng.shuffle(pool)
        made = 0
        for site in pool:
            if made >= quota[category]:
                break
            m = _make(site, rng, made + 1)
            if m is not None:
                out.append(m)
                made += 1
    return out


if __name__ == "__main__":  # a look at a corpus: python tests/mutation_corpus.py [seed] [count]
    import sys
    args = [int(a) for a in sys.argv[1:3]]
    for m in mutants(*args):
        print(f"{m.id:22} {m.where:55} {m.entry:45} {','.join(m.options):10} {m.description}")
