"""The documentation stays true to the code.

* Every ```civ block in docs/ parses: as a whole rule file, or else as the body of a procedure (a block
  of statements). Every ```civ-expr block parses as one expression.
* Every builtin function is documented in the language reference.
* The diagnostic codes listed in docs/diagnostics.md are exactly the codes the source can emit.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from civdsl.engine.builtins import REGISTRY
from civdsl.language.diagnostics import CivError, Span
from civdsl.language.parser import parse_expr, parse_text

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SOURCE = ROOT / "civdsl"

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.M | re.S)
CODE = re.compile(r"\b[A-Z]{3,4}[0-9]{3}\b")


def doc_files() -> list[Path]:
    return sorted(set(DOCS.glob("*.md")) | set(DOCS.glob("**/*.md")))


def code_blocks(lang: str) -> list[tuple[str, int, str]]:
    """(doc file relative to the repo, index of the block among that file's `lang` blocks, text)."""
    blocks = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        found = [m for m in FENCE.finditer(text) if m.group("lang") == lang]
        for i, m in enumerate(found):
            indent = m.group("indent")
            body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                             for line in m.group("body").split("\n"))
            blocks.append((path.relative_to(ROOT).as_posix(), i, body))
    return blocks


def _ident(block) -> str:
    return f"{block[0]}#{block[1]}"


CIV_BLOCKS = code_blocks("civ")
EXPR_BLOCKS = code_blocks("civ-expr")


def parses_as_file_or_statements(text: str) -> str | None:
    """None when `text` parses as a rule file or as statements; else the diagnostics of both tries."""
    try:
        parse_text(text, "doc.civ")
        return None
    except CivError as as_file:
        first = str(as_file)
    try:
        parse_text("procedure _doc() {\n" + text + "\n}\n", "doc.civ")
        return None
    except CivError as as_block:
        return f"as a file: {first}\nas statements: {as_block}"


def test_docs_have_civ_examples():
    assert CIV_BLOCKS, "no ```civ blocks found in docs/"
    assert any(path == "docs/language.md" for path, _, _ in CIV_BLOCKS)


@pytest.mark.parametrize("block", CIV_BLOCKS, ids=_ident)
def test_civ_block_parses(block):
    path, index, text = block
    problem = parses_as_file_or_statements(text)
    assert problem is None, f"{path}: ```civ block #{index} does not parse\n{text}\n{problem}"


@pytest.mark.parametrize("block", EXPR_BLOCKS, ids=_ident)
def test_civ_expr_block_parses(block):
    path, index, text = block
    try:
        parse_expr(text.strip(), Span("doc.civ", 1, 1))
    except CivError as exc:
        pytest.fail(f"{path}: ```civ-expr block #{index} is not an expression\n{text}\n{exc}")


def test_every_builtin_is_documented():
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    missing = [name for name in REGISTRY if not re.search(r"`" + re.escape(name) + r"[`(]", text)]
    assert not missing, f"builtins not described in docs/language.md: {', '.join(sorted(missing))}"


def source_codes() -> set[str]:
    """Every code civdsl/**/*.py can emit: literal codes, and codes built from a family prefix.

    A few helpers take the family as an argument (`read_text(path, "SCN", ...)` builds `f"{prefix}001"`),
    so such codes are the prefixes passed to those helpers (and their defaults) times the suffixes they
    append.
    """
    text = "\n".join(path.read_text(encoding="utf-8") for path in sorted(SOURCE.rglob("*.py")))
    codes = set(CODE.findall(text))
    suffixes = set(re.findall(r"\{prefix\}([0-9]{3})", text))
    helpers = set(re.findall(r"def (\w+)\([^)]*\bprefix\b", text))
    prefixes = set(re.findall(r"\bprefix(?:\s*:\s*str)?\s*=\s*\"([A-Z]{3,4})\"", text))
    for helper in helpers:
        for args in re.findall(r"\b" + re.escape(helper) + r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)", text):
            prefixes.update(re.findall(r"\"([A-Z]{3,4})\"", args))
    codes.update(p + s for p in prefixes for s in suffixes)
    return codes


def test_diagnostic_codes_match_source():
    documented = set(CODE.findall((DOCS / "diagnostics.md").read_text(encoding="utf-8")))
    in_source = source_codes()
    assert in_source, "no diagnostic codes found in civdsl/**/*.py"
    undocumented = sorted(in_source - documented)
    stale = sorted(documented - in_source)
    assert not undocumented, f"codes used in civdsl/**/*.py but missing from docs/diagnostics.md: {undocumented}"
    assert not stale, f"codes in docs/diagnostics.md that civdsl/**/*.py never uses: {stale}"
