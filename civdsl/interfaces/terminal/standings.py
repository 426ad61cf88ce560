"""The standings at the end of a game: one row per player in place order, with named columns — place,
player, the ruleset's label for the player (`victory { label: }`), the score, and the fields of
`victory { breakdown: }` under their own names. The rank keys ordered the rows; they are shown (as
`rank` columns) only by a ruleset that gives neither a score nor a breakdown, never as a raw list."""
from __future__ import annotations

import sys

from rich.table import Table
from rich.text import Text

from .look import Look, is_terminal, make_look, show

STANDINGS_WIDTH = 160  # columns of the plain table: wide enough for a breakdown of many fields


def _column(name: str) -> str:
    return name.replace("_", " ")


def standings_table(result, look: Look) -> Table:
    rows = result.ranking
    labels = getattr(result, "labels", None) or {}
    fields: list[str] = []
    for row in rows:
        for key in row.get("breakdown", {}):
            if key not in fields:
                fields.append(key)
    # the label gets a column unless a breakdown field already shows it for every player (a nation)
    label_shown = any(labels.get(r["player"]) not in (None, "") for r in rows) and not any(
        all(r.get("breakdown", {}).get(f) == labels.get(r["player"]) for r in rows) for f in fields)
    has_score = any("score" in r for r in rows)
    # with neither a score nor a breakdown, the rank keys are all there is to read: one column each
    nkeys = 0 if has_score or fields else max((len(r.get("keys", [])) for r in rows), default=0)
    winners = set(result.winners or [])
    table = Table(box=None if look.plain else look.box, show_edge=not look.plain, pad_edge=not look.plain,
                  header_style=look.style("bold"))
    table.add_column("place", justify="right")
    table.add_column("player")
    if label_shown:
        table.add_column("label")
    if has_score:
        table.add_column("score", justify="right")
    for f in fields:
        numeric = all(isinstance(r.get("breakdown", {}).get(f), (int, float)) for r in rows)
        table.add_column(Text(_column(f)), justify="right" if numeric else "left")
    for i in range(nkeys):
        table.add_column("rank" if nkeys == 1 else f"rank {i + 1}", justify="right")
    for r in rows:
        cells = [Text(str(r["place"])),
                 Text(r["player"] + (" *" if r["player"] in winners else ""),
                      style=look.style("bold") if r["player"] in winners else "")]
        if label_shown:
            cells.append(Text(show(labels.get(r["player"]))))
        if has_score:
            cells.append(Text(show(r.get("score"))))
        cells += [Text(show(r.get("breakdown", {}).get(f))) for f in fields]
        cells += [Text(show(k)) for k in (r.get("keys", []) + [None] * nkeys)[:nkeys]]
        table.add_row(*cells)
    if winners:
        table.caption = Text("* winner" if len(winners) == 1 else "* winners")
        table.caption_justify = "left"
    return table


def print_standings(result, stream=None, plain: bool | None = None) -> None:
    """The standings table to `stream` (stdout): boxed and coloured at a terminal, plain columns when piped."""
    stream = stream or sys.stdout
    if plain is None:
        plain = not is_terminal(stream)
    look = make_look(stream, plain, width=STANDINGS_WIDTH if plain else None)
    look.print(Text("Standings:", style=look.style("bold")))
    look.print(standings_table(result, look))
