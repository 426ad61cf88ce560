"""Diagnostics for machines and CI: JSON, GitHub Actions workflow commands, and SARIF 2.1.0.

Text output lives in `diagnostics.render_text`; this module adds the formats a pipeline consumes.
Every diagnostic keeps its stable code, so annotations and code-scanning alerts can be searched and
suppressed by code.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..language.codes import describe
from ..language.diagnostics import Diagnostic, display_path, render_text

FORMATS = ("text", "json", "github", "sarif")


@lru_cache(maxsize=1)
def docs_root() -> str | None:
    """The documentation's root, as `[project.urls] Documentation` in pyproject.toml says: read from the
    installed package's metadata, or — in a source checkout installed before the key was there — from the
    checkout's pyproject.toml. None when neither says."""
    try:
        for entry in metadata.metadata("civdsl").get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() == "documentation" and url.strip():
                return url.strip()
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        import tomllib
        urls = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {}).get("urls", {})
    except (OSError, ValueError):
        return None
    return urls.get("Documentation") or None


def help_uri(code: str) -> str | None:
    """Where a code is explained: its entry on the diagnostics page. A hosted site (an `http(s)` root) has the
    page at `diagnostics/`; the repository's docs folder (a relative root) has `diagnostics.md`."""
    root = docs_root()
    if not root:
        return None
    page = "diagnostics/" if re.match(r"https?://", root) else "diagnostics.md"
    return f"{root.rstrip('/')}/{page}#{code.lower()}"


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def to_github(diags: list[Diagnostic]) -> str:
    """`::error file=..,line=..,col=..,title=..::message` lines (GitHub shows the first 10 per step)."""
    out = []
    for d in diags:
        level = "error" if d.severity == "error" else "warning"
        props = []
        if d.span:
            props += [f"file={_escape_prop(display_path(d.span.file))}", f"line={d.span.line}", f"col={d.span.col}"]
            if d.span.end_line:
                props += [f"endLine={d.span.end_line}"]
        props.append(f"title={_escape_prop('civdsl ' + d.code)}")
        message = d.message + (f" (help: {d.hint})" if d.hint else "")
        out.append(f"::{level} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(out)


def to_json(diags: list[Diagnostic], **extra) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    return json.dumps({"diagnostics": [d.to_json() for d in diags], "errors": errors,
                       "warnings": len(diags) - errors, **extra}, indent=2)


def to_sarif(diags: list[Diagnostic]) -> str:
    """A SARIF 2.1.0 log with one run; rules are the codes seen, results point at file regions."""
    codes = sorted({d.code for d in diags})
    rules = [_rule(code) for code in codes]
    results = []
    for d in diags:
        result = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code),
            "level": "error" if d.severity == "error" else "warning",
            "message": {"text": d.message + (f" Help: {d.hint}" if d.hint else "")},
        }
        if d.span:
            region = {"startLine": d.span.line, "startColumn": d.span.col}
            if d.span.end_line:
                region["endLine"] = d.span.end_line
                region["endColumn"] = max(d.span.end_col, 1)
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": display_path(d.span.file).replace("\\", "/")},
                "region": region}}]
        if d.related:
            result["relatedLocations"] = [
                {"id": i, "message": {"text": note}, "physicalLocation": {
                    "artifactLocation": {"uri": display_path(span.file).replace("\\", "/")},
                    "region": {"startLine": span.line, "startColumn": span.col}}}
                for i, (span, note) in enumerate(d.related)]
        results.append(result)
    driver = {"name": "civdsl", "version": __version__, "rules": rules}
    if docs_root():
        driver["informationUri"] = docs_root()
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }
    return json.dumps(log, indent=2)


def _rule(code: str) -> dict:
    """A code as a SARIF rule: its general description from the catalogue (`language.codes`) and the link to
    its entry in the docs; a code missing from the catalogue is described by its family only."""
    rule = {"id": code, "name": code,
            "shortDescription": {"text": describe(code) or f"civdsl diagnostic {code}"}}
    uri = help_uri(code)
    if uri:
        rule["helpUri"] = uri
    return rule


def render(diags: list[Diagnostic], fmt: str, **extra) -> str:
    if fmt == "json":
        return to_json(diags, **extra)
    if fmt == "github":
        text = to_github(diags)
        full = render_text(diags)  # GitHub shows only 10 annotations: the full report follows
        return "\n".join(x for x in (text, full) if x)
    if fmt == "sarif":
        return to_sarif(diags)
    return render_text(diags)
