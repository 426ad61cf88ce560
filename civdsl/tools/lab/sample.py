"""Rows (see the package docstring) gathered into completed games, so `stats` and `compare` read the same
facts: who sat where, who won, how long it took, the margin, and the measurements of games that finished.

A game is known by (run_id, seed); its players and measurements are matched on the same pair (and a
measurement's player on (run_id, seed, player)). Failed games (error_code not None) are counted and
then left out, with their players and measurements, so a crash never reads as a result.
"""
from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Seat:
    player: str
    label: str | None
    won: bool


@dataclass
class Game:
    key: tuple
    players: int
    rounds: int | None
    end_reason: str | None
    winners: list[str]
    seats: dict[int, Seat]
    margin: float | None


@dataclass
class Sample:
    total: int = 0
    errors: Counter = field(default_factory=Counter)
    editions: list[str] = field(default_factory=list)
    config_hashes: list[str] = field(default_factory=list)
    seeds: set = field(default_factory=set)
    games: list[Game] = field(default_factory=list)
    measures: list[dict] = field(default_factory=list)
    labels: dict[tuple, str] = field(default_factory=dict)  # (run_id, seed, player) -> label

    @property
    def failed(self) -> int:
        return sum(self.errors.values())


def _decoded(value):
    """A list or dict column may come back from a database as JSON text."""
    if isinstance(value, str | bytes):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _winners(game: dict, rows: list[dict]) -> list[str]:
    """The game row's winners list; when it is missing, the players flagged winner."""
    winners = _decoded(game.get("winners"))
    if winners is None:
        return [str(r.get("player")) for r in rows if r.get("winner")]
    if isinstance(winners, str):
        return [winners]
    return [str(w) for w in winners]


def _margin(rows: list[dict]) -> float | None:
    """Score of place 1 minus score of place 2 (by place, then score): negative when the winner won on
    something other than score; None without two scores."""
    scored = [r for r in rows if is_number(r.get("score"))]
    if len(scored) < 2:
        return None
    scored.sort(key=lambda r: (r.get("place") if r.get("place") is not None else math.inf, -r["score"]))
    return float(scored[0]["score"] - scored[1]["score"])


def is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def gather(games: list[dict], players: list[dict], measures: list[dict]) -> Sample:
    """Group the three row lists into a `Sample`. A completed game without player rows gets seats from its
    player count, seat i holding player "P<i>" (the runner's naming), so games rows alone suffice."""
    sample = Sample(total=len(games))
    by_game: dict[tuple, list[dict]] = {}
    for row in players:
        by_game.setdefault((row.get("run_id"), row.get("seed")), []).append(row)
    sample.editions = sorted({str(g["edition"]) for g in games if g.get("edition") is not None})
    sample.config_hashes = sorted({str(g["config_hash"]) for g in games if g.get("config_hash") is not None})
    sample.seeds = {g.get("seed") for g in games}
    done: set[tuple] = set()
    for g in games:
        if g.get("error_code") is not None:
            sample.errors[str(g["error_code"])] += 1
            continue
        key = (g.get("run_id"), g.get("seed"))
        rows = sorted(by_game.get(key, []), key=lambda r: r.get("seat") or 0)
        winners = _winners(g, rows)
        if not rows:
            count = int(g.get("players") or 0)
            rows = [{"seat": i, "player": f"P{i}", "label": None} for i in range(1, count + 1)]
        seats = {int(r["seat"]): Seat(str(r.get("player")), r.get("label"), str(r.get("player")) in winners)
                 for r in rows if r.get("seat") is not None}
        for r in rows:
            if r.get("label") is not None:
                sample.labels[(key[0], key[1], str(r.get("player")))] = str(r["label"])
        rounds = g.get("rounds")
        sample.games.append(Game(key, int(g.get("players") or len(seats)), int(rounds) if rounds is not None else None,
                                 g.get("end_reason"), winners, seats, _margin(rows)))
        done.add(key)
    sample.measures = [dict(m, fields=_decoded(m.get("fields")) or {}) for m in measures
                       if (m.get("run_id"), m.get("seed")) in done]
    return sample


def label_of(sample: Sample, measure: dict) -> str | None:
    """The label of the measurement's player in its game, or None."""
    if measure.get("player") is None:
        return None
    return sample.labels.get((measure.get("run_id"), measure.get("seed"), str(measure["player"])))


def _tally(pairs) -> dict:
    """key -> (wins, games) from (key, won) pairs, sorted by key."""
    out: dict = {}
    for key, won in pairs:
        t = out.setdefault(key, [0, 0])
        t[0] += won
        t[1] += 1
    return {k: (w, n) for k, (w, n) in sorted(out.items())}


def seat_tallies(sample: Sample) -> dict[int, tuple[int, int]]:
    """seat -> (wins, games in which the seat was taken); a tie is a win for every tied winner."""
    return _tally((seat, s.won) for g in sample.games for seat, s in g.seats.items())


def label_tallies(sample: Sample) -> dict[str, tuple[int, int]]:
    """label -> (wins, games played under it)."""
    return _tally((str(s.label), s.won) for g in sample.games for s in g.seats.values() if s.label is not None)


def first_seat_tallies(sample: Sample) -> dict[int, tuple[int, int]]:
    """player count -> (seat-1 wins, games)."""
    return _tally((g.players, g.seats[1].won) for g in sample.games if 1 in g.seats)


def lengths(sample: Sample) -> list[int]:
    return [g.rounds for g in sample.games if g.rounds is not None]


def margins(sample: Sample) -> list[float]:
    return [g.margin for g in sample.games if g.margin is not None]


def round_caps(sample: Sample) -> tuple[int, int]:
    """(games ended by the round cap, completed games)."""
    return sum(g.end_reason == "round cap" for g in sample.games), len(sample.games)


def measure_counts(sample: Sample) -> dict[str, list[int]]:
    """name -> records per completed game, zeros included, in the order of `sample.games`."""
    index = {g.key: i for i, g in enumerate(sample.games)}
    out: dict[str, list[int]] = {}
    for m in sample.measures:
        counts = out.setdefault(str(m.get("name")), [0] * len(sample.games))
        counts[index[(m.get("run_id"), m.get("seed"))]] += 1
    return dict(sorted(out.items()))


def measure_totals(sample: Sample) -> dict[str, list[float]]:
    """name -> the sum of the records' numeric `value` per completed game (0 for a game without any), for
    the measurements that carry one: what a calamity cost a game, not only how often it struck."""
    index = {g.key: i for i, g in enumerate(sample.games)}
    out: dict[str, list[float]] = {}
    for m in sample.measures:
        if is_number(m.get("value")):
            totals = out.setdefault(str(m.get("name")), [0.0] * len(sample.games))
            totals[index[(m.get("run_id"), m.get("seed"))]] += float(m["value"])
    return dict(sorted(out.items()))
