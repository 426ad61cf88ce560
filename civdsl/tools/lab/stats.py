"""What a batch of seeded games says about a config: win rates with Wilson 95% intervals, first-seat
advantage, game length, margins, round-cap endings, the rules' measurements, and four Ludii-style
metrics. Pure functions over the row dicts of the package docstring; the result is plain JSON (lists,
dicts, str/int/float/bool/None: no tuples, sets or NaN), so `json.loads(json.dumps(s)) == s`.

Conventions, stated once:
- failed games (error_code not None) are counted in `counts` and excluded from everything else;
- a tie counts a win for every tied winner, so seat win rates can sum to more than 1; `wins.shared_games`
  says how often that happened;
- intervals are Wilson 95% score intervals (`intervals.wilson`); standard deviations are sample ones (n − 1).

Ludii-style metrics (as defined here, on completed games):
- balance: per player count n ≥ 2 with seat win rates w_1..w_n and mean m,
  balance_n = 1 − max_i |w_i − m| / ((n − 1)/n); (n − 1)/n is the largest possible deviation, so 1 means
  every seat wins equally often and 0 that one seat always wins and the others never (or the reverse).
  `balance` is the mean of balance_n weighted by games;
- decisiveness: share of games with exactly one winner;
- drawishness: share of games with no winner or with shared wins (= 1 − decisiveness);
- duration: mean game length in rounds.
"""
from __future__ import annotations

import statistics
from collections import Counter

from . import sample as S
from .intervals import wilson
from .tables import Block, interval, render_markdown, render_text


def _rate(wins: int, games: int) -> dict:
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else None,
            "low": low if games else None, "high": high if games else None}


def _describe(values: list[float]) -> dict:
    if not values:
        return {"games": 0, "mean": None, "median": None, "min": None, "max": None, "sd": None}
    return {"games": len(values), "mean": statistics.fmean(values), "median": float(statistics.median(values)),
            "min": min(values), "max": max(values), "sd": statistics.stdev(values) if len(values) > 1 else None}


def _field_stats(records: list[dict]) -> dict:
    """Every numeric field of the records (bools and non-finite numbers left out): records, mean, total."""
    values: dict[str, list[float]] = {}
    for r in records:
        for name, value in (r.get("fields") or {}).items():
            if S.is_number(value):
                values.setdefault(str(name), []).append(value)
    return {name: {"records": len(v), "mean": statistics.fmean(v), "total": sum(v)}
            for name, v in sorted(values.items())}


def _measurements(sample: S.Sample) -> dict:
    """Per measurement name: how often, in how many games, its numeric fields, by player label, by round.
    by_label.per_game divides by the games played under the label; by_round.per_game by the games that
    reached the round (a game of unknown length reaches every round)."""
    played: Counter = Counter(s.label for g in sample.games for s in g.seats.values() if s.label is not None)
    lengths = Counter(g.rounds for g in sample.games)

    def reached(r) -> int:
        return sum(c for n, c in lengths.items() if r is None or n is None or n >= r)

    names: dict[str, list[dict]] = {}
    for m in sample.measures:
        names.setdefault(str(m.get("name")), []).append(m)
    out = {}
    for name, records in sorted(names.items()):
        n_games = len(sample.games)
        in_games = len({(m.get("run_id"), m.get("seed")) for m in records})
        by_label: dict[str, list[dict]] = {}
        by_round: Counter = Counter()
        for m in records:
            label = S.label_of(sample, m)
            if label is not None:
                by_label.setdefault(label, []).append(m)
            by_round[m.get("round")] += 1
        labelled = sum(len(v) for v in by_label.values())
        out[name] = {
            "count": len(records), "games": in_games,
            "share_of_games": in_games / n_games if n_games else None,
            "mean_per_game": len(records) / n_games if n_games else None,
            "fields": _field_stats(records),
            "by_label": [{"label": label, "count": len(rs), "games": played[label],
                          "per_game": len(rs) / played[label] if played[label] else None,
                          "fields": _field_stats(rs)} for label, rs in sorted(by_label.items())],
            "unlabelled": len(records) - labelled,
            "by_round": [_per_round(r, c, reached(r)) for r, c in
                         sorted(by_round.items(), key=lambda rc: (rc[0] is not None, rc[0] or 0))],
        }
    return out


