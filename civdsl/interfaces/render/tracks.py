"""A track panel (a succession table, a score track) as a grid: one row per marker, one column per space.

Each marker sits in its row at its position, in its player's colour where the view ties it to a
player; `marks` (an epoch, a bonus) are vertical rules with their names above. Positions off the
track are drawn at its end, and say so.
"""
from __future__ import annotations

from .style import HEAD_SIZE, INK, MUTED, NEUTRAL, RULE
from .svg import Svg, fit, show, text_width

ROW = 24
HEAD = 46          # room above the grid for the title and the marks' names (two lines)
LABEL = 130        # the markers' names column


def track_height(panel: dict) -> float:
    rows = max(1, len(panel.get("at") or []))
    return HEAD + 18 + rows * ROW + 8


def draw_track(svg: Svg, panel: dict, x: float, y: float, width: float, colours: dict[str, str],
               title_size: float = HEAD_SIZE) -> float:
    """The track at (x, y), `width` wide; returns its height."""
    length = panel.get("length") if isinstance(panel.get("length"), int) else 1
    length = max(1, min(length, 200))
    at = [e for e in panel.get("at") or [] if isinstance(e, list) and len(e) == 3]
    marks = [m for m in panel.get("marks") or [] if isinstance(m, list) and len(m) == 2]
    height = track_height(panel)
    svg.text(x, y + 16, fit(show(panel.get("title")), title_size, width), title_size,
             INK if title_size >= HEAD_SIZE else MUTED, weight="bold")
    cells = length + 1                     # spaces 0 .. length
    cell = (width - LABEL) / cells
    gx, gy = x + LABEL, y + HEAD + 18
    rows = max(1, len(at))
    for i in range(cells):
        svg.rect(gx + i * cell, gy, cell, rows * ROW, "#ffffff" if i % 2 else "#f6f2e8", RULE, 0.6)
        if cell >= 14 or i % 5 == 0:
            svg.text(gx + (i + 0.5) * cell, gy - 4, str(i), 10, MUTED, "middle")
    ends = [x - 1.0, x - 1.0]  # where the mark names written so far end, on each of two lines
    for label, pos in sorted((m for m in marks if _number(m[1]) and 0 <= m[1] <= length), key=lambda m: m[1]):
        mx = gx + pos * cell
        line = 0 if mx + 3 > ends[0] else 1 if mx + 3 > ends[1] else min((0, 1), key=lambda i: ends[i])
        text = fit(show(label), 11, max(cell * 4, 70))
        base = y + 34 + line * 12
        svg.line(mx, base - 9, mx, gy + rows * ROW, "#8e44ad", 2)
        svg.text(mx + 3, base, text, 11, "#6c3483")
        ends[line] = mx + 3 + text_width(text, 11) + 6
    for r, (label, pos, owner) in enumerate(at):
        cy = gy + r * ROW + ROW / 2
        colour = colours.get(owner, NEUTRAL) if owner is not None else NEUTRAL
        svg.rect(x, cy - 7, 14, 14, colour, INK, 0.8, rx=2)
        svg.text(x + 20, cy + 4.5, fit(show(label), 12, LABEL - 26), 12, INK)
        if not _number(pos):
            svg.text(gx + 4, cy + 4.5, f"at {fit(show(pos), 11, 160)}", 11, MUTED)
            continue
        where = min(max(pos, 0), length)
        cx = gx + (where + 0.5) * cell
        svg.circle(cx, cy, min(ROW, cell) * 0.36, colour, INK, 1)
        if where != pos:
            note = f"{show(pos)} (off the track)"
            svg.text(cx - 8 - text_width(note, 10) if where else cx + 10, cy + 4, note, 10, MUTED)
    return height


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)
