"""Bad input as an HTTP answer: a status, one sentence saying what is wrong, a hint, and the diagnostics
(with their codes) when the library found them. Raised anywhere in a request; `app.py` renders it as a
page or as JSON, and nothing in the game has changed."""
from __future__ import annotations

import os

from ...language.diagnostics import CivError, Diagnostic


class WebError(Exception):
    def __init__(self, status: int, message: str, hint: str | None = None, details: list[str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.hint = hint
        self.details = details or []

    def to_json(self) -> dict:
        return {"error": self.message, "hint": self.hint, "details": self.details, "status": self.status}


def diagnostic_line(d: Diagnostic, hide: str | None = None) -> str:
    """One diagnostic as a line a browser shows: code, place, message, hint. The place is `line N` of an
    upload (`hide`: its temporary path), else the file as a log names rules (`civ-core/ast.civ:32`),
    never a folder of the server."""
    where = ""
    if d.span is not None and d.span.line:
        file = str(d.span.file or "")
        where = f"line {d.span.line}: " if not file or (hide and hide in file) else \
            f"{'/'.join(file.replace(os.sep, '/').split('/')[-2:])}:{d.span.line}: "
    text = f"{d.code} {where}{d.message}" + (f" — {d.hint}" if d.hint else "")
    if hide:
        text = text.replace(hide, "the upload").replace(os.path.dirname(hide), "the upload's folder")
    return text


def from_civ(exc: CivError, message: str, status: int = 400, hide: str | None = None) -> WebError:
    """A library error as bad input; `hide`: a temporary path to keep out of the text."""
    return WebError(status, message, details=[diagnostic_line(d, hide) for d in exc.diagnostics])