def _per_round(r, count: int, games: int) -> dict:
    return {"round": r, "count": count, "games": games, "per_game": count / games if games else None}


def _ludii(sample: S.Sample) -> dict:
    games = sample.games
    per_count: dict[int, list[S.Game]] = {}
    for g in games:
        per_count.setdefault(g.players, []).append(g)
    by_players = []
    for n, gs in sorted(per_count.items()):
        if n < 2:
            continue
        rates = [sum(g.seats[s].won for g in gs if s in g.seats) / max(1, sum(s in g.seats for g in gs))
                 for s in range(1, n + 1)]
        mean = sum(rates) / n
        by_players.append({"players": n, "games": len(gs),
                           "balance": 1.0 - max(abs(w - mean) for w in rates) / ((n - 1) / n)})
    weight = sum(b["games"] for b in by_players)
    single = sum(len(g.winners) == 1 for g in games)
    length = S.lengths(sample)
    return {"balance": sum(b["balance"] * b["games"] for b in by_players) / weight if weight else None,
            "balance_by_players": by_players,
            "decisiveness": single / len(games) if games else None,
            "drawishness": (len(games) - single) / len(games) if games else None,
            "duration": statistics.fmean(length) if length else None}


def summarize(games: list[dict], players: list[dict], measures: list[dict]) -> dict:
    """The summary of one batch: failed games counted, then left out; ties count a win for every tied
    winner (see the module docstring for all conventions and the Ludii-style formulas).
    Keys: counts, wins, first_seat, length, margin, end, measurements, ludii."""
    sample = S.gather(games, players, measures)
    done = sample.games
    length = S.lengths(sample)
    caps, n = S.round_caps(sample)
    margin = S.margins(sample)
    return {
        "counts": {"games": sample.total, "completed": len(done), "failed": sample.failed,
                   "errors": dict(sorted(sample.errors.items())), "editions": sample.editions,
                   "config_hashes": sample.config_hashes,
                   "player_counts": [{"players": p, "games": c}
                                     for p, c in sorted(Counter(g.players for g in done).items())]},
        "wins": {"shared_games": sum(len(g.winners) > 1 for g in done),
                 "no_winner_games": sum(not g.winners for g in done),
                 "by_seat": [{"seat": s, **_rate(w, c)} for s, (w, c) in S.seat_tallies(sample).items()],
                 "by_label": [{"label": x, **_rate(w, c)} for x, (w, c) in S.label_tallies(sample).items()]},
        "first_seat": [_first_seat(p, w, c) for p, (w, c) in S.first_seat_tallies(sample).items()],
        "length": {**_describe(length),
                   "histogram": [{"rounds": r, "games": c} for r, c in sorted(Counter(length).items())]},
        "margin": {k: _describe(margin)[k] for k in ("games", "mean", "median", "sd")},
        "end": {"round_cap": {"count": caps, **{k: v for k, v in _rate(caps, n).items() if k != "wins"}},
                "reasons": [{"reason": r, "games": c} for r, c in
                            sorted(Counter(str(g.end_reason) for g in done).items())]},
        "measurements": _measurements(sample),
        "ludii": _ludii(sample),
    }


def _first_seat(players: int, wins: int, games: int) -> dict:
    """Seat 1's win rate minus the fair share 1/players; the interval is seat 1's Wilson interval shifted."""
    fair = 1.0 / players if players else None
    r = _rate(wins, games)
    shifted = {k: None if r[k] is None or fair is None else r[k] - fair for k in ("rate", "low", "high")}
    return {"players": players, **r, "fair": fair, "advantage": shifted["rate"],
            "low": shifted["low"], "high": shifted["high"]}


