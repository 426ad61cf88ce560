"""Load a ruleset: resolve `import` and `extends`, apply overlays, and collect the effective rules.

The result, a `Ruleset`, is an ordered map from rule keys (kind, name) to declarations plus, for
every key, the chain of places that shaped it (defined, replaced, modified) — the provenance that
`check` and the game log report. Paths in rule files are relative to the file that names them and
may never leave the rulesets root (no absolute paths, no escaping `..`, no symbolic link out): the
policy is `paths.py`.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from . import ast as A
from .diagnostics import CivError, Diagnostic, Span, error
from .limits import collector_paused
from .parse_cache import parse_file
from .paths import RULE_SUFFIX, extends_target, resolve_rule_path, rules_root

MAX_FILES = 200


@dataclass
class Ruleset:
    """The effective rules of one edition plus any selected options and house rules."""

    entry: str
    root: Path
    decls: dict[tuple[str, str], A.Decl] = field(default_factory=dict)
    history: dict[tuple[str, str], list[tuple[Span, str]]] = field(default_factory=dict)
    originals: dict[tuple[str, str], A.Decl] = field(default_factory=dict)  # each rule as first defined
    options: dict[str, A.Option] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    extra_roots: list[Path] = field(default_factory=list)  # roots of editions named by `extends "name"`
    selected: list[str] = field(default_factory=list)  # the options switched on, in order

    def root_of(self, path: str) -> Path:
        """The rulesets root holding `path`: a file may name files only inside its own root."""
        resolved = Path(path).resolve()
        for r in [self.root, *self.extra_roots]:
            if resolved.is_relative_to(r):
                return r
        return self.root

    @property
    def game(self) -> A.GameDecl | None:
        return self.decls.get(("game", ""))  # type: ignore[return-value]

    def game_field(self, name: str):
        """A literal field of the `game` block (edition, players...), or None."""
        g = self.game
        for f in (g.fields if g else []):
            if f.name == name:
                return f.value
        return None

    def edition(self) -> str:
        value = self.game_field("edition")
        return value.value if isinstance(value, A.Literal) else Path(self.entry).parent.name

    def of(self, cls) -> list:
        return [d for d in self.decls.values() if isinstance(d, cls)]

    def digest(self) -> str:
        """Hash of the effective rules — every source that shaped them, in load order, and the options
        switched on — written in a game log's header, so that a replay refuses other rules."""
        h = hashlib.sha256()
        for name in self.selected:
            h.update(f"option {name}\0".encode())
        for f in self.files:
            h.update(self.display(f).encode())
            h.update(b"\0")
            h.update(self.sources.get(f, "").encode())
            h.update(b"\0")
        return h.hexdigest()[:16]

    def display(self, path: str) -> str:
        """A stable, machine-independent name for a source file (relative to the rulesets root)."""
        try:
            return Path(path).resolve().relative_to(self.root_of(path)).as_posix()
        except ValueError:
            return Path(path).name


def resolve_inside(base_file: str, rel: str, root: Path, span: Span, what: str) -> Path:
    """Resolve `rel` against the folder of `base_file`, refusing paths that leave `root` (the policy:
    `paths.resolve_rule_path`)."""
    return resolve_rule_path(base_file, rel, root, span, what)


