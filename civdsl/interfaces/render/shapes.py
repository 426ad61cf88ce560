"""Pieces and layer symbols: small shapes centred on a point.

A piece's shape comes from the view's map panel (`pieces`: kind -> shape); an unknown shape is a disc.
A count above one is written on the piece, in black or white, whichever reads on the player's colour.
"""
from __future__ import annotations

import math

from .style import INK, ink_on
from .svg import Svg

SHAPES = ("disc", "square", "triangle", "boat", "star", "diamond", "hexagon", "pentagon", "crown")  # (new ones last: a
# kind the view gives no shape takes the first free one, so adding a shape changes no picture drawn before)
SYMBOLS = ("triangle", "ring", "dot")


def _star(cx, cy, r) -> list[tuple[float, float]]:
    out = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def _polygon(cx, cy, r, n, turn=-math.pi / 2) -> list[tuple[float, float]]:
    """A regular polygon of n corners, the first straight up."""
    return [(cx + r * math.cos(turn + 2 * math.pi * i / n), cy + r * math.sin(turn + 2 * math.pi * i / n))
            for i in range(n)]


def piece(svg: Svg, shape: str, cx: float, cy: float, size: float, fill: str, n: int = 1) -> None:
    """One piece (or a stack of `n`, its count written on it)."""
    h = size / 2
    edge = {"stroke": INK, "sw": 1.0}
    label_y = cy
    if shape == "square":
        svg.rect(cx - h, cy - h, size, size, fill, **edge, rx=1.5)
    elif shape == "triangle":
        svg.polygon([(cx, cy - h * 1.1), (cx + h * 1.15, cy + h * 0.9), (cx - h * 1.15, cy + h * 0.9)], fill, **edge)
        label_y = cy + h * 0.25
    elif shape == "boat":
        svg.polygon([(cx + h * 0.05, cy - h * 1.05), (cx + h * 0.05, cy - h * 0.05), (cx + h * 0.85, cy - h * 0.05)],
                    "#f4f4f4", **edge)
        svg.polygon([(cx - h * 1.3, cy - h * 0.05), (cx + h * 1.3, cy - h * 0.05), (cx + h * 0.85, cy + h * 0.95),
                     (cx - h * 0.85, cy + h * 0.95)], fill, **edge)
        label_y = cy + h * 0.45
    elif shape == "star":
        svg.polygon(_star(cx, cy, h * 1.25), fill, **edge)
    elif shape == "diamond":
        svg.polygon(_polygon(cx, cy, h * 1.25, 4), fill, **edge)
    elif shape == "hexagon":
        svg.polygon(_polygon(cx, cy, h * 1.1, 6), fill, **edge)
    elif shape == "pentagon":
        svg.polygon(_polygon(cx, cy, h * 1.15, 5), fill, **edge)
        label_y = cy + h * 0.1
    elif shape == "crown":
        svg.polygon([(cx - h * 1.1, cy + h * 0.8), (cx - h * 1.1, cy - h * 0.8), (cx - h * 0.55, cy - h * 0.1),
                     (cx, cy - h * 0.95), (cx + h * 0.55, cy - h * 0.1), (cx + h * 1.1, cy - h * 0.8),
                     (cx + h * 1.1, cy + h * 0.8)], fill, **edge)
        label_y = cy + h * 0.25
    else:
        svg.circle(cx, cy, h, fill, **edge)
    if n > 1:
        text = str(n) if n < 1000 else "999+"
        small = size * (0.7 if len(text) < 3 else 0.5) * (0.8 if shape in ("boat", "triangle") else 1)
        svg.text(cx, label_y + small * 0.36, text, small, ink_on(fill), "middle", "bold")


def symbol(svg: Svg, style: str, cx: float, cy: float, size: float, colour: str, fill: str | None = None) -> None:
    """A layer's mark in an area: a triangle, a ring or a dot (`fill`: the value's own colour)."""
    h = size / 2
    if style == "triangle":
        svg.polygon([(cx, cy - h), (cx + h, cy + h * 0.8), (cx - h, cy + h * 0.8)], fill or colour,
                    stroke="#ffffff", sw=0.8)
    elif style == "ring":
        svg.circle(cx, cy, h * 0.85, fill or "none", stroke=colour if fill is None else INK, sw=2.0)
    else:
        svg.circle(cx, cy, h * 0.55, fill or colour, stroke="#ffffff", sw=0.8)
