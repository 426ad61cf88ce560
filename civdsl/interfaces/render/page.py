"""A whole picture of a game from a scene: title, legend of players, the board(s) with the table's tracks
beside them, and the players' sheets as cards (on their own when the game has no board).

The scene is the dict of `civdsl.tools.scene` (what the game looks like to one seat at one moment). The
renderer only reads it, and tolerates missing or ill-typed parts (drawing less rather than failing), so
a scene read back from JSON cannot make it throw.
"""
from __future__ import annotations

from .board import Look, draw_board, draw_kinds
from .cards import draw_card
from .style import HEAD_SIZE, INK, MUTED, NEUTRAL, PALETTE, PAPER, TITLE_SIZE, colour
from .svg import Svg, fit, show, text_width
from .tracks import draw_track

MARGIN = 24
BOARD_W = 1800
CARD_W = 500
GAP = 16


def render_svg(scene: dict, *, sheets: bool | None = None) -> str:
    """The picture as an SVG document. `sheets`: also draw the players' views as cards beside a board
    (default: only for a game without a board)."""
    scene = scene if isinstance(scene, dict) else {}
    view = scene.get("view") if isinstance(scene.get("view"), dict) else {}
    players = [p for p in view.get("players") or [] if isinstance(p, dict)]
    colours = {p.get("name"): colour(p.get("colour"), PALETTE[i % len(PALETTE)]) for i, p in enumerate(players)}
    order = {p.get("name"): i for i, p in enumerate(players)}
    views = [v for v in view.get("views") or [] if isinstance(v, dict)]
    boards = _boards(scene, views)
    tracks = [p for v in views if v.get("player") is None for p in _panels(v) if p.get("kind") == "track"]
    with_sheets = not boards if sheets is None else sheets
    cards = [v for v in views if _card_worthy(v, boards)] if with_sheets else []
    columns = max(1, min(3, len(cards)))
    width = BOARD_W + 2 * MARGIN if boards else columns * CARD_W + (columns - 1) * GAP + 2 * MARGIN
    svg = Svg()
    y = _title(svg, scene, view, width)
    y = _legend(svg, players, colours, y, width) + 10
    for scene_map, panel in boards:
        title = fit(show(panel.get("title")), HEAD_SIZE, BOARD_W / 2)
        svg.text(MARGIN, y + 16, title, HEAD_SIZE, INK, weight="bold")
        kinds = {p[2] for p in scene_map.get("pieces") or [] if isinstance(p, list) and len(p) == 4}
        look = Look(panel, colours, order, kinds)
        draw_kinds(svg, look, kinds, MARGIN + text_width(title, HEAD_SIZE) + 30, y + 11)
        y += 26
        y += draw_board(svg, scene_map, look, MARGIN, y, BOARD_W) + GAP
    if boards:
        for panel in tracks:
            y += draw_track(svg, panel, MARGIN, y, min(BOARD_W, 1100), colours) + GAP
    if cards:
        y = _cards(svg, cards, y, width, colours)
    title = " · ".join(show(scene.get(k)) for k in ("title", "edition") if scene.get(k) is not None)
    return svg.document(width, y + MARGIN, title or "civdsl", PAPER)


def _panels(view: dict) -> list[dict]:
    return [p for p in view.get("panels") or [] if isinstance(p, dict)]


def _boards(scene: dict, views: list[dict]) -> list[tuple[dict, dict]]:
    """Each map to draw with the panel that says how: the first map panel naming it in the views; a map
    no panel names is drawn plainly. Only maps with a geometry can be drawn."""
    maps = scene.get("maps") if isinstance(scene.get("maps"), dict) else {}
    drawable = {name: m for name, m in maps.items() if isinstance(m, dict) and isinstance(m.get("geometry"), dict)}
    chosen: dict[str, dict] = {}
    for v in views:
        for p in _panels(v):
            if p.get("kind") == "map" and p.get("map") in drawable and p["map"] not in chosen:
                chosen[p["map"]] = p
    for name in drawable:
        chosen.setdefault(name, {"kind": "map", "title": name, "map": name})
    return [(drawable[name], panel) for name, panel in chosen.items()]


def _card_worthy(view: dict, boards) -> bool:
    """A view worth a card: one with a panel not already drawn (maps and the table's tracks are, with
    a board)."""
    if not boards:
        return bool(_panels(view))
    drawn = {"map"} | ({"track"} if view.get("player") is None else set())
    return any(p.get("kind") not in drawn for p in _panels(view))


def _title(svg: Svg, scene: dict, view: dict, width: float) -> float:
    title = show(scene.get("title") or scene.get("edition") or "A game")
    svg.text(MARGIN, MARGIN + 24, fit(title, TITLE_SIZE, width - 2 * MARGIN), TITLE_SIZE, INK, weight="bold")
    bits = []
    if scene.get("edition") is not None and scene.get("edition") != scene.get("title"):
        bits.append(show(scene.get("edition")))
    rnd = scene.get("round", view.get("round"))
    if rnd is not None:
        bits.append(f"round {show(rnd)}")
    if scene.get("event") is not None:
        bits.append(f"event {show(scene.get('event'))}")
    seat = view.get("seat")
    bits.append(f"as seen by {show(seat)}" if seat is not None else "as a spectator sees it")
    svg.text(MARGIN, MARGIN + 48, fit(" · ".join(bits), 15, width - 2 * MARGIN), 15, MUTED)
    return MARGIN + 60


def _legend(svg: Svg, players: list[dict], colours: dict, y: float, width: float) -> float:
    """A swatch and the name (and label) of every player, in rows that fit the width."""
    x = MARGIN
    for p in players:
        name, label = show(p.get("name")), p.get("label")
        text = fit(f"{name} · {show(label)}" if label is not None else name, 14, 260)
        w = 24 + text_width(text, 14) + 18
        if x > MARGIN and x + w > width - MARGIN:
            x, y = MARGIN, y + 26
        svg.rect(x, y + 4, 18, 18, colours.get(p.get("name"), NEUTRAL), INK, 0.8, rx=3)
        svg.text(x + 24, y + 18, text, 14, INK)
        x += w
    return y + 26 if players else y


def _cards(svg: Svg, views: list[dict], y: float, width: float, colours: dict) -> float:
    """Cards in columns, each placed in the shortest column (in view order, so the same every time)."""
    cols = max(1, int((width - 2 * MARGIN + GAP) // (CARD_W + GAP)))
    tops = [y] * cols
    for v in views:
        c = min(range(cols), key=lambda i: (tops[i], i))
        x = MARGIN + c * (CARD_W + GAP)
        tops[c] += draw_card(svg, v, x, tops[c], CARD_W, colours) + GAP
    return max(tops) if views else y

