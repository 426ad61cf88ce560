#!/usr/bin/env python3
"""Copy the Avalon Hill 1981 board's area polygons into its map file (build time only).

Usage: python tools/map_geometry.py [REFERENCE_DIR]   (default /work/shared/reference/civ)

The shapes are the `path` polygons of the 131 areas with board "main" in johnchampaign/advanced-civilization
src/data/areas.json (MIT), transcribed from the fan VASSAL module whose main map is the original 1980/81
board. Area names in that file are already the VASSAL spelling that map.json uses (its notes say so), so
areas match by name; the script stops if any area of map.json finds no polygon or the other way round.
Points left of or above the board's edge (the transcription draws a few edge areas 9 units past it)
are clamped to 0; the board's width and height are the largest coordinates. Each area's label point is
worked out once here (the point inside the polygon farthest from its edges), so a renderer need not.

The result is written as the map file's last key, `geometry`, one area a line; the rest of the file is
left byte for byte as it was. The game never reads the reference folder: only map.json. Games do not
change (rules never read `geometry`).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

REFERENCE = Path("/work/shared/reference/civ")
ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json"
SOURCE = ("johnchampaign/advanced-civilization src/data/areas.json @77949e9e17693a27969b4415671cd716093e91fd "
          "(`path` of the 131 areas on board \"main\"; extracted by its author from the fan VASSAL module "
          "AdvancedCivilization_v1.0.vmod, whose main map is the 1980/81 board). Copied by tools/map_geometry.py: "
          "points clamped to the board (>= 0), label points computed.")
LICENCE = "MIT (c) 2026 John Champaign"


def main(argv: list[str]) -> int:
    reference = Path(argv[0]) if argv else REFERENCE
    shapes = json.loads((reference / "johnchampaign-advanced-civilization" / "areas.json").read_text("utf-8"))
    text = MAP.read_text("utf-8")
    names = list(json.loads(text)["areas"])
    paths = {a["name"]: a["path"] for a in shapes if a.get("board") == "main"}
    missing, extra = sorted(set(names) - set(paths)), sorted(set(paths) - set(names))
    if missing or extra:
        print(f"no polygon for {missing}; polygons of no area {extra}", file=sys.stderr)
        return 1
    areas = {}
    for name in names:
        poly = [[max(0, int(x)), max(0, int(y))] for x, y in paths[name]]
        areas[name] = {"polygons": [poly], "label": label_point(poly)}
    width = max(x for a in areas.values() for x, _ in a["polygons"][0])
    height = max(y for a in areas.values() for _, y in a["polygons"][0])
    geometry = {"source": SOURCE, "licence": LICENCE, "schematic": False, "width": width, "height": height,
                "areas": areas}
    MAP.write_text(with_geometry(text, geometry), encoding="utf-8")
    print(f"{MAP.relative_to(ROOT)}: geometry of {len(areas)} areas, board {width} x {height}")
    return 0


def with_geometry(text: str, geometry: dict) -> str:
    """The map file's text with `geometry` as its last key (replacing one written before), one area a
    line; every byte before it unchanged."""
    start = text.find('\n "geometry": ')
    if start >= 0:
        text = text[:text.rfind(",", 0, start)] + "\n}\n"
    body = text.rstrip()
    if not body.endswith("}"):
        raise SystemExit("map file does not end with an object")
    head = {k: v for k, v in geometry.items() if k != "areas"}
    lines = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    rows = [f"   {json.dumps(n, ensure_ascii=False)}: {json.dumps(s, separators=(',', ':'))}"
            for n, s in geometry["areas"].items()]
    block = ' "geometry": {\n' + "\n".join(lines) + '\n  "areas": {\n' + ",\n".join(rows) + "\n  }\n }"
    return body[:-1].rstrip() + ",\n" + block + "\n}\n"


def label_point(poly: list[list[float]], steps: int = 24) -> list[int]:
    """The point inside the polygon farthest from its edges (on a grid, refined twice): where a name
    fits best, also in a concave area whose centroid lies outside it."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    best = (-1.0, (sum(xs) / len(xs), sum(ys) / len(ys)))
    for _ in range(3):
        dx, dy = (x1 - x0) / steps or 1, (y1 - y0) / steps or 1
        for i in range(steps + 1):
            for j in range(steps + 1):
                pt = (x0 + i * dx, y0 + j * dy)
                if inside(pt, poly):
                    d = edge_distance(pt, poly)
                    if d > best[0]:
                        best = (d, pt)
        cx, cy = best[1]
        x0, x1, y0, y1 = cx - 2 * dx, cx + 2 * dx, cy - 2 * dy, cy + 2 * dy
    return [round(best[1][0]), round(best[1][1])]


def inside(pt, poly) -> bool:
    """Even-odd rule."""
    x, y = pt
    hit = False
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


def edge_distance(pt, poly) -> float:
    x, y = pt
    best = float("inf")
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        vx, vy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy or 1)))
        best = min(best, ((x - ax - t * vx) ** 2 + (y - ay - t * vy) ** 2) ** 0.5)
    return best


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
