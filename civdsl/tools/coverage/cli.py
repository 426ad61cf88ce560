"""The coverage options of `civdsl test` and `civdsl check --simulate N`, and the measuring session the
two commands wrap their runs in: recording on while the scenarios or games run, then the text report
and the Cobertura and lcov files.

The output files' folders are checked before anything runs, so a wrong path costs nothing and is a
usage error (exit 2) with a plain message, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys


class CoverageError(Exception):
    """A coverage option that cannot be honoured (the message says why)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--coverage", action="store_true",
                        help="measure which rules, lines and branches of the rule files ran, and print a table "
                             "per rule file after the normal output (see docs/coverage.md)")
    parser.add_argument("--coverage-xml", metavar="FILE",
                        help="measure rule coverage and write it as Cobertura XML (GitLab, Codecov, Jenkins)")
    parser.add_argument("--coverage-lcov", metavar="FILE",
                        help="measure rule coverage and write it as an lcov tracefile (genhtml, Codecov, Coveralls)")


def session(args, simulated: bool = False) -> "Session":
    """The session the command's options ask for (one that measures nothing when none is given).
    `simulated`: the command is `check`, which measures only the games it simulates."""
    wanted = args.coverage or args.coverage_xml or args.coverage_lcov
    if not wanted:
        return Session(False)
    if simulated and not args.simulate:
        raise CoverageError("--coverage measures the rules the simulated games run: give --simulate N too")
    for option, path in (("--coverage-xml", args.coverage_xml), ("--coverage-lcov", args.coverage_lcov)):
        if path is not None:
            _writable(option, path)
    return Session(True, args.coverage, args.coverage_xml, args.coverage_lcov)


def _writable(option: str, path: str) -> None:
    if not path or os.path.isdir(path):
        raise CoverageError(f"{option}: `{path}` is a folder; give a file name (such as `build/coverage.xml`)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CoverageError(f"{option}: the folder `{os.path.dirname(path) or folder}` does not exist; "
                            "create it first (`mkdir -p`)")
    if not os.access(folder, os.W_OK):
        raise CoverageError(f"{option}: cannot write in the folder `{os.path.dirname(path) or folder}`")


class Session:
    """Recording while inside `with`; `report` afterwards."""

    def __init__(self, on: bool, table: bool = False, xml: str | None = None, lcov: str | None = None):
        self.on, self.table, self.xml, self.lcov = on, table, xml, lcov
        self.hits: set[str] = set()
        self.files: set[str] = set()

    def __enter__(self) -> "Session":
        if self.on:
            from . import recorder
            recorder.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.on:
            from . import recorder
            hits, files = recorder.stop()
            self.hits |= hits
            self.files |= files

    def report(self, text: bool = True) -> bool:
        """Print the table (to standard output after a text report, else to standard error) and write
        the files asked for; False when a file could not be written (said on standard error)."""
        if not self.on:
            return True
        from .cobertura import cobertura_xml
        from .lcov import lcov_text
        from .report import text_report
        from .results import measure
        files = measure(self.files, self.hits)
        out = sys.stdout if text else sys.stderr
        if self.table:
            print(text_report(files), file=out)
        for option, path, render, what in (("--coverage-xml", self.xml, cobertura_xml, "Cobertura XML"),
                                           ("--coverage-lcov", self.lcov, lcov_text, "lcov")):
            if path is None:
                continue
            try:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(render(files))
            except OSError as exc:
                print(f"civdsl: {option}: cannot write `{path}`: {exc.strerror or exc}", file=sys.stderr)
                return False
            print(f"rule coverage written to {path} ({what})", file=out)
        return True