class Loader:
    """Reads files once each, detects cycles, and merges declarations with overlay rules."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self.roots = [self.root]  # an `extends "edition-name"` adds that edition's rulesets root
        self.cache: dict[Path, A.RuleFile] = {}
        self.stack: list[Path] = []
        self.count = 0

    def read(self, path: Path, span: Span | None) -> A.RuleFile:
        try:
            path = path.resolve()
            found = path.is_file()
        except (OSError, RuntimeError):  # a name too long, a link loop
            found = False
        if path in self.stack:
            raise error("LOAD004", f"`{path.name}` imports itself through a cycle", span,
                        "remove one of the imports in the cycle")
        if path not in self.cache:
            self.count += 1
            if self.count > MAX_FILES:
                raise error("LOAD005", f"more than {MAX_FILES} rule files", span)
            if not found:
                shown = path.name
                if span is not None:
                    try:
                        shown = os.path.relpath(path, Path(span.file).resolve().parent)
                    except ValueError:
                        pass
                raise error("LOAD001", f"rule file `{shown}` not found", span or Span(str(path), 1, 1),
                            "check the path; it is relative to the file that names it")
            self.cache[path] = parse_file(str(path))
        return self.cache[path]

    def root_of(self, path: Path) -> Path:
        for r in self.roots:
            try:
                path.relative_to(r)
                return r
            except ValueError:
                continue
        return self.root

    def base_of(self, file: str, ext: A.Extends, root: Path) -> Path:
        """`extends "file.civ"` is a path; `extends "edition-name"` names a shipped or listed edition
        (by name only: never a folder, which would be found from the working directory)."""
        extends_target(ext.path, ext.span)
        if ext.path.endswith(RULE_SUFFIX):
            return resolve_inside(file, ext.path, root, ext.span, "extends")
        from .editions import find_edition
        try:
            entry = find_edition(ext.path, by_path=False)
        except CivError as exc:
            exc.diagnostics[0].span = ext.span
            raise
        self.roots.append(entry.resolve().parent.parent)
        return entry

    def load_into(self, rs: Ruleset, path: Path, span: Span | None, overlay: bool, claim=None) -> None:
        """Load a file (and what it imports) into the ruleset. `claim`: for a file an option or a house
        rule imports, called with each of its changes before they apply (two overlays may not change one
        rule without saying which wins, also from the files they import: `_claim`)."""
        rf = self.read(path, span)
        key = path.resolve()
        if str(key) in rs.files:
            return
        self.stack.append(key)
        try:
            # `extends` first: the base must exist before this file's overrides apply to it.
            extends = [i for i in rf.items if isinstance(i, A.Extends)]
            root = self.root_of(key)
            for ext in extends:
                self.load_into(rs, self.base_of(rf.path, ext, root), ext.span, False)
            rs.extra_roots = [r for r in self.roots if r != rs.root]
            for item in rf.items:
                if isinstance(item, A.Import):
                    self.load_into(rs, resolve_inside(rf.path, item.path, root, item.span, "import"),
                                   item.span, overlay or bool(extends), claim)
            rs.files.append(str(key))
            rs.sources[str(key)] = Path(key).read_text(encoding="utf-8")
            is_overlay = overlay or bool(extends)
            for item in rf.items:
                if not isinstance(item, (A.Import, A.Extends)):
                    if claim is not None:
                        claim(item)
                    apply_decl(rs, item, is_overlay)
        finally:
            self.stack.pop()


def apply_decl(rs: Ruleset, item: A.Decl, overlay: bool) -> None:
    """Merge one declaration; redefinitions must say `replace`, and overrides must hit something."""
    if isinstance(item, A.Replace) and isinstance(item.item, A.Option) or \
            isinstance(item, A.Remove) and item.kind == "option":
        _override_option(rs, item)
        return
    if isinstance(item, A.Option):
        if item.name in rs.options:
            prev = rs.options[item.name]
            rs.diagnostics.append(Diagnostic("DUP001", f"option `{item.name}` is defined twice", item.span, "error",
                                             "rename one of them", [(prev.span, "first defined here")]))
        rs.options[item.name] = item
        rs.history.setdefault(item.key(), []).append((item.span, "defined"))
        return
    key = item.key()
    hist = rs.history.setdefault(key, [])
    if isinstance(item, A.Replace):
        if key not in rs.decls:
            rs.diagnostics.append(_missing(rs, item, key, "replace"))
            return
        rs.decls[key] = item.item
        hist.append((item.span, "replaced"))
    elif isinstance(item, A.Remove):
        if key not in rs.decls:
            rs.diagnostics.append(_missing(rs, item, key, "remove"))
            return
        del rs.decls[key]
        hist.append((item.span, "removed"))
    elif isinstance(item, A.Modify):
        if key not in rs.decls:
            rs.diagnostics.append(_missing(rs, item, key, "modify"))
            return
        rs.decls[key] = modify(rs.decls[key], item)
        hist.append((item.span, "modified"))
    else:
        if key in rs.decls:
            prev = rs.decls[key]
            what = f"{key[0]} `{key[1]}`" if key[1] else f"the `{key[0]}` block"
            hint = ("an overlay must say `replace` (or `modify`) to change a rule of its base"
                    if overlay else "rename one of them, or remove the duplicate")
            rs.diagnostics.append(Diagnostic("DUP001", f"{what} is defined twice", item.span, "error", hint,
                                             [(prev.span, "first defined here")]))
            return
        rs.decls[key] = item
        rs.originals.setdefault(key, item)
        hist.append((item.span, "defined"))


def _override_option(rs: Ruleset, item: A.Replace | A.Remove) -> None:
    """`replace option name {..}` swaps an option of the base edition; `remove option name` drops it."""
    key = item.key()
    hist = rs.history.setdefault(key, [])
    if key[1] not in rs.options:
        rs.diagnostics.append(_missing(rs, item, key, "replace" if isinstance(item, A.Replace) else "remove"))
    elif isinstance(item, A.Replace):
        rs.options[key[1]] = item.item
        hist.append((item.span, "replaced"))
    else:
        del rs.options[key[1]]
        hist.append((item.span, "removed"))


def _missing(rs: Ruleset, item: A.Decl, key, verb: str) -> Diagnostic:
    names = sorted(rs.options) if key[0] == "option" else sorted(n for (k, n) in rs.decls if k == key[0])
    from .names import suggest
    guess = suggest(key[1], names)
    hint = f"did you mean `{guess}`?" if guess else f"there is no {key[0]} `{key[1]}` to {verb}"
    return Diagnostic("OVL001", f"cannot {verb} {key[0]} `{key[1]}`: it does not exist", item.span, "error", hint)


def _claim(rs: Ruleset, owners: dict, overlay: str, wins: set[str], item: A.Decl) -> None:
    """Two overlays of one game may not change the same rule unless the later says it wins."""
    if not isinstance(item, (A.Replace, A.Modify, A.Remove)):
        return
    key = item.key()
    prev = owners.get(key)
    if prev and prev[0] != overlay and prev[0] not in wins and prev[0].removeprefix("option ") not in wins:
        rs.diagnostics.append(Diagnostic(
            "OVL004", f"{overlay} and {prev[0]} both change {key[0]} `{key[1]}`", item.span, "error",
            f"say which wins: put `overrides \"{prev[0].removeprefix('option ')}\"` in {overlay}",
            [(prev[1], f"{prev[0]} changes it here")]))
    owners[key] = (overlay, item.span)


def modify(decl: A.Decl, mod: A.Modify) -> A.Decl:
    """Apply `modify kind "name" { field: value }`: entity fields, param `value`, table rows."""
    if isinstance(decl, A.Param):
        for f in mod.fields:
            if f.name != "value":
                raise error("OVL002", f"a param has only `value`, not `{f.name}`", f.span)
            decl = replace(decl, value=f.value, span=f.span)
        return decl
    if isinstance(decl, A.Entity):
        fields = {f.name: f for f in decl.fields}
        for f in mod.fields:
            fields[f.name] = f
        return replace(decl, fields=list(fields.values()))
    if isinstance(decl, A.Table):
        return replace(decl, rows=_modify_rows(decl, mod))
    if isinstance(decl, (A.GameDecl, A.Victory, A.Track, A.DecisionText)):
        fields = {f.name: f for f in decl.fields}
        for f in mod.fields:
            fields[f.name] = f
        return replace(decl, fields=list(fields.values()))
    raise error("OVL003", f"`modify` does not apply to a {mod.kind}; use `replace`", mod.span)


def _in_chain(rs: Ruleset, edition: str) -> bool:
    """Whether the game's rules include that edition: it is the game's edition or one it extends."""
    from .editions import find_edition
    if edition == rs.edition():
        return True
    try:
        return str(find_edition(edition, by_path=False).resolve()) in rs.files
    except CivError:
        return False


def _modify_rows(table: A.Table, mod: A.Modify) -> list[A.TableRow]:
    """Rows with the same key are replaced, new keys are added; a key may not cut into a range."""
    rows = list(table.rows)
    for new in mod.fields:
        if not isinstance(new, A.TableRow):
            raise error("OVL003", f"`modify table {table.name}` takes rows (`7: 48`), not the field `{new.name}`",
                        new.span)
        same = [i for i, r in enumerate(rows) if (r.lo, r.hi) == (new.lo, new.hi)]
        if same:
            rows[same[0]] = new
            continue
        clash = next((r for r in rows if isinstance(r.lo, int) and isinstance(new.lo, int)
                      and r.lo <= new.hi and new.lo <= r.hi), None)
        if clash is not None:
            raise CivError([Diagnostic("OVL005", f"row {_row_key(new)} overlaps row {_row_key(clash)} of table "
                                       f"`{table.name}`", new.span, "error",
                                       "change the whole row (same key), or `replace` the table",
                                       [(clash.span, "that row is here")])])
        rows.append(new)
    return rows


def _row_key(row: A.TableRow) -> str:
    return str(row.lo) if row.lo == row.hi else f"{row.lo}..{row.hi}"


def load_ruleset(entry: str | Path, options: list[str] | None = None, house_rules: list[str] | None = None,
                 root: Path | None = None) -> Ruleset:
    """Load an edition's entry file, then the selected options and house-rule overlays, in order."""
    entry = Path(entry).resolve()
    root = rules_root(entry, root)
    rs = Ruleset(str(entry), root)
    loader = Loader(root)
    with collector_paused():  # (parsing makes many objects and frees few: see `limits`)
        loader.load_into(rs, entry, None, False)
    owners: dict[tuple[str, str], tuple[str, Span]] = {}
    rs.selected = list(options or [])
    for name in options or []:
        opt = rs.options.get(name)
        if opt is None:
            from .names import suggest
            guess = suggest(name, sorted(rs.options))
            known = ", ".join(sorted(rs.options)) or "none"
            raise error("CFG010", f"edition `{rs.edition()}` has no option `{name}`", None,
                        (f"did you mean `{guess}`? " if guess else "") + f"options: {known}")
        wins = {i.target for i in opt.items if isinstance(i, A.Overrides)}
        claim = partial(_claim, rs, owners, f"option {name}", wins)
        for item in opt.items:
            if isinstance(item, A.Import):  # an option's own rule files join the game with it, as overlays
                opt_file = Path(opt.span.file).resolve()
                loader.load_into(rs, resolve_inside(str(opt_file), item.path, loader.root_of(opt_file), item.span,
                                                    "import"), item.span, True, claim)
            elif not isinstance(item, A.Overrides):
                claim(item)
                apply_decl(rs, item, True)
    for hr in house_rules or []:
        hr_path = Path(hr).resolve()
        if hr_path.suffix != RULE_SUFFIX:  # the callers apply the path policy; this is the last guard
            raise error("CFG018", f"house rule `{hr}` is not a `.civ` rule file", None,
                        "a house rule is a `.civ` file or the name of a shipped variant (`civdsl list`)")
        hr_loader = Loader(hr_path.parent)
        hr_loader.cache = loader.cache
        rf = hr_loader.read(hr_path, None)
        rs.files.append(str(hr_path))
        rs.sources[str(hr_path)] = hr_path.read_text(encoding="utf-8")
        wins = {i.target for i in rf.items if isinstance(i, A.Overrides)}
        claim = partial(_claim, rs, owners, hr_path.name, wins)
        for item in rf.items:
            if isinstance(item, A.Overrides):
                continue
            if isinstance(item, A.Import):
                hr_loader.load_into(rs, resolve_inside(rf.path, item.path, hr_path.parent, item.span, "import"),
                                    item.span, True, claim)
            elif isinstance(item, A.Extends):
                extends_target(item.path, item.span)
                if not item.path.endswith(RULE_SUFFIX) and not _in_chain(rs, item.path):
                    raise error("CFG016", f"house rule `{hr_path.name}` extends `{item.path}`, but the game's "
                                f"edition is `{rs.edition()}`", item.span,
                                "play it with its own edition, or change its `extends`")
            else:
                claim(item)
                apply_decl(rs, item, True)
    if rs.diagnostics:
        raise CivError(sorted(rs.diagnostics, key=Diagnostic.sort_key))
    return rs
