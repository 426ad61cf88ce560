"""Diagnostics for machines and CI: JSON, GitHub Actions workflow commands, and SARIF 2.1.0.

Text output lives in `diagnostics.render_text`; this module adds the formats a pipeline consumes.
Every diagnostic keeps its stable code, so annotations and code-scanning alerts can be searched and
suppressed by code.
"""
from __future__ import annotations

import json

from .. import __version__
from ..language.diagnostics import Diagnostic, display_path, render_text

FORMATS = ("text", "json", "github", "sarif")
DOCS_URL = "https://civdsl.invalid/diagnostics/"


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
    rules = [{"id": code, "name": code, "helpUri": f"{DOCS_URL}#{code.lower()}",
              "shortDescription": {"text": next(d.message for d in diags if d.code == code)[:200]}}
             for code in codes]
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
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "civdsl", "version": __version__,
                                      "informationUri": DOCS_URL, "rules": rules}},
                  "results": results}],
    }
    return json.dumps(log, indent=2)


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
