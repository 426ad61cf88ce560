"""A map drawn from its geometry: areas as polygons (a drawn board) or as nodes joined by their borders
(a schematic), coloured by the view's layers, with every player's pieces on top.

What an area looks like comes only from the map panel of the view: `layers` ([attribute, style]: the
areas whose attribute is set — true, a non-empty text or list, a non-zero number — get the style) and
`pieces` ([kind, shape]). `shade` areas are greyed, `highlight` areas outlined. Draw order: big areas
under small ones (an island drawn over its sea), then names, layer marks and pieces, so no piece is
ever covered by an area.
"""
from __future__ import annotations

from collections import defaultdict

from .shapes import SHAPES, SYMBOLS, piece, symbol
from .style import (
    AREA_EDGE,
    AREA_SIZE,
    BORDER_LINES,
    FILLS,
    HATCH,
    HIGHLIGHT,
    INK,
    LAND,
    MUTED,
    NEUTRAL,
    PAPER,
    PIECE,
    SHADE,
    SYMBOL,
    named,
)
from .svg import Svg, esc, text_width

NODE_R = 11
PER_ROW = 4


class Look:
    """How each area and piece is drawn, from a map panel."""

    def __init__(self, panel: dict, colours: dict[str, str], order: dict[str, int], kinds=()):
        """`kinds`: the kinds of pieces on the map; a kind the panel gives no shape gets a shape no other
        kind has (in name order), so kinds stay apart on any map."""
        layers = [(a, s) for a, s in _pairs(panel.get("layers")) if isinstance(a, str)]
        self.fills = [a for a, s in layers if s == "fill"]
        self.hatches = [a for a, s in layers if s == "hatch"]
        self.symbols = [(a, s if s in SYMBOLS else "dot") for a, s in layers if s not in ("fill", "hatch")]
        self.shapes = {k: s if s in SHAPES else "disc" for k, s in _pairs(panel.get("pieces")) if isinstance(k, str)}
        free = [s for s in SHAPES if s not in self.shapes.values()] or ["disc"]
        for i, kind in enumerate(sorted(k for k in set(kinds) if isinstance(k, str) and k not in self.shapes)):
            self.shapes[kind] = free[i % len(free)]
        self.kind_order = {k: i for i, k in enumerate(self.shapes)}
        self.shade = set(_names(panel.get("shade")))
        self.highlight = set(_names(panel.get("highlight")))
        self.colours, self.order = colours, order

    def fill(self, attrs: dict) -> str:
        for i, attr in enumerate(self.fills):
            if _set(attrs.get(attr)):
                return FILLS[i % len(FILLS)]
        return LAND

    def hatch_ids(self, attrs: dict) -> list[int]:
        return [i for i, attr in enumerate(self.hatches) if _set(attrs.get(attr))]

    def marks(self, attrs: dict) -> list[tuple[str, str, str | None]]:
        """(style, colour, the value's own colour) of each symbol layer set in the area."""
        return [(st, SYMBOL[i % len(SYMBOL)], named(attrs.get(attr)))
                for i, (attr, st) in enumerate(self.symbols) if _set(attrs.get(attr))]

    def stacks(self, pieces: list) -> list[tuple[str, str, int]]:
        """An area's pieces as (shape, colour, count), players in seat order, kinds in the panel's order."""
        rows = sorted(pieces, key=lambda p: (self.order.get(p[0], len(self.order)), str(p[0]),
                                             self.kind_order.get(p[1], len(self.kind_order)), str(p[1])))
        return [(self.shapes.get(kind, "disc"), self.colours.get(owner, NEUTRAL), n) for owner, kind, n in rows]


def _pairs(value) -> list:
    return [tuple(p) for p in value if isinstance(p, (list, tuple)) and len(p) == 2] if isinstance(value, list) else []


def _names(value) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _set(value) -> bool:
    """An attribute is set when it is true, a non-empty text or list, or a non-zero number."""
    return bool(value)


def _point(p) -> tuple[float, float] | None:
    if isinstance(p, (list, tuple)) and len(p) == 2 and all(type(v) in (int, float) for v in p):
        return float(p[0]), float(p[1])
    return None


