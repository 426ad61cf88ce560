"""Views as cards: a player's sheet (counters, dice, lists, tables, text, tracks) drawn as a card with the
player's colour, for games without a board and beside a board on request.

Every panel is drawn to a width and says how tall it came out, so cards stack without overlap. Long
lists and tables are cut, saying how much was left out: a picture shows a game at a glance.
"""
from __future__ import annotations

from .style import CARD, HEAD_SIZE, INK, MUTED, RULE, TEXT_SIZE
from .svg import CHAR_WIDTH, Svg, fit, show, text_width, wrap
from .tracks import draw_track

PAD = 14
MAX_ITEMS = 40
MAX_ROWS = 24


def draw_card(svg: Svg, view: dict, x: float, y: float, width: float, colours: dict[str, str]) -> float:
    """One view as a card at (x, y); returns its height."""
    body = Svg()
    inner = width - 2 * PAD
    cy = 0.0
    for panel in view.get("panels") or []:
        if isinstance(panel, dict):
            cy += _panel(body, panel, x + PAD, y + 44 + cy, inner, colours) + 10
    height = 44 + cy + 4
    owner = view.get("player")
    band = colours.get(owner, RULE) if owner is not None else RULE
    svg.rect(x, y, width, height, CARD, RULE, 1, rx=6)
    svg.rect(x, y, 8, height, band, rx=3)
    heading = show(view.get("title"))
    who = " · ".join(show(v) for v in (view.get("label"), owner) if v is not None)
    svg.text(x + PAD + 2, y + 26, fit(heading, HEAD_SIZE, inner * 0.6), HEAD_SIZE, INK, weight="bold")
    if who:
        svg.text(x + width - PAD, y + 26, fit(who, TEXT_SIZE, inner * 0.45), TEXT_SIZE, band if owner else
                 MUTED, "end", "bold")
    svg.line(x + PAD, y + 36, x + width - PAD, y + 36, RULE)
    svg.out.extend(body.out)
    return height


def card_height(view: dict, width: float, colours: dict[str, str]) -> float:
    return draw_card(Svg(), view, 0, 0, width, colours)


def _panel(svg: Svg, panel: dict, x: float, y: float, w: float, colours) -> float:
    kind = panel.get("kind")
    title = show(panel.get("title"))
    if kind == "track":
        return draw_track(svg, panel, x, y, w, colours, title_size=12)
    svg.text(x, y + 13, fit(title, 12, w), 12, MUTED, weight="bold")
    draw = _DRAW.get(kind, _text)
    return 18 + draw(svg, panel, x, y + 18, w)


