"""Syntax highlighting of rule files: a Pygments lexer for `.civ`.

The keywords and operators are read from the grammar (`grammar/civdsl.lark`, the single source of the
syntax) when this module is imported: they are the string terminals of the parser civdsl itself uses,
so a keyword added to the grammar is highlighted without a change here. Only the colour a keyword gets
(a declaration, a constant, a word operator, or a plain keyword) is chosen below.

The lexer is registered with Pygments by an entry point (`pygments.lexers` in `pyproject.toml`), so
`pygmentize -l civ`, Markdown's `codehilite` (the ```civ blocks of the docs site) and `rich` find it by
its name; `civdsl explain` uses it directly.
"""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

from .parser import lark_parser

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PUNCTUATION = frozenset("{}()[],:.")

# The colour of a keyword. A grammar word in none of these sets is a plain `Keyword`.
CONSTANTS = frozenset({"true", "false", "none"})
WORD_OPERATORS = frozenset({"and", "or", "not", "in"})
NAMESPACE = frozenset({"import", "extends", "overrides"})
DECLARATIONS = frozenset({"game", "param", "counter", "var", "zone", "die", "table", "track", "map", "kind",
                          "phase", "sequence", "procedure", "setup", "victory", "heuristic", "decision",
                          "invariant", "option", "view", "headline", "replace", "modify", "step"})
NAMED = {"procedure": Name.Function, "phase": Name.Function, "step": Name.Function, "kind": Name.Class,
         "param": Name.Constant, "option": Name.Label, "view": Name.Label}  # the name after the keyword


def grammar_literals() -> tuple[frozenset[str], frozenset[str]]:
    """The keywords (words) and the operators (other symbols, brackets left out) the grammar spells out."""
    literals = {t.pattern.value for t in lark_parser().terminals if t.pattern.type == "str"}
    keywords = frozenset(x for x in literals if _WORD.fullmatch(x))
    operators = frozenset(x for x in literals - keywords if x not in _PUNCTUATION)
    return keywords, operators


KEYWORDS, OPERATORS = grammar_literals()


def _keyword_rules() -> list:
    groups = [(CONSTANTS, Keyword.Constant), (WORD_OPERATORS, Operator.Word), (NAMESPACE, Keyword.Namespace),
              (DECLARATIONS, Keyword.Declaration)]
    rules = []
    for word, token in sorted(NAMED.items()):
        if word in KEYWORDS:
            rules.append((rf"\b({word})(\s+)([A-Za-z_]\w*)", bygroups(Keyword.Declaration, Whitespace, token)))
    plain = set(KEYWORDS)
    for group, token in groups:
        present = sorted(group & KEYWORDS)
        plain -= set(present)
        if present:
            rules.append((words(present, prefix=r"\b", suffix=r"\b"), token))
    if plain:
        rules.append((words(sorted(plain), prefix=r"\b", suffix=r"\b"), Keyword))
    return rules


def _not_keyword() -> str:
    return r"(?!(?:" + "|".join(sorted(KEYWORDS, key=len, reverse=True)) + r")\b)" if KEYWORDS else ""


def _operator_rule() -> tuple:
    ops = sorted(OPERATORS, key=len, reverse=True)  # the longest first: `//` before `/`, `..` before `.`
    return ("|".join(re.escape(op) for op in ops), Operator)


class CivLexer(RegexLexer):
    """Rule files of civdsl (`.civ`)."""

    name = "civdsl"
    aliases = ["civ", "civdsl"]
    filenames = ["*.civ"]
    mimetypes = ["text/x-civdsl"]
    url = "https://github.com/civdsl/civdsl"

    _name = r"[A-Za-z_]\w*"
    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"[0-9]+\.[0-9]+", Number.Float),
            (r"[0-9]+", Number.Integer),
            (r"\.\.", Operator),
            (rf"(\.)(\s*)({_name})", bygroups(Punctuation, Whitespace, Name.Attribute)),
            # a scope before a state declaration: `player counter food`, `global zone deck`
            (rf"{_not_keyword()}({_name})(\s+)(?=(?:counter|var|zone)\b)", bygroups(Keyword.Type, Whitespace)),
            *_keyword_rules(),
            # a thing: `calamity Example {`, `card "Two" {`
            (rf"{_not_keyword()}({_name})(\s+)({_not_keyword()}{_name})(?=\s*\{{)",
             bygroups(Name.Class, Whitespace, Name.Entity)),
            (rf"{_not_keyword()}({_name})(\s+)(?=\"[^\"\n]*\"\s*\{{)", bygroups(Name.Class, Whitespace)),
            (rf"({_name})(\s*)(:)(?!:)", bygroups(Name.Attribute, Whitespace, Punctuation)),  # a field, a record key
            (rf"{_name}(?=\s*\()", Name.Function),
            (_name, Name),
            _operator_rule(),
            (r"[{}()\[\],:.]", Punctuation),
            (r".", Error),  # a character the grammar has no place for
        ],
        "string": [
            (r"\\.", String.Escape),
            (r"\{[^{}\"\n]*\}", String.Interpol),
            (r'[^"\\{\n]+', String.Double),
            (r"\{", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),  # an unclosed string ends with its line
        ],
    }


def highlight_ansi(text: str) -> str:
    """`text` coloured for a terminal (ANSI escapes), with the civdsl lexer."""
    from pygments import highlight
    from pygments.formatters import TerminalFormatter
    return highlight(text, CivLexer(), TerminalFormatter())
