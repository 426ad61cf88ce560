"""What the language server knows about the rule files an editor has open: their syntax trees, the
editions (entries) they belong to, and the diagnostics of both — independent of the LSP wire protocol,
so that it can be tested and timed on its own.

As the user types, a changed file is parsed from the editor's text, and each edition that includes it
is loaded with the open files' texts in place of the files on disk (the other files come from the
parse cache), compiled, and its constants evaluated: the same codes and messages as `civdsl check`
for the edition's rules. On save, `civdsl check`'s own pass runs on the files as saved, adding what
only the edition's options show.

What the server reads: the documents the editor has open (their text comes from the editor), the
files they `import` or `extend` (under the loader's path policy), edition entries the user names in the
`civdsl.entries` setting, and — for an open file inside a workspace folder — the entry file
(`game.civ`) of the file's own folder with what it imports. A file that no known edition includes is
checked for its syntax (and a note says how to check more). Nothing else is read.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...api import allowed_players
from ...compiler.compiler import compile_ruleset
from ...compiler.typecheck.check import check_types
from ...engine.agents import RandomAgent
from ...engine.interpreter import Game
from ...language import ast as A
from ...language.diagnostics import CivError, Diagnostic, Span
from ...language.editions import ENTRY_FILE
from ...language.limits import MAX_SOURCE_BYTES, collector_paused
from ...language.loader import Loader, Ruleset
from ...language.parser import parse_text
from ...language.paths import real, rules_root
from ...tools.checker import check_entry
from .incremental import reparse

MAX_ENTRIES = 4            # editions checked for one changed file (the most recently used first)
MAX_DIAGNOSTICS = 200      # per file
_IGNORE = re.compile(r"#\s*civdsl:\s*ignore(?:\[([A-Z0-9, ]+)\])?")


@dataclass
class Doc:
    """An open rule file: the editor's text, and its last good syntax tree."""
    path: str                              # resolved
    text: str
    version: int | None = None
    tree: A.RuleFile | None = None         # of this text, or of the last text that parsed
    tree_text: str | None = None           # the text `tree` is of
    parsed: bool = False                   # whether `tree` is of this text
    regions: int = 0                       # parses of an edited region only (see `incremental`)
    syntax: list[Diagnostic] = field(default_factory=list)
    too_large: bool = False

    @property
    def is_entry(self) -> bool:
        return self.tree is not None and any(isinstance(i, (A.GameDecl, A.Extends)) for i in self.tree.items)


@dataclass
class EntryResult:
    """One edition as last loaded: its rules (None if they did not load), program, diagnostics."""
    entry: str
    rs: Ruleset | None = None
    program: object | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    saved: list[Diagnostic] = field(default_factory=list)   # what only `check` on save finds (options)
    files: set[str] = field(default_factory=set)
    used: float = 0.0
    seconds: float = 0.0


def resolved(path: str | Path) -> str:
    r = real(path)
    return str(r) if r is not None else str(Path(path).absolute())


