"""Golden diagnostics: `civdsl check` output for small bad rulesets, kept as plain text for review.

Each case is a folder `tests/golden/<name>/` holding a `game.civ` entry (and any files it imports); its
expected rendering is `tests/golden/<name>.expected`, with paths relative to `tests/golden`. The rulesets
root of every case is `tests/golden` itself (the folder above the entry's folder).

Regenerate after a deliberate change with `CIVDSL_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py`
and read the diff.
"""
from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest

from civdsl.language.diagnostics import render_text
from civdsl.tools.checker import check_paths

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("CIVDSL_UPDATE_GOLDEN") == "1"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and (p / "game.civ").is_file())

# What each case is about: the codes (in order) of its diagnostics. Checked independently of the text,
# so regenerating the golden files cannot silently bless a case that stopped finding its problem.
CODES = {
    "assign_unknown_name": ["NAM002"],
    "bad_log_template": ["SYN007"],
    "bad_order": ["SYN004"],
    "bad_scope": ["SYN002"],
    "bad_visibility": ["SYN003"],
    "base_for_overlay": [],
    "builtin_arity": ["ARG001"],
    "duplicate_definition": ["DUP001"],
    "import_absolute": ["LOAD002"],
    "import_cycle": ["LOAD004"],
    "import_escape": ["LOAD003"],
    "import_missing": ["LOAD001"],
    "let_hides_param": ["NAM001"],
    "missing_brace_before_decl": ["SYN001"],
    "missing_brace_eof": ["SYN001"],
    "missing_field": ["FLD002"],
    "overlay_without_replace": ["DUP001"],
    "phase_not_in_sequence": ["SEQ002"],
    "player_outside_phase": ["UNK001"],
    "procedure_arity": ["ARG001"],
    "ref_missing": ["REF001"],
    "replace_missing": ["OVL001"],
    "several_errors": ["UNK001", "ARG001", "UNK003"],
    "syntax_open_block": ["SYN001"],
    "unexpected_char": ["SYN001"],
    "unknown_die_in_table": ["UNK001"],
    "unknown_field": ["FLD001"],
    "unknown_kind": ["UNK002"],
    "unknown_name": ["UNK001"],
    "unknown_phase_in_sequence": ["SEQ002", "UNK003"],
    "victory_unknown_field": ["VIC001"],
}

HEADLINE = re.compile(r"^(?P<file>[\w/.-]+\.civ):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[A-Z]+\d{3})\]: .+$")


def check_case(name: str):
    diags, _ = check_paths([str(GOLDEN / name)])
    return diags


def render_case(name: str) -> str:
    # Paths are shown relative to the working folder when inside it: render from tests/golden so the text
    # is the same wherever the repository lives and wherever pytest is started.
    with contextlib.chdir(GOLDEN):
        text = render_text(check_case(name))
    text = text.replace(str(GOLDEN) + os.sep, "").replace(str(GOLDEN), "<golden>")
    return text + "\n" if text else ""


def expected_path(name: str) -> Path:
    return GOLDEN / f"{name}.expected"


def test_there_are_enough_cases():
    assert len(CASES) >= 15
    assert set(CASES) == set(CODES), "every golden case needs its codes in CODES (and vice versa)"


def test_every_expected_file_has_a_case():
    stale = sorted(p.stem for p in GOLDEN.glob("*.expected") if p.stem not in CASES)
    assert stale == []


@pytest.mark.parametrize("name", CASES)
def test_golden(name):
    actual = render_case(name)
    path = expected_path(name)
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
        return
    assert path.is_file(), f"no golden file {path.name}; run with CIVDSL_UPDATE_GOLDEN=1 to create it"
    assert actual == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_case_finds_its_problem(name):
    assert [d.code for d in check_case(name)] == CODES[name]


