"""`civdsl fmt`: canonical, idempotent, comment-keeping, meaning-preserving."""
from __future__ import annotations

from pathlib import Path

import pytest

from civdsl.interfaces.cli import main
from civdsl.language.formatter import format_file_text, format_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulesets").rglob("*.civ")) + sorted((ROOT / "tests" / "data").rglob("*.civ"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_is_idempotent_and_keeps_meaning(path):
    text = path.read_text(encoding="utf-8")
    once = format_file_text(text, str(path))
    assert format_text(once) == once


def test_shipped_rulesets_are_formatted(capsys):
    assert main(["fmt", "--check", str(ROOT / "rulesets")]) == 0


def test_layout_rules_and_comments_kept():
    messy = 'phase a {\n\t\tlet x = 1   # keep me\n\n\n\n   if x > 0 {\n log "{x}"\n}  \n}\n\n'
    assert format_text(messy) == 'phase a {\n  let x = 1   # keep me\n\n  if x > 0 {\n    log "{x}"\n  }\n}\n'


def test_check_mode_reports_and_does_not_write(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_text("param a = 1   \n", encoding="utf-8")
    assert main(["fmt", "--check", str(f)]) == 1
    assert f.read_text(encoding="utf-8") == "param a = 1   \n"
    assert main(["fmt", str(f)]) == 0
    assert f.read_text(encoding="utf-8") == "param a = 1\n"


def test_diff_mode_prints_and_does_not_write(tmp_path, capsys):
    f = tmp_path / "x.civ"
    f.write_text("param a = 1   \n", encoding="utf-8")
    assert main(["fmt", "--diff", str(f)]) == 0
    out = capsys.readouterr().out
    assert "-param a = 1   \n+param a = 1\n" in out
    assert "would reformat" in out
    assert f.read_text(encoding="utf-8") == "param a = 1   \n"
    assert main(["fmt", "--diff", "--check", str(f)]) == 1
