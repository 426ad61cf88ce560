"""A rule file as the printer sees it: its tokens, each with its place in the parse tree, and its comments.

The tokens come from parsing with the grammar itself (a second LALR parser built from the same grammar
text that keeps every token, keywords and brackets too), so the printer never guesses the syntax: a `{`
knows whether it opens a record or a block, a `-` whether it is a sign or a subtraction. Comments are
what the grammar ignores between tokens; they are recovered by reading the text between consecutive
tokens with the grammar's own ignored terminals (`WS`, `COMMENT`).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from ..parser import grammar_text

# Rules whose sub-trees are units written one after another: declarations, statements, fields, members,
# table rows, kind fields, view items, phase and sequence members. A unit that follows another on the same
# line is set off by two spaces; a line that starts inside a unit (not at its start) is a continuation line.
CONTAINERS = frozenset({
    "start", "block", "game_decl", "table_decl", "track_decl", "kind_decl", "entity_decl", "phase_decl",
    "round_decl", "victory_decl", "decision_decl", "option_decl", "view_decl", "modify_decl", "modify_table_decl",
})
CLAUSES = frozenset({"elif_clause", "else_clause"})   # `elif`/`else` of an `if` statement may start a line
OPENERS = {"{": "}", "[": "]", "(": ")"}
CLOSERS = frozenset(OPENERS.values())


class Unreadable(Exception):
    """The text does not parse; the caller decides what to do (diagnostics come from the real parser)."""


@dataclass(slots=True)
class Tok:
    text: str
    line: int            # 0-based line of the source
    col: int             # 0-based column (characters) in its line
    start: int           # offsets into the source
    end: int
    rule: str            # the grammar rule the token belongs to (its parent in the parse tree)
    last: bool           # the last token of its rule (a `..` without an upper bound is)
    unit: bool = False   # the first token of a unit (see CONTAINERS)
    clause: bool = False  # the first token of an `elif`/`else` clause of an `if` statement
    unit_line: int = 0   # the line on which the innermost unit holding this token starts

    @property
    def record(self) -> bool:
        return self.rule == "record_lit"


@dataclass(slots=True)
class Comment:
    text: str            # without trailing white space
    line: int
    col: int             # 0-based display column (tabs to 8) in the source line
    own_line: bool       # nothing but white space before it on its line
    indent: int = 0      # display width of the white space its line starts with
    tight: bool = False  # less than two spaces between it and the code before it: not placed at a column


@dataclass(slots=True)
class Source:
    lines: list[str]     # the source split at "\n" only (Lark counts lines the same way)
    tokens: list[Tok]
    comments: list[Comment]


@lru_cache(maxsize=1)
def _printer_parser() -> Lark:
    """The grammar's LALR parser, keeping every token. Built once per process (and cached on disk by Lark)."""
    return Lark(grammar_text(), parser="lalr", keep_all_tokens=True,
                maybe_placeholders=False, start="start", cache=True)


@lru_cache(maxsize=1)
def _ignored() -> re.Pattern:
    """The text the grammar ignores between tokens: its `WS` and `COMMENT` terminals, one at a time."""
    lark = _printer_parser()
    ws, comment = (lark.get_terminal(name).pattern.to_regexp() for name in ("WS", "COMMENT"))
    return re.compile(f"(?P<ws>{ws})|(?P<comment>{comment})")


def read(text: str) -> Source:
    """Parse `text` and return its tokens (in order, each knowing its rule) and comments."""
    try:
        tree = _printer_parser().parse(text)
    except (LarkError, RecursionError) as exc:
        raise Unreadable(str(exc)) from None
    tokens = _tokens(tree)
    lines = text.split("\n")
    return Source(lines, tokens, _comments(text, lines, tokens))


def _tokens(tree: Tree) -> list[Tok]:
    """The tokens of the parse tree in order, walked without recursion (trees may be deep)."""
    out: list[Tok] = []
    unit_lines: list[int] = [0]       # the line of each unit entered, set by its first token
    # (node, parent rule, last child of it?, a unit?, first token of a unit?, of a clause?, index in unit_lines)
    stack: list[tuple] = [(tree, "", True, False, False, False, 0)]
    while stack:
        node, rule, last, is_unit, first_of_unit, first_of_clause, unit = stack.pop()
        if isinstance(node, Token):
            if first_of_unit:
                unit_lines[unit] = node.line - 1
            out.append(Tok(str(node), node.line - 1, node.column - 1, node.start_pos, node.end_pos, rule, last,
                           first_of_unit, first_of_clause, unit_lines[unit]))
            continue
        if is_unit:
            unit_lines.append(0)
            unit = len(unit_lines) - 1
        children = node.children
        contains = node.data in CONTAINERS
        for i in range(len(children) - 1, -1, -1):
            child = children[i]
            is_tree = isinstance(child, Tree)
            child_unit = contains and is_tree
            first = i == 0
            stack.append((child, node.data, i == len(children) - 1, child_unit,
                          child_unit or (first_of_unit and first),
                          (is_tree and child.data in CLAUSES) or (first_of_clause and first), unit))
    return out


def _display_col(line: str, col: int) -> int:
    return len(line[:col].expandtabs(8))


def _comments(text: str, lines: list[str], tokens: list[Tok]) -> list[Comment]:
    """The comments: the grammar ignores them, so they are in the gaps between tokens."""
    ignored = _ignored()
    starts = [0]                               # offset where each line starts
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    out: list[Comment] = []
    for a, b in zip([0] + [t.end for t in tokens], [t.start for t in tokens] + [len(text)]):
        pos = a
        while pos < b:
            m = ignored.match(text, pos, b)
            if m is None:  # pragma: no cover - the parser accepted the text, so only ignored text is left
                raise Unreadable(f"unexpected text at offset {pos}")
            if m.lastgroup == "comment":
                n = bisect_right(starts, pos) - 1
                col = pos - starts[n]
                text_before = lines[n][:col]
                indent = len(text_before) - len(text_before.lstrip(" \t\f\r"))
                code_end = len(text_before.rstrip(" \t\f\r"))
                out.append(Comment(m.group().rstrip(), n, _display_col(lines[n], col), not text_before.strip(),
                                   _display_col(lines[n], indent), col - code_end < 2))
            pos = m.end()
    return out
