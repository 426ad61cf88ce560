"""`civdsl check`: every way a ruleset can be wrong before a game starts.

For each edition entry (a file with a `game` block, or an overlay that `extends` one) this loads the
rules (imports, overlays), compiles them (names, arity, kinds, fields, phases, the sequence), checks
their types (`compiler/typecheck`: fields, operators, built-in calls, declared types and ranges,
overlays that keep types), and evaluates every constant once (parameters, dice, tables, the fields of
things, so a card that requires an advance which does not exist is caught). Other `.civ` files are
parsed for syntax. Diagnostics are collected, not raised, so one run reports them all.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..api import allowed_players
from ..compiler.compiler import compile_ruleset
from ..compiler.typecheck.check import check_types
from ..engine.agents import RandomAgent
from ..engine.interpreter import Game
from ..language import ast as A
from ..language.diagnostics import CivError, Diagnostic
from ..language.loader import load_ruleset
from ..language.parse_cache import parse_file
from ..language.paths import files_under

MAX_FILES = 2_000


def civ_files(paths: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The `.civ` files to check or format: the files named, and those under the folders named — found
    without following a symbolic link out of the folder (LOAD007, a warning: `paths.files_under`)."""
    files: list[Path] = []
    diags: list[Diagnostic] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found, notes = files_under(p)
            files.extend(found)
            diags.extend(notes)
        elif p.is_file():
            files.append(p)
        else:
            diags.append(Diagnostic("LOAD001", f"no such file or folder `{raw}`", None))
    return files[:MAX_FILES], diags


def _rules_root(path: Path) -> Path:
    """The rulesets root for an entry: the folder above its edition folder."""
    return path.resolve().parent.parent


def check_entry(path: Path, types: bool = True) -> list[Diagnostic]:
    """Load, compile, type-check and evaluate the constants of one edition entry or overlay, and compile
    and type-check it with each of its options (`types`: False leaves the type check out, for the
    benchmark that measures what it costs)."""
    try:
        rs = load_ruleset(path, root=_rules_root(path))
    except CivError as exc:
        return exc.diagnostics
    prog, diags = compile_ruleset(rs)
    if any(d.severity == "error" for d in diags):
        return diags
    if types:
        diags.extend(check_types(rs, prog))
        if any(d.severity == "error" for d in diags):
            return diags  # (the constants are not evaluated: a wrong type would only fail again there)
    counts = allowed_players(rs) or [1]
    try:
        Game(prog, counts[0], 0, [RandomAgent(0, i) for i in range(counts[0])], logging=False).init()
    except CivError as exc:
        diags.extend(exc.diagnostics)
    for option in sorted(rs.options):
        try:
            with_option = load_ruleset(path, options=[option], root=_rules_root(path))
        except CivError as exc:
            diags.extend(exc.diagnostics)
            continue
        option_prog, option_diags = compile_ruleset(with_option)
        if types and not any(d.severity == "error" for d in option_diags):
            option_diags = option_diags + check_types(with_option, option_prog)
        diags.extend(d for d in option_diags if d.severity == "error")
    return diags


def check_paths(paths: list[str], types: bool = True) -> tuple[list[Diagnostic], int]:
    """All diagnostics for the given files and folders, and how many files were read (`types`: see
    `check_entry`)."""
    files, diags = civ_files(paths)
    _lines_cache.clear()
    parsed: dict[Path, A.RuleFile] = {}
    for f in files:
        try:
            parsed[f] = parse_file(str(f.resolve()))
        except CivError as exc:
            diags.extend(exc.diagnostics)
    for f, rf in parsed.items():
        if any(isinstance(i, (A.GameDecl, A.Extends)) for i in rf.items):
            diags.extend(check_entry(f, types))
    unique: dict[tuple, Diagnostic] = {}
    for d in diags:
        unique.setdefault((d.code, d.message, d.span), d)
    kept = [d for d in unique.values() if not suppressed(d)]
    return sorted(kept, key=Diagnostic.sort_key), len(files)


_IGNORE = re.compile(r"#\s*civdsl:\s*ignore(?:\[([A-Z0-9, ]+)\])?")
_lines_cache: dict[str, list[str]] = {}


def suppressed(d: Diagnostic) -> bool:
    """A warning is silenced by `# civdsl: ignore` or `# civdsl: ignore[CODE, ...]` on its line."""
    if d.severity == "error" or d.span is None:
        return False
    lines = _lines_cache.get(d.span.file)
    if lines is None:
        try:
            lines = Path(d.span.file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
        _lines_cache[d.span.file] = lines
    if not 0 < d.span.line <= len(lines):
        return False
    m = _IGNORE.search(lines[d.span.line - 1])
    return bool(m) and (m.group(1) is None or d.code in {c.strip() for c in m.group(1).split(",")})


def entries(paths: list[str]) -> list[Path]:
    """Entry files under the paths, for the simulation tier: editions (a `game` block) and overlays
    (`extends`: a house rule is simulated on the edition it extends)."""
    files, _ = civ_files(paths)
    out = []
    for f in files:
        try:
            rf = parse_file(str(f.resolve()))
        except CivError:
            continue
        if any(isinstance(i, (A.GameDecl, A.Extends)) for i in rf.items):
            out.append(f)
    return out
