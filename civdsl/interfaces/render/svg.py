"""Writing SVG text safely: escaping, numbers, and a rough measure of text for layout.

Every word in a picture comes from rule files or logs, which may be hostile, so every text and
attribute value goes through `esc`: XML's special characters escaped and characters XML cannot hold
(control characters, lone surrogates) replaced, so the document always parses. Numbers are written
with at most one decimal, so the same scene gives the same bytes.
"""
from __future__ import annotations

import re
from typing import Any

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHAR_WIDTH = 0.6
"""Average advance of a character, in font sizes (DejaVu Sans; a little wide for lower case, so text
measured with it fits)."""

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def esc(text: Any) -> str:
    """Text (or any value, as text) safe inside an XML element or a quoted attribute."""
    return _NOT_XML.sub("\ufffd", str(text)).translate(_ESCAPES)


def num(x: float) -> str:
    """A coordinate: at most one decimal, no trailing zeros, no `-0`."""
    r = round(float(x), 1)
    if r == 0:
        return "0"
    return str(int(r)) if r.is_integer() else f"{r:.1f}"


def pts(points) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def fit(text: str, size: float, width: float) -> str:
    """The text cut short (with an ellipsis) to fit `width`."""
    room = max(1, int(width / (size * CHAR_WIDTH)))
    return text if len(text) <= room else text[: max(0, room - 1)] + "…"


def wrap(text: str, size: float, width: float, max_lines: int = 6) -> list[str]:
    """Words into lines that fit `width`; a word too long is cut; at most `max_lines` (the last ends
    with an ellipsis when text is left over)."""
    room = max(1, int(width / (size * CHAR_WIDTH)))
    lines: list[str] = []
    for para in str(text).splitlines() or [""]:
        line = ""
        for word in para.split():
            word = word if len(word) <= room else word[: room - 1] + "…"
            if line and len(line) + 1 + len(word) > room:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + " …", size, width) if len(lines[-1]) + 2 <= room else lines[-1][:-1] + "…"
    return lines


def show(value: Any) -> str:
    """A panel's JSON scalar as a person reads it."""
    if value is None:
        return "–"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class Svg:
    """An SVG document written element by element (a list of strings joined once)."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def add(self, raw: str) -> None:
        self.out.append(raw)

    def rect(self, x, y, w, h, fill="none", stroke=None, sw=1.0, rx=0, extra="") -> None:
        line = f' stroke="{stroke}" stroke-width="{num(sw)}"' if stroke else ""
        corner = f' rx="{num(rx)}"' if rx else ""
        self.out.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{corner} '
                        f'fill="{fill}"{line}{extra}/>')

    def circle(self, cx, cy, r, fill="none", stroke=None, sw=1.0, extra="") -> None:
        line = f' stroke="{stroke}" stroke-width="{num(sw)}"' if stroke else ""
        self.out.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"{line}{extra}/>')

    def polygon(self, points, fill="none", stroke=None, sw=1.0, extra="") -> None:
        line = f' stroke="{stroke}" stroke-width="{num(sw)}" stroke-linejoin="round"' if stroke else ""
        self.out.append(f'<polygon points="{pts(points)}" fill="{fill}"{line}{extra}/>')

    def line(self, x1, y1, x2, y2, stroke, sw=1.0, extra="") -> None:
        self.out.append(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
                        f'stroke="{stroke}" stroke-width="{num(sw)}"{extra}/>')

    def text(self, x, y, text: str, size: float, fill="#222", anchor="start", weight="normal",
             halo: str | None = None, extra="") -> None:
        """A line of text (escaped) at baseline `y`; `halo`: a pale outline under it, readable on any ground."""
        bold = ' font-weight="bold"' if weight == "bold" else ""
        common = f'x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}"{bold}{extra}'
        body = esc(text)
        if halo:
            self.out.append(f'<text {common} fill="{halo}" stroke="{halo}" stroke-width="{num(size / 4)}" '
                            f'stroke-linejoin="round">{body}</text>')
        self.out.append(f'<text {common} fill="{fill}">{body}</text>')

    def document(self, width: float, height: float, title: str, background: str = "#ffffff") -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
                f'viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}">'
                f'<title>{esc(title)}</title><rect width="100%" height="100%" fill="{background}"/>')
        return head + "".join(self.out) + "</svg>\n"
