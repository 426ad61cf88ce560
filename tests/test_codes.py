"""The catalogue of diagnostic codes (`civdsl.language.codes`) is in step with docs/diagnostics.md and with
the codes the sources raise, and the SARIF output describes each rule by it and links to its docs entry."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from sarif_pydantic import Sarif
from test_docs import source_codes

from civdsl.interfaces import report
from civdsl.interfaces.cli import main
from civdsl.language.codes import CODES, describe
from civdsl.language.diagnostics import Diagnostic, Span

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "diagnostics.md"
ANCHOR = re.compile(r'<a id="([a-z]+[0-9]{3})"></a>`([A-Z]+[0-9]{3})`')


def documented() -> set[str]:
    found = ANCHOR.findall(PAGE.read_text(encoding="utf-8"))
    assert all(anchor == code.lower() for anchor, code in found)
    return {code for _, code in found}


def test_every_catalogued_code_has_a_docs_entry_and_every_entry_is_catalogued():
    docs = documented()
    assert len(docs) > 150
    assert sorted(set(CODES) - docs) == [], "in civdsl/language/codes.py but not in docs/diagnostics.md"
    assert sorted(docs - set(CODES)) == [], "in docs/diagnostics.md but not in civdsl/language/codes.py"


def test_every_code_the_sources_raise_is_catalogued():
    missing = sorted(source_codes() - set(CODES))
    assert missing == [], f"add a line for each to civdsl/language/codes.py: {missing}"


def test_descriptions_are_short_general_sentences():
    for code, text in CODES.items():
        assert re.fullmatch(r"[A-Z]{3,4}[0-9]{3}", code)
        assert text and text == text.strip() and "\n" not in text, code
        assert len(text) <= 110 and not text.endswith("."), code
    assert describe("UNK001") == "An unknown name, or a table's unknown die" and describe("XYZ999") is None


def _sarif(diags) -> dict:
    log = json.loads(report.to_sarif(diags))
    Sarif.model_validate(log)
    return log


def test_sarif_rules_carry_the_general_description_not_the_first_message():
    diags = [Diagnostic("UNK001", "unknown name `harvst`", Span("a.civ", 3, 4), hint="did you mean `harvest`?"),
             Diagnostic("UNK001", "unknown name `lenn`", Span("a.civ", 5, 1)),
             Diagnostic("LNT001", "variable `x` is never used", Span("a.civ", 1, 1), "warning")]
    rules = {r["id"]: r for r in _sarif(diags)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["UNK001"]["shortDescription"]["text"] == CODES["UNK001"]
    assert rules["LNT001"]["shortDescription"]["text"] == CODES["LNT001"]
    assert all("harvst" not in r["shortDescription"]["text"] for r in rules.values())


def test_sarif_links_each_rule_to_its_entry_in_the_docs():
    """The link comes from `[project.urls] Documentation` in pyproject.toml; while it is the repository's
    docs folder, the link is that page's path with the code's anchor, and the anchor exists."""
    root = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Documentation"]
    assert report.docs_root() == root
    assert "invalid" not in root and "example" not in root
    log = _sarif([Diagnostic("SYN001", "unexpected `=`", Span("a.civ", 1, 1))])
    driver = log["runs"][0]["tool"]["driver"]
    uri = driver["rules"][0]["helpUri"]
    if root.startswith(("http://", "https://")):
        assert uri == root.rstrip("/") + "/diagnostics/#syn001"
    else:
        path, anchor = uri.split("#")
        assert (ROOT / path).resolve() == PAGE and f'<a id="{anchor}">' in PAGE.read_text(encoding="utf-8")
    assert driver["informationUri"] == root


def test_a_hosted_site_links_to_its_built_page(monkeypatch):
    monkeypatch.setattr(report, "docs_root", lambda: "https://docs.example.org/civdsl/")
    assert report.help_uri("RUN001") == "https://docs.example.org/civdsl/diagnostics/#run001"
    monkeypatch.setattr(report, "docs_root", lambda: None)
    rule = _sarif([Diagnostic("RUN001", "division by zero", Span("a.civ", 1, 1))])["runs"][0]["tool"]["driver"]
    assert "helpUri" not in rule["rules"][0] and "informationUri" not in rule


def test_a_code_missing_from_the_catalogue_still_makes_a_valid_log():
    rules = _sarif([Diagnostic("NEW001", "a new finding", Span("a.civ", 1, 1))])["runs"][0]["tool"]["driver"]["rules"]
    assert rules[0]["shortDescription"]["text"] == "civdsl diagnostic NEW001"


def test_sarif_of_a_real_check_uses_the_catalogue(capsys):
    assert main(["check", "--format", "sarif", str(ROOT / "tests" / "golden" / "unknown_name")]) == 1
    log = json.loads(capsys.readouterr().out)
    Sarif.model_validate(log)
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["shortDescription"]["text"] == CODES[rule["id"]]
        assert rule["helpUri"].endswith("#" + rule["id"].lower())
