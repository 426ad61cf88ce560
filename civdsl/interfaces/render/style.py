"""The look of a picture: colours and sizes in one place, and the few rules that pick a colour.

A renderer knows no game, so nothing here names an attribute of a map: what an area looks like comes
from the view's map panel (`layers`: attribute -> style), its pieces' shapes from the panel's `pieces`.
"""
from __future__ import annotations

import re

PALETTE = ("#c0392b", "#2471a3", "#d4ac0d", "#1e8449", "#7d3c98", "#ca6f1e", "#17a589", "#566573")
"""Player colours by seat where the view gives none (the same palette as the views')."""
NEUTRAL = "#9a9a9a"          # pieces of no player
INK = "#222222"               # text
MUTED = "#666666"             # secondary text
PAPER = "#fbf8f1"             # the page
CARD = "#ffffff"              # a panel card
RULE = "#d8d2c4"              # lines of cards and grids

LAND = "#efe4c2"              # an area no layer paints
AREA_EDGE = "#7a6a50"
FILLS = ("#a9cfe8", "#cfe3b4", "#f2c9a0", "#d9c7e8")
"""Tints of `fill` layers, in the order the view lists them (the first is a water blue: a view
usually fills its seas first)."""
SHADE = "#d2d2d2"             # areas the view shades (out of play): washed out to a pale grey
HIGHLIGHT = "#e6007e"         # areas the view highlights: outlined
HATCH = ("#3f8f6a", "#5b7fb5", "#a0522d")
SYMBOL = ("#b03a2e", "#333333", "#1f5f99", "#6c3483")
BORDER_LINES = {"land": "#a08c64", "water": "#5b8fc7", "both": "#a08c64"}

TITLE_SIZE = 26
HEAD_SIZE = 16
TEXT_SIZE = 13
AREA_SIZE = 12
PIECE = 16                    # a piece's size on the board

_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
NAMED = {"black": "#1b1b1b", "white": "#ffffff", "red": "#c0392b", "blue": "#2471a3", "green": "#1e8449",
         "yellow": "#f1c40f", "orange": "#e67e22", "purple": "#7d3c98", "brown": "#8d5524", "grey": "#8c8c8c",
         "gray": "#8c8c8c"}
"""Colour words an attribute's value may be (a layer's symbol then takes that colour)."""


def colour(value, fallback: str) -> str:
    """A colour a scene gives (`#rgb`, `#rrggbb`) as `#rrggbb`; anything else is the fallback (a scene's
    colours are written into the SVG, so only these forms pass)."""
    if isinstance(value, str) and _HEX.fullmatch(value):
        v = value.lower()
        return v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:])
    return fallback


def named(value) -> str | None:
    """The colour an attribute value names (`"white"`), or None."""
    return NAMED.get(value.lower()) if isinstance(value, str) else None


def ink_on(background: str) -> str:
    """Black or white, whichever reads better on the background."""
    r, g, b = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"
