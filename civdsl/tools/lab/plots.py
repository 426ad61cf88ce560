"""Figures of the balance lab, drawn from plain row dicts (see the package docstring for their formats).

Every function builds a `matplotlib.figure.Figure` directly, never through pyplot, so drawing needs no
display, leaves matplotlib's global state alone and is safe in worker processes. A function returns None
when its rows hold nothing to draw, so callers can skip the figure instead of saving an empty frame.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from statistics import fmean, stdev

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from .intervals import Z95, wilson

WIDTH, HEIGHT, DPI = 7.0, 4.0, 110
BAR_COLOUR, FAIR_COLOUR, MEAN_COLOUR = "#4C72B0", "#C44E52", "#222222"
MAX_LABEL = 28  # characters of a name shown on an axis; longer names are cut with an ellipsis
MAX_BARS = 30  # categories drawn in a bar chart; more would be unreadable, the tables hold them all

Row = Mapping[str, object]
GameKey = tuple[object, object, object]


def _key(row: Row) -> GameKey:
    """A game is one seed of one config in one run."""
    return row.get("run_id"), row.get("config_hash"), row.get("seed")


def _text(value: object, limit: int = MAX_LABEL, head: float = 0.5) -> str:
    """A name from a rule file made safe to draw: cut to `limit` keeping `head` of it from the start and
    the rest from the end, and with `$` escaped, since matplotlib would otherwise read text between two
    dollars as mathtext and fail on what is not valid TeX."""
    text = " ".join(str(value).split())
    if len(text) > limit:
        keep = math.ceil((limit - 1) * head)
        text = text[:keep] + "…" + text[len(text) - (limit - 1 - keep):]
    return text.replace("$", r"\$")


def _texts(values: Sequence[object], limit: int = MAX_LABEL) -> list[str]:
    """Names cut as `_text` does, but still told apart: where cutting makes two alike, try other cuts,
    then number them."""
    for head in (0.5, 1.0, 0.0, 0.3, 0.7):
        names = [_text(v, limit, head) for v in values]
        if len(set(names)) == len(set(map(str, values))):
            return names
    return [f"{n} [{i + 1}]" for i, n in enumerate(names)]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _figure(width: float = WIDTH, height: float = HEIGHT) -> Figure:
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _finished(players: Iterable[Row], games: Iterable[Row] | None) -> list[Row]:
    """The player rows of games that ended: a failed game says nothing about balance."""
    if games is None:
        return list(players)
    done = {_key(g) for g in games if g.get("end_reason") is not None}
    return [p for p in players if _key(p) in done]


def _win_rates(players: list[Row], group) -> list[tuple[str, int, int, float]]:
    """(group, wins, games, fair share) per group, where the fair share is the mean of 1/players over
    the games the group played, so mixed player counts still get the right reference."""
    size: dict[GameKey, int] = defaultdict(int)
    for p in players:
        size[_key(p)] += 1
    wins: dict[object, int] = defaultdict(int)
    played: dict[object, int] = defaultdict(int)
    fair: dict[object, float] = defaultdict(float)
    for p in players:
        g = group(p)
        if g is None:
            continue
        played[g] += 1
        wins[g] += bool(p.get("winner"))
        fair[g] += 1 / size[_key(p)]
    return [(g, wins[g], played[g], fair[g] / played[g]) for g in played]


def _rate_bars(fig: Figure, rows: list[tuple[str, int, int, float]], names: list[str], horizontal: bool) -> None:
    """Bars of win rates with asymmetric Wilson intervals and the fair share drawn as dashes."""
    ax = fig.add_subplot()
    rates = [w / n for _, w, n, _ in rows]
    bounds = [wilson(w, n) for _, w, n, _ in rows]
    err = [[r - lo for r, (lo, _) in zip(rates, bounds)], [hi - r for r, (_, hi) in zip(rates, bounds)]]
    pos = list(range(len(rows)))
    fairs = [f for *_, f in rows]
    bar = ax.barh if horizontal else ax.bar
    bar(pos, rates, **{"xerr" if horizontal else "yerr": err}, color=BAR_COLOUR, capsize=3, label="win rate (95% CI)")
    same = max(fairs) - min(fairs) < 1e-9
    line = ax.axvline if horizontal else ax.axhline
    if same:
        line(fairs[0], color=FAIR_COLOUR, linestyle="--", label=f"fair share ({fairs[0]:.1%})")
    else:
        segs = ax.vlines if horizontal else ax.hlines
        segs(fairs, [p - 0.4 for p in pos], [p + 0.4 for p in pos], color=FAIR_COLOUR, linestyle="--",
             label="fair share (1/players)")
    top = min(1.0, max(max(hi for _, hi in bounds), max(fairs)) * 1.15 + 0.02)
    fmt = PercentFormatter(1.0, decimals=0)
    if horizontal:
        ax.set_yticks(pos, names)
        ax.invert_yaxis()  # best first, read from the top
        ax.set_xlim(0, top)
        ax.xaxis.set_major_formatter(fmt)
        ax.set_xlabel("win rate")
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.set_xticks(pos, names)
        ax.set_ylim(0, top)
        ax.yaxis.set_major_formatter(fmt)
        ax.set_ylabel("win rate")
        ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="lower right" if horizontal else "best", fontsize="small", framealpha=0.9)


def win_rate_by_seat(players: Iterable[Row], games: Iterable[Row] | None = None) -> Figure | None:
    """How often each seat wins, against its fair share: the first question about turn-order advantage.
    Pass `games` to leave out players of failed games."""
    rows = _finished(players, games)
    stats = sorted(_win_rates(rows, lambda p: p.get("seat")), key=lambda r: r[0])
    if not stats:
        return None
    fig = _figure()
    names = [f"seat {s}\nn={n}" for s, _, n, _ in stats]
    _rate_bars(fig, stats, names, horizontal=False)
    fig.axes[0].set_title("Win rate by seat")
    return fig


def win_rate_by_label(players: Iterable[Row], games: Iterable[Row] | None = None) -> Figure | None:
    """How often each nation/civilization wins, best first, against its fair share; None when the rules
    give players no labels. Horizontal bars, so long names stay readable."""
    rows = _finished(players, games)
    stats = _win_rates(rows, lambda p: p.get("label"))
    if not stats:
        return None
    stats.sort(key=lambda r: (-r[1] / r[2], str(r[0])))
    shown = stats[:MAX_BARS]
    fig = _figure(WIDTH, max(HEIGHT, 1.2 + 0.32 * len(shown)))
    names = _texts([lab for lab, *_ in shown])
    _rate_bars(fig, shown, [f"{lab} (n={r[2]})" for lab, r in zip(names, shown)], horizontal=True)
    more = f" (top {len(shown)} of {len(stats)})" if len(stats) > len(shown) else ""
    fig.axes[0].set_title("Win rate by label" + more)
    return fig


def game_length_histogram(games: Iterable[Row]) -> Figure | None:
    """How many rounds games last, stacked by how they ended (a pile at the round cap means games stall),
    with the mean marked."""
    by_reason: dict[str, list[int]] = defaultdict(list)
    for g in games:
        rounds = _number(g.get("rounds"))
        if rounds is not None and g.get("end_reason") is not None:
            by_reason[str(g["end_reason"])].append(int(rounds))
    values = [r for rs in by_reason.values() for r in rs]
    if not values:
        return None
    lo, hi = min(values), max(values)
    step = max(1, math.ceil((hi - lo + 1) / 40))
    bins = [lo - 0.5 + i * step for i in range((hi - lo) // step + 2)]
    fig = _figure()
    ax = fig.add_subplot()
    reasons = sorted(by_reason, key=lambda r: -len(by_reason[r]))
    ax.hist([by_reason[r] for r in reasons], bins=bins, stacked=True, edgecolor="white", linewidth=0.5,
            label=[f"{_text(r)} ({len(by_reason[r])})" for r in reasons])
    mean = fmean(values)
    ax.axvline(mean, color=MEAN_COLOUR, linestyle="--", label=f"mean {mean:.1f}")
    ax.set_title(f"Game length ({len(values)} games)")
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(fontsize="small", framealpha=0.9)
    return fig


def progress_curves(measures: Iterable[Row], name: str, players: Iterable[Row] = (),
                    min_share: float = 0.2) -> Figure | None:
    """The mean of a per-round measurement (a track position, a score) by round, one line per label, or
    per seat when players have no labels: shows who pulls ahead and when. A player measured twice in a
    round counts with its last value. A line stops once fewer than `min_share` of its games still reach
    the round, since the few long games left would make the tail swing."""
    label: dict[tuple[GameKey, object], object] = {}
    for p in players:
        label[(_key(p), p.get("player"))] = p.get("label")
    use_labels = any(v is not None for v in label.values())
    last: dict[tuple[object, GameKey, object, int], tuple[float, float]] = {}
    for m in measures:
        value, rnd = _number(m.get("value")), _number(m.get("round"))
        if m.get("name") != name or value is None or rnd is None or m.get("player") is None:
            continue
        who = m["player"]
        group = label.get((_key(m), who)) if use_labels else who
        if group is None:
            continue
        seq = _number(m.get("seq")) or 0.0
        k = (group, _key(m), who, int(rnd))
        if k not in last or seq >= last[k][0]:
            last[k] = (seq, value)
    if not last:
        return None
    series: dict[object, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    games: dict[object, set] = defaultdict(set)
    for (group, game, _, rnd), (_, value) in last.items():
        series[group][rnd].append(value)
        games[group].add(game)
    groups = sorted(series, key=_natural)
    fig = _figure(WIDTH + (1.6 if len(groups) > 8 else 0), HEIGHT)
    ax = fig.add_subplot()
    colours = _colours(len(groups))
    kept = {}
    for group in groups:
        need = max(1, math.ceil(min_share * len(games[group])))
        kept[group] = sorted(r for r, vs in series[group].items() if len(vs) >= need)
    marker = "o" if max(len(rs) for rs in kept.values()) <= 15 else None  # dots only while they stay apart
    for i, (group, text) in enumerate(zip(groups, _texts(groups))):
        rounds = kept[group]
        ax.plot(rounds, [fmean(series[group][r]) for r in rounds], color=colours[i], linewidth=1.6,
                linestyle=("-", "--", ":")[i // 10 % 3], marker=marker, markersize=3, label=text)
    total = len(set().union(*games.values()))
    ax.set_title(f"{_text(name, 40)}: mean by round ({total} games)")
    ax.set_xlabel("round")
    ax.set_ylabel(f"{_text(name, 40)} (mean over games)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    if len(groups) > 8:
        fig.legend(loc="outside right upper", fontsize="small", ncols=1 if len(groups) <= 20 else 2)
    else:
        ax.legend(fontsize="small", framealpha=0.9)
    return fig


def measure_bars(measures: Iterable[Row], name: str, by_field: str, value_field: str = "value",
                 games: Iterable[Row] | None = None) -> Figure | None:
    """A measurement's numeric `value_field` totalled per game and averaged over games, split by the
    record's `by_field` (e.g. the mean loss a game suffers from each calamity), with a 95% interval of
    that mean. Games where a category never happens count as zero; the games counted are the finished
    ones of `games` when given (a failed game's records stop midway), else every game measured at all."""
    totals: dict[object, dict[GameKey, float]] = defaultdict(lambda: defaultdict(float))
    records: dict[object, int] = defaultdict(int)
    done = {_key(g) for g in games if g.get("end_reason") is not None} if games is not None else None
    seen: set[GameKey] = set()
    for m in measures:
        if done is not None and _key(m) not in done:
            continue
        seen.add(_key(m))
        if m.get("name") != name:
            continue
        fields = m.get("fields") if isinstance(m.get("fields"), Mapping) else {}
        value = _number(m.get("value") if value_field == "value" else fields.get(value_field))
        category = fields.get(by_field, m.get(by_field) if by_field in ("round", "player") else None)
        if value is None or category is None:
            continue
        totals[category][_key(m)] += value
        records[category] += 1
    if not totals:
        return None
    keys = done if done is not None else seen
    stats = []
    for category, per_game in totals.items():
        values = [per_game.get(k, 0.0) for k in keys] if keys else list(per_game.values())
        mean = fmean(values)
        half = Z95 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        stats.append((category, mean, half, min(values) >= 0))
    stats.sort(key=lambda s: (-s[1], str(s[0])))
    shown = stats[:MAX_BARS]
    fig = _figure(WIDTH, max(HEIGHT, 1.2 + 0.32 * len(shown)))
    ax = fig.add_subplot()
    pos = list(range(len(shown)))
    # a normal interval can dip below zero on few games; totals of non-negative values cannot, so clip it there
    low = [min(s[2], s[1]) if s[3] else s[2] for s in shown]
    ax.barh(pos, [s[1] for s in shown], xerr=[low, [s[2] for s in shown]], color=BAR_COLOUR, capsize=3)
    ax.set_yticks(pos, [f"{c} ({records[k]}×)" for c, (k, *_) in zip(_texts([s[0] for s in shown]), shown)])
    ax.invert_yaxis()
    more = f", top {len(shown)} of {len(stats)}" if len(stats) > len(shown) else ""
    # (the figure's title, not the axes': long category names push the axes right, and a centred
    # axes title would run off the figure)
    fig.suptitle(f"{_text(name, 30)}: mean {_text(value_field, 20)} per game by {_text(by_field, 20)}")
    ax.set_xlabel(f"mean {_text(value_field, 30)} per game, 95% CI ({len(keys)} games{more})")
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    if all(s[3] for s in shown):
        ax.set_xlim(left=0)
    return fig


def save_plots(figures: Mapping[str, Figure | None], folder: str | Path,
               formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write each figure once per format under a file name made safe from its key (figure names may
    carry measurement names from rule files); skips None figures and returns the paths written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    used: set[str] = set()
    for key, fig in figures.items():
        if fig is None:
            continue
        stem = safe_name(key)
        base, i = stem, 2
        while stem.lower() in used:
            stem, i = f"{base}-{i}", i + 1
        used.add(stem.lower())
        for fmt in formats:
            path = out / f"{stem}.{fmt}"
            fig.savefig(path, format=fmt, dpi=DPI)
            written.append(path)
    return written


def safe_name(key: str) -> str:
    """A file stem of letters, digits, `-` and `_` only: no separators, no dot files."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", str(key)).strip("_-")[:80]
    return stem or "figure"


def _natural(value: object) -> tuple:
    """Sort P2 before P10 and labels alphabetically."""
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t.lower()) for t in re.split(r"(\d+)", str(value)) if t)


def _colours(n: int) -> list:
    from matplotlib import colormaps
    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]
