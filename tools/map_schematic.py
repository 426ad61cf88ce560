#!/usr/bin/env python3
"""Compute a schematic layout of the Mega Empires: The West map and store it in its map file (build time only).

Usage: python tools/map_schematic.py

The reference copies hold no shapes of the West board's areas, so the picture of this map is a
schematic: each area a node at a point `at`, its borders drawn as lines. The layout is computed once,
here, and stored in the map file's `geometry` (with `"schematic": true`), so every picture of the map
is the same.

How: the areas that are also areas of the Avalon Hill 1981 board (Italy, Greece, Anatolia, Egypt, the
seas, ...: the same places, some spelt otherwise) start at that board's label points; the others (Iberia,
Gaul, Britain, ...) at their rough longitude and latitude, mapped onto that board by an affine fit; an area
with neither would start beyond its placed neighbours. Then a force layout (springs along borders, every
pair of nodes kept at least a label's width apart, each area pulled gently toward its start) runs a fixed
number of steps. Deterministic: no random numbers, areas in name order. Run after tools/me_map.py, which
rewrites the map file without a geometry.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from map_geometry import with_geometry  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "rulesets" / "mega-empires-the-west" / "data" / "map.json"
ANCHORS = ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json"
NOTE = ("geometry: SCHEMATIC. The reference copies hold no shapes of the West board, so pictures draw each area as "
        "a node at its point `at` and its borders as lines. The layout was computed once by tools/map_schematic.py: "
        "areas also on the Avalon Hill 1981 board start where that board has them, the others at their approximate "
        "longitude and latitude mapped onto that board; then a force layout of the borders spaces them. Positions "
        "are rough geography, not the board.")
SOURCE = ("computed by tools/map_schematic.py: a force layout of the map's borders, started from the Avalon Hill "
          "1981 board's label points (areas of the same name) and approximate longitudes and latitudes (the others); "
          "not the West board")
SPACING = 165.0                # nodes closer than this push apart (a label's width)
EDGE = 170.0                   # a border's rest length
STEPS = 900
MARGIN = 80


def main() -> int:
    text = MAP.read_text("utf-8")
    data = json.loads(text)
    names = sorted(data["areas"])
    borders = [(a, b) for a, b, _ in data["borders"]]
    anchors = anchor_points(names)
    pos = layout(names, borders, anchors)
    xs, ys = pos[:, 0], pos[:, 1]
    pos = pos - [xs.min() - MARGIN, ys.min() - MARGIN]
    width, height = int(np.ceil(pos[:, 0].max() + MARGIN)), int(np.ceil(pos[:, 1].max() + MARGIN))
    geometry = {
        "source": SOURCE,
        "licence": "civdsl's own (computed)",
        "schematic": True, "width": width, "height": height,
        "areas": {n: {"at": [int(round(x)), int(round(y))]} for n, (x, y) in zip(names, pos)},
    }
    data.pop("geometry", None)
    data["notes"] = [n for n in data["notes"] if not n.startswith(NOTE.split(".")[0])] + [NOTE]
    body = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    MAP.write_text(with_geometry(body, geometry), encoding="utf-8")
    print(f"{MAP.relative_to(ROOT)}: schematic of {len(names)} areas ({len(anchors)} anchored), "
          f"board {width} x {height}")
    return 0


# Areas whose names the Avalon Hill board spells otherwise (the same places).
SPELLINGS = {"Antioch": "Antiochia", "Apollonia": "Appolonia", "Byzantium": "Bycantinum", "Caralis": "Carales",
             "Chalcis": "Chalkis", "Ithaca": "Ithaka", "Nineveh": "Niniveh", "Panormus": "Palermo", "Rome": "Roma",
             "Syracuse": "Syracus", "Tyre": "Tyros"}
# Approximate longitude and latitude (degrees) of places: the Avalon Hill areas below fit a map from
# degrees to that board's units; the West areas below it are placed by that map (general geography,
# rounded; a hint for the layout, not a survey).
FIT = {"Roma": (12.5, 41.9), "Neapolis": (14.3, 40.9), "Athens": (23.7, 38.0), "Sparta": (22.4, 37.1),
       "Alexandria": (29.9, 31.2), "Memphis": (31.3, 29.9), "Bycantinum": (29.0, 41.0), "Carthago": (10.3, 36.8),
       "Jerusalem": (35.2, 31.8), "Syracus": (15.3, 37.1), "Babylon": (44.4, 32.5), "Crimea": (34.0, 45.0),
       "Sinope": (35.2, 42.0), "Cyrene": (21.9, 32.8), "Knossos": (25.2, 35.3), "Damascus": (36.3, 33.5),
       "Tripoli": (13.2, 32.9), "Corsica": (9.0, 42.2), "Etruria": (11.3, 43.4), "Dacia": (23.5, 46.0)}
PLACES = {
    "Aetolia": (21.5, 38.7), "Alani": (44.0, 44.5), "Alesia": (4.5, 47.5), "Anatolia": (32.0, 39.0),
    "Aquae Sextiae": (5.5, 43.6), "Aquitania": (0.0, 44.8), "Baleares": (3.0, 39.6), "Bay of Biscay": (-4.0, 45.5),
    "Belgica": (4.0, 50.3), "Boeotia": (23.3, 38.4), "Britannia": (-1.8, 54.5), "Caesaraugustanus": (-0.9, 41.7),
    "Caledonia": (-4.2, 57.0), "Carthage": (10.3, 36.8), "Carthaginensis": (-3.0, 39.8),
    "Carthago Nova": (-1.0, 37.6), "Central Mauretania": (-1.0, 34.5), "Citra": (7.0, 35.3),
    "Cluniensis": (-3.7, 42.0), "Colchis": (42.0, 42.3), "Corduba": (-4.8, 37.9), "Dyfed": (-4.2, 52.0),
    "Eastern Armenia": (45.0, 40.0), "Eastern Atlantic Ocean": (-12.0, 40.0), "Eastern Getules": (3.0, 31.5),
    "Eastern Mauretania": (3.0, 35.8), "Eastern Sarmatia": (40.0, 50.0), "Ebusus": (1.4, 38.9),
    "Emeritensis": (-6.3, 38.9), "Gallaecia": (-8.0, 42.8), "Germania Inferior": (6.5, 51.5),
    "Germania Magna": (11.0, 53.5), "Germania Superior": (7.5, 49.3), "Gethae": (26.0, 45.5),
    "Hattusa": (34.6, 40.0), "Hibernia": (-8.0, 53.0), "Iberus": (0.8, 41.0), "Londinium": (0.0, 51.5),
    "Lugdunensis": (-0.5, 48.0), "Lugdunum": (4.8, 45.8), "Lugia": (17.0, 52.0), "Lusitania": (-8.5, 39.5),
    "Maeotia": (38.0, 47.0), "Massilia": (5.4, 43.3), "Narbo": (3.0, 43.2), "New Africa": (5.0, 36.0),
    "Noricum": (14.0, 47.3), "North Sea": (3.0, 56.0), "Northern Atlantic Ocean": (-12.0, 57.0),
    "Northern Wastes": (28.0, 58.0), "Odessus": (27.9, 43.2), "Paraetonium": (27.2, 31.3),
    "Peloponnesos": (21.6, 37.6), "Phocis": (22.5, 38.5), "Salonae": (16.5, 43.5), "Tomi": (28.6, 44.2),
    "Trapezus": (39.7, 41.0), "Ultima Thule": (10.0, 60.0), "Upper Danube": (11.0, 48.5),
    "Upper Rhine": (8.6, 47.6), "Western Armenia": (40.0, 39.5), "Western Getules": (-7.0, 31.0),
    "Western Mauretania": (-6.0, 34.0), "Western Sarmatia": (24.0, 52.0),
}


def anchor_points(names: list[str]) -> dict[str, tuple[float, float]]:
    """Where each area starts and is pulled to: an area the Avalon Hill board has (by name or its
    spelling there) at that board's label point; a West area at its place in degrees, mapped onto
    that board by an affine fit of the FIT places."""
    other = json.loads(ANCHORS.read_text("utf-8"))["geometry"]["areas"]
    deg = np.array([[lon, lat, 1.0] for lon, lat in FIT.values()])
    board = np.array([other[n]["label"] for n in FIT], dtype=float)
    fit, *_ = np.linalg.lstsq(deg, board, rcond=None)
    out = {}
    for n in names:
        ah = SPELLINGS.get(n, n)
        if ah in other:
            out[n] = tuple(float(v) for v in other[ah]["label"])
        elif n in PLACES:
            out[n] = tuple(float(v) for v in np.array([*PLACES[n], 1.0]) @ fit)
    return out


def start_points(names, borders, anchors) -> np.ndarray:
    """Anchored areas where the other board has them; each other area, in rounds, beyond the mean of its
    placed neighbours, away from where their own placed neighbours lie (so the map grows outward)."""
    near: dict[str, list[str]] = {n: [] for n in names}
    for a, b in borders:
        near[a].append(b)
        near[b].append(a)
    placed = {n: np.array(p) for n, p in anchors.items()}
    while len(placed) < len(names):
        new = {}
        for n in names:
            if n in placed:
                continue
            known = [placed[m] for m in near[n] if m in placed]
            if not known:
                continue
            mid = np.mean(known, axis=0)
            beyond = [placed[k] for m in near[n] if m in placed for k in near[m] if k in placed and k != n]
            away = mid - np.mean(beyond, axis=0) if beyond else np.array([-1.0, 0.0])
            norm = np.hypot(*away) or 1.0
            new[n] = mid + away / norm * EDGE
        if not new:  # a part of the map not connected to any placed area: put it west of everything
            first = next(n for n in names if n not in placed)
            new[first] = np.array([min(p[0] for p in placed.values()) - EDGE, 0.0]) if placed else np.zeros(2)
        placed.update(new)
    return np.array([placed[n] for n in names], dtype=float)


def layout(names, borders, anchors) -> np.ndarray:
    index = {n: i for i, n in enumerate(names)}
    pos = start_points(names, borders, anchors)
    turn = np.arange(len(names)) * 2.39996  # the golden angle: no two areas start on one point
    pos += np.stack([np.cos(turn), np.sin(turn)], axis=1) * 5.0
    edges = np.array([(index[a], index[b]) for a, b in borders])
    pinned = np.array([n in anchors for n in names])
    home = np.array([anchors.get(n, (0.0, 0.0)) for n in names])
    n = len(names)
    for step in range(STEPS):
        cool = 1.0 - step / STEPS
        force = np.zeros_like(pos)
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.hypot(delta[..., 0], delta[..., 1]), 1e-6)
        close = (dist < SPACING) & ~np.eye(n, dtype=bool)
        push = np.where(close, (SPACING - dist) / dist, 0.0)
        force += (delta * push[..., None]).sum(axis=1) * 0.5
        d = pos[edges[:, 1]] - pos[edges[:, 0]]
        length = np.hypot(d[:, 0], d[:, 1]) + 1e-9
        pull = ((length - EDGE) / length)[:, None] * d * 0.05
        np.add.at(force, edges[:, 0], pull)
        np.add.at(force, edges[:, 1], -pull)
        force[pinned] += (home[pinned] - pos[pinned]) * 0.03
        size = np.hypot(force[:, 0], force[:, 1])[:, None] + 1e-9
        pos += force / size * np.minimum(size, 40.0 * cool + 2.0)
    return pos


if __name__ == "__main__":
    sys.exit(main())
