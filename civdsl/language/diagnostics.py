"""Source positions and user-facing diagnostics.

Everything a user can cause (a bad rule file, a bad config, a rule that fails at run time) becomes a
`Diagnostic` with a `Span`, never a bare traceback. Exceptions that carry diagnostics derive from
`CivError`; anything else escaping to the CLI is an internal bug.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def display_path(path: str) -> str:
    """Paths as users expect to read them: relative to the working folder when inside it."""
    if not os.path.isabs(path):
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


@dataclass(frozen=True, slots=True)
class Span:
    """A 1-based source range: file, line, column, end line, end column."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{display_path(self.file)}:{self.line}:{self.col}"

    def short(self) -> str:
        """`file:line`, the form used for provenance in game logs."""
        return f"{self.file}:{self.line}"


@dataclass
class Diagnostic:
    """One finding: a stable code, a severity, a message, where, and how to fix it."""

    code: str
    message: str
    span: Span | None = None
    severity: str = "error"
    hint: str | None = None
    related: list[tuple[Span, str]] = field(default_factory=list)

    def sort_key(self):
        s = self.span
        return (s.file, s.line, s.col, self.code) if s else ("", 0, 0, self.code)

    def headline(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.severity}[{self.code}]: {self.message}"

    def to_json(self) -> dict:
        s = self.span
        return {
            "file": display_path(s.file) if s else None,
            "line": s.line if s else None,
            "column": s.col if s else None,
            "end_line": (s.end_line or s.line) if s else None,
            "end_column": (s.end_col or s.col) if s else None,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
            "related": [{"file": display_path(r.file), "line": r.line, "column": r.col, "note": n} for r, n in self.related],
        }


class CivError(Exception):
    """A failure the user caused; carries one or more diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.headline() for d in diagnostics))


def error(code: str, message: str, span: Span | None = None, hint: str | None = None,
          related: list[tuple[Span, str]] | None = None) -> CivError:
    """Shorthand for raising a single-diagnostic `CivError`."""
    return CivError(Diagnostic(code, message, span, "error", hint, list(related or [])))


def _source_line(path: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else None


MAX_SHOWN = 500   # characters of a message, note or hint shown (a value quoted from a file may be huge)
SOURCE_WINDOW = 160  # characters of a long source line shown around the column


def _safe(text: str) -> str:
    """Show control characters from files as escapes, never raw on the user's terminal (and a huge
    message clipped)."""
    if len(text) > MAX_SHOWN:
        text = text[:MAX_SHOWN - 1] + "…"
    return "".join(ch if ch.isprintable() or ch == " " else ("\\x%02x" % ord(ch) if ord(ch) < 256 else "?")
                   for ch in text)


def _window(text: str, col: int) -> tuple[str, int]:
    """A long source line cut to `SOURCE_WINDOW` characters around `col` (1-based), and the column in
    the cut line."""
    if len(text) <= SOURCE_WINDOW:
        return text, col
    start = max(0, min(col - 1 - SOURCE_WINDOW // 2, len(text) - SOURCE_WINDOW))
    cut = text[start:start + SOURCE_WINDOW]
    col -= start
    if start > 0:
        cut, col = "…" + cut, col + 1
    if start + SOURCE_WINDOW < len(text):
        cut += "…"
    return cut, col


def render_text(diagnostics: list[Diagnostic], sources: dict[str, list[str]] | None = None) -> str:
    """Human output: headline, the source line with a caret, related locations and a hint."""
    cache: dict[str, list[str]] = dict(sources or {})
    out: list[str] = []
    for d in diagnostics:
        out.append(_safe(d.headline()))
        if d.span:
            text = _source_line(d.span.file, d.span.line, cache)
            if text is not None:
                gutter = f"{d.span.line:>4} | "
                text, col = _window(text, d.span.col)
                # one printable character per column, so the caret lines up (tabs count as one column)
                out.append(gutter + "".join(" " if ch == "\t" else (ch if ch.isprintable() else "?")
                                            for ch in text))
                width = 1
                if d.span.end_line == d.span.line and d.span.end_col > d.span.col:
                    width = d.span.end_col - d.span.col
                out.append(" " * (len(gutter) + col - 1) + "^" * max(1, min(width, 60, len(text) - col + 1)))
        for span, note in d.related:
            out.append(_safe(f"  note: {span}: {note}"))
        if d.hint:
            out.append(_safe(f"  help: {d.hint}"))
    return "\n".join(out)
