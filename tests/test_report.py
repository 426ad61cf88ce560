"""Machine formats of diagnostics: SARIF 2.1.0 (validated against the SARIF object model), GitHub
workflow commands, JSON."""
from __future__ import annotations

import json
import re
from pathlib import Path

from sarif_pydantic import Sarif

from civdsl.interfaces.cli import main
from civdsl.interfaces.report import to_github, to_sarif
from civdsl.language.diagnostics import Diagnostic, Span

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def test_sarif_of_real_diagnostics_is_valid(capsys):
    assert main(["check", "--format", "sarif", str(GOLDEN)]) == 1
    log = json.loads(capsys.readouterr().out)
    model = Sarif.model_validate(log)
    assert model.version == "2.1.0"
    results = log["runs"][0]["results"]
    assert results and all(r["ruleId"] == log["runs"][0]["tool"]["driver"]["rules"][r["ruleIndex"]]["id"]
                           for r in results)
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1 for r in results if "locations" in r)


def test_github_annotations_escape_and_locate():
    d = Diagnostic("UNK001", "bad 100%\nname", Span("a,b:c.civ", 3, 4, 3, 9), hint="try x")
    line = to_github([d])
    assert line == "::error file=a%2Cb%3Ac.civ,line=3,col=4,endLine=3,title=civdsl UNK001::bad 100%25%0Aname (help: try x)"
    assert re.fullmatch(r"::(error|warning) [^:]*::.*", line)


def test_github_format_prints_annotations_then_the_full_report(capsys):
    main(["check", "--format", "github", str(GOLDEN / "unknown_name")])
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("::error file=") and "title=civdsl UNK001" in first
    assert "help:" in out


def test_json_format_has_stable_keys(capsys):
    main(["check", "--format", "json", str(GOLDEN / "unknown_name")])
    data = json.loads(capsys.readouterr().out)
    d = data["diagnostics"][0]
    assert set(d) >= {"file", "line", "column", "end_line", "end_column", "code", "severity", "message"}
    assert data["errors"] >= 1


def test_sarif_of_a_warning_is_level_warning():
    log = json.loads(to_sarif([Diagnostic("LNT001", "never used", Span("x.civ", 1, 1), severity="warning")]))
    Sarif.model_validate(log)
    assert log["runs"][0]["results"][0]["level"] == "warning"


def test_strict_turns_warnings_into_errors(tmp_path, capsys):
    folder = tmp_path / "rulesets" / "lint"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "l" { edition: "lint" players: 1 }\nparam unused = 3\n'
                                     'phase p { log "hi" }\nsequence { phases: p }\n', encoding="utf-8")
    assert main(["check", str(folder)]) == 0
    assert "LNT001" in capsys.readouterr().out
    assert main(["check", "--strict", str(folder)]) == 1
    (folder / "game.civ").write_text('game "l" { edition: "lint" players: 1 }\n'
                                     'param unused = 3  # civdsl: ignore[LNT001]\n'
                                     'phase p { log "hi" }\nsequence { phases: p }\n', encoding="utf-8")
    assert main(["check", "--strict", str(folder)]) == 0
