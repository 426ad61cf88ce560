"""Mega Empires: The West against Avalon Hill 1981: `civdsl diff --summary` reads as a grouped summary,
and the edition's docs page shows it as the command prints it.

After a deliberate change to either edition, refresh the docs page with
`CIVDSL_UPDATE_GOLDEN=1 python -m pytest tests/test_me_edition.py`.
"""
from __future__ import annotations

import re
from pathlib import Path

from docblock import check_block

from civdsl.interfaces.cli import main
from civdsl.tools.ruleview import diff, load_target, render_diff

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "editions" / "mega-empires-the-west.md"
START = "<!-- civdsl diff --summary avalon-hill-1981 mega-empires-the-west: start -->"
END = "<!-- civdsl diff: end -->"


def _changes():
    a, b = load_target("avalon-hill-1981"), load_target("mega-empires-the-west")
    return a, b, diff(a, b)


def summary_markdown() -> str:
    a, b, changes = _changes()
    text = render_diff(a, b, changes, "markdown", ("avalon-hill-1981", "mega-empires-the-west"), summary=True)
    return re.sub(r"^(#+) ", r"#\1 ", text, flags=re.M)


def test_docs_page_shows_the_summary_as_civdsl_diff_prints_it():
    check_block(PAGE, START, END, summary_markdown(), "run CIVDSL_UPDATE_GOLDEN=1 pytest tests/test_me_edition.py")


def test_summary_groups_every_change_once_with_its_counts(capsys):
    _, _, changes = _changes()
    assert main(["diff", "--summary", "avalon-hill-1981", "mega-empires-the-west"]) == 0
    out = capsys.readouterr().out
    assert "@@" not in out and "--- a/" not in out            # no unified diffs in a summary
    changed = [c for c in changes if c.status == "changed"]
    assert len(re.findall(r"^  changed ", out, flags=re.M)) == len(changed)
    listed = sum(int(n) for n in re.findall(r"^  (?:added|removed) \((\d+)\):", out, flags=re.M))
    assert listed == len(changes) - len(changed)
    heads = re.findall(r"^(\S.*) \((.*)\):$", out, flags=re.M)
    assert sum(int(n) for _, counts in heads for n in re.findall(r"(\d+) ", counts)) == len(changes)
    groups = {h for h, _ in heads}
    assert {"Phase: Movement", "Phase: Calamity selection", "Phase: Special abilities", "Calamities",
            "Civilization advances", "Victory"} <= groups
    assert "changed param `hand_limit`: 6 → 8 — ME ch. 6 phase 12b" in out


def test_summary_lines_are_short():
    for line in summary_markdown().splitlines():
        assert len(line) <= 400, line