def _polygons(shape: dict) -> list[list[tuple[float, float]]]:
    out = []
    for poly in shape.get("polygons") or []:
        points = [_point(p) for p in poly] if isinstance(poly, list) else []
        if len(points) >= 3 and all(points):
            out.append(points)
    return out


def _area_of(poly) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2


def board_size(geometry: dict, width: float) -> tuple[float, float]:
    """The drawn board's height and scale for a width (a board at most three times as tall as wide: a
    scene's sizes are not trusted to make a picture of any size)."""
    gw, gh = (v if type(v) in (int, float) and 1 <= v <= 1e7 else 1000.0
              for v in (geometry.get("width"), geometry.get("height")))
    scale = width / gw
    return min(gh * scale, 3 * width), scale


def draw_board(svg: Svg, scene_map: dict, look: Look, x0: float, y0: float, width: float) -> float:
    """The map at (x0, y0), `width` wide; returns its height."""
    geometry = scene_map.get("geometry") or {}
    height, s = board_size(geometry, width)
    areas = scene_map.get("areas") or {}
    shapes = geometry.get("areas") or {}

    def at(p):
        return x0 + p[0] * s, y0 + p[1] * s

    polys, nodes = {}, {}
    for name, shape in shapes.items():
        if not isinstance(shape, dict):
            continue
        found = _polygons(shape)
        if found:
            polys[name] = [[at(p) for p in poly] for poly in found]
            label = _point(shape.get("label"))
            nodes[name] = at(label) if label else _centre(polys[name][0])
        elif _point(shape.get("at")):
            nodes[name] = at(_point(shape.get("at")))
    svg.rect(x0, y0, width, height, "#e9eef2" if not polys else PAPER)
    _draw_polygons(svg, polys, areas, look)
    _draw_borders(svg, scene_map.get("borders"), nodes, polys)
    by_area = defaultdict(list)
    for entry in scene_map.get("pieces") or []:
        if isinstance(entry, list) and len(entry) == 4 and isinstance(entry[3], int) and entry[3] > 0:
            by_area[entry[0]].append((entry[1], entry[2], entry[3]))
    for name in sorted(nodes, key=lambda n: (nodes[n][1], nodes[n][0], n)):
        attrs = areas.get(name) if isinstance(areas.get(name), dict) else {}
        if name in polys:
            _label_polygon(svg, name, nodes[name], polys[name], attrs, look, by_area.get(name, []))
        else:
            _node(svg, name, nodes[name], attrs, look, by_area.get(name, []))
    return height


def _centre(poly) -> tuple[float, float]:
    return sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)


def _draw_polygons(svg: Svg, polys: dict, areas: dict, look: Look) -> None:
    if not polys:
        return
    svg.add("<defs>" + "".join(
        f'<pattern id="hatch{i}" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">'
        f'<line x1="0" y1="0" x2="0" y2="7" stroke="{HATCH[i % len(HATCH)]}" stroke-width="2.2"/></pattern>'
        for i in range(len(look.hatches))) + "</defs>")
    order = sorted(polys, key=lambda n: (-sum(_area_of(p) for p in polys[n]), n))
    for name in order:
        attrs = areas.get(name) if isinstance(areas.get(name), dict) else {}
        for poly in polys[name]:
            svg.polygon(poly, look.fill(attrs), AREA_EDGE, 1.2, extra=_title(name))
            for i in look.hatch_ids(attrs):
                svg.polygon(poly, f"url(#hatch{i})", extra=' fill-opacity="0.55"')
            if name in look.shade:
                svg.polygon(poly, SHADE, extra=' fill-opacity="0.8"')
    for name in order:
        if name in look.highlight:
            for poly in polys[name]:
                svg.polygon(poly, "none", HIGHLIGHT, 4)


