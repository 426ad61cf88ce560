"""The figures of a stored run, chosen from what its rows hold: win rates by seat and by label, game
length, progress curves of every measurement taken of each player round by round, and the mean value
of every measurement by its category. Written as PNG/SVG files and/or one HTML report."""
from __future__ import annotations

from collections import Counter, defaultdict

from . import plots
from .html_report import table_html, write_html
from .stats import blocks


def progress_names(measures: list[dict]) -> list[str]:
    """Measurements taken of players with a value in several rounds (a position on a track, a score)."""
    rounds, valued, total = defaultdict(set), Counter(), Counter()
    for m in measures:
        total[m["name"]] += 1
        if m.get("player") is not None and m.get("value") is not None:
            valued[m["name"]] += 1
            rounds[m["name"]].add(m["round"])
    return sorted(n for n in total if valued[n] >= 0.8 * total[n] and len(rounds[n]) >= 2)


def category_field(measures: list[dict], name: str) -> str | None:
    """The text field that names what a measurement is of (a card, a calamity), if it has one."""
    fields = Counter(k for m in measures if m["name"] == name for k, v in m["fields"].items()
                     if k not in ("player", "value") and isinstance(v, str))
    return fields.most_common(1)[0][0] if fields else None


def all_figures(games: list[dict], players: list[dict], measures: list[dict]) -> dict:
    figs = {"win rate by seat": plots.win_rate_by_seat(players, games),
            "win rate by label": plots.win_rate_by_label(players, games),
            "game length": plots.game_length_histogram(games)}
    done = {g["seed"] for g in games if g.get("error_code") is None}
    measures = [m for m in measures if m["seed"] in done]
    for name in progress_names(measures):
        figs[f"{name} by round"] = plots.progress_curves(measures, name, players)
    for name in sorted({m["name"] for m in measures}):
        by = category_field(measures, name)
        if by is not None and any(m.get("value") is not None for m in measures if m["name"] == name):
            figs[f"{name} by {by}"] = plots.measure_bars(measures, name, by, "value", games)
    return {k: v for k, v in figs.items() if v is not None}


def write_figures(summary: dict, games: list[dict], players: list[dict], measures: list[dict],
                  html: str | None = None, plots_dir: str | None = None) -> None:
    figs = all_figures(games, players, measures)
    if plots_dir:
        plots.save_plots(figs, plots_dir)
    if html:
        run = summary.get("run", {})
        title = f"civdsl — {run.get('edition', 'results')} ({run.get('run_id', '')})"
        tables = [(b.title, table_html(b.headers, b.rows)) for b in blocks(summary)]
        write_html(html, title, figs, tables)
