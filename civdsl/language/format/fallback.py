"""The layout of text that does not parse on its own (a fragment of a rule file shown by `civdsl explain`).

Without a syntax tree only the layout can be canonical: two spaces per open bracket, a continuation line
that starts with `and`/`or` indented once more, no trailing spaces or tabs, at most one blank line in a
row, none at the start or end, and a final newline. Spacing within lines is left as written. Files that
parse are printed by `layout.render` instead.
"""
from __future__ import annotations

import re

INDENT = "  "
_CONTINUATION = re.compile(r"^(and\b|or\b|[-+*/%]|\.\.)")


def _code(line: str) -> tuple[str, int]:
    """The line without its comment, and how many closing brackets it starts with."""
    in_str = False
    leading = 0
    at_start = True
    for i, ch in enumerate(line):
        if in_str:
            if ch == '"' and line[i - 1] != "\\":
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "#":
            return line[:i].rstrip(), leading
        if at_start and ch in "}])":
            leading += 1
        elif not ch.isspace():
            at_start = False
    return line, leading


_VALUE_BEFORE = re.compile(r"(=|:|\(|\[|,|\bfrom|\bin|\bthen|\belse|\+|-|\*|/)\s*$")


def _brackets(code: str, stack: list[str]) -> None:
    """Push and pop the brackets of a line of code (strings skipped). A `{` where a value is expected
    opens a record (pushed as `r`), elsewhere a block."""
    in_str = False
    for i, ch in enumerate(code):
        if in_str:
            if ch == '"' and code[i - 1] != "\\":
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            stack.append("r" if _VALUE_BEFORE.search(code[:i]) else "{")
        elif ch in "[(":
            stack.append(ch)
        elif ch in "}])" and stack:
            stack.pop()


_OPEN_END = re.compile(r"(=|,|\+|-|\*|/|\.\.|\band|\bor|\bnot|\bthen|\belse|\bfrom|:)$")


def layout_only(text: str) -> str:
    """Indentation, blank lines and trailing spaces only, line by line."""
    out: list[str] = []
    stack: list[str] = []
    blank = False
    previous = ""
    for raw in text.replace("\t", "    ").splitlines():
        line = raw.strip()
        if not line:
            blank = bool(out)
            continue
        if blank:
            out.append("")
            blank = False
        code, leading = _code(line)
        level = max(len(stack) - min(leading, 1), 0)
        inside_group = bool(stack) and stack[-1] in "[(r"
        if not leading and not inside_group and (_CONTINUATION.match(line) or _OPEN_END.search(previous)):
            level += 1
        out.append(INDENT * level + line)
        _brackets(code, stack)
        if code:
            previous = code
    return "\n".join(out) + "\n" if out else ""
