"""Cobertura XML, as coverage.py writes it (`coverage xml`), which CI services read: GitLab's
`coverage_report` artifact, Codecov, Azure Pipelines, Jenkins.

One `<package>` per folder of rule files, one `<class>` per rule file (its `filename` relative to the
`<source>`), one `<line>` per line holding a statement, with `hits` (1 or 0: coverage records whether
a site ran, not how often) and, on a line with branches, `branch="true"` and `condition-coverage`.
Each rule is a `<method>` of its class.
"""
from __future__ import annotations

import os
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from ... import __version__
from .results import FileCoverage, Totals, of_files

DTD = "http://cobertura.sourceforge.net/xml/coverage-04.dtd"


def _rate(done: int, total: int) -> str:
    return f"{(done / total if total else 1.0):.4g}"


def _rates(el: ET.Element, t: Totals) -> None:
    el.set("line-rate", _rate(t.lines_run, t.lines))
    el.set("branch-rate", _rate(t.arms_run, t.arms))
    el.set("complexity", "0")


def source_root(files: list[FileCoverage]) -> str:
    """The folder the file names are relative to: the working folder when every file is inside it, else
    the files' common folder."""
    cwd = os.getcwd()
    paths = [os.path.abspath(f.path) for f in files]
    if all(os.path.commonpath([cwd, p]) == cwd for p in paths):
        return cwd
    return os.path.commonpath([os.path.dirname(p) for p in paths]) if paths else cwd


def cobertura_xml(files: list[FileCoverage], timestamp: int | None = None) -> str:
    root_dir = source_root(files)
    t = of_files(files)
    cov = ET.Element("coverage")
    cov.set("version", __version__)
    cov.set("timestamp", str(int(time.time() * 1000) if timestamp is None else timestamp))
    cov.set("lines-valid", str(t.lines))
    cov.set("lines-covered", str(t.lines_run))
    cov.set("branches-valid", str(t.arms))
    cov.set("branches-covered", str(t.arms_run))
    _rates(cov, t)
    ET.SubElement(ET.SubElement(cov, "sources"), "source").text = root_dir
    packages = ET.SubElement(cov, "packages")
    by_folder: dict[str, list[tuple[str, FileCoverage]]] = {}
    for f in files:
        rel = Path(os.path.relpath(os.path.abspath(f.path), root_dir)).as_posix()
        by_folder.setdefault(str(Path(rel).parent.as_posix()), []).append((rel, f))
    for folder, members in sorted(by_folder.items()):
        package = ET.SubElement(packages, "package")
        package.set("name", "." if folder == "." else folder.replace("/", "."))
        _rates(package, of_files([f for _, f in members]))
        classes = ET.SubElement(package, "classes")
        for rel, f in members:
            _class(classes, rel, f)
    body = ET.tostring(cov, encoding="unicode")
    return (f'<?xml version="1.0" ?>\n<!DOCTYPE coverage SYSTEM "{DTD}">\n'
            f"<!-- Rule coverage by civdsl {__version__} -->\n{_indent(body)}\n")


def _class(classes: ET.Element, rel: str, f: FileCoverage) -> None:
    cls = ET.SubElement(classes, "class")
    cls.set("name", Path(rel).name)
    cls.set("filename", rel)
    _rates(cls, of_files([f]))
    methods = ET.SubElement(cls, "methods")
    for rule, ran in f.rules:
        m = ET.SubElement(methods, "method")
        m.set("name", rule.name)
        m.set("signature", "")
        m.set("line-rate", "1" if ran else "0")
        m.set("branch-rate", "1" if ran else "0")
        m.set("complexity", "0")
        line = ET.SubElement(ET.SubElement(m, "lines"), "line")
        line.set("number", str(rule.line))
        line.set("hits", "1" if ran else "0")
    lines = ET.SubElement(cls, "lines")
    branches = f.branch_lines()
    for number, ran in f.lines.items():
        line = ET.SubElement(lines, "line")
        line.set("number", str(number))
        line.set("hits", "1" if ran else "0")
        if number in branches:
            done, total = branches[number]
            line.set("branch", "true")
            line.set("condition-coverage", f"{100 * done // total}% ({done}/{total})")
            missing = [arm.label for n, arm in f.missed_arms() if n == number]
            if missing:
                line.set("missing-branches", ",".join(missing))


def _indent(text: str) -> str:
    el = ET.fromstring(text)
    ET.indent(el, space="\t")
    return ET.tostring(el, encoding="unicode")
