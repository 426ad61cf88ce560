"""Two batches of games side by side, typically the same seeds under an edition (A) and under the edition
plus a house rule (B): for every metric, A, B, the difference B − A with its 95% interval, a p-value, and
whether the difference survives the Holm–Bonferroni correction over all the metrics compared.

Tests (also stated in the result's "tests"):
- proportions (win rate per seat and per label, round-cap share, first-seat advantage): the pooled
  two-proportion z test, with Newcombe's hybrid-score interval for the difference;
- means (game length, margin of victory, each measurement's records per game): Welch's t test with the
  exact t distribution (no normal approximation, whatever the sample sizes);
- both treat the sides as independent samples, even when the seeds are the same ("paired": true): with
  positively correlated pairs this only makes the tests conservative.
Failed games are left out on both sides, as in `stats`.
"""
from __future__ import annotations

from . import sample as S
from . import tests_stat as T
from .tables import Block, interval, render_markdown, render_text

ALPHA = 0.05


def _side(rows) -> S.Sample:
    if isinstance(rows, dict):
        return S.gather(rows.get("games", []), rows.get("players", []), rows.get("measures", []))
    games, players, measures = rows
    return S.gather(games, players, measures)


def _proportion(metric: str, group: str, a: tuple[int, int], b: tuple[int, int], offset: float = 0.0) -> dict:
    """A proportion row: a and b are (successes, trials); offset shifts the shown values (the fair share)."""
    (x_a, n_a), (x_b, n_b) = a, b
    r = T.two_proportions(x_a, n_a, x_b, n_b)
    return {"metric": metric, "group": group, "kind": "proportion", "test": "two-proportion z",
            "a": x_a / n_a - offset if n_a else None, "b": x_b / n_b - offset if n_b else None,
            "n_a": n_a, "n_b": n_b, "diff": r["diff"], "low": r["low"], "high": r["high"], "p": r["p"]}


def _mean(metric: str, group: str, a: list[float], b: list[float]) -> dict:
    r = T.welch(a, b)
    return {"metric": metric, "group": group, "kind": "mean", "test": "Welch t",
            "a": sum(a) / len(a) if a else None, "b": sum(b) / len(b) if b else None,
            "n_a": len(a), "n_b": len(b), "diff": r["diff"], "low": r["low"], "high": r["high"], "p": r["p"],
            "df": r["df"]}


def _metrics(a: S.Sample, b: S.Sample) -> list[dict]:
    rows: list[dict] = []
    for table, metric, name in ((S.seat_tallies, "win rate", "seat {}"), (S.label_tallies, "win rate", "label {}")):
        ta, tb = table(a), table(b)
        for key in sorted(set(ta) | set(tb), key=str):
            rows.append(_proportion(metric, name.format(key), ta.get(key, (0, 0)), tb.get(key, (0, 0))))
    fa, fb = S.first_seat_tallies(a), S.first_seat_tallies(b)
    for n in sorted(set(fa) | set(fb)):
        rows.append(_proportion("first-seat advantage", f"{n} players", fa.get(n, (0, 0)), fb.get(n, (0, 0)),
                                offset=1.0 / n if n else 0.0))
    rows.append(_proportion("round-cap share", "all", S.round_caps(a), S.round_caps(b)))
    rows.append(_mean("mean length (rounds)", "all", S.lengths(a), S.lengths(b)))
    rows.append(_mean("mean margin", "all", S.margins(a), S.margins(b)))
    ma, mb = S.measure_counts(a), S.measure_counts(b)
    for name in sorted(set(ma) | set(mb)):
        rows.append(_mean("measurement per game", name, ma.get(name, [0] * len(a.games)),
                          mb.get(name, [0] * len(b.games))))
    va, vb = S.measure_totals(a), S.measure_totals(b)
    for name in sorted(set(va) | set(vb)):
        rows.append(_mean("measurement value per game", name, va.get(name, [0.0] * len(a.games)),
                          vb.get(name, [0.0] * len(b.games))))
    return rows


def compare(a, b, labels: tuple[str, str] = ("A", "B"), allow_mixed: bool = False, alpha: float = ALPHA) -> dict:
    """Compare two batches, each given as (games, players, measures) row lists (or a dict with those keys).

    Raises ValueError when the sides' editions differ, unless allow_mixed. Result keys: labels, editions,
    mixed_editions, paired (same seed sets), games, failed, alpha, tests, metrics (one dict per metric:
    metric, group, kind, test, a, b, n_a, n_b, diff = b − a, low/high = its 95% interval, p, p_holm,
    significant). Metrics without a p-value (a side without data) are listed but not counted by Holm."""
    side_a, side_b = _side(a), _side(b)
    if side_a.editions != side_b.editions and not allow_mixed:
        raise ValueError(f"cannot compare different editions: {labels[0]} has {', '.join(side_a.editions) or 'none'}, "
                         f"{labels[1]} has {', '.join(side_b.editions) or 'none'}; pass allow_mixed=True to "
                         "compare them anyway")
    metrics = _metrics(side_a, side_b)
    adjusted, significant = T.holm([m["p"] for m in metrics], alpha)
    for m, q, s in zip(metrics, adjusted, significant):
        m["p_holm"], m["significant"] = q, s
    tested = sum(m["p"] is not None for m in metrics)
    return {
        "labels": list(labels),
        "editions": {labels[0]: side_a.editions, labels[1]: side_b.editions},
        "mixed_editions": side_a.editions != side_b.editions,
        "paired": bool(side_a.seeds) and side_a.seeds == side_b.seeds,
        "games": {labels[0]: len(side_a.games), labels[1]: len(side_b.games)},
        "failed": {labels[0]: side_a.failed, labels[1]: side_b.failed},
        "alpha": alpha,
        "tests": {"proportion": T.PROPORTION_TEST, "proportion_interval": T.PROPORTION_INTERVAL,
                  "mean": T.MEAN_TEST, "correction": f"{T.CORRECTION} ({tested} metrics, alpha {alpha})",
                  "independence": "each side is treated as an independent sample, even with the same seeds"},
        "metrics": metrics,
    }


def _blocks(c: dict) -> list[Block]:
    la, lb = c["labels"]
    notes = [f"{la}: {c['games'][la]} games ({c['failed'][la]} failed, excluded), editions "
             f"{', '.join(c['editions'][la]) or '-'}",
             f"{lb}: {c['games'][lb]} games ({c['failed'][lb]} failed, excluded), editions "
             f"{', '.join(c['editions'][lb]) or '-'}",
             "same seeds on both sides (paired)" if c["paired"] else "the seeds differ (not paired)"]
    if c["mixed_editions"]:
        notes.append("warning: the sides come from different editions")
    rows = [[m["metric"], m["group"], m["a"], m["b"], m["diff"], interval(m["low"], m["high"]),
             _p(m["p"]), _p(m["p_holm"]), "yes" if m["significant"] else ""] for m in c["metrics"]]
    tests = [f"{k}: {v}" for k, v in c["tests"].items()]
    return [Block(f"{la} vs {lb}", [], [], notes),
            Block("Metrics", ["metric", "group", la, lb, f"{lb}-{la}", "95% CI", "p", "p (Holm)", "significant"],
                  rows),
            Block("Tests", [], [], tests)]


def _p(p) -> str:
    if p is None:
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def format_text(comparison: dict) -> str:
    """Aligned plain-text tables of a comparison."""
    return render_text(_blocks(comparison))


def format_markdown(comparison: dict) -> str:
    """Markdown tables of a comparison."""
    return render_markdown(_blocks(comparison))