@pytest.mark.parametrize("name", [c for c in CASES if CODES[c]])
def test_rendering_has_location_caret_and_source_line(name):
    lines = render_case(name).splitlines()
    heads = [m for m in map(HEADLINE.match, lines) if m]
    assert len(heads) == len(CODES[name])
    for m in heads:
        assert (GOLDEN / m["file"]).is_file()
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1
    # every headline is followed by the numbered source line and a caret under the reported column
    for i, line in enumerate(lines):
        m = HEADLINE.match(line)
        if not m:
            continue
        gutter = f"{int(m['line']):>4} | "
        assert lines[i + 1].startswith(gutter)
        source = (GOLDEN / m["file"]).read_text(encoding="utf-8").splitlines()[int(m["line"]) - 1]
        assert lines[i + 1] == gutter + source
        caret = lines[i + 2]
        assert caret.strip() and set(caret.strip()) == {"^"}
        assert caret.index("^") == len(gutter) + int(m["col"]) - 1


def test_diagnostics_are_sorted_by_position():
    diags = check_case("several_errors")
    assert [(d.span.line, d.span.col) for d in diags] == sorted((d.span.line, d.span.col) for d in diags)
    assert len(diags) == 3


def test_did_you_mean_hints():
    hints = {name: check_case(name)[0].hint for name in
             ("unknown_name", "unknown_kind", "unknown_field", "ref_missing", "replace_missing")}
    assert hints == {
        "unknown_name": "did you mean `bonus`?",
        "unknown_kind": "did you mean `advance`?",
        "unknown_field": "did you mean `credits`?",
        "ref_missing": 'did you mean "Pottery"?',
        "replace_missing": "did you mean `goal`?",
    }


def test_duplicate_points_at_the_first_definition():
    (d,) = check_case("duplicate_definition")
    assert d.span.line == 3
    assert [(span.line, note) for span, note in d.related] == [(2, "first defined here")]


def test_overlay_duplicate_points_into_the_base():
    (d,) = check_case("overlay_without_replace")
    (span, note), = d.related
    assert Path(span.file).parent.name == "base_for_overlay" and span.line == 2
    assert "replace" in d.hint


def test_procedure_arity_points_at_the_declaration():
    (d,) = check_case("procedure_arity")
    assert (d.span.line, d.span.col) == (9, 3)
    assert [(span.line, note) for span, note in d.related] == [(4, "declared here")]


def test_open_block_hint_names_the_block():
    (d,) = check_case("missing_brace_eof")
    assert "end of file" in d.message
    assert "line 5" in d.hint and "`}` may be missing" in d.hint
    (d,) = check_case("syntax_open_block")
    assert "line 4: `phase main {`" in d.hint


def test_warning_alone_is_not_an_error():
    (d,) = check_case("phase_not_in_sequence")
    assert d.severity == "warning"


def test_import_cycle_and_escape_are_reported_at_the_import():
    (cycle,) = check_case("import_cycle")
    assert Path(cycle.span.file).name == "b.civ" and cycle.span.line == 1
    (escape,) = check_case("import_escape")
    assert Path(escape.span.file).name == "game.civ" and escape.span.line == 2


def test_assign_to_misspelt_name_suggests_the_declared_one():
    (d,) = check_case("assign_unknown_name")
    assert "did you mean `score`?" in (d.hint or "")


def test_missing_import_names_the_path_as_written():
    (d,) = check_case("import_missing")
    assert "rules/extra.civ" in d.message


def test_check_covers_options(tmp_path):
    (tmp_path / "opt").mkdir()
    (tmp_path / "opt" / "game.civ").write_text(
        'game "O" { players: 1 }\nphase p { log "x" }\nsequence { phases: p }\n'
        'option broken "Broken" {\n  replace phase p { log "{bogus}" }\n  replace param nothing = 1\n}\n',
        encoding="utf-8")
    diags, _ = check_paths([str(tmp_path / "opt")])
    assert {d.code for d in diags} >= {"OVL001"}


def test_caret_lines_up_under_tab_indented_code(tmp_path):
    f = tmp_path / "tab.civ"
    f.write_text("phase p {\n\t\tlet x = = 1\n}\n", encoding="utf-8")
    diags, _ = check_paths([str(f)])
    source, caret = render_text(diags).splitlines()[1:3]
    assert source.expandtabs()[caret.expandtabs().index("^")] == "="
