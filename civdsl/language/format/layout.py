"""Lines: what goes on each, how far it is indented, where comments and blank lines go.

The author's line breaks are kept: every token stays on its line, so a file's line numbers — cited by
logs, diagnostics, golden files and docs (`file:line`) — survive formatting. Only blank lines may go:
at most one in a row, none at the start or end of the file or of a bracket. Within those lines:

- indentation is two spaces per level. The inside of a bracket is one level deeper than the line that
  opened it (brackets opened on one line count once); a line that starts with a closing bracket is at
  the level of the line that opened it. The inside of a block (`if x {`, `kind k {`) is one level deeper
  than the line where its statement or declaration starts, even when the `{` is on a continuation line;
- a continuation line — one that starts in the middle of a statement, declaration or field outside of
  `( [` and records (`invariant "..." =` then its expression) — is one level deeper;
- a comment on its own line is indented like the next line of code (like the inside of the bracket when
  that line closes one); an end-of-line comment stays on its line and keeps its column, so that aligned
  comments stay aligned, unless the code now reaches it: then it follows two spaces after the code;
- no trailing white space, tabs only inside strings and comments, `\\n` line ends, a final newline.
"""
from __future__ import annotations

from .spacing import gap
from .tokens import CLOSERS, OPENERS, Comment, Source, Tok

INDENT = "  "
COMMENT_GAP = 2


def render(src: Source) -> str:
    """The canonical text of a parsed source."""
    n = len(src.lines)
    by_line: list[list[Tok]] = [[] for _ in range(n)]
    for t in src.tokens:
        by_line[t.line].append(t)
    trailing: dict[int, Comment] = {}
    own: dict[int, Comment] = {}
    for c in src.comments:
        (own if c.own_line else trailing)[c.line] = c
    levels = _levels(by_line)
    out: list[str | None] = []          # None: a blank line, decided at the end
    pending_own: list[int] = []         # own-line comments waiting for the level of the next code line
    for i in range(n):
        toks = by_line[i]
        if toks:
            for j in pending_own:
                out[j] = INDENT * _comment_level(levels, i, toks[0]) + out[j]
            pending_own.clear()
            out.append(INDENT * levels[i] + _join(toks))
        elif i in own:
            pending_own.append(len(out))
            out.append(own[i].text)
        else:
            out.append(None)
    for i, col in _comment_columns(trailing, out).items():
        out[i] += " " * (col - _width(out[i])) + trailing[i].text
    return _blank_lines(out, by_line)


def _comment_columns(trailing: dict[int, Comment], code: list[str | None]) -> dict[int, int]:
    """The column of each end-of-line comment. Comments aligned on consecutive lines (at one column) are
    a run and move together, so that they stay aligned: by as much as the indentation of their lines
    changed (the most of it), and further right where the code would reach them. A comment written
    closer than two spaces to its code was not placed at a column: it goes two spaces after the code."""
    columns: dict[int, int] = {}
    run: list[int] = []
    for i in sorted(trailing) + [-2]:
        if run and (i != run[-1] + 1 or trailing[i].col != trailing[run[0]].col or trailing[i].tight
                    or trailing[run[0]].tight):
            shift = max(_indent(code[j]) - trailing[j].indent for j in run)
            base = 0 if trailing[run[0]].tight else trailing[run[0]].col + shift
            col = max([base] + [_width(code[j]) + COMMENT_GAP for j in run])
            columns.update((j, col) for j in run)
            run = []
        run.append(i)
    return columns


def _width(line: str) -> int:
    """Columns on screen (a tab inside a string reaches the next multiple of 8, as in the source)."""
    return len(line.expandtabs(8))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _join(toks: list[Tok]) -> str:
    parts = [toks[0].text]
    for a, b in zip(toks, toks[1:]):
        parts.append(" " * gap(a, b))
        parts.append(b.text)
    return "".join(parts)


def _comment_level(levels: list[int], i: int, first: Tok) -> int:
    """An own-line comment before line `i` is indented like it, or like the inside of what it closes."""
    return levels[i] + (1 if first.text in CLOSERS else 0)


def _levels(by_line: list[list[Tok]]) -> list[int]:
    """The indentation level of every line that has tokens (see the module docstring)."""
    levels = [0] * len(by_line)
    stack: list[tuple[str, int, bool]] = []   # open brackets: (char, level of their inside, is it a block)
    for i, toks in enumerate(by_line):
        if not toks:
            continue
        first = toks[0]
        if first.text in CLOSERS and stack:
            level = stack[-1][1] - 1
        else:
            inside = stack[-1][1] if stack else 0
            in_block = not stack or stack[-1][2]
            starts = first.unit or first.clause or (first.text == "{" and not first.record)
            level = inside + 1 if in_block and not starts else inside
        levels[i] = level
        for t in toks:
            if t.text in OPENERS:
                if t.text == "{" and not t.record:
                    stack.append((t.text, levels[t.unit_line] + 1, True))
                else:
                    stack.append((t.text, level + 1, False))
            elif t.text in CLOSERS and stack:
                stack.pop()
    return levels


def _blank_lines(out: list[str | None], by_line: list[list[Tok]]) -> str:
    """At most one blank line in a row, none at the start or end, none just inside a bracket."""
    lines: list[str] = []
    after_opener = False
    blank = False
    for i, line in enumerate(out):
        if line is None:
            blank = bool(lines) and not after_opener
            continue
        toks = by_line[i]
        if blank and not (toks and toks[0].text in CLOSERS):
            lines.append("")
        blank = False
        lines.append(line)
        if toks:
            after_opener = toks[-1].text in OPENERS
        else:
            after_opener = False
    return "\n".join(lines) + "\n" if lines else ""
