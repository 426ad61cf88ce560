"""The editor set-ups in editors/: the TextMate grammar (VS Code) and the Vim syntax highlight every
keyword of the language's grammar, and each set-up starts `civdsl lsp`."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITORS = ROOT / "editors"
TEXTMATE = EDITORS / "vscode" / "syntaxes" / "civdsl.tmLanguage.json"


def grammar_keywords() -> set[str]:
    """Every word the Lark grammar spells out in quotes (`"procedure"`, `"chooses"`, ...)."""
    text = (ROOT / "grammar" / "civdsl.lark").read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", "", text)
    return set(re.findall(r'"([a-z_]+)"', text))


def test_the_textmate_grammar_highlights_every_keyword_of_the_lark_grammar():
    g = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    assert g["scopeName"] == "source.civdsl"
    patterns = [(p["name"], re.compile(p["match"])) for p in g["repository"]["keyword"]["patterns"]]
    missing = []
    for word in sorted(grammar_keywords()):
        hits = [name for name, rx in patterns if (m := rx.search(f" {word} ")) and m.group(0) == word]
        if not hits:
            missing.append(word)
    assert not missing, f"keywords of grammar/civdsl.lark missing from {TEXTMATE.name}: {missing}"


def test_the_textmate_grammar_scopes_comments_strings_and_numbers():
    g = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    repo = g["repository"]
    assert re.fullmatch(repo["comment"]["match"], "# a comment")
    assert re.fullmatch(repo["number"]["match"], "12") and re.fullmatch(repo["number"]["match"], "1.5")
    assert repo["string"]["begin"] == '"'
    for p in repo["keyword"]["patterns"] + repo["declaration"]["patterns"]:
        re.compile(p["match"])  # (Oniguruma reads these as Python does)


def test_the_vim_syntax_has_every_keyword():
    text = (EDITORS / "neovim" / "syntax" / "civdsl.vim").read_text(encoding="utf-8")
    words = {w for line in text.splitlines() if line.startswith("syntax keyword") for w in line.split()[3:]}
    assert grammar_keywords() <= words, sorted(grammar_keywords() - words)


@pytest.mark.parametrize("path", ["vscode/package.json", "vscode/extension.js", "neovim/lua/civdsl.lua",
                                  "helix/languages.toml"])
def test_each_set_up_starts_civdsl_lsp(path):
    text = (EDITORS / path).read_text(encoding="utf-8")
    assert re.search(r'"civdsl",\s*"lsp"|command = "civdsl"', text), path


def test_the_vscode_extension_is_complete():
    pkg = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    contributes = pkg["contributes"]
    assert contributes["languages"][0]["extensions"] == [".civ"]
    for part in (contributes["grammars"][0]["path"], contributes["languages"][0]["configuration"], pkg["main"]):
        assert (EDITORS / "vscode" / part).is_file(), part
    json.loads((EDITORS / "vscode" / "language-configuration.json").read_text(encoding="utf-8"))
    assert set(contributes["configuration"]["properties"]) == {"civdsl.command", "civdsl.entries", "civdsl.scenarios"}
