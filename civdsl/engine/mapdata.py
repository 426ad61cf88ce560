"""Map data files: areas with attributes and typed borders, in JSON, inside a ruleset's folder.

Format: `{"sources": "...", "areas": {"Name": {attr: value, ...}}, "borders": [["A", "B", "land"], ...]}`
where a border's type is `land`, `water` or `both`. Borders are symmetric by construction.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..language.diagnostics import Span, error
from .state import MapGraph

MAX_MAP_BYTES = 5_000_000
BORDER_TYPES = ("land", "water", "both")


_LOADED: dict[str, tuple[tuple[int, int], MapGraph]] = {}  # path -> (mtime and size, graph)


def load_map(path: Path, span: Span) -> MapGraph:
    """Read and validate a map file; every problem is a diagnostic at the `map` declaration. A map is
    read once per process while the file is unchanged (map graphs never change during a game)."""
    if not path.is_file():
        raise error("MAP001", f"map file `{path.name}` not found", span, "the path is relative to the rule file")
    st = path.stat()
    hit = _LOADED.get(str(path))
    if hit is not None and hit[0] == (st.st_mtime_ns, st.st_size):
        return hit[1]
    graph = _read_map(path, span, st.st_size)
    _LOADED[str(path)] = ((st.st_mtime_ns, st.st_size), graph)
    return graph


def _read_map(path: Path, span: Span, size: int) -> MapGraph:
    if size > MAX_MAP_BYTES:
        raise error("MAP002", f"map file `{path.name}` is larger than {MAX_MAP_BYTES} bytes", span)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise error("MAP003", f"map file `{path.name}` is not valid JSON: {exc}", span) from None
    if not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        raise error("MAP004", f"map file `{path.name}` needs an `areas` object", span)
    graph = MapGraph()
    for name, attrs in data["areas"].items():
        if not isinstance(attrs, dict):
            raise error("MAP004", f"area `{name}` in `{path.name}` must be an object of attributes", span)
        graph.areas[str(name)] = dict(attrs)
        graph.borders[str(name)] = {}
    for i, border in enumerate(data.get("borders", [])):
        if not (isinstance(border, list) and len(border) == 3 and border[2] in BORDER_TYPES):
            raise error("MAP005", f"border #{i + 1} in `{path.name}` must be [area, area, land|water|both]", span)
        a, b, kind = border
        for end in (a, b):
            if end not in graph.areas:
                raise error("MAP006", f"border #{i + 1} in `{path.name}` names unknown area `{end}`", span)
        graph.borders[a][b] = kind
        graph.borders[b][a] = kind
    return graph