def _draw_borders(svg: Svg, borders, nodes: dict, polys: dict) -> None:
    """Borders as lines between areas drawn as nodes (a drawn board shows them as shared edges)."""
    for b in borders if isinstance(borders, list) else []:
        if not (isinstance(b, list) and len(b) == 3) or b[0] in polys or b[1] in polys:
            continue
        if b[0] not in nodes or b[1] not in nodes:
            continue
        (x1, y1), (x2, y2) = nodes[b[0]], nodes[b[1]]
        kind = b[2] if b[2] in BORDER_LINES else "land"
        svg.line(x1, y1, x2, y2, BORDER_LINES[kind], 2.2, ' stroke-linecap="round"')
        if kind in ("water", "both"):
            svg.line(x1, y1, x2, y2, BORDER_LINES["water"] if kind == "both" else "#ffffff", 2.2,
                     ' stroke-dasharray="7 6"')


def _name_size(name: str, polys: list) -> float:
    """The name's font size: the house size, smaller (to a floor) where the area is narrow."""
    xs = [p[0] for poly in polys for p in poly]
    room = (max(xs) - min(xs)) * 0.95
    size = AREA_SIZE
    while size > 8 and text_width(name, size) > room:
        size -= 1
    return size


def _label_polygon(svg, name, point, polys, attrs, look: Look, pieces) -> None:
    x, y = point
    size = _name_size(name, polys)
    marks = look.marks(attrs)
    stacks = look.stacks(pieces)
    rows = (len(stacks) + PER_ROW - 1) // PER_ROW
    top = y - (size + (PIECE + 3) * rows) / 2 if stacks else y - size / 2
    ink = MUTED if name in look.shade else INK
    svg.text(x, top + size * 0.8, name, size, ink, "middle", halo="#ffffff")
    if marks:
        _marks(svg, marks, x + text_width(name, size) / 2 + 7, top + size * 0.45, 9)
    _pieces(svg, stacks, x, top + size + 3 + PIECE / 2)


def _node(svg, name, point, attrs, look: Look, pieces) -> None:
    x, y = point
    fill = SHADE if name in look.shade else look.fill(attrs)
    svg.circle(x, y, NODE_R, fill, AREA_EDGE, 1.4, extra=_title(name))
    for i in look.hatch_ids(attrs):
        svg.circle(x, y, NODE_R - 3, "none", HATCH[i % len(HATCH)], 2.5)
    if name in look.highlight:
        svg.circle(x, y, NODE_R + 4, "none", HIGHLIGHT, 3.5)
    marks = look.marks(attrs)
    if marks:
        _marks(svg, marks, x - (len(marks) - 1) * 4.5, y, 8)
    ink = MUTED if name in look.shade else INK
    svg.text(x, y + NODE_R + AREA_SIZE + 1, name, AREA_SIZE - 1, ink, "middle", halo="#ffffff")
    stacks = look.stacks(pieces)
    rows = (len(stacks) + PER_ROW - 1) // PER_ROW
    _pieces(svg, stacks, x, y - NODE_R - 4 - (PIECE + 3) * rows + PIECE / 2)


def _marks(svg, marks, x, y, size) -> None:
    for i, (st, colour, own) in enumerate(marks):
        symbol(svg, st, x + i * (size + 1), y, size, colour, own)


def _pieces(svg, stacks, x, y) -> None:
    """Stacks in rows of PER_ROW, centred on x, the first row's centres at y."""
    step = PIECE + 4
    for row in range(0, len(stacks), PER_ROW):
        line = stacks[row:row + PER_ROW]
        left = x - (len(line) - 1) * step / 2
        for i, (shape, colour, n) in enumerate(line):
            piece(svg, shape, left + i * step, y + (row // PER_ROW) * (PIECE + 3), PIECE, colour, n)


def _title(name: str) -> str:
    return f' data-area="{esc(name)}"'


def draw_kinds(svg: Svg, look: Look, kinds, x: float, y: float) -> None:
    """The shape of each kind of piece on the map, in a row from (x, y) (a kind's name is the ruleset's)."""
    for kind in [k for k in look.shapes if k in set(kinds)]:
        piece(svg, look.shapes[kind], x + 8, y, 14, NEUTRAL)
        svg.text(x + 20, y + 5, kind, 13, INK)
        x += 20 + text_width(kind, 13) + 16

