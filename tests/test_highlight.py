"""The `.civ` lexer (civdsl/language/highlight.py): its keywords are the grammar's, every keyword of the
grammar is highlighted, the shipped rule files and the docs' examples lex without an error token, and
Pygments, Markdown and rich find it."""
from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from civdsl.language.highlight import KEYWORDS, OPERATORS, CivLexer, highlight_ansi

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "grammar" / "civdsl.lark"
ENTRY_POINT = "civdsl.language.highlight:CivLexer"


def grammar_words() -> set[str]:
    """The keywords of the grammar, read here from its text (not through Lark, as the lexer does): every
    quoted word in its rules, terminal definitions, directives and comments left out."""
    words = set()
    for line in GRAMMAR.read_text(encoding="utf-8").splitlines():
        if re.match(r"\s*([A-Z_][A-Z0-9_.]*\s*:|%)", line):  # a terminal (`STRING: /"..."/`) or a directive
            continue
        code = re.sub(r'"(?:[^"\\]|\\.)*"|//.*', lambda m: m.group(0) if m.group(0).startswith('"') else "", line)
        words.update(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', code))
    return words


def tokens(text: str) -> list[tuple[object, str]]:
    return [(t, v) for t, v in CivLexer().get_tokens(text) if v.strip()]


def test_the_lexer_reads_its_keywords_from_the_grammar():
    words = grammar_words()
    assert len(words) > 60
    assert KEYWORDS == words
    assert {"==", "+=", "//", ".."} <= OPERATORS


@pytest.mark.parametrize("word", sorted(grammar_words()))
def test_every_keyword_of_the_grammar_is_highlighted(word):
    for text in (word, f"{word} x", f"let y = x {word} z"):
        found = [t for t, v in tokens(text) if v == word]
        assert found, text
        assert found[0] in Keyword or found[0] in Operator.Word, f"`{word}` in `{text}` is {found[0]}"


def test_the_parts_of_a_rule_have_their_colours():
    text = ('# 22.2.5: famine\ncalamity Famine {\n  stack: 3\n  resolve(p) {\n'
            '    log "famine: {p} loses {n}"\n    p.food -= 1.5 * famine_loss\n  }\n}\n')
    got = tokens(text)
    assert got[0] == (Comment.Single, "# 22.2.5: famine")
    assert (Name.Class, "calamity") in got and (Name.Entity, "Famine") in got
    assert (Name.Attribute, "stack") in got and (Number.Integer, "3") in got and (Number.Float, "1.5") in got
    assert (Name.Function, "resolve") in got
    assert (String.Interpol, "{p}") in got and (String.Double, "famine: ") in got
    assert (Name.Attribute, "food") in got and (Operator, "-=") in got
    assert (Keyword.Type, "player") in tokens("player counter food = 0")
    assert (Name.Function, "harvest") in tokens("procedure harvest(p) { }")


def test_shipped_rule_files_lex_without_errors_and_whole():
    files = sorted((ROOT / "rulesets").rglob("*.civ"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        toks = list(CivLexer().get_tokens(text))
        assert not [v for t, v in toks if t in Error], path
        assert "".join(v for _, v in toks).rstrip("\n") == text.rstrip("\n"), path


def test_docs_civ_examples_lex_without_errors():
    from tests.test_docs import CIV_BLOCKS
    assert CIV_BLOCKS
    for page, index, text in CIV_BLOCKS:
        bad = [v for t, v in CivLexer().get_tokens(text) if t in Error]
        assert not bad, f"{page} block {index}: {bad}"


def test_a_character_outside_the_language_is_an_error_token():
    assert (Error, "@") in tokens("let x = @")


def test_terminal_colours():
    out = highlight_ansi("param goal = 10  # the goal\n")
    assert "\x1b[" in out and re.sub(r"\x1b\[[0-9;]*m", "", out) == "param goal = 10  # the goal\n"


def test_rich_colours_rules_with_the_lexer():
    from rich.console import Console
    from rich.syntax import Syntax
    console = Console(force_terminal=True, color_system="standard", width=80, record=True)
    with console.capture() as cap:
        console.print(Syntax("param goal = 10", CivLexer(), theme="ansi_dark"))
    assert "\x1b[" in cap.get() and "goal" in cap.get()


def test_pyproject_registers_the_lexer_by_entry_point():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project.get("entry-points", {}).get("pygments.lexers", {}).get("civ") == ENTRY_POINT


def _installed() -> bool:
    return any(ep.value == ENTRY_POINT for ep in metadata.entry_points(group="pygments.lexers"))


@pytest.mark.skipif(not _installed(), reason="the entry point is not installed (pip install -e . after adding it)")
def test_pygments_and_markdown_find_the_lexer_by_name():
    import markdown
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    assert isinstance(get_lexer_by_name("civ"), CivLexer)
    assert isinstance(get_lexer_for_filename("game.civ"), CivLexer)
    html = markdown.markdown("```civ\nparam goal = 10\n```\n", extensions=["fenced_code", "codehilite"])
    assert '<span class="kd">param</span>' in html
