"""A seat's view (`civdsl.engine.views.seat_view`, JSON) drawn with rich: one function per panel kind.

These are pure functions of the view dict, so they are tested on views written by hand as well as on
real games. Every text from the ruleset goes into `Text` objects: a label like `[bold]` is shown as
typed, never read as markup.
"""
from __future__ import annotations

from collections.abc import Callable

from rich import box
from rich.color import Color, ColorParseError
from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .look import Look, show

MapLines = Callable[[dict], list[str]]  # a map panel → the lines that list it (the caller knows the game)
COUNTERS_PER_ROW = 5  # pairs on a line of a counters panel, at most
DICE_PER_ROW = 8
GAP = 3  # columns between panels side by side
TRACK_CELLS = 60  # longest track drawn as a line of cells; longer ones are listed by position


def heading(title: str, look: Look) -> Text:
    return Text(title, style=look.style("bold"))


def counters_panel(panel: dict, look: Look) -> RenderableType:
    """`label value` pairs in as many columns as fit: a score sheet stays a few lines high."""
    items = [(str(label), show(value)) for label, value in panel.get("items", [])]
    if not items:
        return Text("—")
    lw = max(len(label) for label, _ in items)
    vw = max(len(value) for _, value in items)
    per_row = max(1, min(len(items), COUNTERS_PER_ROW, (look.console.width - 6) // (lw + vw + 4)))
    grid = Table.grid(padding=(0, 1))
    for _ in range(per_row):
        grid.add_column(justify="left", style=look.style("dim"))
        grid.add_column(justify="right", min_width=vw)
        grid.add_column(min_width=1)
    for start in range(0, len(items), per_row):
        row: list = []
        for label, value in items[start:start + per_row]:
            row += [Text(label), Text(value, style=look.style("bold")), Text("")]
        row += [Text("")] * (3 * per_row - len(row))
        grid.add_row(*row)
    return grid


def dice_panel(panel: dict, look: Look) -> RenderableType:
    """Each die a small box with its face (a hidden face as `?`)."""
    faces = panel.get("items", [])
    if not faces:
        return Text("no dice showing")
    boxes = [Panel(Text("?" if face is None else show(face), justify="center"), box=look.box, expand=False,
                   padding=(0, 1)) for face in faces]
    grid = Table.grid(padding=(0, 1))
    per_row = DICE_PER_ROW
    for _ in range(min(per_row, len(boxes))):
        grid.add_column()
    for start in range(0, len(boxes), per_row):
        grid.add_row(*boxes[start:start + per_row])
    return grid


def list_panel(panel: dict, look: Look) -> RenderableType:
    """The items, comma-separated, then how many the seat cannot see."""
    items = [show(i) for i in panel.get("items", [])]
    hidden = panel.get("hidden") or 0
    text = Text(", ".join(items))
    if hidden:
        text.append(("; " if items else "") + f"{hidden} hidden", style=look.style("italic dim"))
    if not items and not hidden:
        text = Text("none", style=look.style("dim"))
    return text


def _markers(at: list) -> dict[int, str]:
    """One letter per token on a track, from its label where it can (`E` for a label starting with E)."""
    taken: set[str] = set()
    out: dict[int, str] = {}
    for i, entry in enumerate(at):
        label = str(entry[0])
        pick = next((c.upper() for c in label if c.isalnum() and c.upper() not in taken), None)
        if pick is None:
            pick = next(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*" if c not in taken or c == "*")
        taken.add(pick)
        out[i] = pick
    return out


def track_panel(panel: dict, look: Look) -> RenderableType:
    """A line of cells, one per space, with each token's letter on its space and `|` on marked spaces,
    then who is where: `N North 3 · S South 8 · | Half way 8`."""
    length = int(panel.get("length") or 0)
    at = panel.get("at", [])
    marks = panel.get("marks", [])
    letters = _markers(at)
    legend = Text()
    for i, (label, pos, _player) in enumerate(at):
        if legend:
            legend.append(" · ")
        legend.append(f"{letters[i]} ", style=look.style("bold"))
        legend.append(f"{label} {show(pos)}")
    for label, pos in marks:
        legend.append((" · " if legend else "") + f"| {label} {show(pos)}", style=look.style("dim"))
    if not 0 < length <= TRACK_CELLS:
        return legend
    cells = ["." for _ in range(length + 1)]  # space 0 is the start, before the first space
    for label, pos in marks:
        if isinstance(pos, int) and 0 <= pos <= length:
            cells[pos] = "|"
    for i, (label, pos, _player) in enumerate(at):
        if isinstance(pos, int) and 0 <= pos <= length:
            cells[pos] = letters[i] if cells[pos] in ".|" else "+"
    line = Text(f"0 {''.join(cells)} {length}")
    return Group(line, legend)


def table_panel(panel: dict, look: Look) -> RenderableType:
    table = Table(box=None if look.plain else box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  header_style=look.style("bold"))
    for column in panel.get("columns", []):
        table.add_column(Text(str(column)))
    rows = panel.get("rows", [])
    for row in rows:
        table.add_row(*[Text(show(v)) for v in row])
    return table if rows else Text("none", style=look.style("dim"))


def text_panel(panel: dict, look: Look) -> RenderableType:
    return Text(show(panel.get("text")))


def map_panel(panel: dict, look: Look, map_lines: MapLines | None = None) -> RenderableType:
    """The seat's areas and pieces as a few lines (the `m` command lists them in full)."""
    lines = map_lines(panel) if map_lines else []
    return Text("\n".join(lines) if lines else "type m to list the map", style="" if lines else look.style("dim"))


INLINE = ("list", "text")  # kinds whose text follows the title on its line
RENDERERS = {"counters": counters_panel, "dice": dice_panel, "list": list_panel, "track": track_panel,
             "table": table_panel, "text": text_panel}


def render_panel(panel: dict, look: Look, map_lines: MapLines | None = None) -> RenderableType:
    """A panel under its title; an unknown kind shows its title and says it cannot be drawn here."""
    kind = panel.get("kind")
    if kind == "map":
        body = map_panel(panel, look, map_lines)
    elif kind in RENDERERS:
        body = RENDERERS[kind](panel, look)
    else:
        body = Text(f"(a {kind} panel: not drawn at the terminal)", style=look.style("dim"))
    title = panel.get("title")
    if not title:
        return body
    if kind in INLINE and isinstance(body, Text):  # `Hand: Wheat, Salt; 2 hidden` on one line
        return Text.assemble(heading(f"{title}: ", look), body)
    return Group(heading(str(title), look), body)


def view_title(view: dict, players: dict) -> Text:
    """`Score sheet — P1 (the North)`, in the player's colour at a terminal."""
    title = str(view.get("title") or view.get("name") or "")
    who = view.get("player")
    if who:
        label = view.get("label")
        title += f" — {who}" + (f" ({label})" if label not in (None, "", who) else "")
    return Text(title)


def render_view(view: dict, look: Look, players: dict | None = None,
                map_lines: MapLines | None = None) -> RenderableType:
    """One view: its panels inside a box titled with the view and its player."""
    players = players or {}
    panels = [render_panel(p, look, map_lines) for p in view.get("panels", [])]
    body = flow(panels, look, look.console.width - 4)
    colour = (players.get(view.get("player")) or {}).get("colour")
    border = _colour(colour) if not look.plain else ""
    return Panel(body, title=view_title(view, players), title_align="left", box=look.box, border_style=border,
                 padding=(0, 1))


def flow(renderables: list, look: Look, width: int) -> RenderableType:
    """Panels side by side, in their order, as many on a line as fit in `width`: a score sheet of small
    panels fills the screen's width instead of scrolling down."""
    console = look.console
    options = console.options.update_width(width)
    rows: list[list] = [[]]
    used = 0
    for r in renderables:
        w = min(Measurement.get(console, options, r).maximum, width)
        if rows[-1] and used + GAP + w > width:
            rows.append([])
            used = 0
        used += w + (GAP if rows[-1] else 0)
        rows[-1].append((r, w))
    lines = []
    for row in rows:
        if len(row) == 1:
            lines.append(row[0][0])
            continue
        grid = Table.grid(padding=(0, GAP, 0, 0))
        for _, w in row:
            grid.add_column(width=w, vertical="top")
        grid.add_row(*[r for r, _ in row])
        lines.append(grid)
    return Group(*lines)


def _colour(text) -> str:
    """A player's colour as a rich style, or none when the ruleset's colour is not one rich knows."""
    if not isinstance(text, str):
        return ""
    try:
        Color.parse(text)
    except ColorParseError:
        return ""
    return text


def render_seat(seat_view: dict, look: Look, *, others: bool = True,
                map_lines: MapLines | None = None) -> list[RenderableType]:
    """The seat's views, in the order `seat_view` gives them (its own first, then other players', then
    the global ones); `others=False` leaves other players' views out (shown before each decision). A view
    with no panels is left out: an empty box tells nothing."""
    players = {p["name"]: p for p in seat_view.get("players", [])}
    seat = seat_view.get("seat")
    out = []
    for view in seat_view.get("views", []):
        owner = view.get("player")
        if not view.get("panels") or not others and seat is not None and owner not in (None, seat):
            continue
        out.append(render_view(view, look, players, map_lines))
    return out