def blocks(s: dict) -> list[Block]:
    c, w = s["counts"], s["wins"]
    notes = [f"{c['completed']} completed of {c['games']} games; {c['failed']} failed (excluded)"
             + (": " + ", ".join(f"{k} x{v}" for k, v in c["errors"].items()) if c["errors"] else ""),
             "editions: " + (", ".join(c["editions"]) or "-"),
             "configs: " + (", ".join(c["config_hashes"]) or "-")]
    blocks = [Block("Games", ["players", "games"], [[p["players"], p["games"]] for p in c["player_counts"]], notes)]
    tie_note = [f"a tie counts a win for every tied winner; shared wins in {w['shared_games']} games, "
                f"no winner in {w['no_winner_games']}"]
    head = ["games", "wins", "rate", "95% CI"]
    blocks.append(Block("Win rate by seat", ["seat"] + head, [[r["seat"], r["games"], r["wins"], r["rate"],
                        interval(r["low"], r["high"])] for r in w["by_seat"]], tie_note))
    if w["by_label"]:
        blocks.append(Block("Win rate by label", ["label"] + head, [[r["label"], r["games"], r["wins"], r["rate"],
                            interval(r["low"], r["high"])] for r in w["by_label"]]))
    blocks.append(Block("First-seat advantage", ["players", "games", "seat 1 rate", "fair", "advantage", "95% CI"],
                        [[r["players"], r["games"], r["rate"], r["fair"], r["advantage"],
                          interval(r["low"], r["high"])] for r in s["first_seat"]]))
    ln, mg, cap = s["length"], s["margin"], s["end"]["round_cap"]
    blocks.append(Block("Game length (rounds)", ["games", "mean", "median", "min", "max", "sd"],
                        [[ln[k] for k in ("games", "mean", "median", "min", "max", "sd")]]))
    blocks.append(Block("Length histogram", ["rounds", "games"], [[h["rounds"], h["games"]] for h in ln["histogram"]]))
    blocks.append(Block("Ending", ["reason", "games"], [[r["reason"], r["games"]] for r in s["end"]["reasons"]],
                        [f"round cap: {cap['count']} of {cap['games']} (rate {_f(cap['rate'])}, "
                         f"95% CI {interval(cap['low'], cap['high'])}); margin of victory (place 1 - place 2): "
                         f"mean {_f(mg['mean'])}, median {_f(mg['median'])} over {mg['games']} games"]))
    lu = s["ludii"]
    blocks.append(Block("Ludii-style metrics", ["metric", "value"],
                        [[k, lu[k]] for k in ("balance", "decisiveness", "drawishness", "duration")]))
    for name, m in s["measurements"].items():
        rows = [["(all)", m["count"], m["games"], m["mean_per_game"]]
                + [", ".join(f"{f} {_f(v['mean'])}/{_f(v['total'])}" for f, v in m["fields"].items()) or "-"]]
        rows += [[f"label {r['label']}", r["count"], r["games"], r["per_game"],
                  ", ".join(f"{f} {_f(v['mean'])}/{_f(v['total'])}" for f, v in r["fields"].items()) or "-"]
                 for r in m["by_label"]]
        rows += [[f"round {r['round']}", r["count"], r["games"], r["per_game"], ""] for r in m["by_round"]]
        blocks.append(Block(f"Measurement {name}", ["", "count", "games", "per game", "fields mean/total"], rows,
                            ["games: with the measurement (all), played under the label, reaching the round"]))
    return blocks


def _f(value) -> str:
    return "-" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def format_text(summary: dict) -> str:
    """Aligned plain-text tables of a summary."""
    return render_text(blocks(summary))


def format_markdown(summary: dict) -> str:
    """Markdown tables of a summary."""
    return render_markdown(blocks(summary))