def _counters(svg: Svg, panel: dict, x, y, w) -> float:
    """Label over value, in cells of a grid; a long value takes as many cells as it needs (a whole row at
    most, its size cut down to a floor and then cut short)."""
    items = [i for i in panel.get("items") or [] if isinstance(i, list) and len(i) == 2][:MAX_ITEMS]
    if not items:
        return _none(svg, x, y)
    cols = max(1, int(w // 110))
    cw = w / cols
    col, row = 0, 0
    for label, value in items:
        label, value = show(label), show(value)
        need = max(text_width(value, 17), text_width(label, 11)) + 8
        span = min(cols, int(need // cw) + 1)
        if col + span > cols:
            col, row = 0, row + 1
        cx, cy, room = x + col * cw, y + row * 38, span * cw - 8
        size = 17
        while size > 12 and text_width(value, size) > room:
            size -= 1
        svg.text(cx, cy + 11, fit(label, 11, room), 11, MUTED)
        svg.text(cx, cy + 29, fit(value, size, room), size, INK, weight="bold")
        col += span
    return (row + 1) * 38


def _dice(svg: Svg, panel: dict, x, y, w) -> float:
    faces = list(panel.get("items") or [])[:MAX_ITEMS]
    size, gap = 54, 8
    per_row = max(1, int((w + gap) // (size + gap)))
    for i, face in enumerate(faces):
        dx, dy = x + (i % per_row) * (size + gap), y + (i // per_row) * (size + gap)
        svg.rect(dx, dy, size, size, "#fffdf6", INK, 1.5, rx=8)
        text = show(face)
        font = 12
        while font > 8 and text_width(text, font) > size - 6:
            font -= 1
        lines = wrap(text, font, size - 6, 2)
        for j, line in enumerate(lines):
            svg.text(dx + size / 2, dy + size / 2 + font * 0.35 + (j - (len(lines) - 1) / 2) * (font + 1), line, font,
                     INK, "middle", "bold")
    return ((len(faces) + per_row - 1) // per_row) * (size + gap) if faces else _none(svg, x, y)


def _list(svg: Svg, panel: dict, x, y, w) -> float:
    items = [show(i) for i in panel.get("items") or []]
    hidden = panel.get("hidden") if isinstance(panel.get("hidden"), int) else 0
    chips = [(fit(i, 12, w - 16), False) for i in items[:MAX_ITEMS]]
    if len(items) > MAX_ITEMS:
        chips.append((f"… {len(items) - MAX_ITEMS} more", True))
    if hidden:
        chips.append((f"{hidden} hidden", True))
    if not chips:
        return _none(svg, x, y)
    cx, cy = x, y
    for text, muted in chips:
        cw = text_width(text, 12) + 14
        if cx > x and cx + cw > x + w:
            cx, cy = x, cy + 26
        svg.rect(cx, cy, cw, 21, "#eeeeee" if muted else "#f4efe1", RULE, 0.8, rx=10)
        svg.text(cx + 7, cy + 15, text, 12, MUTED if muted else INK)
        cx += cw + 6
    return cy - y + 26


def _table(svg: Svg, panel: dict, x, y, w) -> float:
    columns = [show(c) for c in panel.get("columns") or []][:12]
    rows = [r for r in panel.get("rows") or [] if isinstance(r, list)]
    if not columns or not rows:
        return _none(svg, x, y)
    shown = rows[:MAX_ROWS]
    need = [min(48, max([len(c) + 1] + [len(show(r[i])) for r in shown if i < len(r)])) * 11 * CHAR_WIDTH + 10
            for i, c in enumerate(columns)]
    widths = _share(need, w)
    svg.rect(x, y, w, 20, "#f4efe1")
    cx = x
    for c, cw in zip(columns, widths):
        svg.text(cx + 4, y + 14, fit(c, 11, cw - 6), 11, INK, weight="bold")
        cx += cw
    for r, row in enumerate(shown):
        ry = y + 20 + r * 19
        if r % 2:
            svg.rect(x, ry, w, 19, "#faf8f2")
        cx = x
        for i, cw in enumerate(widths):
            svg.text(cx + 4, ry + 14, fit(show(row[i]) if i < len(row) else "", 11, cw - 6), 11, INK)
            cx += cw
    height = 20 + len(shown) * 19
    if len(rows) > MAX_ROWS:
        svg.text(x + 4, y + height + 14, f"… {len(rows) - MAX_ROWS} more rows", 11, MUTED)
        height += 19
    return height


def _share(need: list[float], width: float) -> list[float]:
    """Column widths: each its need when all fit (the room left shared out); else the widest columns
    cut to one cap, so narrow columns stay whole."""
    total = sum(need)
    if total <= width:
        return [n + (width - total) * n / total for n in need]
    lo, hi = 0.0, max(need)
    for _ in range(30):
        cap = (lo + hi) / 2
        lo, hi = (cap, hi) if sum(min(n, cap) for n in need) < width else (lo, cap)
    return [min(n, lo) for n in need]


def _text(svg: Svg, panel: dict, x, y, w) -> float:
    value = panel.get("text") if "text" in panel else panel.get("kind")
    lines = wrap(show(value), 13, w, 8)
    for i, line in enumerate(lines):
        svg.text(x, y + 14 + i * 17, line, 13, INK)
    return len(lines) * 17 + 2


def _map(svg: Svg, panel: dict, x, y, w) -> float:
    return _text(svg, {"text": f"the map {show(panel.get('map'))} (drawn with the board)"}, x, y, w)


def _none(svg: Svg, x, y) -> float:
    svg.text(x, y + 14, "none", 12, MUTED)
    return 18


_DRAW = {"counters": _counters, "dice": _dice, "list": _list, "table": _table, "text": _text, "map": _map}