class Analyzer:
    """Open documents, the editions they belong to, and their diagnostics."""

    def __init__(self, roots: list[str] | None = None, entries: list[str] | None = None):
        self.roots = [Path(resolved(r)) for r in (roots or [])]
        self.configured = [resolved(e) for e in (entries or [])]
        self.docs: dict[str, Doc] = {}
        self.results: dict[str, EntryResult] = {}
        self.published: set[str] = set()   # files given diagnostics last time (to clear them)

    # ---- documents ----------------------------------------------------------------------------------
    def open(self, path: str, text: str, version: int | None = None) -> Doc:
        return self.change(path, text, version)

    def change(self, path: str, text: str, version: int | None = None) -> Doc:
        key = resolved(path)
        doc = self.docs.get(key) or Doc(key, text)
        doc.text, doc.version, doc.parsed = text, version, False
        self.docs[key] = doc
        return doc

    def close(self, path: str) -> None:
        self.docs.pop(resolved(path), None)

    def parse(self, doc: Doc) -> None:
        """Parse the document's text (once per text); a file beyond the parser's bound is one diagnostic."""
        if doc.parsed:
            return
        doc.parsed = True
        doc.too_large = len(doc.text) > MAX_SOURCE_BYTES or len(doc.text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES
        try:
            if doc.tree is not None and doc.tree_text is not None and not doc.too_large:
                tree, partial = reparse(doc.tree_text, doc.tree, doc.text, doc.path)
                doc.regions += partial
            else:
                tree = parse_text(doc.text, doc.path)
        except CivError as exc:
            doc.syntax = exc.diagnostics
            if doc.too_large:
                doc.tree = None
            return
        except RecursionError:
            doc.syntax = [Diagnostic("SYN009", "brackets nest too deeply", Span(doc.path, 1, 1))]
            return
        doc.tree, doc.tree_text, doc.syntax = tree, doc.text, []

    # ---- which editions a file belongs to -----------------------------------------------------------
    def inside_workspace(self, path: str) -> bool:
        p = Path(path)
        return any(p.is_relative_to(r) for r in self.roots)

    def entries_for(self, path: str) -> list[str]:
        """The editions to check for a file: those known to include it, the file itself when it is an
        entry, the configured entries, and the folder's own `game.civ` inside a workspace folder."""
        key = resolved(path)
        doc = self.docs.get(key)
        found = [e for e, r in self.results.items() if key in r.files or e == key]
        if doc is not None and doc.is_entry and key not in found:
            found.append(key)
        for e in self.configured:
            if e not in found and e not in self.results:
                found.append(e)
        sibling = Path(key).parent / ENTRY_FILE
        if not found and self.inside_workspace(key) and sibling.is_file():
            found.append(resolved(sibling))
        found.sort(key=lambda e: -(self.results[e].used if e in self.results else time.monotonic()))
        return found[:MAX_ENTRIES]

    # ---- checking -----------------------------------------------------------------------------------
    def load(self, entry: str) -> EntryResult:
        """Load, compile and evaluate the constants of one edition, with the open documents' texts."""
        started = time.perf_counter()
        result = self.results.get(entry) or EntryResult(entry)
        result.used = time.monotonic()
        trees: dict[Path, A.RuleFile] = {}
        for doc in self.docs.values():
            self.parse(doc)
            if doc.tree is not None:
                trees[Path(doc.path)] = doc.tree
        root = rules_root(entry)
        rs = Ruleset(entry, root)
        loader = Loader(root)
        loader.cache.update(trees)
        diags: list[Diagnostic] = []
        try:
            with collector_paused():
                loader.load_into(rs, Path(entry), None, False)
        except CivError as exc:
            diags.extend(exc.diagnostics)
        except (OSError, RecursionError) as exc:
            diags.append(Diagnostic("LOAD001", f"cannot read a rule file: {exc}", Span(entry, 1, 1)))
        for doc in self.docs.values():
            if doc.path in rs.sources:
                rs.sources[doc.path] = doc.text
        diags.extend(rs.diagnostics)
        result.files = set(rs.files) | {entry}
        program = None
        if rs.files and not any(d.severity == "error" for d in diags):
            program, found = compile_ruleset(rs)
            if not any(d.severity == "error" for d in found):
                found = found + check_types(rs, program)  # (as `civdsl check` does: see tools/checker.py)
            diags.extend(found)
            if not any(d.severity == "error" for d in found):
                counts = allowed_players(rs) or [1]
                try:
                    Game(program, counts[0], 0, [RandomAgent(0, i) for i in range(counts[0])], logging=False).init()
                except CivError as exc:
                    diags.extend(exc.diagnostics)
        if rs.files:
            result.rs, result.program = rs, program if program is not None else result.program
        result.diagnostics = diags
        result.seconds = time.perf_counter() - started
        self.results[entry] = result
        return result

    def check_saved(self, entry: str) -> None:
        """`civdsl check`'s pass on an edition as saved (its options too): what the typing pass does
        not look at is kept beside its findings until the next save."""
        result = self.results.get(entry)
        if result is None:
            result = self.load(entry)
        try:
            found = check_entry(Path(entry))
        except (OSError, RecursionError) as exc:
            found = [Diagnostic("LOAD001", f"cannot read a rule file: {exc}", Span(entry, 1, 1))]
        seen = {_identity(d) for d in result.diagnostics}
        result.saved = [d for d in found if _identity(d) not in seen]

    def diagnostics(self, changed: list[str], saved: bool = False) -> dict[str, list[Diagnostic]]:
        """Check what the changed files belong to; the diagnostics to publish, by file (an empty list
        clears a file's earlier ones)."""
        entries: list[str] = []
        for path in changed:
            doc = self.docs.get(resolved(path))
            if doc is not None:
                self.parse(doc)
            for e in self.entries_for(path):
                if e not in entries:
                    entries.append(e)
        for e in entries:
            self.load(e)
            if saved:
                self.check_saved(e)
        return self.collect()

    def collect(self) -> dict[str, list[Diagnostic]]:
        """Every file's diagnostics from the open documents and the known editions."""
        out: dict[str, dict[tuple, Diagnostic]] = {}
        broken = {d.path for d in self.docs.values() if d.syntax}
        for result in self.results.values():
            for d in result.diagnostics + result.saved:
                f = resolved(d.span.file) if d.span else result.entry
                if f in broken:  # a file with syntax errors shows those; the rest would point at stale text
                    continue
                if d.span is None:
                    d = Diagnostic(d.code, d.message, Span(result.entry, 1, 1), d.severity, d.hint, d.related)
                out.setdefault(f, {}).setdefault(_identity(d), d)
        for doc in self.docs.values():
            if doc.syntax:
                out[doc.path] = {_identity(d): d for d in doc.syntax}
            elif doc.path not in out and not any(doc.path in r.files for r in self.results.values()):
                note = Diagnostic("LSP001", "checked for syntax only: no open edition includes this file",
                                  Span(doc.path, 1, 1), "information",
                                  "open the edition's entry file (`game.civ`) or name it in the `civdsl.entries` "
                                  "setting to check names, kinds and phases too")
                out[doc.path] = {_identity(note): note}
        final: dict[str, list[Diagnostic]] = {doc.path: [] for doc in self.docs.values()}
        for f, found in out.items():
            kept = [d for d in found.values() if not self._suppressed(d)]
            final[f] = sorted(kept, key=Diagnostic.sort_key)[:MAX_DIAGNOSTICS]
        for f in self.published - set(final):
            final[f] = []
        self.published = {f for f, ds in final.items() if ds}
        return final

    def _suppressed(self, d: Diagnostic) -> bool:
        """A warning silenced by `# civdsl: ignore[...]` on its line (as `civdsl check` reads it)."""
        if d.severity in ("error", "information") or d.span is None:
            return False
        doc = self.docs.get(resolved(d.span.file))
        text = doc.text if doc is not None else None
        if text is None:
            result = next((r for r in self.results.values() if r.rs and d.span.file in r.rs.sources), None)
            text = result.rs.sources.get(d.span.file) if result else None
        if text is None:
            return False
        lines = text.splitlines()
        if not 0 < d.span.line <= len(lines):
            return False
        m = _IGNORE.search(lines[d.span.line - 1])
        return bool(m) and (m.group(1) is None or d.code in {c.strip() for c in m.group(1).split(",")})

    # ---- what other features read ----------------------------------------------------------------------
    def rulesets_for(self, path: str) -> list[Ruleset]:
        """The loaded rules of the editions that include the file (most recently used first)."""
        key = resolved(path)
        found = [r for r in self.results.values() if r.rs is not None and key in r.files]
        found.sort(key=lambda r: -r.used)
        return [r.rs for r in found]

    def tree(self, path: str) -> A.RuleFile | None:
        doc = self.docs.get(resolved(path))
        if doc is None:
            return None
        self.parse(doc)
        return doc.tree

    def text(self, path: str) -> str | None:
        doc = self.docs.get(resolved(path))
        if doc is not None:
            return doc.text
        for rs in self.rulesets_for(path):
            if resolved(path) in rs.sources:
                return rs.sources[resolved(path)]
        return None


def _identity(d: Diagnostic) -> tuple:
    s = d.span
    return (d.code, d.message, (s.file, s.line, s.col) if s else None)
