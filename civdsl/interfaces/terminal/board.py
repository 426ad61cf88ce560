"""The map at the terminal, as text: where the seat's pieces stand and who else is there.

Pieces on the map are public, so these read the game state directly; an area's attributes come from
the map file, as the option labels show them (`civdsl.engine.agents.area_parts`)."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ...engine.agents import area_parts
from ...engine.state import owner_name
from .look import Look


def _pieces(game, area: str, keep, named: bool = True) -> str:
    """`P2 1 token; P3 1 city` for the owners `keep` accepts on `area`; `named=False`: `2 token, 1 city`."""
    players = game.state.players
    by_owner: dict = {}
    for (owner, kind), n in sorted(game.state.pieces.by_area.get(area, {}).items()):
        if keep(owner):
            by_owner.setdefault(owner, []).append(f"{n} {kind}")
    if not named:
        return ", ".join(c for counts in by_owner.values() for c in counts)
    return "; ".join(f"{owner_name(players, o)} {', '.join(c)}" for o, c in by_owner.items())


def _areas(game, player, map_name: str | None) -> list[str]:
    mine = game.state.pieces.areas_of(player.index)
    graph = game.state.maps.get(map_name) if map_name else None
    return [a for a in mine if graph is None or a in graph.areas]


def map_lines(game, player, panel: dict | None = None) -> list[str]:
    """The map panel in a few lines: how many of the seat's pieces stand on how many areas, then each
    area with its pieces (and anybody else's there, in brackets), and the areas the view highlights."""
    if not game.state.maps:
        return ["this game has no map"]
    areas = _areas(game, player, (panel or {}).get("map"))
    if not areas:
        lines = [f"{player.name} has no pieces on the map"]
    else:
        totals: dict[str, int] = {}
        for area in areas:
            for (owner, kind), n in game.state.pieces.by_area.get(area, {}).items():
                if owner == player.index:
                    totals[kind] = totals.get(kind, 0) + n
        lines = [f"{', '.join(f'{n} {k}' for k, n in sorted(totals.items()))} on {len(areas)} area(s):"]
        entries = []
        for area in areas:
            mine = _pieces(game, area, lambda o: o == player.index, named=False)
            others = _pieces(game, area, lambda o: o != player.index)
            entries.append(f"{area} {mine}" + (f" ({others})" if others else ""))
        lines.append(" · ".join(entries))
    highlight = (panel or {}).get("highlight") or []
    if highlight:
        lines.append("highlighted: " + ", ".join(map(str, highlight)))
    return lines


def map_table(game, player, look: Look):
    """What `m` shows: every area where the seat has pieces, its pieces, the others' and the area's
    attributes, one row per area."""
    if not game.state.maps:
        return Text("this game has no map")
    areas = _areas(game, player, None)
    if not areas:
        return Text(f"{player.name} has no pieces on the map")
    table = Table(title=Text(f"{player.name} has pieces on {len(areas)} area(s)"), title_justify="left",
                  box=None if look.plain else look.box, show_edge=not look.plain, pad_edge=not look.plain,
                  header_style=look.style("bold"))
    for name in ("area", "yours", "others there", "about the area"):
        table.add_column(Text(name), overflow="fold")
    for area in areas:
        attrs = next((g.areas[area] for g in game.state.maps.values() if area in g.areas), {})
        about, _ = area_parts(game, area, attrs)
        mine = _pieces(game, area, lambda o: o == player.index, named=False)
        others = _pieces(game, area, lambda o: o != player.index)
        table.add_row(Text(area), Text(mine), Text(others or "—"), Text(about or "—"))
    return table
