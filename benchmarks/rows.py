"""The one way a benchmark script run on its own prints its figures: `(name, figure, target, met)` rows as
an aligned table (`met` None: no target, or a smoke run)."""
from __future__ import annotations


def print_rows(rows: list[tuple]) -> bool:
    """Print the rows; False when a target was missed."""
    name_width = max((len(r[0]) for r in rows), default=0)
    figure_width = max((len(str(r[1])) for r in rows), default=0)
    for name, figure, target, ok in rows:
        verdict = "" if ok is None else ("yes" if ok else "no")
        print(f"{name:<{name_width}}  {figure:>{figure_width}}  {target:<9} {verdict}".rstrip())
    return not any(r[3] is False for r in rows)
